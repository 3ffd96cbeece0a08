// Runs a bound DELETE, UPDATE or MERGE (plan/row_level_plan.h).
//
// A DELETE whose every conjunct translates and that SupportsDeleteV2::CanDeleteWhere accepts is
// a metadata-only DeleteWhere. Otherwise the table's RowLevelOperation is built; its scan is
// offered the plan's group filter (an empty filter reads every group, and is only empty when
// the statement has no condition on the target) and then returns whole groups, so no other
// pushdown reaches it. The query computes every row of those groups with its action and its
// batches stream into the operation's write as they are produced: the runner counts the
// actions, enforces MERGE's cardinality rule, and hands the write tasks the kept, updated and
// inserted rows of each batch, no batch gathered or copied whole (MERGE holds back only the
// pairs no clause applied to, until it knows which one stands for its target row); when the
// operation RequiresChangeRows(), the write also receives the deleted rows and the pre-images
// of the updated ones. The commit (BatchWrite::CommitRowLevel, with the counts) replaces the
// groups read; when nothing changed, the write is aborted instead. Any failure, in the query
// or the write, aborts the write: the table stays as it was and the files written go.
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
