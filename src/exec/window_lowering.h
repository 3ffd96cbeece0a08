// Window node execution. Acero has no window operator: the node's input is gathered, and for
// each distinct (PARTITION BY, ORDER BY) of its calls the rows are ordered once with Arrow's
// sort, split into partitions and peer groups, and every call of that window is evaluated over
// them (exec/window_functions.h); results return to the input's row order.
#pragma once

#include <memory>

#include "arrow/type_fwd.h"
#include "plan/logical_plan.h"

namespace parley {

/// \brief The output of the Window node `node` over `input`, its child's whole output: the
/// input's columns that `node` outputs, then one column per window call.
Result<std::shared_ptr<arrow::Table>> ComputeWindow(const PlanNode& node,
                                                    const std::shared_ptr<arrow::Table>& input);

}  // namespace parley
