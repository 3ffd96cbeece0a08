// Spark's higher-order functions, their lambdas bound with parameters typed by the array or map
// they run over, computed by parley_higher_order (kernels/higher_order_kernels.h): transform,
// filter, exists, forall, aggregate / reduce, zip_with, array_sort with a comparator,
// map_filter, transform_keys, transform_values and map_zip_with.
#include <fmt/format.h>

#include <set>

#include "arrow/compute/api.h"
#include "arrow/type.h"
#include "functions/function_rules.h"
#include "kernels/higher_order_kernels.h"
#include "plan/lambda_function.h"
#include "plan/type_rules.h"
#include "sql/positioned_error.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using Types = std::vector<std::shared_ptr<arrow::DataType>>;

// How many parameters the lambda at argument `index` declares; an error unless it is one.
Result<size_t> LambdaAt(const FunctionCall& call, size_t index) {
  if (call.args[index] != nullptr) {
    return AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                         fmt::format("Cannot resolve \"{}\" due to data type mismatch: the {} "
                                     "argument of `{}` must be a lambda function.",
                                     call.expr.source_text, Ordinal(index), call.name),
                         call.expr.children[index]->pos);
  }
  return call.expr.children[index]->name_parts.size();
}

// Argument `index` as a container of `kind` (LIST or MAP); NULL is left as it is.
Status CheckContainer(const FunctionCall& call, size_t index, arrow::Type::type kind) {
  if (call.args[index] == nullptr || call.args[index]->type->id() != kind) {
    return UnexpectedInputType(call, index, kind == arrow::Type::LIST ? "ARRAY" : "MAP");
  }
  return Status::OK();
}

std::shared_ptr<arrow::DataType> ElementOf(const BoundExprPtr& array) {
  return static_cast<const arrow::ListType&>(*array->type).value_type();
}

// The lambda at `index`, declaring at most `types.size()` parameters (and at least `least`),
// bound with the first of `types`.
Result<BoundExprPtr> BindLambda(const FunctionCall& call, size_t index, Types types, size_t least) {
  ARROW_ASSIGN_OR_RAISE(size_t declared, LambdaAt(call, index));
  if (declared >= least && declared < types.size()) types.resize(declared);
  return call.bind_lambda(index, types);
}

Status RequireType(const FunctionCall& call, const BoundExprPtr& lambda, size_t index,
                   bool (*accepts)(const arrow::DataType&), const char* required) {
  if (accepts(*lambda->type)) return Status::OK();
  return AnalysisError(
      "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
      fmt::format("Cannot resolve \"{}\" due to data type mismatch: The {} "
                  "parameter requires the \"{}\" type, however \"{}\" has the "
                  "type \"{}\".",
                  call.expr.source_text, Ordinal(index), required,
                  call.expr.children[index]->source_text, SqlTypeName(*lambda->type)),
      call.expr.pos);
}

bool IsBoolean(const arrow::DataType& type) {
  return type.id() == arrow::Type::BOOL || type.id() == arrow::Type::NA;
}

Result<BoundExprPtr> BindTransformOrFilter(const FunctionCall& call, bool filter) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
  ARROW_RETURN_NOT_OK(CheckContainer(call, 0, arrow::Type::LIST));
  ARROW_ASSIGN_OR_RAISE(auto lambda,
                        BindLambda(call, 1, {ElementOf(call.args[0]), arrow::int32()}, 1));
  if (filter) {
    ARROW_RETURN_NOT_OK(RequireType(call, lambda, 1, IsBoolean, "BOOLEAN"));
    return Call(call.name, {call.args[0], lambda}, call.args[0]->type);
  }
  return Call(call.name, {call.args[0], lambda}, arrow::list(lambda->type));
}

Result<BoundExprPtr> BindQuantifier(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
  ARROW_RETURN_NOT_OK(CheckContainer(call, 0, arrow::Type::LIST));
  ARROW_ASSIGN_OR_RAISE(auto lambda, BindLambda(call, 1, {ElementOf(call.args[0])}, 1));
  ARROW_RETURN_NOT_OK(RequireType(call, lambda, 1, IsBoolean, "BOOLEAN"));
  return Call(call.name, {call.args[0], lambda}, arrow::boolean());
}

