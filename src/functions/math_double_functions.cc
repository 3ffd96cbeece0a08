// Functions of doubles: the trigonometric and hyperbolic set, cbrt, rint, degrees / radians,
// e() and pi(), expm1 / log1p, hypot, isnan and nanvl, width_bucket. Out of its domain a
// function gives NaN as Java's Math does (acos(2)), except log1p, NULL at or below -1 as Spark's
// logarithms are.
#include <cmath>

#include "arrow/compute/api.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "functions/function_rules.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

// A function of one DOUBLE argument, lowered to the Arrow function `kernel`.
void AddUnaryDouble(FunctionRegistry* registry, const std::string& name,
                    const std::string& kernel) {
  std::string bound = "double_" + name;
  registry->AddTypeRule({name}, [bound](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto value, DoubleArg(call, 0));
    return Call(bound, {value}, arrow::float64());
  });
  AddKernelLowering(registry, bound, kernel);
}

// A function of two DOUBLE arguments, lowered to the Arrow function `kernel`.
void AddBinaryDouble(FunctionRegistry* registry, const std::string& name,
                     const std::string& kernel) {
  std::string bound = "double_" + name;
  registry->AddTypeRule({name}, [bound](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    ARROW_ASSIGN_OR_RAISE(auto left, DoubleArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto right, DoubleArg(call, 1));
    return Call(bound, {left, right}, arrow::float64());
  });
  AddKernelLowering(registry, bound, kernel);
}

TypeRule Constant(double value) {
  return [value](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 0));
    return MakeBoundLiteral(std::make_shared<arrow::DoubleScalar>(value));
  };
}

cp::Expression NullDouble() { return cp::literal(arrow::MakeNullScalar(arrow::float64())); }

}  // namespace

void RegisterMathDoubleFunctions(FunctionRegistry* registry) {
  for (const char* name : {"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
                           "asinh", "acosh", "atanh", "expm1"}) {
    AddUnaryDouble(registry, name, name);
  }
  for (const char* name : {"cbrt", "rint", "cot", "sec", "csc", "degrees", "radians"}) {
    AddUnaryDouble(registry, name, std::string("parley_") + name);
  }
  AddBinaryDouble(registry, "atan2", "atan2");
  AddBinaryDouble(registry, "hypot", "parley_hypot");
  registry->AddTypeRule({"e"}, Constant(M_E));
  registry->AddTypeRule({"pi"}, Constant(M_PI));

  AddUnaryDouble(registry, "log1p", "log1p");
  registry->AddLowering("double_log1p", [](const BoundExpr&, std::vector<cp::Expression> args) {
    auto outside = cp::call("less_equal", {args[0], cp::literal(-1.0)});
    return Result<cp::Expression>(
        cp::call("if_else", {outside, NullDouble(), cp::call("log1p", {args[0]})}));
  });

  // isnan(NULL) is false; nanvl(a, b) is b where a is NaN, else a.
  registry->AddTypeRule({"isnan"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto value, DoubleArg(call, 0));
    return Call("isnan", {value}, arrow::boolean());
  });
  registry->AddLowering("isnan", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(
        cp::call("coalesce", {cp::call("is_nan", {args[0]}), cp::literal(false)}));
  });
  registry->AddTypeRule({"nanvl"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    ARROW_ASSIGN_OR_RAISE(auto value, DoubleArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto replacement, DoubleArg(call, 1));
    return Call("nanvl", {value, replacement}, arrow::float64());
  });
  registry->AddLowering("nanvl", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(
        cp::call("if_else", {cp::call("is_nan", {args[0]}), args[1], args[0]}));
  });

  // width_bucket(value, min, max, count): the bucket of `value` among `count` equal ones
  // between the bounds, 0 below and count + 1 above; NULL for a count outside (0, 2^63 - 1) or
  // bounds that are equal, NaN or infinite.
  registry->AddTypeRule({"width_bucket"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 4));
    std::vector<BoundExprPtr> args;
    for (size_t i = 0; i < 3; ++i) {
      ARROW_ASSIGN_OR_RAISE(auto arg, DoubleArg(call, i));
      args.push_back(arg);
    }
    ARROW_ASSIGN_OR_RAISE(auto count, BigintArg(call, 3));
    args.push_back(count);
    return Call("width_bucket", std::move(args), arrow::int64());
  });
  AddKernelLowering(registry, "width_bucket", "parley_width_bucket");
}

}  // namespace parley
