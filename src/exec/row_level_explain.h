// EXPLAIN of DELETE, UPDATE and MERGE: how the statement would run, decided as the row-level
// runner decides it (exec/row_level_runner.h: PlanRowLevel), nothing read or written.
#pragma once

#include <string>

#include "plan/row_level_plan.h"
#include "sql/ast.h"

namespace parley {

/// \brief The EXPLAIN text of `plan` in `mode` (any but ANALYZE). A metadata-only delete is
/// `DeleteFromTable <target>` with the predicates it would hand to DeleteWhere. Otherwise the
/// operator is `ReplaceData` (group-based) or `WriteDelta` (delta-based, with the row id),
/// with the command and the target, then the group filter offered to the operation's scan,
/// with the negotiated plan of the query that computes the rows hung below them in each
/// section (plan/explain.h: ExplainCommand). Calls only the
/// table's CanDeleteWhere and its operation's NewScanBuilder (and, for FORMATTED, its scans'
/// partition planning). Errors: those of PlanRowLevel and ExplainPlan.
Result<std::string> ExplainRowLevel(RowLevelPlan* plan, sql::ExplainMode mode);

}  // namespace parley