Result<BoundExprPtr> BindAggregate(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 3, 4));
  ARROW_RETURN_NOT_OK(CheckContainer(call, 0, arrow::Type::LIST));
  auto zero = call.args[1];
  if (zero == nullptr) return UnexpectedInputType(call, 1, "ANY");
  ARROW_ASSIGN_OR_RAISE(auto merge, BindLambda(call, 2, {zero->type, ElementOf(call.args[0])}, 2));
  if (!merge->type->Equals(*zero->type)) {
    auto common = CommonType(zero->type, merge->type);
    if (common == nullptr || !common->Equals(*zero->type)) {
      return AnalysisError(
          "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
          fmt::format("Cannot resolve \"{}\" due to data type mismatch: The merge function "
                      "gives the type \"{}\", but the accumulator \"{}\" has the type \"{}\".",
                      call.expr.source_text, SqlTypeName(*merge->type),
                      call.expr.children[1]->source_text, SqlTypeName(*zero->type)),
          call.expr.pos);
    }
    merge = MakeLambdaFunction(CastTo(merge->args[0], zero->type), LambdaParameterFields(*merge));
  }
  std::vector<BoundExprPtr> args = {call.args[0], zero, merge};
  auto type = zero->type;
  if (call.args.size() == 4) {
    ARROW_ASSIGN_OR_RAISE(auto finish, BindLambda(call, 3, {zero->type}, 1));
    type = finish->type;
    args.push_back(std::move(finish));
  }
  return Call("aggregate", std::move(args), type);
}

Result<BoundExprPtr> BindZipWith(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 3));
  ARROW_RETURN_NOT_OK(CheckContainer(call, 0, arrow::Type::LIST));
  ARROW_RETURN_NOT_OK(CheckContainer(call, 1, arrow::Type::LIST));
  ARROW_ASSIGN_OR_RAISE(auto lambda,
                        BindLambda(call, 2, {ElementOf(call.args[0]), ElementOf(call.args[1])}, 2));
  return Call("zip_with", {call.args[0], call.args[1], lambda}, arrow::list(lambda->type));
}

Result<BoundExprPtr> BindMapLambda(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
  ARROW_RETURN_NOT_OK(CheckContainer(call, 0, arrow::Type::MAP));
  const auto& map = static_cast<const arrow::MapType&>(*call.args[0]->type);
  ARROW_ASSIGN_OR_RAISE(auto lambda, BindLambda(call, 1, {map.key_type(), map.item_type()}, 2));
  if (call.name == "map_filter") {
    ARROW_RETURN_NOT_OK(RequireType(call, lambda, 1, IsBoolean, "BOOLEAN"));
    return Call(call.name, {call.args[0], lambda}, call.args[0]->type);
  }
  if (call.name == "transform_keys") {
    return Call(call.name, {call.args[0], lambda}, arrow::map(lambda->type, map.item_type()));
  }
  return Call(call.name, {call.args[0], lambda}, arrow::map(map.key_type(), lambda->type));
}

Result<BoundExprPtr> BindMapZipWith(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 3));
  ARROW_RETURN_NOT_OK(CheckContainer(call, 0, arrow::Type::MAP));
  ARROW_RETURN_NOT_OK(CheckContainer(call, 1, arrow::Type::MAP));
  const auto& left = static_cast<const arrow::MapType&>(*call.args[0]->type);
  const auto& right = static_cast<const arrow::MapType&>(*call.args[1]->type);
  if (!left.key_type()->Equals(*right.key_type())) {
    return AnalysisError(
        "DATATYPE_MISMATCH.MAP_ZIP_WITH_DIFF_TYPES",
        fmt::format("Cannot resolve \"{}\" due to data type mismatch: Input to the `map_zip_with` "
                    "should have been two maps with compatible key types, but it's [\"{}\", "
                    "\"{}\"].",
                    call.expr.source_text, SqlTypeName(*call.args[0]->type),
                    SqlTypeName(*call.args[1]->type)),
        call.expr.pos);
  }
  ARROW_ASSIGN_OR_RAISE(
      auto lambda, BindLambda(call, 2, {left.key_type(), left.item_type(), right.item_type()}, 3));
  return Call("map_zip_with", {call.args[0], call.args[1], lambda},
              arrow::map(left.key_type(), lambda->type));
}

