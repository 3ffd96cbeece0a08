// IsErrorFree: a walk over a bound expression that accepts only calls known to be total on
// their argument types. It errs on the side of "can fail": a function it does not know makes
// the expression fail-able, which costs a conditional expression speed, never correctness.
#include "exec/error_free.h"

#include <algorithm>
#include <set>
#include <string>

#include "arrow/compute/api.h"
#include "arrow/type.h"
#include "exec/executor.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

// Calls that never fail, whatever their (already error-free) arguments.
bool IsTotalFunction(const std::string& f) {
  static const std::set<std::string> kTotal = {
      "=",     "<>",          "<",         "<=",       ">",           ">=",       "<=>",
      "AND",   "OR",          "NOT",       "IS_NULL",  "IS_NOT_NULL", "IN",       "LIKE",
      "ILIKE", "STARTS_WITH", "ENDS_WITH", "CONTAINS", "CASE_WHEN",   "COALESCE", "~",
      "&",     "|",           "^",         "greatest", "least"};
  return kTotal.count(f) > 0;
}

bool IsFloating(const arrow::DataType& type) {
  return type.id() == arrow::Type::DOUBLE || type.id() == arrow::Type::FLOAT;
}

// A decimal product at the operands' joint scale whose type has room for the integer digits of
// both operands together: every product of the operands fits it. (Spark's type has one digit
// more than that needs; an operand widened by a cast keeps its type's digits here.)
bool IsExactDecimalProduct(const BoundExpr& expr) {
  if (expr.function != "*" || expr.args.size() != 2 || expr.type->id() != arrow::Type::DECIMAL128) {
    return false;
  }
  int integer_digits = 0;
  int scale = 0;
  for (const auto& arg : expr.args) {
    if (arg->type->id() != arrow::Type::DECIMAL128) return false;
    const auto& dec = static_cast<const arrow::DecimalType&>(*arg->type);
    integer_digits += dec.precision() - dec.scale();
    scale += dec.scale();
  }
  const auto& result = static_cast<const arrow::DecimalType&>(*expr.type);
  return scale == result.scale() && integer_digits <= result.precision() - result.scale();
}

// A CAST that no value of its argument's type (or its one literal value) can make fail.
bool IsTotalCast(const BoundExpr& expr) {
  const BoundExpr& arg = *expr.args[0];
  const arrow::DataType& from = *arg.type;
  const arrow::DataType& to = *expr.type;
  if (from.Equals(to) || IsWideningDecimalCast(expr)) return true;
  if (arg.kind == BoundExpr::Kind::kLiteral && to.id() != arrow::Type::TIMESTAMP) {
    // Arrow's safe cast is stricter than Parley's (which drops fractions as Spark does), so a
    // literal that it casts casts in Parley too (timestamps take their own route).
    return EnsureComputeInitialized().ok() &&
           cp::Cast(arrow::Datum(arg.literal), cp::CastOptions::Safe(expr.type)).ok();
  }
  if (to.id() == arrow::Type::STRING) {
    return arrow::is_integer(from.id()) || IsFloating(from) || arrow::is_decimal(from.id()) ||
           from.id() == arrow::Type::BOOL || from.id() == arrow::Type::DATE32;
  }
  if (arrow::is_signed_integer(from.id()) && arrow::is_signed_integer(to.id())) {
    return from.byte_width() <= to.byte_width();
  }
  if (to.id() == arrow::Type::DOUBLE) {
    return from.id() == arrow::Type::FLOAT ||
           (arrow::is_signed_integer(from.id()) && from.byte_width() <= 4);
  }
  return false;
}

// `expr`, a call whose arguments are error-free, is itself.
bool IsTotalCall(const BoundExpr& expr) {
  const std::string& f = expr.function;
  if (IsTotalFunction(f)) return true;
  if (f == "CAST" && expr.args.size() == 1) return IsTotalCast(expr);
  if (f == "+" || f == "-" || f == "*" || f == "NEGATE" || f == "abs") {
    if (IsFloating(*expr.type)) return true;
    if (f == "NEGATE" || f == "abs") return expr.type->id() == arrow::Type::DECIMAL128;
    return IsExactDecimalAdditive(expr) || IsExactDecimalProduct(expr);
  }
  return false;
}

}  // namespace

bool IsErrorFree(const BoundExpr& expr) {
  if (expr.kind != BoundExpr::Kind::kCall) return true;
  return std::all_of(expr.args.begin(), expr.args.end(),
                     [](const BoundExprPtr& arg) { return IsErrorFree(*arg); }) &&
         IsTotalCall(expr);
}

bool IsExactDecimalAdditive(const BoundExpr& expr) {
  bool additive = (expr.function == "+" || expr.function == "-") && expr.args.size() == 2;
  bool negation = expr.function == "NEGATE" && expr.args.size() == 1;
  if ((!additive && !negation) || expr.type->id() != arrow::Type::DECIMAL128) return false;
  int integer_digits = 0;
  int scale = 0;
  for (const auto& arg : expr.args) {
    if (arg->type->id() != arrow::Type::DECIMAL128) return false;
    const auto& dec = static_cast<const arrow::DecimalType&>(*arg->type);
    integer_digits = std::max(integer_digits, dec.precision() - dec.scale());
    scale = std::max(scale, dec.scale());
  }
  const auto& result = static_cast<const arrow::DecimalType&>(*expr.type);
  int exact_precision = integer_digits + scale + (additive ? 1 : 0);
  return exact_precision <= arrow::Decimal128Type::kMaxPrecision &&
         exact_precision == result.precision() && scale == result.scale();
}

bool IsWideningDecimalCast(const BoundExpr& expr) {
  if (expr.function != "CAST" || expr.args.size() != 1 ||
      expr.type->id() != arrow::Type::DECIMAL128 || !arrow::is_decimal(expr.args[0]->type->id())) {
    return false;
  }
  const auto& from = static_cast<const arrow::DecimalType&>(*expr.args[0]->type);
  const auto& to = static_cast<const arrow::DecimalType&>(*expr.type);
  return to.scale() >= from.scale() &&
         to.precision() - to.scale() >= from.precision() - from.scale();
}

}  // namespace parley
