// String, encoding and digest functions computed per row by text_kernels.cc: ascii, chr /
// char, find_in_set, levenshtein, luhn_check, mask, quote, soundex, space, split_part,
// substring_index, translate, url_encode / url_decode / try_url_decode, the UTF-8 checks,
// base64 / unbase64, md5, sha / sha1, sha2 and crc32, encode / decode (and decode's CASE
// form), hash and xxhash64.
#include <fmt/format.h>

#include "arrow/compute/api.h"
#include "arrow/type.h"
#include "functions/function_rules.h"
#include "plan/type_rules.h"
#include "sql/positioned_error.h"

namespace parley {
namespace {

// Argument `index` as BINARY: bytes as they are, strings as their UTF-8 bytes.
Result<BoundExprPtr> BinaryArg(const FunctionCall& call, size_t index) {
  if (call.args[index]->type->id() == arrow::Type::BINARY) return call.args[index];
  ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, index));
  return CastTo(text, arrow::binary());
}

// mask's replacement `index`: a constant of one character, or NULL (kept as "") to keep the
// characters of its class.
Result<BoundExprPtr> MaskReplacement(const FunctionCall& call, size_t index,
                                     const std::string& fallback, const char* parameter) {
  if (index >= call.args.size()) return StringLiteral(fallback);
  ARROW_ASSIGN_OR_RAISE(auto given, ConstantStringArg(call, index));
  if (!given.has_value()) return StringLiteral("");
  size_t characters = 0;
  for (char c : *given) characters += (c & 0xC0) != 0x80;
  if (characters != 1) {
    return AnalysisError("DATATYPE_MISMATCH.INPUT_SIZE_NOT_ONE",
                         fmt::format("Cannot resolve \"{}\" due to data type mismatch: Length of "
                                     "{} should be 1.",
                                     call.expr.source_text, parameter),
                         call.expr.pos);
  }
  return StringLiteral(*given);
}

bool ContainsMap(const arrow::DataType& type) {
  if (type.id() == arrow::Type::MAP) return true;
  for (const auto& field : type.fields()) {
    if (ContainsMap(*field->type())) return true;
  }
  return false;
}

// hash and xxhash64: one or more values of any type but a map.
TypeRule Hash(std::string kernel, std::shared_ptr<arrow::DataType> type) {
  return [kernel, type](const FunctionCall& call) -> Result<BoundExprPtr> {
    if (call.args.empty()) {
      return AnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                           fmt::format("The `{}` requires > 0 parameters but the actual number "
                                       "is 0.",
                                       call.name),
                           call.expr.pos);
    }
    for (const auto& arg : call.args) {
      if (ContainsMap(*arg->type)) {
        return AnalysisError(
            "DATATYPE_MISMATCH.HASH_MAP_TYPE",
            fmt::format("Cannot resolve \"{}\" due to data type mismatch: Input to the function "
                        "`{}` cannot contain elements of the \"MAP\" type. In Spark, same maps "
                        "may have different hashcode, thus hash expressions are prohibited on "
                        "\"MAP\" elements.",
                        call.expr.source_text, call.name),
            call.expr.pos);
      }
    }
    return Call(kernel, call.args, type);
  };
}

// decode(expr, search1, result1, ..., default): the result of the first search equal to expr
// (NULL equal to NULL), else the default or NULL.
Result<BoundExprPtr> BindDecodeCases(const FunctionCall& call) {
  std::vector<BoundExprPtr> conditions;
  std::vector<BoundExprPtr> results;
  size_t i = 1;
  for (; i + 1 < call.args.size(); i += 2) {
    ARROW_ASSIGN_OR_RAISE(auto equal, call.bind_operator("<=>", call.args[0], call.args[i]));
    conditions.push_back(std::move(equal));
    results.push_back(call.args[i + 1]);
  }
  const bool has_default = i < call.args.size();
  if (has_default) results.push_back(call.args[i]);
  ARROW_ASSIGN_OR_RAISE(results, ArgsOfCommonType(call, results, arrow::utf8()));
  std::vector<BoundExprPtr> args;
  for (size_t c = 0; c < conditions.size(); ++c) {
    args.push_back(conditions[c]);
    args.push_back(results[c]);
  }
  if (has_default) args.push_back(results.back());
  auto type = results[0]->type;
  auto cases = std::const_pointer_cast<BoundExpr>(MakeCall("CASE_WHEN", std::move(args), type));
  cases->has_else = has_default;
  return cases;
}

}  // namespace

