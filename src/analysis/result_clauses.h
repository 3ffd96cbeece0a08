// Result clauses: ORDER BY, LIMIT and OFFSET over the output of a query body that is not a
// plain SELECT (a set operation, VALUES, a parenthesised query), where they see only the
// body's output columns, by name or ordinal, as in Spark.
#pragma once

#include "plan/logical_plan.h"
#include "sql/ast.h"

namespace parley {

/// \brief A LIMIT or OFFSET argument (`clause` is "limit" or "offset"): a non-negative integer
/// constant. Errors: INVALID_LIMIT_LIKE_EXPRESSION.DATA_TYPE, .IS_NEGATIVE.
Result<int64_t> LimitValue(const sql::Expr& expr, const char* clause);

/// \brief `plan` under a Limit node for the LIMIT and OFFSET of `query`; `plan` itself when it
/// has neither. Errors: INVALID_LIMIT_LIKE_EXPRESSION.*.
Result<PlanNodePtr> ApplyLimit(PlanNodePtr plan, const sql::SelectStatement& query);

/// \brief `plan` under the ORDER BY, OFFSET and LIMIT of `query` (Sort -> Limit), each bound
/// against `plan`'s output; an ORDER BY expression that is not an output column is computed in
/// a projection below the sort and dropped above it. Errors: ORDER_BY_POS_OUT_OF_RANGE,
/// UNRESOLVED_COLUMN.*, INVALID_LIMIT_LIKE_EXPRESSION.*.
Result<PlanNodePtr> ApplyResultClauses(PlanNodePtr plan, const sql::SelectStatement& query);

}  // namespace parley
