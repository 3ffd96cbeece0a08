// The run-time check of an uncorrelated scalar subquery: the value of a subquery with more than
// one row is an error, as in Spark.
#pragma once

#include "parley/connector/status.h"

namespace parley {

/// \brief Name of the Arrow compute function `(row_count, value) -> value` that fails with
/// SCALAR_SUBQUERY_TOO_MANY_ROWS wherever row_count exceeds one. The analyzer plans a scalar
/// subquery as an aggregate of its row count and its value (min over at most one row), and
/// this function guards the value.
extern const char kScalarSubqueryValueFunction[];

/// \brief Register the function with Arrow's default registry; idempotent and thread-safe.
Status RegisterScalarSubqueryValueFunction();

}  // namespace parley
