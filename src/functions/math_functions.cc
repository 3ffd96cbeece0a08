// Math functions with Spark's result types: abs, sign, round / bround (HALF_UP / HALF_EVEN to
// a constant scale), ceil / floor, mod / pmod, power, sqrt, exp and the logarithms (NULL
// outside their domain, as in Spark).
#include <fmt/format.h>

#include <algorithm>

#include "arrow/compute/api.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "functions/function_rules.h"
#include "plan/type_rules.h"
#include "sql/positioned_error.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

constexpr int kMaxPrecision = 38;

const arrow::DecimalType& AsDecimal(const arrow::DataType& type) {
  return static_cast<const arrow::DecimalType&>(type);
}

bool IsDecimal(const arrow::DataType& type) { return type.id() == arrow::Type::DECIMAL128; }

cp::Expression CastExpr(cp::Expression value, std::shared_ptr<arrow::DataType> type) {
  cp::CastOptions options = cp::CastOptions::Safe(std::move(type));
  options.allow_decimal_truncate = true;
  options.allow_float_truncate = true;
  return cp::call("cast", {std::move(value)}, std::move(options));
}

// round(x, scale) and bround(x, scale): the scale a constant INT.
TypeRule Round(std::string bound) {
  return [bound](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 2));
    ARROW_ASSIGN_OR_RAISE(auto value, NumericArg(call, 0));
    int32_t scale = 0;
    if (call.args.size() == 2) {
      ARROW_ASSIGN_OR_RAISE(auto given, IntArg(call, 1));
      if (given->kind != BoundExpr::Kind::kLiteral) {
        return AnalysisError("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                             fmt::format("Cannot resolve \"{}\" due to data type mismatch: the "
                                         "input `scale` should be a foldable \"INT\" "
                                         "expression.",
                                         call.expr.source_text),
                             call.expr.pos);
      }
      if (!given->literal->is_valid) return MakeBoundLiteral(arrow::MakeNullScalar(value->type));
      scale = static_cast<const arrow::Int32Scalar&>(*given->literal).value;
    }
    auto type = value->type;
    if (IsDecimal(*type)) {
      int precision = AsDecimal(*type).precision();
      int digits = AsDecimal(*type).scale();
      int integral = precision - digits + 1;
      if (scale < 0) {
        type = arrow::decimal128(std::min(integral - scale, kMaxPrecision), 0);
      } else {
        int new_scale = std::min(digits, scale);
        type = arrow::decimal128(std::min(integral + new_scale, kMaxPrecision), new_scale);
      }
    }
    return Call(bound, {value, IntLiteral(scale)}, type);
  };
}

Lowering LowerRound(cp::RoundMode mode) {
  return [mode](const BoundExpr& call, std::vector<cp::Expression> args) -> Result<cp::Expression> {
    if (call.args[0]->type->id() == arrow::Type::DOUBLE) {
      bool half_even = mode == cp::RoundMode::HALF_TO_EVEN;
      return cp::call(half_even ? "parley_round_half_even" : "parley_round_half_up",
                      {args[0], args[1]});
    }
    int32_t scale = static_cast<const arrow::Int32Scalar&>(*call.args[1]->literal).value;
    const auto& input = call.args[0]->type;
    cp::Expression value = args[0];
    if (IsDecimal(*input)) {
      // One more integral digit first: Arrow's round does not widen (9.95 -> 10.0).
      const auto& dec = AsDecimal(*input);
      int precision = std::min(dec.precision() + 1, kMaxPrecision);
      value = CastExpr(value, arrow::decimal128(precision, dec.scale()));
      return CastExpr(cp::call("round", {value}, cp::RoundOptions(scale, mode)), call.type);
    }
    if (IsIntegral(*input)) {
      if (scale >= 0) return value;
      auto wide = CastExpr(value, arrow::decimal128(kMaxPrecision, 0));
      auto rounded = cp::call("round", {wide}, cp::RoundOptions(scale, mode));
      return cp::call("cast", {rounded}, cp::CastOptions::Safe(call.type));
    }
    return cp::call("round", {value}, cp::RoundOptions(scale, mode));
  };
}

// The constant scale of ceil / floor (argument 1); NULL is not a constant INT here.
Result<int32_t> ConstantScale(const FunctionCall& call) {
  ARROW_ASSIGN_OR_RAISE(auto given, IntArg(call, 1));
  if (given->kind != BoundExpr::Kind::kLiteral || !given->literal->is_valid) {
    return AnalysisError("NON_FOLDABLE_ARGUMENT",
                         fmt::format("The function `{}` requires the parameter `scale` to be a "
                                     "foldable expression of the type \"INT\", but the actual "
                                     "argument is a non-foldable.",
                                     call.name),
                         call.expr.pos);
  }
  return static_cast<const arrow::Int32Scalar&>(*given->literal).value;
}

