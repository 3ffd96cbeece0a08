// BoundExpr -> arrow::compute::Expression. Each Spark-named function maps to the Arrow kernel
// with the same SQL meaning; where none exists (<=>, %, DIV) the meaning is composed from
// kernels that do.
#include "exec/expression_lowering.h"

#include <fmt/format.h>

#include <map>

#include "arrow/array/builder_base.h"
#include "arrow/compute/api.h"
#include "arrow/scalar.h"
#include "arrow/type.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

std::string ScalarText(const BoundExpr& literal) {
  return static_cast<const arrow::StringScalar&>(*literal.literal).ToString();
}

Result<cp::Expression> LowerIn(const BoundExpr& expr, const std::vector<cp::Expression>& args) {
  bool all_literals = true;
  for (size_t i = 1; i < expr.args.size(); ++i) {
    if (expr.args[i]->kind != BoundExpr::Kind::kLiteral) all_literals = false;
  }
  if (!all_literals) {
    cp::Expression any = cp::literal(false);
    for (size_t i = 1; i < args.size(); ++i) {
      any = cp::call("or_kleene", {any, cp::call("equal", {args[0], args[i]})});
    }
    return any;
  }
  ARROW_ASSIGN_OR_RAISE(auto builder, arrow::MakeBuilder(expr.args[0]->type));
  for (size_t i = 1; i < expr.args.size(); ++i) {
    ARROW_RETURN_NOT_OK(builder->AppendScalar(*expr.args[i]->literal));
  }
  ARROW_ASSIGN_OR_RAISE(auto value_set, builder->Finish());
  cp::SetLookupOptions options(value_set, cp::SetLookupOptions::INCONCLUSIVE);
  return cp::call("is_in", {args[0]}, std::move(options));
}

