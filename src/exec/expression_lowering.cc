// BoundExpr -> arrow::compute::Expression. Each Spark-named function maps to the Arrow kernel
// with the same SQL meaning; where none exists (<=>, %, DIV) the meaning is composed from
// kernels that do.
#include "exec/expression_lowering.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

#include "arrow/array/builder_base.h"
#include "arrow/compute/api.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "exec/error_free.h"
#include "exec/executor.h"
#include "exec/scalar_subquery_value.h"
#include "functions/function_registry.h"
#include "kernels/conditional_kernels.h"
#include "kernels/connector_function.h"
#include "kernels/expression_kernels.h"
#include "kernels/higher_order_kernels.h"
#include "plan/lambda_function.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

std::string ScalarText(const BoundExpr& literal) {
  return static_cast<const arrow::StringScalar&>(*literal.literal).ToString();
}

bool IsFloatingPoint(const arrow::DataType& type) {
  return type.id() == arrow::Type::DOUBLE || type.id() == arrow::Type::FLOAT;
}

// A comparison of floating-point values as Spark orders them: NaN equals NaN and is above
// every other value (Arrow follows IEEE, where NaN compares false). NULL stays NULL.
std::optional<cp::Expression> LowerFloatComparison(const std::string& f, cp::Expression a,
                                                   cp::Expression b) {
  auto nan = [](const cp::Expression& x) { return cp::call("is_nan", {x}); };
  auto both_nan = [&] { return cp::call("and_kleene", {nan(a), nan(b)}); };
  // x < y: IEEE's answer, or y alone is NaN.
  auto less = [&](const cp::Expression& x, const cp::Expression& y) {
    return cp::call("or_kleene", {cp::call("less", {x, y}),
                                  cp::call("and_kleene", {cp::call("invert", {nan(x)}), nan(y)})});
  };
  // x <= y: IEEE's answer, or y is NaN (and x is not NULL).
  auto less_equal = [&](const cp::Expression& x, const cp::Expression& y) {
    return cp::call("or_kleene", {cp::call("less_equal", {x, y}),
                                  cp::call("and_kleene", {cp::call("is_valid", {x}), nan(y)})});
  };
  if (f == "=") return cp::call("or_kleene", {cp::call("equal", {a, b}), both_nan()});
  if (f == "<>") {
    return cp::call("and_kleene",
                    {cp::call("not_equal", {a, b}), cp::call("invert", {both_nan()})});
  }
  if (f == "<") return less(a, b);
  if (f == ">") return less(b, a);
  if (f == "<=") return less_equal(a, b);
  if (f == ">=") return less_equal(b, a);
  return std::nullopt;
}

Result<cp::Expression> LowerIn(const BoundExpr& expr, const std::vector<cp::Expression>& args) {
  bool all_literals = true;
  for (size_t i = 1; i < expr.args.size(); ++i) {
    if (expr.args[i]->kind != BoundExpr::Kind::kLiteral) all_literals = false;
  }
  const bool floating = IsFloatingPoint(*expr.args[0]->type);
  if (!all_literals) {
    cp::Expression any = cp::literal(false);
    for (size_t i = 1; i < args.size(); ++i) {
      auto equal = floating && IsFloatingPoint(*expr.args[i]->type)
                       ? *LowerFloatComparison("=", args[0], args[i])
                       : cp::call("equal", {args[0], args[i]});
      any = cp::call("or_kleene", {any, std::move(equal)});
    }
    return any;
  }
  ARROW_ASSIGN_OR_RAISE(auto builder, arrow::MakeBuilder(expr.args[0]->type));
  for (size_t i = 1; i < expr.args.size(); ++i) {
    ARROW_RETURN_NOT_OK(builder->AppendScalar(*expr.args[i]->literal));
  }
  ARROW_ASSIGN_OR_RAISE(auto value_set, builder->Finish());
  cp::SetLookupOptions options(value_set, cp::SetLookupOptions::INCONCLUSIVE);
  auto found = cp::call("is_in", {args[0]}, std::move(options));
  // Arrow's set lookup finds no NaN; Spark's NaN equals NaN.
  if (floating) {
    ARROW_ASSIGN_OR_RAISE(auto has_nan, cp::CallFunction("is_nan", {value_set}));
    ARROW_ASSIGN_OR_RAISE(auto any_nan, cp::CallFunction("any", {has_nan}));
    if (any_nan.scalar_as<arrow::BooleanScalar>().value) {
      found = cp::call("or_kleene", {std::move(found), cp::call("is_nan", {args[0]})});
    }
  }
  return found;
}

