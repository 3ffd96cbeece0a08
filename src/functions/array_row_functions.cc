// Type rules of Spark's per-row array functions (kernels/array_row_kernels.cc): the arguments
// that meet an array's elements are widened with them to one type, as Spark's coercion does,
// and a NULL array gives NULL. reverse and concat of arrays join the string functions of those
// names.
#include <fmt/format.h>

#include "arrow/type.h"
#include "functions/function_rules.h"
#include "plan/type_rules.h"
#include "sql/positioned_error.h"

namespace parley {
namespace {

bool IsList(const BoundExpr& arg) { return arg.type->id() == arrow::Type::LIST; }

std::shared_ptr<arrow::DataType> ElementOf(const BoundExpr& arg) {
  return static_cast<const arrow::ListType&>(*arg.type).value_type();
}

// Argument `index` as an ARRAY; a NULL becomes an ARRAY of `element` (NULL if none given).
Result<BoundExprPtr> ListArg(const FunctionCall& call, size_t index,
                             std::shared_ptr<arrow::DataType> element = arrow::null()) {
  const auto& arg = call.args[index];
  if (IsList(*arg)) return arg;
  if (arg->type->id() == arrow::Type::NA) return CastTo(arg, arrow::list(element));
  return UnexpectedInputType(call, index, "ARRAY");
}

Status DifferentTypes(const FunctionCall& call, const arrow::DataType& left,
                      const arrow::DataType& right) {
  return AnalysisError(
      "DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES",
      fmt::format("Cannot resolve \"{}\" due to data type mismatch: Input to `{}` should have "
                  "been \"ARRAY\" followed by a value with same element type, but it's [\"{}\", "
                  "\"{}\"].",
                  call.expr.source_text, call.name, SqlTypeName(left), SqlTypeName(right)),
      call.expr.pos);
}

// Spark's tightest common type of an array's element and a value: one of them NULL, or both
// integral or floating point (no decimal or string widening); nullptr when there is none.
std::shared_ptr<arrow::DataType> TightestCommonType(const std::shared_ptr<arrow::DataType>& a,
                                                    const std::shared_ptr<arrow::DataType>& b) {
  if (a->Equals(*b) || b->id() == arrow::Type::NA) return a;
  if (a->id() == arrow::Type::NA) return b;
  auto plain_number = [](const arrow::DataType& type) {
    return IsNumeric(type) && type.id() != arrow::Type::DECIMAL128;
  };
  if (plain_number(*a) && plain_number(*b)) return CommonType(a, b);
  return nullptr;
}

// (array, value) widened to ARRAY<t> and t.
Result<std::pair<BoundExprPtr, BoundExprPtr>> ArrayAndElement(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
  ARROW_ASSIGN_OR_RAISE(auto array, ListArg(call, 0, call.args[1]->type));
  auto element = ElementOf(*array);
  auto common = TightestCommonType(element, call.args[1]->type);
  if (common == nullptr) return DifferentTypes(call, *array->type, *call.args[1]->type);
  if (common->id() == arrow::Type::NA) common = arrow::int32();
  return std::make_pair(CastTo(array, arrow::list(common)), CastTo(call.args[1], common));
}

// Two arrays widened to one ARRAY type.
Result<std::pair<BoundExprPtr, BoundExprPtr>> TwoArrays(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
  ARROW_ASSIGN_OR_RAISE(auto left, ListArg(call, 0));
  ARROW_ASSIGN_OR_RAISE(auto right, ListArg(call, 1));
  auto element = TightestCommonType(ElementOf(*left), ElementOf(*right));
  auto common = element == nullptr ? nullptr : arrow::list(element);
  if (common == nullptr) {
    return AnalysisError(
        "DATATYPE_MISMATCH.BINARY_ARRAY_DIFF_TYPES",
        fmt::format("Cannot resolve \"{}\" due to data type mismatch: Input to function `{}` "
                    "should have been two \"ARRAY\" with same element type, but it's [\"{}\", "
                    "\"{}\"].",
                    call.expr.source_text, call.name, SqlTypeName(*left->type),
                    SqlTypeName(*right->type)),
        call.expr.pos);
  }
  return std::make_pair(CastTo(left, common), CastTo(right, common));
}

void AddKernel(FunctionRegistry* registry, const std::string& kernel) {
  AddKernelLowering(registry, kernel, kernel);
}

// A function of one array to an array of its type (or to its element type with `to_element`).
void AddOneArray(FunctionRegistry* registry, std::vector<std::string> names, std::string kernel,
                 bool to_element = false) {
  registry->AddTypeRule(names,
                        [kernel, to_element](const FunctionCall& call) -> Result<BoundExprPtr> {
                          ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
                          ARROW_ASSIGN_OR_RAISE(auto array, ListArg(call, 0));
                          auto type = to_element ? ElementOf(*array) : array->type;
                          return Call(kernel, {array}, type);
                        });
  AddKernel(registry, kernel);
}

}  // namespace

void RegisterArrayRowFunctions(FunctionRegistry* registry) {
  // arrays_zip(a, b, ...): structs of the elements at each position, each field named after
  // its argument when that is a column, else by its position ("0", "1"...).
  registry->AddTypeRule({"arrays_zip"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    arrow::FieldVector fields;
    std::vector<BoundExprPtr> args = {nullptr};
    for (size_t i = 0; i < call.args.size(); ++i) {
      auto arg = call.args[i];
      if (arg->type->id() == arrow::Type::NA) arg = CastTo(arg, arrow::list(arrow::null()));
      if (arg->type->id() != arrow::Type::LIST) return UnexpectedInputType(call, i, "ARRAY");
      const auto& operand = *call.expr.children[i];
      std::string name =
          operand.kind == sql::ExprKind::kColumn ? operand.name_parts.back() : std::to_string(i);
      fields.push_back(arrow::field(name, arg->type->field(0)->type()));
      args.push_back(arg);
    }
    auto type = arrow::list(arrow::struct_(fields));
    args[0] = MakeBoundLiteral(arrow::MakeNullScalar(type));
    return Call("parley_arrays_zip", std::move(args), type);
  });
  AddKernelLowering(registry, "parley_arrays_zip", "parley_arrays_zip");
  for (const auto& [name, kernel, type] :
       std::vector<std::tuple<std::string, std::string, std::shared_ptr<arrow::DataType>>>{
           {"array_contains", "parley_array_contains", arrow::boolean()},
           {"array_position", "parley_array_position", arrow::int64()},
           {"array_remove", "parley_array_remove", nullptr},
           {"array_append", "parley_array_append", nullptr},
           {"array_prepend", "parley_array_prepend", nullptr}}) {
    registry->AddTypeRule({name}, [kernel, type](const FunctionCall& call) -> Result<BoundExprPtr> {
      // A NULL-typed value cannot be looked for.
      if (kernel == "parley_array_contains" && call.args.size() == 2 &&
          call.args[1]->type->id() == arrow::Type::NA) {
        return AnalysisError(
            "DATATYPE_MISMATCH.NULL_TYPE",
            fmt::format("Cannot resolve \"{}\" due to data type mismatch: Null typed values "
                        "cannot be used as arguments of `{}`.",
                        call.expr.source_text, call.name),
            call.expr.pos);
      }
      ARROW_ASSIGN_OR_RAISE(auto args, ArrayAndElement(call));
      auto result_type = type != nullptr ? type : args.first->type;
      return Call(kernel, {args.first, args.second}, result_type);
    });
    AddKernel(registry, kernel);
  }
  AddOneArray(registry, {"array_distinct"}, "parley_array_distinct");
  AddOneArray(registry, {"array_compact"}, "parley_array_compact");
  AddOneArray(registry, {"array_max"}, "parley_array_max", true);
  AddOneArray(registry, {"array_min"}, "parley_array_min", true);
  registry->AddTypeRule({"array_sort"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto array, ListArg(call, 0));
    return Call("parley_array_sort", {array}, array->type);
  });
  AddKernel(registry, "parley_array_sort");
  // sort_array(array, ascending = true): NULLs first ascending, last descending.
  registry->AddTypeRule({"sort_array"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 2));
    ARROW_ASSIGN_OR_RAISE(auto array, ListArg(call, 0));
    bool ascending = true;
    if (call.args.size() == 2) {
      const auto& order = call.args[1];
      if (order->type->id() != arrow::Type::BOOL) return UnexpectedInputType(call, 1, "BOOLEAN");
      if (order->kind != BoundExpr::Kind::kLiteral || order->type->id() != arrow::Type::BOOL) {
        return AnalysisError(
            "DATATYPE_MISMATCH.SORT_ORDER_NOT_BOOLEAN_LITERAL",
            fmt::format("Cannot resolve \"{}\" due to data type mismatch: Sort order in second "
                        "argument requires a boolean literal.",
                        call.expr.source_text),
            call.expr.pos);
      }
      ascending = !order->literal->is_valid ||
                  static_cast<const arrow::BooleanScalar&>(*order->literal).value;
    }
    return Call(ascending ? "parley_sort_array_asc" : "parley_sort_array_desc", {array},
                array->type);
  });
  AddKernel(registry, "parley_sort_array_asc");
  AddKernel(registry, "parley_sort_array_desc");
  registry->AddTypeRule({"slice"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 3));
    ARROW_ASSIGN_OR_RAISE(auto array, ListArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto start, IntArg(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto length, IntArg(call, 2));
    return Call("parley_slice", {array, start, length}, array->type);
  });
  AddKernel(registry, "parley_slice");
  for (const auto& [name, kernel] : std::vector<std::pair<std::string, std::string>>{
           {"array_union", "parley_array_union"},
           {"array_intersect", "parley_array_intersect"},
           {"array_except", "parley_array_except"},
           {"arrays_overlap", "parley_arrays_overlap"}}) {
    registry->AddTypeRule({name}, [kernel](const FunctionCall& call) -> Result<BoundExprPtr> {
      ARROW_ASSIGN_OR_RAISE(auto args, TwoArrays(call));
      auto type = kernel == "parley_arrays_overlap" ? arrow::boolean() : args.first->type;
      return Call(kernel, {args.first, args.second}, type);
    });
    AddKernel(registry, kernel);
  }
  // sequence(start, stop[, step]) of integers, of the widest of their types.
  registry->AddTypeRule({"sequence"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 3));
    for (const auto& arg : call.args) {
      if (!IsIntegral(*arg->type) && arg->type->id() != arrow::Type::NA) {
        return AnalysisError(
            "DATATYPE_MISMATCH.SEQUENCE_WRONG_INPUT_TYPES",
            fmt::format("Cannot resolve \"{}\" due to data type mismatch: `sequence` uses the "
                        "wrong parameter type. The parameter type must conform to: the start "
                        "and stop expressions must resolve to the same type; the step an "
                        "integral type. Parley's sequence takes integers only.",
                        call.expr.source_text),
            call.expr.pos);
      }
    }
    // The elements have the type of start and stop (the step only counts).
    auto type = CommonType(call.args[0]->type, call.args[1]->type);
    if (type->id() == arrow::Type::NA) type = arrow::int32();
    std::vector<BoundExprPtr> args;
    for (size_t i = 0; i < 3; ++i) {
      args.push_back(i < call.args.size()
                         ? CastTo(call.args[i], arrow::int64())
                         : MakeBoundLiteral(arrow::MakeNullScalar(arrow::int64())));
    }
    auto longs = Call("parley_sequence", std::move(args), arrow::list(arrow::int64()));
    return CastTo(longs, arrow::list(type));
  });
  AddKernel(registry, "parley_sequence");
  registry->AddTypeRule({"flatten"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto array, ListArg(call, 0));
    auto inner = ElementOf(*array);
    if (inner->id() != arrow::Type::LIST) {
      return AnalysisError(
          "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
          fmt::format("Cannot resolve \"{}\" due to data type mismatch: The first parameter "
                      "requires the \"ARRAY\" of \"ARRAY\" type, however \"{}\" has the type "
                      "\"{}\".",
                      call.expr.source_text, call.expr.children[0]->source_text,
                      SqlTypeName(*array->type)),
          call.expr.pos);
    }
    return Call("parley_flatten", {array}, inner);
  });
  AddKernel(registry, "parley_flatten");
  registry->AddTypeRule({"array_repeat"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    ARROW_ASSIGN_OR_RAISE(auto count, IntArg(call, 1));
    return Call("parley_array_repeat", {call.args[0], count}, arrow::list(call.args[0]->type));
  });
  AddKernel(registry, "parley_array_repeat");
  registry->AddTypeRule({"array_join"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 3));
    ARROW_ASSIGN_OR_RAISE(auto array, ListArg(call, 0, arrow::utf8()));
    if (ElementOf(*array)->id() != arrow::Type::STRING) {
      array = CastTo(array, arrow::list(arrow::utf8()));
    }
    ARROW_ASSIGN_OR_RAISE(auto delimiter, StringArg(call, 1));
    if (call.args.size() == 2) {
      return Call("parley_array_join", {array, delimiter}, arrow::utf8());
    }
    ARROW_ASSIGN_OR_RAISE(auto replacement, StringArg(call, 2));
    return Call("parley_array_join_replacing", {array, delimiter, replacement}, arrow::utf8());
  });
  AddKernel(registry, "parley_array_join");
  AddKernel(registry, "parley_array_join_replacing");

  // reverse of an array beside reverse of a string.
  const TypeRule* string_reverse = registry->FindTypeRule("reverse");
  TypeRule text_rule = string_reverse != nullptr ? *string_reverse : TypeRule();
  registry->AddTypeRule({"reverse"}, [text_rule](const FunctionCall& call) -> Result<BoundExprPtr> {
    if (call.args.size() == 1 && IsList(*call.args[0])) {
      return Call("parley_array_reverse", {call.args[0]}, call.args[0]->type);
    }
    return text_rule(call);
  });
  AddKernel(registry, "parley_array_reverse");
}

}  // namespace parley
