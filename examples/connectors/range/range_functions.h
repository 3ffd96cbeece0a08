// The example's function: `default.scale(x, k)` = x * k on INT arguments (both cast to INT by
// the engine when the call gives other numbers), INT result, NULL when either is NULL, and
// Spark's ARITHMETIC_OVERFLOW when the product does not fit. It shows a FunctionCatalog
// function: bound once per call site to its argument types, then invoked on whole Arrow arrays.
#pragma once

#include <memory>

#include "parley/connector/function.h"

namespace parley::example {

/// \brief The unbound `scale` function of the catalog's `default` namespace.
std::shared_ptr<UnboundFunction> MakeScaleFunction();

}  // namespace parley::example