Result<cp::Expression> LowerCallWith(const BoundExpr& expr, std::vector<cp::Expression> args);

// A cast between two arrays, two maps or two structs.
bool IsNestedCast(const BoundExpr& expr) {
  auto id = expr.type->id();
  return id == expr.args[0]->type->id() &&
         (id == arrow::Type::LIST || id == arrow::Type::MAP || id == arrow::Type::STRUCT);
}

// `expr` with each reference to the field `name` replaced by `by`.
cp::Expression ReplaceFieldRef(const cp::Expression& expr, const std::string& name,
                               const cp::Expression& by) {
  if (const auto* ref = expr.field_ref()) {
    return ref->name() != nullptr && *ref->name() == name ? by : expr;
  }
  if (const auto* call = expr.call()) {
    std::vector<cp::Expression> args;
    for (const auto& arg : call->arguments) args.push_back(ReplaceFieldRef(arg, name, by));
    return cp::call(call->function_name, std::move(args), call->options);
  }
  return expr;
}

// `cast` (CAST or TRY_CAST) of each part of a value from `from` to `to`, the part read from
// the field `field`.
Result<cp::Expression> LowerPartCast(const std::string& cast,
                                     const std::shared_ptr<arrow::DataType>& from,
                                     const std::shared_ptr<arrow::DataType>& to,
                                     const std::string& field) {
  auto part = MakeColumnRef(field, field, from);
  return LowerExpression(*MakeCall(cast, {part}, to));
}

// Casts between arrays, maps or structs as Spark's: each element, key and value cast as a value
// of its own type is (so with Spark's errors; TRY_CAST makes NULL only the parts that fail),
// struct fields by position.
Result<cp::Expression> LowerNestedCast(const BoundExpr& expr, cp::Expression value) {
  const std::string& cast = expr.function;
  const auto& from = expr.args[0]->type;
  const auto& to = expr.type;
  if (from->Equals(*to)) return value;
  if (to->id() == arrow::Type::LIST) {
    auto field = NewLambdaVariableField("element");
    ARROW_ASSIGN_OR_RAISE(auto element,
                          LowerPartCast(cast, from->field(0)->type(), to->field(0)->type(), field));
    return HigherOrderCall(HigherOrder::kTransform, {std::move(value)}, {{element, {field}}});
  }
  if (to->id() == arrow::Type::MAP) {
    const auto& source = static_cast<const arrow::MapType&>(*from);
    const auto& target = static_cast<const arrow::MapType&>(*to);
    auto key = NewLambdaVariableField("key");
    auto item = NewLambdaVariableField("value");
    ARROW_ASSIGN_OR_RAISE(auto cast_item,
                          LowerPartCast(cast, source.item_type(), target.item_type(), item));
    auto items = HigherOrderCall(HigherOrder::kTransformValues, {std::move(value)},
                                 {{cast_item, {key, item}}});
    if (source.key_type()->Equals(*target.key_type())) return items;
    ARROW_ASSIGN_OR_RAISE(auto cast_key,
                          LowerPartCast(cast, source.key_type(), target.key_type(), key));
    return HigherOrderCall(HigherOrder::kTransformKeys, {std::move(items)},
                           {{cast_key, {key, item}}});
  }
  // Structs: field i of the result is field i of the value, cast; a NULL struct stays NULL.
  std::vector<cp::Expression> fields;
  std::vector<std::string> names;
  for (int i = 0; i < to->num_fields(); ++i) {
    auto field = cp::call("struct_field", {value}, cp::StructFieldOptions({i}));
    auto part_field = NewLambdaVariableField("field");
    ARROW_ASSIGN_OR_RAISE(
        auto part, LowerPartCast(cast, from->field(i)->type(), to->field(i)->type(), part_field));
    // The field's cast, reading the field itself where it read the part.
    fields.push_back(ReplaceFieldRef(part, part_field, field));
    names.push_back(to->field(i)->name());
  }
  auto made = cp::call("make_struct", std::move(fields), cp::MakeStructOptions(names));
  return cp::call("if_else", {cp::call("is_null", {value}), cp::literal(arrow::MakeNullScalar(to)),
                              std::move(made)});
}

