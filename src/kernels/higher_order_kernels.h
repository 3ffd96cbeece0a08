// Spark's higher-order functions, whose lambdas run over the elements of each row's array or
// map. A lambda is an Arrow expression over fields named by its parameters and over the columns
// it captures from the row (passed to the call after the containers); the kernel evaluates it
// once over all the batch's elements, each captured value repeated for its row's elements.
//   transform(array, x [, i] -> v), filter(array, x [, i] -> bool), exists / forall(array,
//   x -> bool), aggregate(array, zero, (acc, x) -> acc [, acc -> result]), zip_with(a, b,
//   (x, y) -> v), array_sort(array, (l, r) -> int), map_filter(map, (k, v) -> bool),
//   transform_keys / transform_values(map, (k, v) -> value), map_zip_with(m1, m2,
//   (k, v1, v2) -> v).
#pragma once

#include <string>
#include <vector>

#include "arrow/compute/expression.h"
#include "arrow/compute/registry.h"
#include "parley/connector/status.h"

namespace parley {

enum class HigherOrder : int {
  kTransform,
  kFilter,
  kExists,
  kForall,
  kAggregate,
  kZipWith,
  kArraySort,
  kMapFilter,
  kTransformKeys,
  kTransformValues,
  kMapZipWith,
};

/// \brief One lambda: its body and the field names that stand for its parameters, in order.
struct LambdaBody {
  arrow::compute::Expression body;
  std::vector<std::string> params;
};

/// \brief The call of higher-order function `kind` on `containers` (the array or map arguments,
/// and aggregate's zero value) with `lambdas` (aggregate: the merge, then the finish if any).
/// The columns the lambdas read besides their parameters become the call's further arguments.
arrow::compute::Expression HigherOrderCall(HigherOrder kind,
                                           std::vector<arrow::compute::Expression> containers,
                                           std::vector<LambdaBody> lambdas);

namespace kernels {

/// \brief Register parley_higher_order (part of RegisterParleyKernels).
Status RegisterHigherOrderKernels(arrow::compute::FunctionRegistry* registry);

}  // namespace kernels
}  // namespace parley
