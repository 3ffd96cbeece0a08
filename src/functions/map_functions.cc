// Spark's map functions: map_keys, map_values, map_entries, map_contains_key,
// map_from_arrays, map_from_entries, map_concat and str_to_map (the constructors computed by
// kernels/map_kernels.cc).
#include <fmt/format.h>

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

const arrow::MapType& MapOf(const BoundExprPtr& map) {
  return static_cast<const arrow::MapType&>(*map->type);
}

BoundExprPtr NullOf(std::shared_ptr<arrow::DataType> type) {
  return MakeBoundLiteral(arrow::MakeNullScalar(std::move(type)));
}

// map_keys / map_values / map_entries of a map (NULL typed: a NULL array).
TypeRule MapPart(std::string part) {
  return [part](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    auto id = call.args[0]->type->id();
    if (id == arrow::Type::NA) return NullOf(arrow::list(arrow::null()));
    if (id != arrow::Type::MAP) return UnexpectedInputType(call, 0, "MAP");
    const auto& map = MapOf(call.args[0]);
    auto type = part == "map_keys"     ? arrow::list(map.key_type())
                : part == "map_values" ? arrow::list(map.item_type())
                                       : arrow::list(map.value_type());
    return Call(part, {call.args[0]}, type);
  };
}

// The lowering of map_keys / map_values / map_entries: the map as its list of entries, then
// each entry's key or value.
Lowering LowerMapPart(int field) {
  return [field](const BoundExpr& call,
                 std::vector<cp::Expression> args) -> Result<cp::Expression> {
    const auto& map = static_cast<const arrow::MapType&>(*call.args[0]->type);
    auto entries =
        cp::call("cast", {args[0]}, cp::CastOptions::Safe(arrow::list(map.value_type())));
    if (field < 0) return entries;
    auto entry = NewLambdaVariableField("entry");
    auto body = cp::call("struct_field", {cp::field_ref(entry)}, cp::StructFieldOptions({field}));
    return HigherOrderCall(HigherOrder::kTransform, {std::move(entries)}, {{body, {entry}}});
  };
}

Result<BoundExprPtr> BindMapContainsKey(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
  if (call.args[1]->type->id() == arrow::Type::NA) {
    return AnalysisError("DATATYPE_MISMATCH.NULL_TYPE",
                         fmt::format("Cannot resolve \"{}\" due to data type mismatch: Null typed "
                                     "values cannot be used as arguments of `{}`.",
                                     call.expr.source_text, call.name),
                         call.expr.pos);
  }
  std::shared_ptr<arrow::DataType> common;
  if (call.args[0]->type->id() == arrow::Type::MAP) {
    common = CommonType(MapOf(call.args[0]).key_type(), call.args[1]->type);
  }
  if (common == nullptr || IsStringLike(*common) != IsStringLike(*call.args[1]->type)) {
    return AnalysisError(
        "DATATYPE_MISMATCH.MAP_FUNCTION_DIFF_TYPES",
        fmt::format("Cannot resolve \"{}\" due to data type mismatch: Input to `{}` should have "
                    "been \"MAP\" followed by a value with same key type, but it's [\"{}\", "
                    "\"{}\"].",
                    call.expr.source_text, call.name, SqlTypeName(*call.args[0]->type),
                    SqlTypeName(*call.args[1]->type)),
        call.expr.pos);
  }
  const auto& map = MapOf(call.args[0]);
  auto cast_map = CastTo(call.args[0], arrow::map(common, map.item_type()));
  auto keys = Call("map_keys", {cast_map}, arrow::list(common));
  return Call("parley_array_contains", {keys, CastTo(call.args[1], common)}, arrow::boolean());
}

// An array argument; NULL typed as an array of NULLs.
Result<BoundExprPtr> ArrayArgument(const FunctionCall& call, size_t index) {
  auto arg = call.args[index];
  if (arg->type->id() == arrow::Type::NA) return CastTo(arg, arrow::list(arrow::null()));
  if (arg->type->id() != arrow::Type::LIST) return UnexpectedInputType(call, index, "ARRAY");
  return arg;
}

std::shared_ptr<arrow::DataType> ElementOf(const BoundExprPtr& array) {
  return static_cast<const arrow::ListType&>(*array->type).value_type();
}