// ceil and floor: BIGINT for integers and floating point, DECIMAL(p - s + 1, 0) for decimals;
// with a scale t, the value as a decimal DECIMAL(p, s) (DOUBLE as DECIMAL(30, 15)) rounded up
// or down to DECIMAL(max(p - s + t' + 1, 1 - t), t') where t' is t kept within [0, s].
TypeRule CeilFloor(std::string bound) {
  return [bound](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 2));
    ARROW_ASSIGN_OR_RAISE(auto value, NumericArg(call, 0));
    if (call.args.size() == 2) {
      ARROW_ASSIGN_OR_RAISE(auto scale, ConstantScale(call));
      auto input = arrow::is_floating(value->type->id()) ? arrow::decimal128(30, 15)
                                                         : ExactDecimalOf(*value->type);
      const auto& dec = AsDecimal(*input);
      int new_scale = std::clamp(scale, 0, dec.scale());
      // A negative scale rounds to 10^-t, which needs 1 - t digits.
      int precision =
          std::max(dec.precision() - dec.scale() + new_scale + 1, 1 - std::min(scale, 0));
      auto type = arrow::decimal128(std::min(precision, kMaxPrecision), new_scale);
      return Call(bound + "_scaled", {CastTo(value, input), IntLiteral(scale)}, type);
    }
    std::shared_ptr<arrow::DataType> type = arrow::int64();
    if (IsDecimal(*value->type)) {
      const auto& dec = AsDecimal(*value->type);
      type = arrow::decimal128(std::min(dec.precision() - dec.scale() + 1, kMaxPrecision), 0);
    }
    return Call(bound, {value}, type);
  };
}

Lowering LowerCeilFloor(std::string kernel) {
  return
      [kernel](const BoundExpr& call, std::vector<cp::Expression> args) -> Result<cp::Expression> {
        const auto& input = call.args[0]->type;
        if (IsIntegral(*input))
          return cp::call("cast", {args[0]}, cp::CastOptions::Safe(call.type));
        cp::Expression value = args[0];
        if (IsDecimal(*input)) {
          const auto& dec = AsDecimal(*input);
          value = CastExpr(
              value, arrow::decimal128(std::min(dec.precision() + 1, kMaxPrecision), dec.scale()));
        }
        // The rounded value is whole; a cast that drops its zero fraction checks only the range.
        return CastExpr(cp::call(kernel, {value}), call.type);
      };
}

// ceil / floor to a scale: the decimal widened by one integral digit, rounded up or down.
Lowering LowerScaledCeilFloor(cp::RoundMode mode) {
  return [mode](const BoundExpr& call, std::vector<cp::Expression> args) -> Result<cp::Expression> {
    int32_t scale = static_cast<const arrow::Int32Scalar&>(*call.args[1]->literal).value;
    const auto& dec = AsDecimal(*call.args[0]->type);
    // One more integral digit, and room for 10^-t when the scale t is negative.
    int precision = std::max(dec.precision() + 1, dec.scale() + 1 - std::min(scale, 0));
    auto wide =
        CastExpr(args[0], arrow::decimal128(std::min(precision, kMaxPrecision), dec.scale()));
    return CastExpr(cp::call("round", {wide}, cp::RoundOptions(scale, mode)), call.type);
  };
}

// A function of DOUBLE to DOUBLE computed by one Arrow kernel; with `positive_only`, NULL
// where the argument is not positive (the logarithms).
void AddDouble(FunctionRegistry* registry, std::vector<std::string> names, std::string bound,
               std::string kernel, bool positive_only) {
  registry->AddTypeRule(names, [bound](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto value, DoubleArg(call, 0));
    return Call(bound, {value}, arrow::float64());
  });
  registry->AddLowering(
      bound, [kernel, positive_only](const BoundExpr&, std::vector<cp::Expression> args) {
        auto value = cp::call(kernel, {args[0]});
        if (!positive_only) return Result<cp::Expression>(value);
        auto outside = cp::call("less_equal", {args[0], cp::literal(0.0)});
        return Result<cp::Expression>(cp::call(
            "if_else", {outside, cp::literal(arrow::MakeNullScalar(arrow::float64())), value}));
      });
}

// The operands of mod / pmod in their common numeric type and the type of the remainder.
Result<std::pair<std::vector<BoundExprPtr>, std::shared_ptr<arrow::DataType>>> ModOperands(
    const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
  ARROW_ASSIGN_OR_RAISE(auto left, NumericArg(call, 0));
  ARROW_ASSIGN_OR_RAISE(auto right, NumericArg(call, 1));
  auto common = CommonType(left->type, right->type);
  auto type = IsDecimal(*common) ? DecimalResultType('%', *left->type, *right->type) : common;
  return std::make_pair(std::vector<BoundExprPtr>{CastTo(left, common), CastTo(right, common)},
                        type);
}

// try_add, try_subtract, try_multiply, try_divide, try_mod: the operator, NULL where it fails.
TypeRule TryOperator(std::string op) {
  return [op](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    ARROW_ASSIGN_OR_RAISE(auto inner, call.bind_operator(op, call.args[0], call.args[1]));
    if (inner->kind != BoundExpr::Kind::kCall) return inner;
    return Call("TRY", {inner}, inner->type);
  };
}

}  // namespace

