// Spark's JSON functions (kernels/json_kernels.cc, kernels/json_convert_kernels.cc):
// get_json_object, json_array_length, json_object_keys, from_json, to_json and schema_of_json.
// json_tuple is a generator (analysis/generator.cc).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "arrow/type.h"
#include "functions/function_rules.h"
#include "functions/json_schema_inference.h"
#include "functions/string_options.h"
#include "plan/type_rules.h"
#include "sql/positioned_error.h"

namespace parley {
namespace {

bool IsJsonWritable(const arrow::DataType& type) {
  return type.id() == arrow::Type::STRUCT || type.id() == arrow::Type::LIST ||
         type.id() == arrow::Type::MAP;
}

Result<BoundExprPtr> BindFromJson(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 3));
  ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
  ARROW_ASSIGN_OR_RAISE(auto schema_text, ConstantStringArg(call, 1));
  if (!schema_text) {
    return AnalysisError("INVALID_SCHEMA.NON_STRING_LITERAL",
                         fmt::format("The input schema \"{}\" is not a valid schema string.",
                                     call.args[1]->ToString()),
                         call.expr.pos);
  }
  ARROW_ASSIGN_OR_RAISE(auto type, call.parse_schema(*schema_text));
  if (!IsJsonWritable(*type)) {
    return AnalysisError(
        "DATATYPE_MISMATCH.INVALID_JSON_SCHEMA",
        fmt::format("Cannot resolve \"{}\" due to data type mismatch: Input schema \"{}\" must be "
                    "a struct, an array, a map or a variant.",
                    call.expr.source_text, SqlTypeName(*type)),
        call.expr.pos);
  }
  ARROW_ASSIGN_OR_RAISE(auto options, OptionsArg(call, 2));
  return Call("parley_from_json",
              {text, MakeBoundLiteral(arrow::MakeNullScalar(type)), StringLiteral(options)}, type);
}

Result<BoundExprPtr> BindToJson(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 2));
  if (!IsJsonWritable(*call.args[0]->type)) {
    return AnalysisError(
        "DATATYPE_MISMATCH.INVALID_JSON_SCHEMA",
        fmt::format("Cannot resolve \"{}\" due to data type mismatch: Input schema \"{}\" must be "
                    "a struct, an array, a map or a variant.",
                    call.expr.source_text, SqlTypeName(*call.args[0]->type)),
        call.expr.pos);
  }
  ARROW_ASSIGN_OR_RAISE(auto options, OptionsArg(call, 1));
  return Call("parley_to_json", {call.args[0], StringLiteral(options)}, arrow::utf8());
}

Result<BoundExprPtr> BindSchemaOfJson(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 2));
  ARROW_ASSIGN_OR_RAISE(auto json, ConstantStringArg(call, 0));
  ARROW_RETURN_NOT_OK(OptionsArg(call, 1).status());
  if (!json) {
    return AnalysisError(
        "DATATYPE_MISMATCH.UNEXPECTED_NULL",
        fmt::format("Cannot resolve \"{}\" due to data type mismatch: The json must not be null.",
                    call.expr.source_text),
        call.expr.pos);
  }
  return StringLiteral(InferJsonSchema(*json));
}

}  // namespace

void RegisterJsonFunctions(FunctionRegistry* registry) {
  AddRowFunction(registry, {"get_json_object"}, "parley_get_json_object", {StringArg, StringArg},
                 arrow::utf8());
  AddRowFunction(registry, {"json_array_length"}, "parley_json_array_length", {StringArg},
                 arrow::int32());
  AddRowFunction(registry, {"json_object_keys"}, "parley_json_object_keys", {StringArg},
                 arrow::list(arrow::utf8()));
  AddKernelLowering(registry, "parley_json_field", "parley_json_field");
  registry->AddTypeRule({"from_json"}, BindFromJson);
  registry->AddTypeRule({"to_json"}, BindToJson);
  registry->AddTypeRule({"schema_of_json"}, BindSchemaOfJson);
  AddKernelLowering(registry, "parley_from_json", "parley_from_json");
  AddKernelLowering(registry, "parley_to_json", "parley_to_json");
}

}  // namespace parley
