// ChangelogPostProcessing: the EXPLAIN text of each pass and the columns the passes read.
#include "plan/changelog_post_processing.h"

#include <fmt/format.h>

namespace parley {
namespace {

std::string Flag(const char* name, bool value) {
  return fmt::format("{}={}", name, value ? "true" : "false");
}

}  // namespace

std::vector<std::string> ChangelogPostProcessing::RowLevelReasons() const {
  std::vector<std::string> reasons;
  if (carryover_removal) {
    reasons.push_back(fmt::format("carry-over removal ({}, deduplicationMode={})",
                                  Flag("containsCarryoverRows", contains_carryover_rows),
                                  DeduplicationModeName(info.deduplication_mode)));
  }
  if (update_detection) {
    reasons.push_back(fmt::format(
        "update detection ({}, computeUpdates=true)",
        Flag("representsUpdateAsDeleteAndInsert", represents_update_as_delete_and_insert)));
  }
  return reasons;
}

std::string ChangelogPostProcessing::NetChangesReason() const {
  return fmt::format("net changes ({}, deduplicationMode=netChanges, computeUpdates={})",
                     Flag("containsIntermediateChanges", contains_intermediate_changes),
                     info.compute_updates ? "true" : "false");
}

std::string ChangelogPostProcessing::NoPassReason() const {
  return fmt::format(
      "none ({}, {}, {}, deduplicationMode={}, computeUpdates={})",
      Flag("containsCarryoverRows", contains_carryover_rows),
      Flag("containsIntermediateChanges", contains_intermediate_changes),
      Flag("representsUpdateAsDeleteAndInsert", represents_update_as_delete_and_insert),
      DeduplicationModeName(info.deduplication_mode), info.compute_updates ? "true" : "false");
}

std::set<std::string> ChangelogPostProcessing::ColumnsRead() const {
  std::set<std::string> columns;
  if (!any()) return columns;
  columns.insert(kChangeTypeColumn);
  columns.insert(kCommitVersionColumn);
  for (const auto& path : row_id) columns.insert(path.front());
  if (carryover_removal && !row_version.empty()) columns.insert(row_version.front());
  return columns;
}

}  // namespace parley