// A lowering of the bound call `name`: its first `containers` arguments are values, the others
// lambdas.
Lowering LowerHigherOrder(HigherOrder kind, size_t containers) {
  return [kind, containers](const BoundExpr& call,
                            std::vector<cp::Expression> args) -> Result<cp::Expression> {
    std::vector<cp::Expression> values(args.begin(), args.begin() + containers);
    std::vector<LambdaBody> lambdas;
    for (size_t i = containers; i < args.size(); ++i) {
      lambdas.push_back({args[i], LambdaParameterFields(*call.args[i])});
    }
    return HigherOrderCall(kind, std::move(values), std::move(lambdas));
  };
}

}  // namespace

bool TakesLambdas(const std::string& name) {
  static const std::set<std::string> kNames = {
      "transform",  "filter",         "exists",           "forall",
      "aggregate",  "reduce",         "zip_with",         "array_sort",
      "map_filter", "transform_keys", "transform_values", "map_zip_with"};
  return kNames.count(name) > 0;
}

void RegisterHigherOrderFunctions(FunctionRegistry* registry) {
  registry->AddTypeRule(
      {"transform"}, [](const FunctionCall& call) { return BindTransformOrFilter(call, false); });
  registry->AddTypeRule({"filter"},
                        [](const FunctionCall& call) { return BindTransformOrFilter(call, true); });
  registry->AddTypeRule({"exists", "forall"}, BindQuantifier);
  registry->AddTypeRule({"aggregate", "reduce"}, BindAggregate);
  registry->AddTypeRule({"zip_with"}, BindZipWith);
  registry->AddTypeRule({"map_filter", "transform_keys", "transform_values"}, BindMapLambda);
  registry->AddTypeRule({"map_zip_with"}, BindMapZipWith);
  // array_sort(array) sorts ascending; array_sort(array, (l, r) -> int) by the comparator.
  const TypeRule* plain = registry->FindTypeRule("array_sort");
  TypeRule ascending = plain != nullptr ? *plain : TypeRule();
  registry->AddTypeRule(
      {"array_sort"}, [ascending](const FunctionCall& call) -> Result<BoundExprPtr> {
        if (call.args.size() != 2 && ascending) return ascending(call);
        ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
        ARROW_RETURN_NOT_OK(CheckContainer(call, 0, arrow::Type::LIST));
        auto element = ElementOf(call.args[0]);
        ARROW_ASSIGN_OR_RAISE(auto lambda, BindLambda(call, 1, {element, element}, 2));
        if (!IsIntegral(*lambda->type)) {
          return AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_RETURN_TYPE",
                               fmt::format("Cannot resolve \"{}\" due to data type mismatch: The "
                                           "comparator must return an \"INT\", not \"{}\".",
                                           call.expr.source_text, SqlTypeName(*lambda->type)),
                               call.expr.pos);
        }
        return Call("array_sort_by", {call.args[0], lambda}, call.args[0]->type);
      });

  registry->AddLowering(kLambdaFunction, [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(std::move(args[0]));
  });
  registry->AddLowering("transform", LowerHigherOrder(HigherOrder::kTransform, 1));
  registry->AddLowering("filter", LowerHigherOrder(HigherOrder::kFilter, 1));
  registry->AddLowering("exists", LowerHigherOrder(HigherOrder::kExists, 1));
  registry->AddLowering("forall", LowerHigherOrder(HigherOrder::kForall, 1));
  registry->AddLowering("aggregate", LowerHigherOrder(HigherOrder::kAggregate, 2));
  registry->AddLowering("zip_with", LowerHigherOrder(HigherOrder::kZipWith, 2));
  registry->AddLowering("array_sort_by", LowerHigherOrder(HigherOrder::kArraySort, 1));
  registry->AddLowering("map_filter", LowerHigherOrder(HigherOrder::kMapFilter, 1));
  registry->AddLowering("transform_keys", LowerHigherOrder(HigherOrder::kTransformKeys, 1));
  registry->AddLowering("transform_values", LowerHigherOrder(HigherOrder::kTransformValues, 1));
  registry->AddLowering("map_zip_with", LowerHigherOrder(HigherOrder::kMapZipWith, 2));
}

}  // namespace parley
