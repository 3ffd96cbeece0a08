// Physical planning: the decisions that make a negotiated plan final before it runs. Each is
// recorded on the plan's nodes; the executor follows them and EXPLAIN prints them, so EXPLAIN
// shows the plan that runs.
//
//  - Join build side (PlanNode::build_left): Acero builds its hash table on a join's right
//    input; a semi or anti join whose left input is estimated the smaller is built on its left
//    (it runs as a right semi or anti join of the swapped inputs).
//  - Runtime filters (PlanNode::runtime_filters, plan/runtime_filter.h): the probe-side scans a
//    join's build keys prune. Not on a storage-partitioned join, which runs key group by key
//    group.
//  - Subplan reuse (PlanNode::reuses, plan/subplan_reuse.h): an aggregation computed twice is
//    computed once; scans a runtime filter narrows never take part, since each use would be
//    narrowed differently.
#pragma once

#include "plan/logical_plan.h"

namespace parley {

/// \brief Which decisions the session's settings allow.
struct PhysicalPlanningOptions {
  /// parley.sql.optimizer.runtimeFilter.enabled (and a positive maxBuildRows).
  bool runtime_filters = true;
  /// spark.sql.exchange.reuse.
  bool reuse_subplans = true;
};

/// \brief Record every decision above on `plan`'s nodes, replacing earlier ones.
void FinalizePhysicalPlan(PlanNode* plan, const PhysicalPlanningOptions& options);

}  // namespace parley
