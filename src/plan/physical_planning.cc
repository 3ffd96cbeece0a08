// The physical planning passes, run in order over the whole plan: build sides first (runtime
// filters depend on them), then runtime filters, then reuse (which avoids filtered scans).
#include "plan/physical_planning.h"

#include <set>

#include "plan/join_reorder.h"
#include "plan/runtime_filter.h"
#include "plan/subplan_reuse.h"

namespace parley {
namespace {

template <typename Visit>
void ForEachNode(PlanNode* node, const Visit& visit) {
  visit(node);
  for (const auto& child : node->children) ForEachNode(child.get(), visit);
}

bool BuildsOnLeft(const PlanNode& join) {
  const bool semi_or_anti =
      join.join_type == PlanJoinType::kLeftSemi || join.join_type == PlanJoinType::kLeftAnti;
  return semi_or_anti && EstimateRows(*join.children[0]) < EstimateRows(*join.children[1]);
}

}  // namespace

void FinalizePhysicalPlan(PlanNode* plan, const PhysicalPlanningOptions& options) {
  std::set<const PlanNode*> filtered_scans;
  ForEachNode(plan, [&](PlanNode* node) {
    node->reuses = nullptr;
    if (node->kind != PlanNode::Kind::kJoin) return;
    node->build_left = BuildsOnLeft(*node);
    node->runtime_filters.clear();
    if (options.runtime_filters && !node->storage_partitioned) {
      node->runtime_filters = FindRuntimeFilterTargets(*node);
    }
    for (const auto& target : node->runtime_filters) filtered_scans.insert(target.scan);
  });
  if (!options.reuse_subplans) return;
  for (const auto& [node, first] : FindReusedSubplans(*plan, filtered_scans)) {
    node->reuses = first;
  }
}

}  // namespace parley