Result<cp::Expression> LowerCall(const BoundExpr& expr) {
  std::vector<cp::Expression> args;
  for (const auto& arg : expr.args) {
    ARROW_ASSIGN_OR_RAISE(auto lowered, LowerExpression(*arg));
    args.push_back(std::move(lowered));
  }
  const std::string& f = expr.function;
  static const std::map<std::string, std::string> kDirect = {
      {"=", "equal"},          {"<>", "not_equal"},        {"<", "less"},
      {"<=", "less_equal"},    {">", "greater"},           {">=", "greater_equal"},
      {"AND", "and_kleene"},   {"OR", "or_kleene"},        {"NOT", "invert"},
      {"IS_NULL", "is_null"},  {"IS_NOT_NULL", "is_valid"}, {"+", "add_checked"},
      {"-", "subtract_checked"}, {"*", "multiply_checked"}, {"/", "divide_checked"},
      {"DIV", "divide_checked"}, {"NEGATE", "negate_checked"}, {"~", "bit_wise_not"},
      {"&", "bit_wise_and"},   {"|", "bit_wise_or"},       {"^", "bit_wise_xor"},
      {"COALESCE", "coalesce"}, {"upper", "utf8_upper"},   {"lower", "utf8_lower"},
      {"length", "utf8_length"}, {"abs", "abs_checked"}};
  if (auto it = kDirect.find(f); it != kDirect.end()) {
    cp::Expression call = cp::call(it->second, std::move(args));
    if (expr.type->id() == arrow::Type::DECIMAL128) {
      // Arrow's decimal result precision differs from Spark's; settle on Spark's type.
      call = cp::call("cast", {call}, cp::CastOptions::Safe(expr.type));
    }
    return call;
  }
  if (f == "<=>") {
    auto both_null = cp::call("and_kleene", {cp::call("is_null", {args[0]}),
                                             cp::call("is_null", {args[1]})});
    return cp::call("coalesce", {cp::call("equal", {args[0], args[1]}), both_null});
  }
  if (f == "%") {
    bool integral = arrow::is_integer(expr.type->id());
    auto quotient = cp::call("divide_checked", {args[0], args[1]});
    if (!integral) quotient = cp::call("trunc", {quotient});
    auto result = cp::call("subtract_checked",
                           {args[0], cp::call("multiply_checked", {quotient, args[1]})});
    if (expr.type->id() == arrow::Type::DECIMAL128) {
      result = cp::call("cast", {result}, cp::CastOptions::Safe(expr.type));
    }
    return result;
  }
  if (f == "||") {
    return cp::call("binary_join_element_wise", {args[0], args[1], cp::literal("")});
  }
  if (f == "IN") return LowerIn(expr, args);
  if (f == "CAST") {
    // ANSI casts fail on overflow and bad input but drop fractions, as Spark does.
    cp::CastOptions options = cp::CastOptions::Safe(expr.type);
    options.allow_decimal_truncate = true;
    options.allow_float_truncate = true;
    const auto& target = static_cast<const arrow::TimestampType*>(expr.type.get());
    if (expr.type->id() == arrow::Type::TIMESTAMP && !target->timezone().empty() &&
        expr.args[0]->type->id() == arrow::Type::STRING) {
      // Text without an offset is a wall-clock time in the session time zone (UTC).
      auto local = cp::call("cast", {args[0]},
                            cp::CastOptions::Safe(arrow::timestamp(target->unit())));
      return cp::call("cast", {local}, std::move(options));
    }
    return cp::call("cast", {args[0]}, std::move(options));
  }
  if (f == "STARTS_WITH" || f == "ENDS_WITH" || f == "CONTAINS" || f == "LIKE" ||
      f == "ILIKE" || f == "RLIKE") {
    static const std::map<std::string, std::string> kMatch = {
        {"STARTS_WITH", "starts_with"}, {"ENDS_WITH", "ends_with"},
        {"CONTAINS", "match_substring"}, {"LIKE", "match_like"},
        {"ILIKE", "match_like"},        {"RLIKE", "match_substring_regex"}};
    cp::MatchSubstringOptions options(ScalarText(*expr.args[1]), f == "ILIKE");
    return cp::call(kMatch.at(f), {args[0]}, std::move(options));
  }
  if (f == "trim" || f == "ltrim" || f == "rtrim") {
    const char* kernel = f == "trim" ? "utf8_trim" : f == "ltrim" ? "utf8_ltrim" : "utf8_rtrim";
    return cp::call(kernel, {args[0]}, cp::TrimOptions(" "));
  }
  if (f == "CASE_WHEN") {
    size_t pairs = (args.size() - (expr.has_else ? 1 : 0)) / 2;
    std::vector<cp::Expression> conditions;
    std::vector<std::string> names;
    std::vector<cp::Expression> case_args;
    for (size_t i = 0; i < pairs; ++i) {
      conditions.push_back(args[2 * i]);
      names.push_back(fmt::format("c{}", i));
    }
    case_args.push_back(
        cp::call("make_struct", std::move(conditions), cp::MakeStructOptions(names)));
    for (size_t i = 0; i < pairs; ++i) case_args.push_back(args[2 * i + 1]);
    if (expr.has_else) case_args.push_back(args.back());
    return cp::call("case_when", std::move(case_args));
  }
  return MakeError(arrow::StatusCode::NotImplemented, "UNSUPPORTED_FEATURE.EXPRESSION",
                   fmt::format("The expression {} cannot be evaluated yet.", expr.ToString()));
}

}  // namespace

Result<arrow::compute::Expression> LowerExpression(const BoundExpr& expr) {
  switch (expr.kind) {
    case BoundExpr::Kind::kColumn:
      return cp::field_ref(expr.field);
    case BoundExpr::Kind::kLiteral:
      return cp::literal(arrow::Datum(expr.literal));
    case BoundExpr::Kind::kCall:
      return LowerCall(expr);
  }
  return Status::Invalid("unknown bound expression kind");
}

Status ToSparkError(const Status& status) {
  if (status.ok() || !ErrorCondition(status).empty()) return status;
  const std::string& message = status.message();
  auto contains = [&](const char* text) { return message.find(text) != std::string::npos; };
  if (contains("divide by zero")) {
    return MakeError(status.code(), "DIVIDE_BY_ZERO",
                     "Division by zero. Use `try_divide` to tolerate divisor being 0 and return "
                     "NULL instead. (" + message + ")");
  }
  if (contains("overflow")) {
    return MakeError(status.code(), "ARITHMETIC_OVERFLOW", message);
  }
  if (contains("Failed to parse") || contains("Invalid value") || contains("invalid value")) {
    return MakeError(status.code(), "CAST_INVALID_INPUT", message);
  }
  if (contains("would lose data") || contains("out of bounds") || contains("not in range")) {
    return MakeError(status.code(), "CAST_OVERFLOW", message);
  }
  return MakeError(status.code(), "INTERNAL_ERROR", message);
}

}  // namespace parley
