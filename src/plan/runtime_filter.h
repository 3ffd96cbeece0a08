// Runtime filtering: where a join's build side, once computed, can prune its probe side.
//
// For an inner, right outer or left semi join (and a semi or anti join built on its left input,
// see plan/physical_planning.h), a probe row whose key is not among the build
// side's keys joins nothing. When a probe key is a column that reaches, unchanged, a scan whose
// source implements SupportsRuntimeV2Filtering and lists the column in FilterAttributes(), the
// planner records that scan on the join (PlanNode::runtime_filters) and the executor computes
// the build side first and offers that scan the build keys (an IN predicate,
// or a range for many keys) before it plans its input partitions, as Spark's dynamic pruning.
// The build side must be likely to be selective, as Spark asks: it contains a filter (or
// predicates a scan accepted, or a semi or anti join) or is a constant table.
// The column may pass through filters, projections, distinct, group keys of aggregates and
// joins that keep the row's key; never through a limit, a sample or a window, whose output
// depends on the rows they see. A scan that agreed to a limit, top-N, offset, sample or
// aggregate is never a target either.
#pragma once

#include <string>
#include <vector>

#include "plan/logical_plan.h"

namespace parley {

/// \brief The scans `join` (a kJoin node whose build side is already chosen, build_left) can
/// prune with its build keys; empty when none.
std::vector<RuntimeFilterTarget> FindRuntimeFilterTargets(const PlanNode& join);

/// \brief Which child of `join` is computed first when it has runtime filters: its build side.
inline size_t BuildChild(const PlanNode& join) { return join.build_left ? 0 : 1; }

/// \brief As EXPLAIN prints runtime filters of `join` (by default its planned ones,
/// join.runtime_filters): `[l_partkey -> tc.db.lineitem.l_partkey]`; empty when none.
std::string RuntimeFilterSummary(const PlanNode& join,
                                 const std::vector<RuntimeFilterTarget>& targets);
inline std::string RuntimeFilterSummary(const PlanNode& join) {
  return RuntimeFilterSummary(join, join.runtime_filters);
}

}  // namespace parley
