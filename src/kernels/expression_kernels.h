// Kernels that evaluate a whole Arrow expression over their arguments, for the two behaviours
// of Spark's ANSI mode that Arrow's kernels lack:
//   parley_try:   a row whose evaluation fails is NULL (TRY_CAST, try_add, try_divide, ...);
//   parley_guard: a failure carries its Spark condition (see ToSparkError) and names the
//                 expression that raised it, as Spark's runtime errors do.
// The evaluated expression reads fields `a0`, `a1`, ... standing for the call's arguments, so
// that errors from the arguments themselves are raised (and named) by their own calls.
#pragma once

#include <string>
#include <vector>

#include "arrow/compute/expression.h"
#include "parley/connector/status.h"

namespace parley {

/// \brief The name of the field that stands for argument `index` of an evaluating call.
std::string ArgumentField(size_t index);

/// \brief A call evaluating `expression` (over fields ArgumentField(0..n-1)) on `args`; rows
/// that fail are NULL.
arrow::compute::Expression TryCall(arrow::compute::Expression expression,
                                   std::vector<arrow::compute::Expression> args);

/// \brief A call evaluating `expression` on `args`; a failure names `text`, the expression as
/// Parley prints it, and has the Spark condition `condition`, or when that is empty the one
/// ToSparkError gives it.
arrow::compute::Expression GuardCall(arrow::compute::Expression expression,
                                     std::vector<arrow::compute::Expression> args, std::string text,
                                     std::string condition = "");

/// \brief Register parley_try and parley_guard with Arrow's default registry (part of
/// RegisterParleyKernels).
Status RegisterExpressionKernels();

}  // namespace parley
