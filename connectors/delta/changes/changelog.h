// Change reads: the Change Data Feed of a range of versions (delta_change_feed.cc) and the
// row-tracking changelog of CHANGES (delta_changelog.cc), as Changelogs.
#pragma once

#include <memory>

#include "arrow/type_fwd.h"
#include "connectors/delta/table_state.h"
#include "parley/connector/changelog.h"
#include "parley/connector/status.h"

namespace parley::delta {

/// \brief The change data feed of `table` (its latest state) over info.range, as a Changelog
/// whose rows are what `table_changes` returns. See delta_change_feed.cc for the errors.
Result<std::shared_ptr<Changelog>> MakeDeltaChangeFeed(std::shared_ptr<const TableState> table,
                                                       const ChangelogInfo& info);

// ---- Changelog reads (delta_changelog.cc)

/// \brief The changelog of `table` (its latest state) over info.range, built from the commits'
/// adds and removes and the rows' row ids, as `t CHANGES FROM ...` reads it. The table must have
/// row tracking enabled through the range; see delta_changelog.cc for the errors.
Result<std::shared_ptr<Changelog>> MakeDeltaChangelog(std::shared_ptr<const TableState> table,
                                                      const ChangelogInfo& info);

}  // namespace parley::delta
