// Subplan reuse: an aggregation over one scan that a plan computes twice (a common table
// expression referenced twice, as in TPC-H Q15) is computed once and its result read by both
// places, as Spark reuses an exchange whose canonical plan it has already computed.
#pragma once

#include <map>
#include <set>

#include "plan/logical_plan.h"

namespace parley {

/// \brief For each Aggregate node of `plan` whose subtree computes the same rows as an earlier
/// one's, that earlier node. Only subtrees that are a chain of Aggregate, Project and Filter
/// nodes over one scan take part; `excluded_scans` (e.g. those a runtime filter will narrow
/// differently per use) and scans with a pushed sample, limit or offset never do.
std::map<const PlanNode*, const PlanNode*> FindReusedSubplans(
    const PlanNode& plan, const std::set<const PlanNode*>& excluded_scans);

}  // namespace parley