// Spark's decimal +, -, NEGATE or * computed on 128-bit decimals, when they can be: a sum,
// difference or negation whose exact result type fits in 38 digits (it is then Spark's type,
// and nothing can overflow), or a product (parley_decimal_multiply checks each value against
// Spark's type and widens only the values that overflow 128 bits). Otherwise nothing.
std::optional<cp::Expression> LowerNarrowDecimal(const BoundExpr& expr, const std::string& function,
                                                 const std::vector<cp::Expression>& args) {
  for (const auto& arg : expr.args) {
    if (arg->type->id() != arrow::Type::DECIMAL128) return std::nullopt;
  }
  const auto& result = static_cast<const arrow::DecimalType&>(*expr.type);
  if (expr.function == "*" && args.size() == 2) {
    const auto scale_of = [](const BoundExpr& factor) {
      return static_cast<const arrow::DecimalType&>(*factor.type).scale();
    };
    if (result.scale() > scale_of(*expr.args[0]) + scale_of(*expr.args[1])) return std::nullopt;
    return cp::call(
        "parley_decimal_multiply",
        {args[0], args[1],
         cp::literal(std::make_shared<arrow::Decimal128Scalar>(arrow::Decimal128(0), expr.type))});
  }
  if (!IsExactDecimalAdditive(expr)) return std::nullopt;
  if (expr.function == "NEGATE") return cp::call(function, args);
  // The marker, a valid zero of the result type (a NULL one would make every row NULL).
  return cp::call(
      expr.function == "+" ? "parley_decimal_add" : "parley_decimal_subtract",
      {args[0], args[1],
       cp::literal(std::make_shared<arrow::Decimal128Scalar>(arrow::Decimal128(0), expr.type))});
}

// The operations that fail at run time in ANSI mode; their errors name the expression.
bool CanFail(const std::string& f) {
  static const char* kFailing[] = {"+", "-", "*", "/", "%", "pmod", "DIV", "NEGATE", "CAST", "abs"};
  return std::any_of(std::begin(kFailing), std::end(kFailing),
                     [&](const char* name) { return f == name; });
}

// `expr` (renamed `function`) lowered over the fields that stand for its arguments inside an
// evaluating call (kernels/expression_kernels.h).
Result<cp::Expression> LowerOverArgumentFields(const BoundExpr& expr, const std::string& function) {
  auto inner = std::make_shared<BoundExpr>(expr);
  inner->function = function;
  std::vector<cp::Expression> fields;
  for (size_t i = 0; i < inner->args.size(); ++i) {
    if (inner->args[i]->kind != BoundExpr::Kind::kLiteral) {
      inner->args[i] = MakeColumnRef(ArgumentField(i), ArgumentField(i), inner->args[i]->type);
    }
    fields.push_back(inner->args[i]->kind == BoundExpr::Kind::kLiteral
                         ? cp::literal(arrow::Datum(inner->args[i]->literal))
                         : cp::field_ref(ArgumentField(i)));
  }
  return LowerCallWith(*inner, std::move(fields));
}

