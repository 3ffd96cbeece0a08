// The scan builder of one read, and of a row-level operation's read, which records what it
// chose (delta_scan.cc).
#pragma once

#include <memory>
#include <vector>

#include "arrow/type_fwd.h"
#include "connectors/delta/log/delta_log.h"
#include "connectors/delta/table_state.h"
#include "parley/connector/expressions.h"
#include "parley/connector/read.h"
#include "parley/connector/status.h"

namespace parley::delta {

/// \brief The scan builder of one read of `table`.
std::unique_ptr<ScanBuilder> MakeDeltaScanBuilder(std::shared_ptr<const TableState> table);

/// \brief What a row-level operation's scan read: the data files it chose (from the
/// operation's snapshot) and the pushed predicates that chose them. Filled at ScanBuilder::Build.
struct RowLevelScanRecord {
  std::vector<FileAction> files;
  std::vector<PredicatePtr> partition_filters;
  std::vector<PredicatePtr> data_filters;
};

/// \brief The scan builder of a Delta read; when `record` is given, Build() stores there the
/// files it reads and the predicates that chose them.
std::unique_ptr<ScanBuilder> MakeDeltaScanBuilder(std::shared_ptr<const TableState> table,
                                                  std::shared_ptr<RowLevelScanRecord> record);

}  // namespace parley::delta
