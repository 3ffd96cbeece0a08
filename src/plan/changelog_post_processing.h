// ChangelogPostProcessing: which passes a change read runs over a changelog's raw rows
// (carry-over removal, update detection, net changes) and what they read. The plan carries it
// in its changelog pass node; src/cdc decides it when the changelog is checked and runs it.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "parley/connector/changelog.h"

namespace parley {

/// \brief What the post-processing of one change read does, and the inputs it needs.
struct ChangelogPostProcessing {
  std::string changelog_name;
  ChangelogInfo info;
  bool contains_carryover_rows = false;
  bool contains_intermediate_changes = false;
  bool represents_update_as_delete_and_insert = false;
  /// The row identity columns as paths (`payload.id` is {"payload", "id"}); empty when no
  /// flag is set.
  std::vector<std::vector<std::string>> row_id;
  /// The row version column as a path; empty when not needed.
  std::vector<std::string> row_version;

  bool carryover_removal = false;
  bool update_detection = false;
  bool net_changes = false;

  /// \brief Whether any pass runs.
  bool any() const { return carryover_removal || update_detection || net_changes; }
  /// \brief The fused row-level stage runs (carry-over removal and/or update detection).
  bool row_level() const { return carryover_removal || update_detection; }
  /// \brief For EXPLAIN: each pass of the row-level stage with the flag and option that call
  /// for it, e.g. "carry-over removal (containsCarryoverRows=true,
  /// deduplicationMode=dropCarryovers)".
  std::vector<std::string> RowLevelReasons() const;
  /// \brief For EXPLAIN: why net changes run.
  std::string NetChangesReason() const;
  /// \brief For EXPLAIN: why nothing runs, when no pass does.
  std::string NoPassReason() const;
  /// \brief The top-level columns the passes read (row identity, row version, change type,
  /// commit version), which column pruning must keep.
  std::set<std::string> ColumnsRead() const;
};

}  // namespace parley