void RegisterMathFunctions(FunctionRegistry* registry) {
  registry->AddTypeRule({"try_add"}, TryOperator("+"));
  registry->AddTypeRule({"try_subtract"}, TryOperator("-"));
  registry->AddTypeRule({"try_multiply"}, TryOperator("*"));
  registry->AddTypeRule({"try_divide"}, TryOperator("/"));
  registry->AddTypeRule({"try_mod"}, TryOperator("%"));
  registry->AddTypeRule({"abs"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    if (!IsNumeric(*call.args[0]->type) && call.args[0]->type->id() != arrow::Type::NA) {
      return UnexpectedInputType(call, 0, "NUMERIC");
    }
    ARROW_ASSIGN_OR_RAISE(auto value, NumericArg(call, 0));
    return Call("abs", {value}, value->type);
  });
  registry->AddLowering("abs", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(cp::call("abs_checked", std::move(args)));
  });
  registry->AddTypeRule({"sign", "signum"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto value, DoubleArg(call, 0));
    return Call("sign", {value}, arrow::float64());
  });
  registry->AddLowering("sign", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(cp::call("cast", {cp::call("sign", std::move(args))},
                                           cp::CastOptions::Safe(arrow::float64())));
  });

  registry->AddTypeRule({"round"}, Round("round"));
  registry->AddTypeRule({"bround"}, Round("bround"));
  registry->AddLowering("round", LowerRound(cp::RoundMode::HALF_TOWARDS_INFINITY));
  registry->AddLowering("bround", LowerRound(cp::RoundMode::HALF_TO_EVEN));
  registry->AddTypeRule({"ceil", "ceiling"}, CeilFloor("ceil"));
  registry->AddTypeRule({"floor"}, CeilFloor("floor"));
  registry->AddLowering("ceil", LowerCeilFloor("ceil"));
  registry->AddLowering("floor", LowerCeilFloor("floor"));
  registry->AddLowering("ceil_scaled", LowerScaledCeilFloor(cp::RoundMode::UP));
  registry->AddLowering("floor_scaled", LowerScaledCeilFloor(cp::RoundMode::DOWN));

  registry->AddTypeRule({"mod"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_ASSIGN_OR_RAISE(auto operands, ModOperands(call));
    return Call("%", std::move(operands.first), operands.second);
  });
  registry->AddTypeRule({"pmod"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    // pmod(a, n) = r < 0 ? (r + n) % n : r, where r = a % n: a kernel for integers and
    // floating point (kernels/remainder_kernels.cc), composed for decimals. Since |r| < |n|,
    // (r + n) % n is r + n when n > 0 and r when n < 0, and r + n (between 0 and n) always fits.
    ARROW_ASSIGN_OR_RAISE(auto operands, ModOperands(call));
    auto type = operands.second;
    if (!IsDecimal(*type)) return Call("pmod", std::move(operands.first), type);
    auto divisor = CastTo(operands.first[1], type);
    auto remainder = Call("%", operands.first, type);
    auto zero = CastTo(IntLiteral(0), type);
    auto shift = MakeCall("AND",
                          {MakeCall("<", {remainder, zero}, arrow::boolean()),
                           MakeCall(">", {divisor, zero}, arrow::boolean())},
                          arrow::boolean());
    auto shifted = MakeCall("+", {remainder, divisor}, type);
    auto call_expr = std::const_pointer_cast<BoundExpr>(
        MakeCall("CASE_WHEN", {shift, shifted, remainder}, type));
    call_expr->has_else = true;
    return BoundExprPtr(call_expr);
  });

  registry->AddTypeRule({"power", "pow"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    ARROW_ASSIGN_OR_RAISE(auto base, DoubleArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto exponent, DoubleArg(call, 1));
    return Call("power", {base, exponent}, arrow::float64());
  });
  registry->AddLowering("power", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(cp::call("power", std::move(args)));
  });
  AddDouble(registry, {"sqrt"}, "sqrt", "sqrt", false);
  AddDouble(registry, {"exp"}, "exp", "exp", false);
  AddDouble(registry, {"ln"}, "ln", "ln", true);
  AddDouble(registry, {"log10"}, "log10", "log10", true);
  AddDouble(registry, {"log2"}, "log2", "log2", true);
  registry->AddTypeRule({"log"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 2));
    if (call.args.size() == 1) {
      ARROW_ASSIGN_OR_RAISE(auto value, DoubleArg(call, 0));
      return Call("ln", {value}, arrow::float64());
    }
    ARROW_ASSIGN_OR_RAISE(auto base, DoubleArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto value, DoubleArg(call, 1));
    return Call("log", {base, value}, arrow::float64());
  });
  registry->AddLowering("log", [](const BoundExpr&, std::vector<cp::Expression> args) {
    auto outside = cp::call("or", {cp::call("less_equal", {args[0], cp::literal(0.0)}),
                                   cp::call("less_equal", {args[1], cp::literal(0.0)})});
    auto value = cp::call("divide", {cp::call("ln", {args[1]}), cp::call("ln", {args[0]})});
    return Result<cp::Expression>(cp::call(
        "if_else", {outside, cp::literal(arrow::MakeNullScalar(arrow::float64())), value}));
  });
}

}  // namespace parley
