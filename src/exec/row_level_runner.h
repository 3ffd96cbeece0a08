// Runs a bound DELETE, UPDATE or MERGE (plan/row_level_plan.h).
//
// A DELETE whose every conjunct translates and that SupportsDeleteV2::CanDeleteWhere accepts is
// a metadata-only DeleteWhere. Otherwise the table's RowLevelOperation is built; its scan is
// offered the plan's group filter (an empty filter reads every group, and is only empty when
// the statement has no condition on the target) and then returns whole groups, so no other
// pushdown reaches it. The query computes every row of those groups with its action; the runner
// counts the actions, enforces MERGE's cardinality rule, and writes the kept, updated and
// inserted rows through the operation's write, whose commit replaces the groups it read; when
// the operation RequiresChangeRows(), the write also receives the deleted rows and the
// pre-images of the updated ones. When nothing changes, nothing is written. Any failure before the commit leaves the table as it was.
#pragma once

#include <cstdint>

#include "exec/write_runner.h"
#include "plan/row_level_plan.h"

namespace parley {

/// \brief What a row-level statement did.
struct RowLevelResult {
  int64_t updated = 0;
  int64_t deleted = 0;
  int64_t inserted = 0;
  /// Whether the delete ran through SupportsDeleteV2 (no rows were read or written).
  bool metadata_only = false;
  WriteJobResult write;
};

/// \brief Run `plan`. Errors: MERGE_CARDINALITY_VIOLATION when a target row matches several
/// source rows and a MATCHED clause applies; UNSUPPORTED_FEATURE.TABLE_OPERATION when the table
/// refuses a filter delete and has no row-level operations, or offers only the delta-based
/// representation; NOT_NULL_ASSERT_VIOLATION; and whatever the connector's scan, write or
/// commit reports (e.g. a concurrent change of the groups read).
Result<RowLevelResult> RunRowLevel(RowLevelPlan* plan, const WriteRunOptions& options);

}  // namespace parley
