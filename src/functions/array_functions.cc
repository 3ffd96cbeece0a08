// Array and map access with Spark's semantics: `e[key]` (array element 0-based, map value,
// struct field), element_at, try_element_at, get, and the array(...) and map(...)
// constructors.
#include <fmt/format.h>

#include "arrow/array/util.h"
#include "arrow/compute/api.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "functions/function_rules.h"
#include "kernels/array_kernels.h"
#include "kernels/expression_kernels.h"
#include "plan/type_rules.h"
#include "sql/positioned_error.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

ElementAccess AccessOf(const std::string& function) {
  if (function == "element_at") return ElementAccess::kElementAt;
  if (function == "try_element_at") return ElementAccess::kTryElementAt;
  if (function == "get") return ElementAccess::kGet;
  if (function == "elt") return ElementAccess::kElt;
  return ElementAccess::kSubscript;
}

Status NotExtractable(const FunctionCall& call) {
  return AnalysisError(
      "INVALID_EXTRACT_BASE_FIELD_TYPE",
      fmt::format("Can't extract a value from \"{}\". Need a complex type [STRUCT, ARRAY, MAP] "
                  "but got \"{}\".",
                  call.expr.children[0]->source_text, SqlTypeName(*call.args[0]->type)),
      call.expr.pos);
}

// The value of map `call.args[0]` at the key `call.args[1]`, cast to the map's key type.
Result<BoundExprPtr> BindMapValue(const FunctionCall& call, const std::string& function) {
  const auto& map_type = static_cast<const arrow::MapType&>(*call.args[0]->type);
  BoundExprPtr key = call.args[1];
  if (!key->type->Equals(*map_type.key_type())) {
    auto common = CommonType(map_type.key_type(), key->type);
    if (common == nullptr || !common->Equals(*map_type.key_type())) {
      return UnexpectedInputType(call, 1, SqlTypeName(*map_type.key_type()));
    }
    key = CastTo(key, map_type.key_type());
  }
  return Call(function, {call.args[0], key}, map_type.item_type());
}

// A field of struct `call.args[0]` named by the constant string `call.args[1]` (`s['f']`).
Result<BoundExprPtr> BindStructField(const FunctionCall& call) {
  ARROW_ASSIGN_OR_RAISE(auto name, ConstantStringArg(call, 1));
  const auto& struct_type = static_cast<const arrow::StructType&>(*call.args[0]->type);
  std::vector<std::string> names;
  for (const auto& field : struct_type.fields()) {
    if (name && EqualsIgnoreCase(field->name(), *name)) {
      return Call("struct_field", {call.args[0], StringLiteral(field->name())}, field->type());
    }
    names.push_back("`" + field->name() + "`");
  }
  return AnalysisError("FIELD_NOT_FOUND",
                       fmt::format("No such struct field `{}` in {}.", name.value_or("NULL"),
                                   fmt::join(names, ", ")),
                       call.expr.pos);
}

// `function(container, key)` for a container of the types `allowed` ("ARRAY", "MAP",
// "STRUCT"), the function's name for the error otherwise.
Result<BoundExprPtr> BindAccess(const FunctionCall& call, const std::string& function,
                                const std::vector<arrow::Type::type>& allowed) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
  auto id = call.args[0]->type->id();
  if (id == arrow::Type::NA) return MakeBoundLiteral(arrow::MakeNullScalar(arrow::null()));
  if (std::find(allowed.begin(), allowed.end(), id) == allowed.end()) {
    if (function == "[]") return NotExtractable(call);
    return UnexpectedInputType(call, 0, allowed.size() == 1 ? "ARRAY" : "ARRAY\" or \"MAP");
  }
  if (id == arrow::Type::MAP) return BindMapValue(call, function);
  if (id == arrow::Type::STRUCT) return BindStructField(call);
  ARROW_ASSIGN_OR_RAISE(auto index, IntArg(call, 1));
  const auto& list_type = static_cast<const arrow::ListType&>(*call.args[0]->type);
  return Call(function, {call.args[0], index}, list_type.value_type());
}