// The factors of a decimal product, a widening cast's input instead of the cast while the
// factors' scales still reach the product's: the product kernel multiplies unscaled values and
// rounds to the product's scale, so the product is the same and the cast's copy is saved.
void StripWideningFactors(const BoundExpr& product, std::vector<cp::Expression>* factors) {
  if (product.function != "*" || factors->size() != 2 ||
      product.type->id() != arrow::Type::DECIMAL128) {
    return;
  }
  auto scale_of = [](const BoundExpr& factor) -> std::optional<int> {
    if (factor.type->id() != arrow::Type::DECIMAL128) return std::nullopt;
    return static_cast<const arrow::DecimalType&>(*factor.type).scale();
  };
  auto left = scale_of(*product.args[0]);
  auto right = scale_of(*product.args[1]);
  if (!left || !right) return;
  int scale_sum = *left + *right;
  const int result_scale = static_cast<const arrow::DecimalType&>(*product.type).scale();
  for (size_t i = 0; i < factors->size(); ++i) {
    const BoundExpr& factor = *product.args[i];
    const cp::Expression::Call* call = (*factors)[i].call();
    if (!IsWideningDecimalCast(factor) || call == nullptr ||
        call->function_name != "parley_decimal_widen") {
      continue;
    }
    int narrower_sum = scale_sum - *scale_of(factor) + *scale_of(*factor.args[0]);
    if (narrower_sum < result_scale) continue;
    (*factors)[i] = call->arguments[0];
    scale_sum = narrower_sum;
  }
}

// A CASE WHEN or COALESCE where something Spark evaluates only for some rows (a branch's
// value, a condition after the first, an argument after the first) can fail: it is evaluated
// lazily (kernels/conditional_kernels.h), so that rows that do not reach it cannot fail.
// Otherwise Arrow's case_when or coalesce, which evaluate every argument on every row, serve.
bool NeedsLazyEvaluation(const BoundExpr& expr) {
  return (expr.function == "CASE_WHEN" || expr.function == "COALESCE") &&
         std::any_of(expr.args.begin() + 1, expr.args.end(),
                     [](const BoundExprPtr& arg) { return !IsErrorFree(*arg); });
}

Result<cp::Expression> LowerLazyConditional(const BoundExpr& expr,
                                            std::vector<cp::Expression> args) {
  if (expr.function == "COALESCE") return LazyCoalesceCall(std::move(args), expr.type);
  std::optional<cp::Expression> otherwise;
  if (expr.has_else) {
    otherwise = std::move(args.back());
    args.pop_back();
  }
  std::vector<cp::Expression> conditions;
  std::vector<cp::Expression> values;
  for (size_t i = 0; i + 1 < args.size(); i += 2) {
    conditions.push_back(std::move(args[i]));
    values.push_back(std::move(args[i + 1]));
  }
  return LazyCaseWhenCall(std::move(conditions), std::move(values), std::move(otherwise),
                          expr.type);
}

Result<cp::Expression> LowerCall(const BoundExpr& expr) {
  ARROW_RETURN_NOT_OK(EnsureComputeInitialized());
  if (expr.function == "TRY_CAST" && IsNestedCast(expr)) {
    ARROW_ASSIGN_OR_RAISE(auto value, LowerExpression(*expr.args[0]));
    return LowerNestedCast(expr, std::move(value));
  }
  // TRY(call) and TRY_CAST: the call's rows that fail are NULL.
  const BoundExpr& evaluated = expr.function == "TRY" ? *expr.args[0] : expr;
  std::vector<cp::Expression> args;
  for (const auto& arg : evaluated.args) {
    ARROW_ASSIGN_OR_RAISE(auto lowered, LowerExpression(*arg));
    args.push_back(std::move(lowered));
  }
  if (expr.connector_function != nullptr) {
    return cp::call(kConnectorFunction, std::move(args),
                    ConnectorFunctionOptions(expr.connector_function));
  }
  if (expr.function == "TRY" || expr.function == "TRY_CAST") {
    std::string function = expr.function == "TRY" ? evaluated.function : "CAST";
    ARROW_ASSIGN_OR_RAISE(auto inner, LowerOverArgumentFields(evaluated, function));
    return TryCall(std::move(inner), std::move(args));
  }
  if (CanFail(expr.function) && !args.empty() && !IsWideningDecimalCast(expr) &&
      !IsExactDecimalAdditive(expr)) {
    StripWideningFactors(expr, &args);
    ARROW_ASSIGN_OR_RAISE(auto inner, LowerOverArgumentFields(expr, expr.function));
    // Spark names an overflow of TINYINT or SMALLINT arithmetic BINARY_ARITHMETIC_OVERFLOW
    // (the only way those operators fail).
    const auto id = expr.type->id();
    const bool narrow = (id == arrow::Type::INT8 || id == arrow::Type::INT16) &&
                        (expr.function == "+" || expr.function == "-" || expr.function == "*");
    return GuardCall(std::move(inner), std::move(args), expr.ToString(),
                     narrow ? "BINARY_ARITHMETIC_OVERFLOW" : "");
  }
  return LowerCallWith(expr, std::move(args));
}