void RegisterTextFunctions(FunctionRegistry* registry) {
  registry->AddTypeRule({"hash"}, Hash("parley_hash", arrow::int32()));
  registry->AddTypeRule({"xxhash64"}, Hash("parley_xxhash64", arrow::int64()));
  AddKernelLowering(registry, "parley_hash", "parley_hash");
  AddKernelLowering(registry, "parley_xxhash64", "parley_xxhash64");
  AddRowFunction(registry, {"encode"}, "parley_encode", {StringArg, StringArg}, arrow::binary());
  registry->AddTypeRule({"decode"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, SIZE_MAX));
    if (call.args.size() > 2) return BindDecodeCases(call);
    auto id = call.args[0]->type->id();
    if (id != arrow::Type::BINARY && id != arrow::Type::NA && !IsStringLike(*call.args[0]->type)) {
      return UnexpectedInputType(call, 0, "BINARY");
    }
    ARROW_ASSIGN_OR_RAISE(auto bytes, BinaryArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto charset, StringArg(call, 1));
    return Call("parley_decode", {bytes, charset}, arrow::utf8());
  });
  AddKernelLowering(registry, "parley_decode", "parley_decode");
  const auto utf8 = arrow::utf8();
  const auto int32 = arrow::int32();
  AddRowFunction(registry, {"ascii"}, "parley_ascii", {StringArg}, int32);
  AddRowFunction(registry, {"chr", "char"}, "parley_chr", {BigintArg}, utf8);
  AddRowFunction(registry, {"find_in_set"}, "parley_find_in_set", {StringArg, StringArg}, int32);
  AddRowFunction(registry, {"luhn_check"}, "parley_luhn_check", {StringArg}, arrow::boolean());
  AddRowFunction(registry, {"quote"}, "parley_quote", {StringArg}, utf8);
  AddRowFunction(registry, {"soundex"}, "parley_soundex", {StringArg}, utf8);
  AddRowFunction(registry, {"space"}, "parley_space", {IntArg}, utf8);
  AddRowFunction(registry, {"split_part"}, "parley_split_part", {StringArg, StringArg, IntArg},
                 utf8);
  AddRowFunction(registry, {"substring_index"}, "parley_substring_index",
                 {StringArg, StringArg, IntArg}, utf8);
  AddRowFunction(registry, {"translate"}, "parley_translate", {StringArg, StringArg, StringArg},
                 utf8);
  AddRowFunction(registry, {"url_encode"}, "parley_url_encode", {StringArg}, utf8);
  AddRowFunction(registry, {"url_decode"}, "parley_url_decode", {StringArg}, utf8);
  AddRowFunction(registry, {"is_valid_utf8"}, "parley_is_valid_utf8", {BinaryArg},
                 arrow::boolean());
  AddRowFunction(registry, {"make_valid_utf8"}, "parley_make_valid_utf8", {BinaryArg}, utf8);
  AddRowFunction(registry, {"validate_utf8"}, "parley_validate_utf8", {BinaryArg}, utf8);
  AddRowFunction(registry, {"try_validate_utf8"}, "parley_try_validate_utf8", {BinaryArg}, utf8);
  AddRowFunction(registry, {"base64"}, "parley_base64", {BinaryArg}, utf8);
  AddRowFunction(registry, {"unbase64"}, "parley_unbase64", {StringArg}, arrow::binary());
  AddRowFunction(registry, {"md5"}, "parley_md5", {BinaryArg}, utf8);
  AddRowFunction(registry, {"sha1", "sha"}, "parley_sha1", {BinaryArg}, utf8);
  AddRowFunction(registry, {"sha2"}, "parley_sha2", {BinaryArg, IntArg}, utf8);
  AddRowFunction(registry, {"crc32"}, "parley_crc32", {BinaryArg}, arrow::int64());

  registry->AddTypeRule({"try_url_decode"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
    return Call("TRY", {Call("parley_url_decode", {text}, arrow::utf8())}, arrow::utf8());
  });
  registry->AddTypeRule({"levenshtein"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 3));
    ARROW_ASSIGN_OR_RAISE(auto left, StringArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto right, StringArg(call, 1));
    if (call.args.size() == 2) {
      return Call("parley_levenshtein", {left, right}, arrow::int32());
    }
    ARROW_ASSIGN_OR_RAISE(auto threshold, IntArg(call, 2));
    return Call("parley_levenshtein_within", {left, right, threshold}, arrow::int32());
  });
  AddKernelLowering(registry, "parley_levenshtein", "parley_levenshtein");
  AddKernelLowering(registry, "parley_levenshtein_within", "parley_levenshtein_within");
  registry->AddTypeRule({"mask"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 5));
    ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto upper, MaskReplacement(call, 1, "X", "upperChar"));
    ARROW_ASSIGN_OR_RAISE(auto lower, MaskReplacement(call, 2, "x", "lowerChar"));
    ARROW_ASSIGN_OR_RAISE(auto digit, MaskReplacement(call, 3, "n", "digitChar"));
    ARROW_ASSIGN_OR_RAISE(auto other, MaskReplacement(call, 4, "", "otherChar"));
    return Call("parley_mask", {text, upper, lower, digit, other}, arrow::utf8());
  });
  AddKernelLowering(registry, "parley_mask", "parley_mask");
}

}  // namespace parley
