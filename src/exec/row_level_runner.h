// Runs a bound DELETE, UPDATE or MERGE (plan/row_level_plan.h).
//
// A DELETE without a subquery whose every conjunct translates and that
// SupportsDeleteV2::CanDeleteWhere accepts is a metadata-only DeleteWhere. Otherwise the
// table's RowLevelOperation is built; its scan is offered the plan's group filter (an empty
// filter reads every group, and is only empty when the statement has no condition on the
// target without a subquery) and no other pushdown. Group-based, it returns
// whole groups; delta-based, it may return only the rows that can change. The query computes
// every row it reads with its action and its batches stream into the operation's write as
// they are produced: the runner counts the actions, enforces MERGE's cardinality rule, and
// hands the write tasks the rows of each batch the write receives, no batch gathered or copied
// whole.
// - Group-based: the kept, updated and inserted rows (MERGE holds back only the pairs no
//   clause applied to, until it knows which one stands for its target row); when the operation
//   RequiresChangeRows(), also the deleted rows and the pre-images of the updated ones. The
//   commit replaces the groups read.
// - Delta-based: the updated, deleted and inserted rows, never a copy, each task's writer
//   turning them into DeltaWriter calls (exec/merge_on_read_writer.h). The commit applies them.
// The commit is BatchWrite::CommitRowLevel, with the counts; when nothing changed, the write
// is aborted instead. Any failure, in the query or the write, aborts the write: the table
// stays as it was and the files written go.
#pragma once

#include <cstdint>
#include <vector>

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

/// \brief How a row-level statement runs, as PlanRowLevel decided.
struct RowLevelStrategy {
  /// A metadata-only delete (SupportsDeleteV2::DeleteWhere) of `delete_predicates`.
  bool metadata_delete = false;
  std::vector<PredicatePtr> delete_predicates;
  /// Otherwise: the plan's group filter as V2 predicates (those that translate), and whether
  /// they were offered to the operation's scan (it takes V2 filters); when not, or when there
  /// are none, every group is read.
  std::vector<PredicatePtr> group_filter;
  bool group_filter_offered = false;
};

/// \brief Decide how `plan` runs, reading and writing nothing: a DELETE whose condition has
/// no subquery and translates whole is metadata-only when SupportsDeleteV2::CanDeleteWhere
/// accepts it; otherwise the target scan gets the operation's scan builder with the group
/// filter pushed, and the query's pushdown is negotiated. Errors:
/// UNSUPPORTED_FEATURE.TABLE_OPERATION when the table has neither way.
Result<RowLevelStrategy> PlanRowLevel(RowLevelPlan* plan);

/// \brief Run `plan` (not yet planned by PlanRowLevel). Errors: MERGE_CARDINALITY_VIOLATION
/// when a target row matches several source rows and a MATCHED clause applies;
/// UNSUPPORTED_FEATURE.TABLE_OPERATION when the table refuses a filter delete and has no
/// row-level operations; NOT_NULL_ASSERT_VIOLATION;
/// CONNECTOR_CONTRACT_VIOLATION.NOT_A_DELTA_WRITER when a delta-based write's task writer is
/// not a DeltaWriter; and whatever the connector's scan, write or commit reports (e.g. a
/// concurrent change of the rows read).
Result<RowLevelResult> RunRowLevel(RowLevelPlan* plan, const WriteRunOptions& options);

}  // namespace parley
