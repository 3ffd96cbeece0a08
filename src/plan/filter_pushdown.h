// Filter pushdown over the logical plan, as Spark's PushDownPredicates: filter conjuncts move
// toward the scans, so that each reaches the scan whose columns it reads and is offered to the
// connector there.
//
// A conjunct passes a projection when every column it reads is a plain column of the
// projection's input; it passes a join into the input whose columns it reads only where the
// join type keeps that input's rows unchanged (both inputs of an inner join, the left of a left
// outer, semi or anti join, the right of a right outer join; never the null-supplying side),
// and a WHERE conjunct over both inputs of an inner join becomes part of its condition. A join's
// own residual condition sends its one-sided conjuncts down as Spark does: both sides for inner
// and semi joins, the null-supplying side of outer joins (the right of left outer and anti
// joins, the left of right outer joins). A conjunct passes a Distinct unchanged, and goes into
// every child of a Union (whose children output the union's field names), and below a Window
// when it reads only columns that every window call partitions by. Disjunctions first
// have the conjuncts common to all their branches factored out, and a disjunction over both
// inputs of an inner join also filters each input by what its branches imply for that input
// alone (plan/boolean_simplification.h). Anything else stays where it was.
#pragma once

#include "plan/logical_plan.h"

namespace parley {

/// \brief Push the filters of `plan` down; returns the rewritten plan (nodes are reused).
PlanNodePtr PushDownFilters(const PlanNodePtr& plan);

}  // namespace parley
