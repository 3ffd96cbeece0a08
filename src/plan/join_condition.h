// Join conditions: which input of a join an expression reads, and the split of a condition into
// equi-join keys (the hash join's) and a residual (evaluated on each matching pair).
#pragma once

#include "plan/logical_plan.h"

namespace parley {

/// \brief Which inputs of a join an expression reads.
enum class JoinSide { kNeither, kLeft, kRight, kBoth };

/// \brief The join inputs `expr` reads, by its columns' internal names.
JoinSide ReferencedSide(const BoundExpr& expr, const PlanNode& left, const PlanNode& right);

/// \brief Add the conjuncts of `condition` to the Join node `join`: each `l = r` or `l <=> r`
/// with one operand over each input becomes a key, the rest joins the residual condition.
void AddJoinCondition(PlanNode* join, const BoundExprPtr& condition);

}  // namespace parley
