// Spark's statistical and bitwise aggregates (stddev*, var*, skewness, kurtosis, covar_*,
// corr, regr_sxx / syy / sxy / slope / intercept / r2, bit_and / bit_or / bit_xor), as
// AggregateFunction states the engine runs like a connector's aggregate: grouped or not, merged
// across tasks through their bytes. The moments follow Spark's own update and merge formulas, so
// the results have Spark's digits, and Spark's answers for the degenerate groups (NULL for no
// row, NULL for a sample statistic of one row, DIVIDE_BY_ZERO for corr of a constant).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/function.h"

namespace parley {

/// \brief Whether `name` (lower case) is one of the aggregates BuiltinAggregate makes.
bool IsBuiltinLibraryAggregate(const std::string& name);

/// \brief The names BuiltinAggregate makes.
const std::vector<std::string>& BuiltinLibraryAggregateNames();

/// \brief The aggregate `name` over arguments of `arg_types`, already of its input types
/// (DOUBLE for the statistics, an integral type for the bitwise ones); see input_types().
/// REQUIRES: IsBuiltinLibraryAggregate(name) and the argument count it takes
/// (BuiltinAggregateArity).
std::shared_ptr<const AggregateFunction> BuiltinAggregate(
    const std::string& name, const std::vector<std::shared_ptr<arrow::DataType>>& arg_types);

/// \brief How many arguments the aggregate `name` takes (1 or 2).
size_t BuiltinAggregateArity(const std::string& name);

/// \brief Whether `name` takes integral arguments (the bitwise aggregates) rather than DOUBLE.
bool BuiltinAggregateIsBitwise(const std::string& name);

}  // namespace parley
