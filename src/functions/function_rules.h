// Building blocks of type rules: argument counts, Spark's implicit casts of arguments, constant
// arguments, and the analysis errors they raise, each naming the call as written.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "functions/function_registry.h"

namespace parley {

/// \brief WRONG_NUM_ARGS.WITHOUT_SUGGESTION unless the call has `min` to `max` arguments.
Status CheckArgCount(const FunctionCall& call, size_t min, size_t max);
inline Status CheckArgCount(const FunctionCall& call, size_t count) {
  return CheckArgCount(call, count, count);
}

/// \brief How Spark's messages name the argument at `index` (0-based): "first", "second"...
std::string Ordinal(size_t index);

/// \brief The arguments' types as Spark's messages list them, each quoted ("INT"), joined by
/// `separator`.
std::string QuotedArgumentTypes(const FunctionCall& call, const std::string& separator);

/// \brief DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE: argument `index` (0-based) should be of the
/// type `required` (as Spark names it: "STRING", "DATE", "NUMERIC"...).
Status UnexpectedInputType(const FunctionCall& call, size_t index, std::string_view required);

/// \brief Argument `index` as STRING: strings as they are; numbers, booleans, dates,
/// timestamps and binary (its bytes as UTF-8) cast; NULL typed. Other types: UNEXPECTED_INPUT_TYPE.
Result<BoundExprPtr> StringArg(const FunctionCall& call, size_t index);
/// \brief Argument `index` as INT: integral types up to INT and strings cast (a BIGINT must fit,
/// checked when run). Other types: UNEXPECTED_INPUT_TYPE.
Result<BoundExprPtr> IntArg(const FunctionCall& call, size_t index);
/// \brief Argument `index` as DOUBLE: numbers and strings cast.
Result<BoundExprPtr> DoubleArg(const FunctionCall& call, size_t index);
/// \brief Argument `index` as a number: numeric types as they are, strings as DOUBLE, NULL as
/// INT.
Result<BoundExprPtr> NumericArg(const FunctionCall& call, size_t index);
/// \brief Argument `index` as DATE: dates as they are; timestamps and strings cast.
Result<BoundExprPtr> DateArg(const FunctionCall& call, size_t index);
/// \brief Argument `index` as TIMESTAMP: timestamps as they are; dates and strings cast.
Result<BoundExprPtr> TimestampArg(const FunctionCall& call, size_t index);

/// \brief The value of a constant STRING argument (a format, a field name); nullopt when it is
/// NULL. A non-constant argument: DATATYPE_MISMATCH.NON_FOLDABLE_INPUT.
Result<std::optional<std::string>> ConstantStringArg(const FunctionCall& call, size_t index);

/// \brief Every argument cast to the type all of them widen to, for the functions whose
/// arguments share one type (coalesce, greatest, ...): DATATYPE_MISMATCH.DATA_DIFF_TYPES when
/// there is none. An all-NULL list is typed as `null_type`.
Result<std::vector<BoundExprPtr>> ArgsOfCommonType(
    const FunctionCall& call, const std::vector<BoundExprPtr>& args,
    const std::shared_ptr<arrow::DataType>& null_type);

/// \brief The call `name(args)` with result type `type`: what most type rules return.
inline BoundExprPtr Call(std::string name, std::vector<BoundExprPtr> args,
                         std::shared_ptr<arrow::DataType> type) {
  return MakeCall(std::move(name), std::move(args), std::move(type));
}

/// \brief Argument `index` as BIGINT: numbers and strings cast. Other types:
/// UNEXPECTED_INPUT_TYPE.
Result<BoundExprPtr> BigintArg(const FunctionCall& call, size_t index);

/// \brief The call as the built-in function `name` would bind `args` (Spark's functions that
/// are another with fixed arguments: zeroifnull(x) is nvl(x, 0)).
Result<BoundExprPtr> BindAs(const FunctionCall& call, const std::string& name,
                            std::vector<BoundExprPtr> args);

/// \brief Reads argument `index` of a call as the type a function takes (StringArg, IntArg...).
using ArgReader = Result<BoundExprPtr> (*)(const FunctionCall&, size_t);

/// \brief Register `names` as a function of one argument per reader, each read by it, computed
/// by the Arrow function `kernel` with result `type`.
void AddRowFunction(FunctionRegistry* registry, std::vector<std::string> names, std::string kernel,
                    std::vector<ArgReader> readers, std::shared_ptr<arrow::DataType> type);

/// \brief Register `bound` as lowering to the Arrow function `kernel` of the same arguments.
void AddKernelLowering(FunctionRegistry* registry, const std::string& bound,
                       const std::string& kernel);

/// \brief The constant `value` as a STRING literal.
BoundExprPtr StringLiteral(std::string value);
/// \brief The constant `value` as an INT literal.
BoundExprPtr IntLiteral(int32_t value);

/// \brief The string value of a STRING literal argument of a bound call.
std::string LiteralString(const BoundExpr& literal);

}  // namespace parley
