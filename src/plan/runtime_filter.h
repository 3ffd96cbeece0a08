// Runtime filtering: where a join's build side, once computed, can prune its probe side.
//
// For an inner, right outer or left semi join (and a semi or anti join that runs with its
// inputs swapped, see exec/join_lowering.h), a probe row whose key is not among the build
// side's keys joins nothing. When a probe key is a column that reaches, unchanged, a scan whose
// source implements SupportsRuntimeV2Filtering and lists the column in FilterAttributes(), the
// executor computes the build side first and offers that scan the build keys (an IN predicate,
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

/// \brief One scan a join's build keys can prune: `column` of `scan`'s output, equal to the
/// join's key number `key_index` on the probe side.
struct RuntimeFilterTarget {
  size_t key_index = 0;
  PlanNode* scan = nullptr;
  std::string column;
};

/// \brief How a join can be runtime-filtered: which child is computed first (the build side)
/// and the scans of the other child its keys prune.
struct RuntimeFilterPlan {
  size_t build_child = 1;
  size_t probe_child = 0;
  std::vector<RuntimeFilterTarget> targets;
};

/// \brief The runtime filters of `join` (a kJoin node), or none (empty targets).
RuntimeFilterPlan PlanRuntimeFilter(const PlanNode& join);

/// \brief As EXPLAIN prints a join's runtime filters: `[l_partkey -> tc.db.lineitem.l_partkey]`;
/// empty when it has none.
std::string RuntimeFilterSummary(const PlanNode& join);

}  // namespace parley
