// Join ordering: each group of adjacent inner joins is rebuilt as a left-deep tree that joins
// connected inputs first (no needless cross join), in the greedy order that keeps the estimated
// intermediate results smallest, and builds each hash table on the smaller input, by the row
// counts and column bounds the scans report after pushdown.
#pragma once

#include "arrow/result.h"
#include "plan/logical_plan.h"

namespace parley {

/// \brief Reorder the inner joins of `plan` (whose scans are built, so that their statistics
/// are known). Within a group of inner and cross joins: from each input in turn, repeatedly join
/// the input that an equi-join condition connects to those already joined and that gives the
/// fewest estimated rows, else the first (in written order) that any condition connects, else
/// the next one (a cross join only when nothing is connected); the order whose intermediate
/// results sum smallest wins, the written order on a tie (so, without statistics, Spark's
/// ReorderJoin). Every condition of the group is applied at the first join where all its inputs
/// are present. Each join then puts the input with fewer estimated rows on its build (right)
/// side. The group's output fields keep their order. Outer, semi and anti joins are not moved;
/// groups below them are reordered alone.
Result<PlanNodePtr> ReorderJoins(const PlanNodePtr& plan);

/// \brief The estimated number of rows `node` returns: a scan's reported count (a very large
/// one when it reports none), scaled down for each filter conjunct above it.
double EstimateRows(const PlanNode& node);

}  // namespace parley
