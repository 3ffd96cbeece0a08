// DISTINCT for the aggregates that do not ignore repeats themselves: sum(DISTINCT x),
// avg(DISTINCT x) and the built-in library's aggregates (stddev(DISTINCT x), bit_xor(DISTINCT
// x)...). The state keeps each distinct fixed-width value once (-0.0 as 0.0 and every NaN as
// one, as Spark's grouping sees them); the result is the aggregate over those values.
#pragma once

#include <memory>
#include <string>

#include "arrow/type_fwd.h"
#include "parley/connector/function.h"

namespace parley {

/// \brief `inner` over the distinct values of its one fixed-width argument.
std::shared_ptr<const AggregateFunction> DistinctOf(std::shared_ptr<const AggregateFunction> inner);

/// \brief sum(DISTINCT x) (`average` false) or avg(DISTINCT x) of a numeric argument of type
/// `arg_type` whose result is `result_type`: Spark's sum (ARITHMETIC_OVERFLOW past BIGINT for
/// integers) and average (a double for integers and doubles) of the distinct values. Decimal
/// averages are not made here.
std::shared_ptr<const AggregateFunction> DistinctSumOrAverage(
    bool average, std::shared_ptr<arrow::DataType> arg_type,
    std::shared_ptr<arrow::DataType> result_type);

}  // namespace parley
