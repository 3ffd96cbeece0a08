// Conditional functions, built from the engine's COALESCE and CASE_WHEN operators, and
// greatest / least, which skip NULLs as in Spark (Arrow's max/min_element_wise).
#include <fmt/format.h>

#include <limits>

#include "arrow/compute/api.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "functions/function_rules.h"
#include "plan/type_rules.h"
#include "sql/positioned_error.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

// CASE WHEN condition THEN then ELSE otherwise END.
BoundExprPtr IfThenElse(BoundExprPtr condition, BoundExprPtr then, BoundExprPtr otherwise) {
  auto type = then->type;
  auto call = std::const_pointer_cast<BoundExpr>(
      MakeCall("CASE_WHEN", {std::move(condition), std::move(then), std::move(otherwise)}, type));
  call->has_else = true;
  return call;
}

Result<BoundExprPtr> BindCoalesce(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, SIZE_MAX));
  ARROW_ASSIGN_OR_RAISE(auto args, ArgsOfCommonType(call, call.args, arrow::null()));
  if (args.size() == 1) return args[0];
  return Call("COALESCE", std::move(args), args[0]->type);
}

Result<BoundExprPtr> BindIf(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 3));
  auto condition = call.args[0];
  if (condition->type->id() == arrow::Type::NA) condition = CastTo(condition, arrow::boolean());
  if (condition->type->id() != arrow::Type::BOOL) {
    return UnexpectedInputType(call, 0, "BOOLEAN");
  }
  ARROW_ASSIGN_OR_RAISE(auto values,
                        ArgsOfCommonType(call, {call.args[1], call.args[2]}, arrow::utf8()));
  return IfThenElse(condition, values[0], values[1]);
}

Result<BoundExprPtr> BindNullIf(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
  ARROW_ASSIGN_OR_RAISE(auto both, ArgsOfCommonType(call, call.args, arrow::utf8()));
  auto equal = MakeCall("=", {both[0], both[1]}, arrow::boolean());
  auto value = call.args[0]->type->id() == arrow::Type::NA ? both[0] : call.args[0];
  return IfThenElse(equal, MakeBoundLiteral(arrow::MakeNullScalar(value->type)), value);
}

Result<BoundExprPtr> BindNvl2(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 3));
  ARROW_ASSIGN_OR_RAISE(auto values,
                        ArgsOfCommonType(call, {call.args[1], call.args[2]}, arrow::utf8()));
  auto present = MakeCall("IS_NOT_NULL", {call.args[0]}, arrow::boolean());
  return IfThenElse(present, values[0], values[1]);
}

// greatest and least: at least two arguments of one orderable type.
TypeRule Extreme(std::string bound) {
  return [bound](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, SIZE_MAX));
    ARROW_ASSIGN_OR_RAISE(auto args, ArgsOfCommonType(call, call.args, arrow::int32()));
    auto type = args[0]->type;
    bool orderable = IsNumeric(*type) || IsStringLike(*type) || type->id() == arrow::Type::DATE32 ||
                     type->id() == arrow::Type::TIMESTAMP;
    if (!orderable) return UnexpectedInputType(call, 0, "ORDERABLE");
    return Call(bound, std::move(args), type);
  };
}

}  // namespace

void RegisterConditionalFunctions(FunctionRegistry* registry) {
  registry->AddTypeRule({"coalesce"}, BindCoalesce);
  registry->AddTypeRule({"nvl", "ifnull"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    return BindCoalesce(call);
  });
  registry->AddTypeRule({"if", "iff"}, BindIf);
  registry->AddTypeRule({"nullif"}, BindNullIf);
  registry->AddTypeRule({"nvl2"}, BindNvl2);
  registry->AddTypeRule({"greatest"}, Extreme("greatest"));
  registry->AddTypeRule({"least"}, Extreme("least"));
  registry->AddLowering("greatest", [](const BoundExpr& expr, std::vector<cp::Expression> args) {
    const auto type = expr.type->id();
    if (type != arrow::Type::DOUBLE && type != arrow::Type::FLOAT) {
      return Result<cp::Expression>(cp::call("max_element_wise", std::move(args),
                                             cp::ElementWiseAggregateOptions(/*skip_nulls=*/true)));
    }
    // Arrow's maximum passes over NaN; Spark's NaN is above every number.
    cp::Expression any_nan = cp::literal(false);
    for (const auto& arg : args) {
      any_nan = cp::call(
          "or_kleene",
          {any_nan, cp::call("coalesce", {cp::call("is_nan", {arg}), cp::literal(false)})});
    }
    auto nan = type == arrow::Type::DOUBLE
                   ? arrow::MakeScalar(std::numeric_limits<double>::quiet_NaN())
                   : arrow::MakeScalar(std::numeric_limits<float>::quiet_NaN());
    auto greatest = cp::call("max_element_wise", std::move(args),
                             cp::ElementWiseAggregateOptions(/*skip_nulls=*/true));
    return Result<cp::Expression>(
        cp::call("if_else", {std::move(any_nan), cp::literal(nan), std::move(greatest)}));
  });
  registry->AddLowering("least", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(cp::call("min_element_wise", std::move(args),
                                           cp::ElementWiseAggregateOptions(/*skip_nulls=*/true)));
  });
}

}  // namespace parley
