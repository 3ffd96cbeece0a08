// The range of a changelog read (`t CHANGES FROM ... TO ...`) and what the commits in it must
// hold (changelog_range.cc).
//
// The range, as delta-spark resolves it: versions as given (a missing end is the latest); a
// timestamp bound is the latest commit at or before it (a start after the latest commit, or any
// bound before the first, fails); then an exclusive start moves up one version and an exclusive
// end down one.
#pragma once

#include <cstdint>
#include <utility>

#include "connectors/delta/log/delta_log.h"
#include "connectors/delta/table_state.h"
#include "parley/connector/changelog.h"
#include "parley/connector/status.h"

namespace parley::delta {

/// \brief The [start, end] versions of `range` over `table` (its latest state). Errors:
/// DELTA_CHANGELOG_UNBOUNDED_RANGE, DELTA_INVALID_CDC_RANGE (end before start or not a version),
/// DELTA_CDC_START_VERSION_AFTER_LATEST, DELTA_VERSION_NOT_FOUND (end after the latest),
/// DELTA_TIMESTAMP_EARLIER_THAN_COMMIT_RETENTION / DELTA_TIMESTAMP_GREATER_THAN_COMMIT.
Result<std::pair<int64_t, int64_t>> ResolveChangelogRange(const TableState& table,
                                                          const ChangelogRange& range);

/// \brief DELTA_CHANGELOG_REQUIRES_ROW_TRACKING unless `table` (the range's end version) has row
/// tracking enabled.
Status CheckChangelogEnd(const TableState& table);

/// \brief The check of the metadata in force at the range's start, or of one a commit of the
/// range sets (`version`): DELTA_CHANGELOG_SCHEMA_CHANGE_IN_RANGE when `end`'s schema cannot read
/// data written under it, DELTA_CHANGELOG_ROW_TRACKING_DISABLED_IN_RANGE when it has row
/// tracking off.
Status CheckChangelogMetadata(const Metadata& metadata, const TableState& end, int64_t version);

}  // namespace parley::delta
