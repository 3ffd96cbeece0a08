// EXPLAIN ANALYZE: the measured side of a plan. For every operator its rows out and time; for
// every scan its tasks (count, duration min / median / max, with skew flagged when the slowest
// task takes over four times the median), rows returned and each custom metric, bytes read
// from storage among them.
#pragma once

#include <string>

#include "exec/executor.h"
#include "plan/explain.h"

namespace parley {

/// \brief An annotator for ExplainPlan that prints the profile gathered by ExecutePlan.
ExplainAnnotator ProfileAnnotator(const std::map<const PlanNode*, OperatorProfile>& profile);

}  // namespace parley
