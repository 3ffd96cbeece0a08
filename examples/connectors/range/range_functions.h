// The example's functions:
//   - `default.scale(x, k)` = x * k on INT arguments (both cast to INT by the engine when the
//     call gives other numbers), INT result, NULL when either is NULL, and Spark's
//     ARITHMETIC_OVERFLOW when the product does not fit: a scalar function, bound once per call
//     site to its argument types, then invoked on whole Arrow arrays.
//   - `default.sum_of_squares(x)`: the sum of x * x over a group's non-NULL BIGINT values (NULL
//     when there is none), ARITHMETIC_OVERFLOW past 64 bits: an aggregate function, whose
//     per-group state (a sum and whether a value was seen) travels between tasks as 9 bytes.
#pragma once

#include <memory>

#include "parley/connector/function.h"

namespace parley::example {

/// \brief The canonical name of `scale`, by which the filtered table's scan recognizes a call
/// of it in a predicate it is offered.
inline constexpr char kScaleCanonicalName[] = "range.scale";

/// \brief The unbound `scale` function of the catalog's `default` namespace.
std::shared_ptr<UnboundFunction> MakeScaleFunction();

/// \brief The unbound `sum_of_squares` aggregate of the catalog's `default` namespace.
std::shared_ptr<UnboundFunction> MakeSumOfSquaresFunction();

}  // namespace parley::example