// The kernel call of a bound access, inside a guard that names the expression in its errors.
Result<cp::Expression> LowerAccess(const BoundExpr& call, std::vector<cp::Expression> args) {
  std::vector<cp::Expression> fields = {cp::field_ref(ArgumentField(0)),
                                        cp::field_ref(ArgumentField(1))};
  cp::Expression inner;
  if (call.args[0]->type->id() == arrow::Type::MAP) {
    inner = cp::call("parley_map_value", std::move(fields));
  } else {
    fields.push_back(cp::literal(static_cast<int32_t>(AccessOf(call.function))));
    inner = cp::call("parley_array_element", std::move(fields));
  }
  return GuardCall(std::move(inner), std::move(args), call.ToString());
}

}  // namespace

void RegisterArrayFunctions(FunctionRegistry* registry) {
  const std::vector<arrow::Type::type> kArrayOrMap = {arrow::Type::LIST, arrow::Type::MAP};
  registry->AddTypeRule({"[]"}, [](const FunctionCall& call) {
    return BindAccess(call, "[]", {arrow::Type::LIST, arrow::Type::MAP, arrow::Type::STRUCT});
  });
  for (const std::string name : {"element_at", "try_element_at"}) {
    registry->AddTypeRule({name}, [name, kArrayOrMap](const FunctionCall& call) {
      return BindAccess(call, name, kArrayOrMap);
    });
  }
  registry->AddTypeRule({"get"}, [](const FunctionCall& call) {
    return BindAccess(call, "get", {arrow::Type::LIST});
  });
  // elt(n, v1, v2, ...): the n-th value (from 1), all as STRING unless all are BINARY.
  registry->AddTypeRule({"elt"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, SIZE_MAX));
    ARROW_ASSIGN_OR_RAISE(auto index, IntArg(call, 0));
    bool binary = true;
    for (size_t i = 1; i < call.args.size(); ++i) {
      binary = binary && call.args[i]->type->id() == arrow::Type::BINARY;
    }
    std::vector<BoundExprPtr> values;
    for (size_t i = 1; i < call.args.size(); ++i) {
      if (binary) {
        values.push_back(call.args[i]);
      } else {
        ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, i));
        values.push_back(std::move(text));
      }
    }
    auto type = binary ? arrow::binary() : arrow::utf8();
    auto array = Call("array", std::move(values), arrow::list(type));
    return Call("elt", {std::move(array), std::move(index)}, type);
  });
  for (const std::string name : {"[]", "element_at", "try_element_at", "get", "elt"}) {
    registry->AddLowering(name, LowerAccess);
  }
  registry->AddLowering(
      "struct_field", [](const BoundExpr& call, std::vector<cp::Expression> args) {
        cp::StructFieldOptions options(arrow::FieldRef(LiteralString(*call.args[1])));
        return Result<cp::Expression>(cp::call("struct_field", {std::move(args[0])}, options));
      });

  // array(e1, e2, ...): the arguments widened to one type; array() is an empty ARRAY<VOID>.
  registry->AddTypeRule({"array"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    if (call.args.empty()) {
      ARROW_ASSIGN_OR_RAISE(auto empty, arrow::MakeEmptyArray(arrow::null()));
      return MakeBoundLiteral(std::make_shared<arrow::ListScalar>(std::move(empty)));
    }
    ARROW_ASSIGN_OR_RAISE(auto args, ArgsOfCommonType(call, call.args, arrow::null()));
    auto type = arrow::list(args[0]->type);
    return Call("array", std::move(args), std::move(type));
  });
  registry->AddLowering("array", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(cp::call("parley_make_array", std::move(args)));
  });

  // struct(v1, v2, ...): fields named as the arguments' columns, else col1, col2...;
  // named_struct(name1, v1, ...): names given as constant strings.
  registry->AddTypeRule(
      {"struct", "named_struct"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
        const bool named = call.name == "named_struct";
        if (call.args.empty() || (named && call.args.size() % 2 != 0)) {
          return AnalysisError(
              "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
              fmt::format("The `{}` requires {} parameters but the actual number is {}.", call.name,
                          named ? "a positive even number of" : "at least one", call.args.size()),
              call.expr.pos);
        }
        std::vector<BoundExprPtr> values;
        arrow::FieldVector fields;
        for (size_t i = 0; i < call.args.size(); i += named ? 2 : 1) {
          std::string name;
          if (named) {
            const auto& given = call.args[i];
            if (given->kind != BoundExpr::Kind::kLiteral ||
                given->type->id() != arrow::Type::STRING || !given->literal->is_valid) {
              return AnalysisError(
                  "DATATYPE_MISMATCH.CREATE_NAMED_STRUCT_WITHOUT_FOLDABLE_STRING",
                  fmt::format(
                      "Cannot resolve \"{}\" due to data type mismatch: Only foldable "
                      "`STRING` expressions are allowed to appear at odd position, but they "
                      "are [\"{}\"].",
                      call.expr.source_text, call.expr.children[i]->source_text),
                  call.expr.pos);
            }
            name = LiteralString(*given);
          } else {
            const auto& child = *call.expr.children[i];
            name = child.kind == sql::ExprKind::kColumn ? child.name_parts.back()
                                                        : fmt::format("col{}", i + 1);
          }
          const auto& value = call.args[named ? i + 1 : i];
          fields.push_back(arrow::field(name, value->type));
          values.push_back(value);
        }
        std::vector<BoundExprPtr> args;
        for (const auto& field : fields) args.push_back(StringLiteral(field->name()));
        args.insert(args.end(), values.begin(), values.end());
        return Call("make_struct", std::move(args), arrow::struct_(std::move(fields)));
      });
  registry->AddLowering("make_struct", [](const BoundExpr& call, std::vector<cp::Expression> args) {
    size_t count = args.size() / 2;
    std::vector<std::string> names;
    for (size_t i = 0; i < count; ++i) names.push_back(LiteralString(*call.args[i]));
    std::vector<cp::Expression> values(args.begin() + count, args.end());
    return Result<cp::Expression>(
        cp::call("make_struct", std::move(values), cp::MakeStructOptions(std::move(names))));
  });

  // map(k1, v1, k2, v2, ...): keys widened to one type, values to another; map() is an empty
  // MAP<VOID, VOID>.
  registry->AddTypeRule({"map"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    if (call.args.empty()) {
      auto type = arrow::map(arrow::null(), arrow::null());
      ARROW_ASSIGN_OR_RAISE(
          auto empty,
          arrow::MakeEmptyArray(arrow::struct_(
              {arrow::field("key", arrow::null(), false), arrow::field("value", arrow::null())})));
      return MakeBoundLiteral(std::make_shared<arrow::MapScalar>(std::move(empty), type));
    }
    if (call.args.size() % 2 != 0) {
      return AnalysisError(
          "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
          fmt::format("The `map` requires a positive even number of parameters but the actual "
                      "number is {}.",
                      call.args.size()),
          call.expr.pos);
    }
    std::vector<BoundExprPtr> keys;
    std::vector<BoundExprPtr> values;
    for (size_t i = 0; i < call.args.size(); ++i) {
      (i % 2 == 0 ? keys : values).push_back(call.args[i]);
    }
    ARROW_ASSIGN_OR_RAISE(keys, ArgsOfCommonType(call, keys, arrow::null()));
    ARROW_ASSIGN_OR_RAISE(values, ArgsOfCommonType(call, values, arrow::null()));
    if (keys[0]->type->id() == arrow::Type::NA) {
      return MakeError(arrow::StatusCode::Invalid, "NULL_MAP_KEY", "Cannot use null as map key.");
    }
    auto type = arrow::map(keys[0]->type, values[0]->type);
    std::vector<BoundExprPtr> args;
    for (size_t i = 0; i < keys.size(); ++i) {
      args.push_back(keys[i]);
      args.push_back(values[i]);
    }
    return Call("map", std::move(args), std::move(type));
  });
  registry->AddLowering("map", [](const BoundExpr& call, std::vector<cp::Expression> args) {
    std::vector<cp::Expression> fields;
    for (size_t i = 0; i < args.size(); ++i) fields.push_back(cp::field_ref(ArgumentField(i)));
    return Result<cp::Expression>(GuardCall(cp::call("parley_make_map", std::move(fields)),
                                            std::move(args), call.ToString()));
  });
}

}  // namespace parley
