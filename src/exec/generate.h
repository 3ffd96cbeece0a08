// Generate node execution: each input row once per row its generator makes of it. The node's
// input is gathered; the generator's arguments are fields of it (a projection below computes
// them), and the input's columns are taken once per generated row.
//   explode(array) -> col; explode(map) -> key, value; posexplode adds pos (from 0) first;
//   inline(array of structs) -> the struct's fields (a NULL struct a row of NULLs);
//   stack(n, v1, ..., vk) -> n rows of ceil(k / n) columns, filled row by row, NULL past vk;
//   range(start, end, step) -> id: start, start + step, ... short of end (FROM range(...)).
// A NULL or empty array or map makes no row, and with the _outer variants one row of NULLs.
#pragma once

#include <memory>

#include "arrow/type_fwd.h"
#include "plan/logical_plan.h"

namespace parley {

/// \brief The output of the Generate node `node` over `input`, its child's whole output.
Result<std::shared_ptr<arrow::Table>> ComputeGenerate(const PlanNode& node,
                                                      const std::shared_ptr<arrow::Table>& input);

}  // namespace parley