Result<cp::Expression> LowerCallWith(const BoundExpr& expr, std::vector<cp::Expression> args) {
  const std::string& f = expr.function;
  if (const Lowering* lowering = FunctionRegistry::Builtin().FindLowering(f)) {
    return (*lowering)(expr, std::move(args));
  }
  if (NeedsLazyEvaluation(expr)) return LowerLazyConditional(expr, std::move(args));
  if (f == "DIV" && expr.args[0]->type->id() == arrow::Type::DECIMAL128 &&
      expr.args[1]->type->id() == arrow::Type::DECIMAL128) {
    return cp::call("parley_decimal_integral_divide", {args[0], args[1]});
  }
  if ((f == "/" || f == "%") && expr.type->id() == arrow::Type::DECIMAL128 &&
      expr.args[0]->type->id() == arrow::Type::DECIMAL128 &&
      expr.args[1]->type->id() == arrow::Type::DECIMAL128) {
    // The marker, a NULL of the result type, gives the kernel Spark's type.
    auto marker = cp::literal(arrow::MakeNullScalar(expr.type));
    return cp::call(f == "/" ? "parley_decimal_divide" : "parley_decimal_mod",
                    {args[0], args[1], marker});
  }
  static const std::map<std::string, std::string> kDirect = {{"=", "equal"},
                                                             {"<>", "not_equal"},
                                                             {"<", "less"},
                                                             {"<=", "less_equal"},
                                                             {">", "greater"},
                                                             {">=", "greater_equal"},
                                                             {"AND", "and_kleene"},
                                                             {"OR", "or_kleene"},
                                                             {"NOT", "invert"},
                                                             {"IS_NULL", "is_null"},
                                                             {"IS_NOT_NULL", "is_valid"},
                                                             {"+", "add_checked"},
                                                             {"-", "subtract_checked"},
                                                             {"*", "multiply_checked"},
                                                             {"/", "divide_checked"},
                                                             {"DIV", "divide_checked"},
                                                             {"NEGATE", "negate_checked"},
                                                             {"~", "bit_wise_not"},
                                                             {"&", "bit_wise_and"},
                                                             {"|", "bit_wise_or"},
                                                             {"^", "bit_wise_xor"},
                                                             {"COALESCE", "coalesce"}};
  if (auto it = kDirect.find(f); it != kDirect.end()) {
    if (args.size() == 2 && IsFloatingPoint(*expr.args[0]->type) &&
        IsFloatingPoint(*expr.args[1]->type)) {
      if (auto compared = LowerFloatComparison(f, args[0], args[1])) return std::move(*compared);
    }
    if (expr.type->id() != arrow::Type::DECIMAL128) return cp::call(it->second, std::move(args));
    if (auto narrow = LowerNarrowDecimal(expr, it->second, args)) return std::move(*narrow);
    // Arrow types decimal arithmetic its own way (a product of two DECIMAL(38) needs 77
    // digits), so compute in 256 bits and settle on Spark's type, which caps precision at 38.
    // A product's precision is the sum of the operands' plus one, which must stay within 76
    // digits. (Division has its own kernel, above.)
    for (size_t i = 0; i < args.size(); ++i) {
      const auto& type = expr.args[i]->type;
      if (type->id() != arrow::Type::DECIMAL128) continue;
      const auto& dec = static_cast<const arrow::DecimalType&>(*type);
      int precision = dec.precision();
      int scale = dec.scale();
      if (f == "*") precision = std::min(precision, 37);
      args[i] =
          cp::call("cast", {args[i]}, cp::CastOptions::Safe(arrow::decimal256(precision, scale)));
    }
    // Arrow's exact result has the scale of the operands (their sum for a product); where
    // Spark's type has fewer fraction digits, round half up to them before settling.
    int exact_scale = 0;
    for (const auto& arg : expr.args) {
      if (arg->type->id() != arrow::Type::DECIMAL128) continue;
      int scale = static_cast<const arrow::DecimalType&>(*arg->type).scale();
      exact_scale = f == "*" ? exact_scale + scale : std::max(exact_scale, scale);
    }
    int result_scale = static_cast<const arrow::DecimalType&>(*expr.type).scale();
    cp::Expression value = cp::call(it->second, std::move(args));
    if (exact_scale > result_scale) {
      value = cp::call("round", {value},
                       cp::RoundOptions(result_scale, cp::RoundMode::HALF_TOWARDS_INFINITY));
    }
    // Drop the fraction digits rounding zeroed, then check the precision of Spark's type
    // (a cast allowed to truncate checks no precision).
    if (exact_scale > result_scale) {
      cp::CastOptions rescale = cp::CastOptions::Safe(
          arrow::decimal256(arrow::Decimal256Type::kMaxPrecision, result_scale));
      rescale.allow_decimal_truncate = true;
      value = cp::call("cast", {value}, std::move(rescale));
    }
    return cp::call("cast", {value}, cp::CastOptions::Safe(expr.type));
  }
  if (f == "<=>") {
    auto both_null =
        cp::call("and_kleene", {cp::call("is_null", {args[0]}), cp::call("is_null", {args[1]})});
    auto equal = IsFloatingPoint(*expr.args[0]->type) && IsFloatingPoint(*expr.args[1]->type)
                     ? *LowerFloatComparison("=", args[0], args[1])
                     : cp::call("equal", {args[0], args[1]});
    return cp::call("coalesce", {std::move(equal), both_null});
  }
  if (f == "%" || f == "pmod") {
    return cp::call(f == "%" ? "parley_remainder" : "parley_pmod", std::move(args));
  }
  if (f == "||") {
    return cp::call("binary_join_element_wise", {args[0], args[1], cp::literal("")});
  }
  if (f == "IN") return LowerIn(expr, args);
  if (f == "SCALAR_SUBQUERY_VALUE") {
    ARROW_RETURN_NOT_OK(EnsureComputeInitialized());
    return cp::call(kScalarSubqueryValueFunction, std::move(args));
  }
  if (f == "CAST" && expr.type->id() == arrow::Type::STRING &&
      (expr.args[0]->type->id() == arrow::Type::LIST ||
       expr.args[0]->type->id() == arrow::Type::MAP ||
       expr.args[0]->type->id() == arrow::Type::STRUCT)) {
    return cp::call("parley_value_text", {args[0]});
  }
  if (f == "CAST" && IsNestedCast(expr)) return LowerNestedCast(expr, args[0]);
  if (f == "CAST") {
    // ANSI casts fail on overflow and bad input but drop fractions, as Spark does.
    cp::CastOptions options = cp::CastOptions::Safe(expr.type);
    options.allow_decimal_truncate = true;
    options.allow_float_truncate = true;
    const auto from = expr.args[0]->type->id();
    const auto to = expr.type->id();
    auto marker = cp::literal(arrow::MakeNullScalar(expr.type));
    // Text as Spark reads it (string_cast_kernels.cc).
    if (from == arrow::Type::STRING) {
      const char* kernel = arrow::is_integer(to)           ? "parley_string_to_integral"
                           : arrow::is_floating(to)        ? "parley_string_to_floating"
                           : to == arrow::Type::DECIMAL128 ? "parley_string_to_decimal"
                           : to == arrow::Type::BOOL       ? "parley_string_to_boolean"
                           : to == arrow::Type::DATE32     ? "parley_string_to_date"
                                                           : nullptr;
      if (kernel != nullptr) return cp::call(kernel, {args[0], marker});
    }
    if (from == arrow::Type::DECIMAL128 && to == arrow::Type::STRING) {
      return cp::call("parley_decimal_text", {args[0]});
    }
    if (from == arrow::Type::DECIMAL128 && arrow::is_floating(to)) {
      return cp::call("parley_decimal_to_floating", {args[0], marker});
    }
    // Booleans and decimals: zero is false, true is one.
    if (from == arrow::Type::DECIMAL128 && to == arrow::Type::BOOL) {
      return cp::call("not_equal", {args[0], cp::literal(std::make_shared<arrow::Decimal128Scalar>(
                                                 arrow::Decimal128(0), expr.args[0]->type))});
    }
    if (from == arrow::Type::BOOL && to == arrow::Type::DECIMAL128) {
      auto one = cp::call("cast", {args[0]}, cp::CastOptions::Safe(arrow::int8()));
      return cp::call("cast",
                      {cp::call("cast", {one}, cp::CastOptions::Safe(arrow::decimal128(38, 0)))},
                      cp::CastOptions::Safe(expr.type));
    }
    // Floating point to integral or decimal types, as Spark converts (numeric_cast_kernels.cc).
    if ((from == arrow::Type::DOUBLE || from == arrow::Type::FLOAT) &&
        (arrow::is_integer(expr.type->id()) || expr.type->id() == arrow::Type::DECIMAL128)) {
      return cp::call(arrow::is_integer(expr.type->id()) ? "parley_float_to_integral"
                                                         : "parley_float_to_decimal",
                      {args[0], marker});
    }
    // Arrow casts an integer only to a decimal wide enough for the whole integer type; Spark
    // checks each value instead. Go through DECIMAL(38, 0), whose rescale checks each value.
    if (expr.type->id() == arrow::Type::DECIMAL128 && arrow::is_integer(expr.args[0]->type->id())) {
      auto wide = cp::call("cast", {args[0]}, cp::CastOptions::Safe(arrow::decimal128(38, 0)));
      return cp::call("cast", {wide}, cp::CastOptions::Safe(expr.type));
    }
    // Decimal to decimal: Spark rounds half away from zero to the new scale and fails when the
    // value then needs more digits than the new precision; Arrow's exact rescale checks the
    // precision.
    if (expr.type->id() == arrow::Type::DECIMAL128 && arrow::is_decimal(expr.args[0]->type->id())) {
      const auto& from = static_cast<const arrow::DecimalType&>(*expr.args[0]->type);
      const auto& to = static_cast<const arrow::DecimalType&>(*expr.type);
      if (to.scale() >= from.scale()) return WidenDecimal(args[0], from, expr.type);
      // Rounded in 256 bits, where rounding up cannot leave the type (99.99 -> 100).
      cp::Expression value = cp::call("cast", {args[0]},
                                      cp::CastOptions::Safe(arrow::decimal256(
                                          arrow::Decimal256Type::kMaxPrecision, from.scale())));
      value = cp::call("round", {value},
                       cp::RoundOptions(to.scale(), cp::RoundMode::HALF_TOWARDS_INFINITY));
      cp::CastOptions rescale = cp::CastOptions::Safe(
          arrow::decimal256(arrow::Decimal256Type::kMaxPrecision, to.scale()));
      rescale.allow_decimal_truncate = true;  // the digits dropped are zeros after rounding
      value = cp::call("cast", {value}, std::move(rescale));
      return cp::call("cast", {value}, cp::CastOptions::Safe(expr.type));
    }
    // Timestamps and numbers or text as Spark converts them, on microseconds
    // (timestamp_cast_kernels.cc).
    auto in_micros = [](const arrow::DataType& type) {
      return arrow::timestamp(arrow::TimeUnit::MICRO,
                              static_cast<const arrow::TimestampType&>(type).timezone());
    };
    const bool numeric_to =
        arrow::is_integer(to) || arrow::is_floating(to) || to == arrow::Type::DECIMAL128;
    const bool numeric_from =
        arrow::is_integer(from) || arrow::is_floating(from) || from == arrow::Type::DECIMAL128;
    if (from == arrow::Type::DATE32 && to == arrow::Type::STRING) {
      return cp::call("parley_date_text", {args[0]});
    }
    if (from == arrow::Type::TIMESTAMP && (to == arrow::Type::STRING || numeric_to)) {
      auto micros =
          cp::call("cast", {args[0]}, cp::CastOptions::Safe(in_micros(*expr.args[0]->type)));
      if (to == arrow::Type::STRING) return cp::call("parley_timestamp_text", {micros});
      if (arrow::is_integer(to)) return cp::call("parley_timestamp_to_integral", {micros, marker});
      auto seconds = cp::call("parley_timestamp_to_double", {micros});
      if (to == arrow::Type::DOUBLE) return seconds;
      if (to == arrow::Type::FLOAT) {
        return cp::call("cast", {seconds}, cp::CastOptions::Safe(arrow::float32()));
      }
      return cp::call("parley_float_to_decimal", {seconds, marker});
    }
    if (to == arrow::Type::TIMESTAMP && numeric_from) {
      auto micros = cp::call("parley_to_timestamp",
                             {args[0], cp::literal(arrow::MakeNullScalar(in_micros(*expr.type)))});
      return cp::call("cast", {micros}, std::move(options));
    }
    // Floating point reads as Spark writes it (1.0, 1.0E10), not as Arrow does (1, 1e+10).
    if (expr.type->id() == arrow::Type::STRING &&
        (expr.args[0]->type->id() == arrow::Type::DOUBLE ||
         expr.args[0]->type->id() == arrow::Type::FLOAT)) {
      return cp::call("parley_float_text", {args[0]});
    }
    if (to == arrow::Type::TIMESTAMP && from == arrow::Type::STRING &&
        !static_cast<const arrow::TimestampType&>(*expr.type).timezone().empty()) {
      const auto& target = static_cast<const arrow::TimestampType&>(*expr.type);
      // Text without an offset is a wall-clock time in the session time zone (UTC).
      auto local =
          cp::call("cast", {args[0]}, cp::CastOptions::Safe(arrow::timestamp(target.unit())));
      return cp::call("cast", {local}, std::move(options));
    }
    return cp::call("cast", {args[0]}, std::move(options));
  }
  if (f == "STARTS_WITH" || f == "ENDS_WITH" || f == "CONTAINS" || f == "LIKE" || f == "ILIKE" ||
      f == "RLIKE") {
    static const std::map<std::string, std::string> kMatch = {
        {"STARTS_WITH", "starts_with"},  {"ENDS_WITH", "ends_with"},
        {"CONTAINS", "match_substring"}, {"LIKE", "match_like"},
        {"ILIKE", "match_like"},         {"RLIKE", "match_substring_regex"}};
    cp::MatchSubstringOptions options(ScalarText(*expr.args[1]), f == "ILIKE");
    return cp::call(kMatch.at(f), {args[0]}, std::move(options));
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
    case BoundExpr::Kind::kColumn: return cp::field_ref(expr.field);
    case BoundExpr::Kind::kLiteral: return cp::literal(arrow::Datum(expr.literal));
    case BoundExpr::Kind::kCall: return LowerCall(expr);
  }
  return Status::Invalid("unknown bound expression kind");
}

