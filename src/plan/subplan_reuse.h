// Subplan reuse: an aggregation over one scan that a plan computes twice (a common table
// expression referenced twice, as in TPC-H Q15) is computed once and its result read by both
// places, as Spark reuses an exchange whose canonical plan it has already computed.
//
// Two subtrees compute the same rows when they are the same operators over the same table,
// compared structurally: the same kinds, output types, expressions (column references matched
// through the columns of the inputs they read, by position) and aggregates, and scans of one
// table (the same object, or loads the connector names and describes alike, so two versions of
// a time-travelled table never match) with the same columns and pushed predicates.
#pragma once

#include <map>
#include <set>

#include "plan/logical_plan.h"

namespace parley {

/// \brief For each Aggregate node of `plan` whose subtree computes the same rows as an earlier
/// one's, that earlier node. Only subtrees that are a chain of Aggregate, Project and Filter
/// nodes over one scan take part; `excluded_scans` (e.g. those a runtime filter will narrow
/// differently per use) and scans with a pushed sample, limit, offset, top-N, aggregation or
/// join never do.
std::map<PlanNode*, const PlanNode*> FindReusedSubplans(
    PlanNode& plan, const std::set<const PlanNode*>& excluded_scans);

}  // namespace parley