Result<BoundExprPtr> BindMapFromArrays(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
  ARROW_ASSIGN_OR_RAISE(auto keys, ArrayArgument(call, 0));
  ARROW_ASSIGN_OR_RAISE(auto values, ArrayArgument(call, 1));
  return Call("parley_map_from_arrays", {keys, values},
              arrow::map(ElementOf(keys), ElementOf(values)));
}

Result<BoundExprPtr> BindMapFromEntries(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
  const auto& type = *call.args[0]->type;
  bool pairs = type.id() == arrow::Type::LIST &&
               type.field(0)->type()->id() == arrow::Type::STRUCT &&
               type.field(0)->type()->num_fields() == 2;
  if (!pairs) {
    return AnalysisError(
        "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
        fmt::format("Cannot resolve \"{}\" due to data type mismatch: The first parameter "
                    "requires the \"ARRAY\" of pair \"STRUCT\" type, however \"{}\" has the type "
                    "\"{}\".",
                    call.expr.source_text, call.expr.children[0]->source_text, SqlTypeName(type)),
        call.expr.pos);
  }
  const auto& entry = *type.field(0)->type();
  return Call("parley_map_from_entries", {call.args[0]},
              arrow::map(entry.field(0)->type(), entry.field(1)->type()));
}

Result<BoundExprPtr> BindMapConcat(const FunctionCall& call) {
  if (call.args.empty()) {  // an empty MAP<STRING, STRING>
    ARROW_ASSIGN_OR_RAISE(auto empty, BindAs(call, "map", {}));
    return CastTo(empty, arrow::map(arrow::utf8(), arrow::utf8()));
  }
  std::shared_ptr<arrow::DataType> common = call.args[0]->type;
  bool maps = true;
  for (const auto& arg : call.args) {
    maps = maps && arg->type->id() == arrow::Type::MAP;
    if (maps) common = CommonType(common, arg->type);
  }
  if (!maps || common == nullptr) {
    return AnalysisError("DATATYPE_MISMATCH.MAP_CONCAT_DIFF_TYPES",
                         fmt::format("Cannot resolve \"{}\" due to data type mismatch: The "
                                     "`map_concat` should all be of type map, but it's [{}].",
                                     call.expr.source_text, QuotedArgumentTypes(call, ", ")),
                         call.expr.pos);
  }
  std::vector<BoundExprPtr> args;
  for (const auto& arg : call.args) args.push_back(CastTo(arg, common));
  if (args.size() == 1) return args[0];
  return Call("parley_map_concat", std::move(args), common);
}

Result<BoundExprPtr> BindStrToMap(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 3));
  ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
  BoundExprPtr pairs = StringLiteral(",");
  BoundExprPtr key_value = StringLiteral(":");
  if (call.args.size() > 1) {
    ARROW_ASSIGN_OR_RAISE(pairs, StringArg(call, 1));
  }
  if (call.args.size() > 2) {
    ARROW_ASSIGN_OR_RAISE(key_value, StringArg(call, 2));
  }
  return Call("parley_str_to_map", {text, pairs, key_value},
              arrow::map(arrow::utf8(), arrow::utf8()));
}

}  // namespace

void RegisterMapFunctions(FunctionRegistry* registry) {
  for (const std::string name : {"map_keys", "map_values", "map_entries"}) {
    registry->AddTypeRule({name}, MapPart(name));
  }
  registry->AddLowering("map_keys", LowerMapPart(0));
  registry->AddLowering("map_values", LowerMapPart(1));
  registry->AddLowering("map_entries", LowerMapPart(-1));
  registry->AddTypeRule({"map_contains_key"}, BindMapContainsKey);
  registry->AddTypeRule({"map_from_arrays"}, BindMapFromArrays);
  registry->AddTypeRule({"map_from_entries"}, BindMapFromEntries);
  registry->AddTypeRule({"map_concat"}, BindMapConcat);
  registry->AddTypeRule({"str_to_map"}, BindStrToMap);
  for (const std::string kernel : {"parley_map_from_arrays", "parley_map_from_entries",
                                   "parley_map_concat", "parley_str_to_map"}) {
    AddKernelLowering(registry, kernel, kernel);
  }
}

}  // namespace parley
