// ChangelogTable: a connector's Changelog, checked at analysis and wrapped as a readable Table so
// that its raw rows go through the ordinary scan path (pushdown negotiation, tasks), plus the
// decision of which post-processing passes the read needs and why.
//
// Checks, in this order, when the table is made (they depend on the connector only, then on the
// options):
//   1-3. `_change_type` STRING, `_commit_version` BIGINT or STRING, `_commit_timestamp`
//        TIMESTAMP: INVALID_CHANGELOG_SCHEMA.MISSING_COLUMN / .INVALID_COLUMN_TYPE;
//   4.   when any flag is set, RowId() must name at least one column:
//        INVALID_CHANGELOG_SCHEMA.MISSING_ROW_ID (a connector that does not define it fails
//        with its own NotImplemented error);
//   5.   when carry-overs or delete+insert updates are possible, RowVersion() is read;
//   6.   update detection on a source with carry-overs needs carry-over removal:
//        INVALID_CDC_OPTION.UPDATE_DETECTION_REQUIRES_CARRY_OVER_REMOVAL.
// Passes (mode M, computeUpdates CU, flags CO / IC / UD):
//   carry-over removal  M != none and CO
//   update detection    CU and UD
//   net changes         M == netChanges and IC
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cdc/change_options.h"
#include "parley/connector/changelog.h"
#include "parley/connector/table.h"
#include "plan/changelog_post_processing.h"

namespace parley {

/// \brief A changelog wrapped as a Table with BATCH_READ and MICRO_BATCH_READ. Its scans are the
/// connector's, with the read's options.
class ChangelogTable : public Table, public SupportsRead {
 public:
  /// \brief Check `changelog` and decide the passes (see the file comment for the errors).
  static Result<std::shared_ptr<ChangelogTable>> Make(std::shared_ptr<Changelog> changelog,
                                                      ChangeRequest request);

  std::string name() const override { return changelog_->name(); }
  std::vector<Column> columns() const override { return columns_; }
  std::set<TableCapability> capabilities() const override;
  /// \brief The connector's scan builder, given the read's options (plus `options`).
  Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options& options) override;

  const ChangelogPostProcessing& post_processing() const { return post_processing_; }

 private:
  ChangelogTable(std::shared_ptr<Changelog> changelog, ChangeRequest request,
                 std::vector<Column> columns, ChangelogPostProcessing post_processing);

  std::shared_ptr<Changelog> changelog_;
  ChangeRequest request_;
  std::vector<Column> columns_;
  ChangelogPostProcessing post_processing_;
};

}  // namespace parley