Result<cp::Expression> WidenDecimal(cp::Expression value, const arrow::DataType& from,
                                    const std::shared_ptr<arrow::DataType>& to) {
  ARROW_RETURN_NOT_OK(EnsureComputeInitialized());
  const auto& source = static_cast<const arrow::DecimalType&>(from);
  const auto& target = static_cast<const arrow::DecimalType&>(*to);
  if (target.scale() < source.scale() ||
      target.precision() - target.scale() < source.precision() - source.scale()) {
    return cp::call("cast", {std::move(value)}, cp::CastOptions::Safe(to));
  }
  return cp::call("parley_decimal_widen",
                  {std::move(value), cp::literal(arrow::MakeNullScalar(to))});
}

cp::Expression NormalizedKey(cp::Expression key, const arrow::DataType& type) {
  if (!IsFloatingPoint(type)) return key;
  // Adding zero turns -0.0 into 0.0 and leaves every other value as it is.
  std::shared_ptr<arrow::Scalar> zero, nan;
  if (type.id() == arrow::Type::DOUBLE) {
    zero = arrow::MakeScalar(0.0);
    nan = arrow::MakeScalar(std::numeric_limits<double>::quiet_NaN());
  } else {
    zero = arrow::MakeScalar(0.0f);
    nan = arrow::MakeScalar(std::numeric_limits<float>::quiet_NaN());
  }
  return cp::call("if_else", {cp::call("is_nan", {key}), cp::literal(nan),
                              cp::call("add", {key, cp::literal(zero)})});
}

}  // namespace parley
