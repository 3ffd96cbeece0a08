// Spark's conditional expressions evaluated the way Spark evaluates them: a CASE branch's value
// only on the rows its condition selected, a later condition only on the rows no earlier one
// selected, a later COALESCE argument only on the rows where every earlier one is NULL. Errors
// of rows that do not reach a sub-expression (DIVIDE_BY_ZERO in `CASE WHEN b <> 0 THEN a / b
// END`) therefore never happen, while the rows that reach it raise as they would anywhere.
//
// Arrow's case_when and coalesce evaluate every argument on every row, so these are kernels
// (parley_case_when, parley_coalesce) whose sub-expressions sit in the call's options, bound
// once per kernel instance; the call's arguments are only the input fields the sub-expressions
// read. Nothing outside the kernel (simplification, shared subexpressions) evaluates a
// sub-expression on its own.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "arrow/compute/expression.h"
#include "arrow/type_fwd.h"
#include "parley/connector/status.h"

namespace parley {

/// \brief CASE WHEN conditions[0] THEN values[0] ... [ELSE otherwise] END, of type `type`,
/// each sub-expression evaluated only on the rows that reach it; rows that no condition
/// selects (a NULL condition does not select) are `otherwise`, or NULL without it. The
/// expressions read input fields by name; a nested field reference is an error.
/// REQUIRES: conditions.size() == values.size() >= 1; conditions are BOOLEAN.
Result<arrow::compute::Expression> LazyCaseWhenCall(
    std::vector<arrow::compute::Expression> conditions,
    std::vector<arrow::compute::Expression> values,
    std::optional<arrow::compute::Expression> otherwise, std::shared_ptr<arrow::DataType> type);

/// \brief COALESCE(args...), of type `type`: args[i] is evaluated only on the rows where all
/// of args[0..i-1] are NULL. Fields as for LazyCaseWhenCall.
/// REQUIRES: args.size() >= 1.
Result<arrow::compute::Expression> LazyCoalesceCall(std::vector<arrow::compute::Expression> args,
                                                    std::shared_ptr<arrow::DataType> type);

/// \brief Register parley_case_when and parley_coalesce with Arrow's default registry (part of
/// RegisterParleyKernels).
Status RegisterConditionalKernels();

}  // namespace parley
