// regexp_count, regexp_substr, regexp_instr and regexp_extract_all. The pattern is a constant
// (Arrow's regex kernels take it as an option); a NULL pattern gives NULL.
#include <fmt/format.h>

#include "arrow/compute/api.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "functions/function_rules.h"
#include "functions/regex_groups.h"
#include "sql/positioned_error.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

BoundExprPtr NullOf(std::shared_ptr<arrow::DataType> type) {
  return MakeBoundLiteral(arrow::MakeNullScalar(std::move(type)));
}

// The constant INT argument `index` (`fallback` when absent); nullopt when it is NULL.
Result<std::optional<int32_t>> GroupArg(const FunctionCall& call, size_t index, int32_t fallback) {
  if (call.args.size() <= index) return fallback;
  ARROW_ASSIGN_OR_RAISE(auto arg, IntArg(call, index));
  if (arg->kind != BoundExpr::Kind::kLiteral) {
    return AnalysisError("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                         fmt::format("Cannot resolve \"{}\" due to data type mismatch: the "
                                     "group index should be a constant.",
                                     call.expr.source_text),
                         call.expr.pos);
  }
  if (!arg->literal->is_valid) return std::nullopt;
  ARROW_ASSIGN_OR_RAISE(auto value, arg->literal->CastTo(arrow::int32()));
  return static_cast<const arrow::Int32Scalar&>(*value).value;
}

// A lowering that reads the pattern literal (argument 1) as an option of `make`.
template <typename Make>
void AddPatternLowering(FunctionRegistry* registry, const std::string& name, Make make) {
  registry->AddLowering(name, [make](const BoundExpr& call, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(make(std::move(args[0]), LiteralString(*call.args[1])));
  });
}

}  // namespace

void RegisterRegexpFunctions(FunctionRegistry* registry) {
  registry->AddTypeRule({"regexp_count"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto pattern, ConstantStringArg(call, 1));
    if (!pattern) return NullOf(arrow::int32());
    return Call("regexp_count", {text, StringLiteral(*pattern)}, arrow::int32());
  });
  AddPatternLowering(registry, "regexp_count", [](cp::Expression text, std::string pattern) {
    auto count = cp::call("count_substring_regex", {std::move(text)},
                          cp::MatchSubstringOptions(std::move(pattern)));
    return cp::call("cast", {count}, cp::CastOptions::Safe(arrow::int32()));
  });

  // regexp_substr: the first match, NULL when there is none.
  registry->AddTypeRule({"regexp_substr"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto pattern, ConstantStringArg(call, 1));
    if (!pattern) return NullOf(arrow::utf8());
    return Call("regexp_substr", {text, StringLiteral(NameGroups(*pattern))}, arrow::utf8());
  });
  AddPatternLowering(registry, "regexp_substr", [](cp::Expression text, std::string pattern) {
    auto groups =
        cp::call("extract_regex", {std::move(text)}, cp::ExtractRegexOptions(std::move(pattern)));
    return cp::call("struct_field", {groups}, cp::StructFieldOptions({0}));
  });

  // regexp_instr(str, regexp[, idx]): the 1-based character position of the first match, 0
  // when there is none. Spark gives the whole match's position whatever the group index.
  registry->AddTypeRule({"regexp_instr"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 3));
    ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto pattern, ConstantStringArg(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto group, GroupArg(call, 2, 0));
    if (!pattern || !group) return NullOf(arrow::int32());
    auto byte_index = Call("regexp_find", {text, StringLiteral(*pattern)}, arrow::int32());
    return Call("parley_char_position", {text, byte_index}, arrow::int32());
  });
  AddPatternLowering(registry, "regexp_find", [](cp::Expression text, std::string pattern) {
    auto found = cp::call("find_substring_regex", {std::move(text)},
                          cp::MatchSubstringOptions(std::move(pattern)));
    return cp::call("cast", {found}, cp::CastOptions::Safe(arrow::int32()));
  });
  AddKernelLowering(registry, "parley_char_position", "parley_char_position");

  // regexp_extract_all(str, regexp[, idx = 1]): group idx of every match.
  registry->AddTypeRule({"regexp_extract_all"},
                        [](const FunctionCall& call) -> Result<BoundExprPtr> {
                          ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 3));
                          ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
                          ARROW_ASSIGN_OR_RAISE(auto pattern, ConstantStringArg(call, 1));
                          ARROW_ASSIGN_OR_RAISE(auto group, GroupArg(call, 2, 1));
                          auto type = arrow::list(arrow::utf8());
                          if (!pattern || !group) return NullOf(type);
                          ARROW_RETURN_NOT_OK(GroupNamedPattern(call, *pattern, *group).status());
                          return Call("parley_regexp_extract_all",
                                      {text, StringLiteral(*pattern), IntLiteral(*group)}, type);
                        });
  AddKernelLowering(registry, "parley_regexp_extract_all", "parley_regexp_extract_all");
}

}  // namespace parley
