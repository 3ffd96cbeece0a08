// Lowering of a Join node to Acero's hash join.
//
// Each input is projected to its fields plus one column per equi-join key; the hash join
// matches on those (NULL never equals NULL, except for a null-safe key) and applies the
// residual condition to each matching pair as its filter, which is the ON clause's meaning for
// every join type: a pair that fails it is no match, and an outer join still keeps the row
// unmatched. A join without equi keys (CROSS JOIN, comma joins, non-equi ON) joins on one
// constant key, so every pair of rows is a candidate: a nested-loop join, bounded by memory.
// Acero builds the hash table on its right input; a semi or anti join the plan builds on its
// left input (PlanNode::build_left, plan/physical_planning.h) runs as Acero's right semi or
// anti join of the swapped inputs, so the table is built on the smaller side.
#pragma once

#include "arrow/acero/exec_plan.h"
#include "plan/logical_plan.h"

namespace parley {

/// \brief The declaration joining `left` and `right` (the lowered inputs of `join`); its output
/// columns are join.output's, by internal name and in order.
Result<arrow::acero::Declaration> LowerJoin(const PlanNode& join, arrow::acero::Declaration left,
                                            arrow::acero::Declaration right);

}  // namespace parley
