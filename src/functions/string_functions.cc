// String functions. Most are one Arrow kernel (utf8_upper, utf8_slice_codeunits,
// binary_join_element_wise, replace_substring, extract_regex...); those whose arguments Arrow
// takes as options need constant arguments, and substring and locate with non-constant
// positions use Parley's kernels (kernels/kernels.h).
#include <fmt/format.h>

#include <algorithm>

#include <limits>

#include "arrow/compute/api.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "functions/function_rules.h"
#include "functions/regex_groups.h"
#include "plan/type_rules.h"
#include "sql/positioned_error.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

constexpr int64_t kNoLimit = std::numeric_limits<int64_t>::max();

bool IsNullLiteral(const BoundExpr& e) {
  return e.kind == BoundExpr::Kind::kLiteral && !e.literal->is_valid;
}

BoundExprPtr NullString() { return MakeBoundLiteral(arrow::MakeNullScalar(arrow::utf8())); }

std::optional<int32_t> IntConstant(const BoundExpr& e) {
  if (e.kind != BoundExpr::Kind::kLiteral || !e.literal->is_valid ||
      e.type->id() != arrow::Type::INT32) {
    return std::nullopt;
  }
  return static_cast<const arrow::Int32Scalar&>(*e.literal).value;
}

// Arrow's slice bounds for Spark's substring(pos, len) with constant pos and len.
std::pair<int64_t, int64_t> SliceBounds(int64_t pos, int64_t length) {
  if (length <= 0) return {0, 0};
  if (pos > 0) return {pos - 1, pos - 1 + length};
  if (pos == 0) return {0, length};
  int64_t end = pos + length;
  return {pos, end >= 0 ? kNoLimit : end};
}

// substring(text, pos, len) over bound arguments: a slice when pos and len are constants,
// Parley's kernel otherwise.
BoundExprPtr Substring(const BoundExprPtr& text, const BoundExprPtr& pos,
                       const BoundExprPtr& length) {
  if (IsNullLiteral(*pos) || IsNullLiteral(*length)) return NullString();
  auto constant_pos = IntConstant(*pos);
  auto constant_length = IntConstant(*length);
  if (constant_pos && constant_length) {
    auto [start, stop] = SliceBounds(*constant_pos, *constant_length);
    return MakeCall("substring_slice",
                    {text, MakeBoundLiteral(std::make_shared<arrow::Int64Scalar>(start)),
                     MakeBoundLiteral(std::make_shared<arrow::Int64Scalar>(stop))},
                    arrow::utf8());
  }
  return MakeCall("substring", {text, pos, length}, arrow::utf8());
}

Result<BoundExprPtr> BindSubstring(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 3));
  ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
  ARROW_ASSIGN_OR_RAISE(auto pos, IntArg(call, 1));
  BoundExprPtr length = IntLiteral(std::numeric_limits<int32_t>::max());
  if (call.args.size() == 3) {
    ARROW_ASSIGN_OR_RAISE(length, IntArg(call, 2));
  }
  return Substring(text, pos, length);
}

// left(s, n) and right(s, n); n <= 0 gives ''.
Result<BoundExprPtr> BindLeftRight(const FunctionCall& call, bool left) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
  ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
  ARROW_ASSIGN_OR_RAISE(auto count, IntArg(call, 1));
  if (IsNullLiteral(*count)) return NullString();
  auto constant = IntConstant(*count);
  if (!constant) {
    return AnalysisError("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                         fmt::format("Cannot resolve \"{}\" due to data type mismatch: the "
                                     "length should be a constant.",
                                     call.expr.source_text),
                         call.expr.pos);
  }
  if (left) return Substring(text, IntLiteral(1), count);
  if (*constant <= 0) return Substring(text, IntLiteral(1), IntLiteral(0));
  return Substring(text, IntLiteral(-*constant), count);
}

// concat of arrays: the elements of each in turn, NULL when one of them is; every argument an
// array, widened to one type.
Result<BoundExprPtr> ConcatArrays(const FunctionCall& call) {
  std::shared_ptr<arrow::DataType> common = call.args[0]->type;
  bool all_arrays = true;
  for (const auto& arg : call.args) {
    all_arrays = all_arrays && arg->type->id() == arrow::Type::LIST;
    if (all_arrays) common = CommonType(common, arg->type);
  }
  if (!all_arrays || common == nullptr) {
    return AnalysisError("DATATYPE_MISMATCH.DATA_DIFF_TYPES",
                         fmt::format("Cannot resolve \"{}\" due to data type mismatch: Input to "
                                     "`concat` should all be the same type, but it's ({}).",
                                     call.expr.source_text, QuotedArgumentTypes(call, " or ")),
                         call.expr.pos);
  }
  std::vector<BoundExprPtr> arrays;
  for (const auto& arg : call.args) arrays.push_back(CastTo(arg, common));
  auto nested = Call("array", std::move(arrays), arrow::list(common));
  return BindAs(call, "flatten", {nested});
}

// A string argument Arrow takes as an option (a pattern, a search string): constant.
Result<std::optional<std::string>> PatternArg(const FunctionCall& call, size_t index) {
  return ConstantStringArg(call, index);
}

// A Java regex replacement ($1) as RE2 writes it (\1).
std::string Re2Replacement(const std::string& replacement) {
  std::string out;
  for (size_t i = 0; i < replacement.size(); ++i) {
    char c = replacement[i];
    if (c == '\\' && i + 1 < replacement.size()) {
      char next = replacement[++i];
      if (next == '\\')
        out += "\\\\";
      else
        out += next;
    } else if (c == '$' && i + 1 < replacement.size() &&
               std::isdigit(static_cast<unsigned char>(replacement[i + 1]))) {
      out += '\\';
    } else {
      out += c;
    }
  }
  return out;
}

// A one-argument function of a string computed by one Arrow kernel; of a BINARY too when
// `binary_kernel` names the kernel for bytes. `scale` multiplies the INT result (bit_length).
void AddUnary(FunctionRegistry* registry, std::vector<std::string> names, std::string bound,
              std::string kernel, std::shared_ptr<arrow::DataType> type,
              std::string binary_kernel = "", int32_t scale = 1) {
  std::string bound_binary = bound + "_binary";
  registry->AddTypeRule(
      names,
      [bound, bound_binary, binary_kernel, type](const FunctionCall& call) -> Result<BoundExprPtr> {
        ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
        if (!binary_kernel.empty() && call.args[0]->type->id() == arrow::Type::BINARY) {
          auto result_type = type->id() == arrow::Type::STRING ? arrow::binary() : type;
          return Call(bound_binary, {call.args[0]}, result_type);
        }
        ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
        return Call(bound, {text}, type);
      });
  auto lowering = [type, scale](std::string kernel) {
    return [kernel, type, scale](const BoundExpr&, std::vector<cp::Expression> args) {
      auto value = cp::call(kernel, {std::move(args[0])});
      if (type->id() == arrow::Type::INT32) {
        value = cp::call("cast", {value}, cp::CastOptions::Safe(arrow::int32()));
        if (scale != 1) value = cp::call("multiply", {value, cp::literal(scale)});
      }
      return Result<cp::Expression>(value);
    };
  };
  registry->AddLowering(bound, lowering(kernel));
  if (!binary_kernel.empty()) registry->AddLowering(bound_binary, lowering(binary_kernel));
}

// trim, ltrim and rtrim: of spaces, or of the characters of a constant trim string given
// first (TRIM(BOTH chars FROM s) is trim(chars, s)).
void AddTrim(FunctionRegistry* registry, std::string name, std::string kernel) {
  registry->AddTypeRule({name}, [name](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 2));
    std::string characters = " ";
    if (call.args.size() == 2) {
      ARROW_ASSIGN_OR_RAISE(auto given, PatternArg(call, 0));
      if (!given) return NullString();
      characters = *given;
    }
    ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, call.args.size() - 1));
    return Call(name, {text, StringLiteral(characters)}, arrow::utf8());
  });
  registry->AddLowering(name, [kernel](const BoundExpr& call, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(
        cp::call(kernel, {std::move(args[0])}, cp::TrimOptions(LiteralString(*call.args[1]))));
  });
}

// startswith, endswith, contains and the regular-expression match: a constant second
// argument is Arrow's matcher (`bound`, which pushes down); a column one is Parley's kernel
// `kernel`, when there is one (a regular expression must be constant).
void AddMatch(FunctionRegistry* registry, std::vector<std::string> names, std::string bound,
              std::string kernel) {
  registry->AddTypeRule(names, [bound, kernel](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto other, StringArg(call, 1));
    if (other->kind != BoundExpr::Kind::kLiteral && !kernel.empty()) {
      return Call(kernel, {text, other}, arrow::boolean());
    }
    ARROW_ASSIGN_OR_RAISE(auto pattern, PatternArg(call, 1));
    if (!pattern) return MakeBoundLiteral(arrow::MakeNullScalar(arrow::boolean()));
    return Call(bound, {text, StringLiteral(*pattern)}, arrow::boolean());
  });
  if (kernel.empty()) return;
  registry->AddLowering(kernel, [kernel](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(cp::call(kernel, std::move(args)));
  });
}

// lpad and rpad: the result is cut to the length when the string is longer, as in Spark.
// A constant length with a one-character constant pad is Arrow's pad kernel; anything else
// (a longer or empty pad, values from columns) is Parley's.
void AddPad(FunctionRegistry* registry, std::string name, std::string kernel) {
  registry->AddTypeRule({name}, [name](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 3));
    ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto length, IntArg(call, 1));
    BoundExprPtr pad = StringLiteral(" ");
    if (call.args.size() == 3) {
      ARROW_ASSIGN_OR_RAISE(pad, StringArg(call, 2));
    }
    if (IsNullLiteral(*length) || IsNullLiteral(*pad)) return NullString();
    auto constant = IntConstant(*length);
    bool one_character = false;
    if (pad->kind == BoundExpr::Kind::kLiteral) {
      std::string characters = LiteralString(*pad);
      one_character = std::count_if(characters.begin(), characters.end(),
                                    [](char c) { return (c & 0xC0) != 0x80; }) == 1;
    }
    if (!constant || !one_character)
      return Call("parley_" + name, {text, length, pad}, arrow::utf8());
    int32_t width = std::max(*constant, 0);
    return Call(name, {text, IntLiteral(width), pad}, arrow::utf8());
  });
  registry->AddLowering(
      "parley_" + name, [name](const BoundExpr&, std::vector<cp::Expression> args) {
        return Result<cp::Expression>(cp::call("parley_" + name, std::move(args)));
      });
  registry->AddLowering(name, [kernel](const BoundExpr& call, std::vector<cp::Expression> args) {
    int64_t width = static_cast<const arrow::Int32Scalar&>(*call.args[1]->literal).value;
    auto padded =
        cp::call(kernel, {std::move(args[0])}, cp::PadOptions(width, LiteralString(*call.args[2])));
    return Result<cp::Expression>(
        cp::call("utf8_slice_codeunits", {padded}, cp::SliceOptions(0, width)));
  });
}

}  // namespace

void RegisterStringFunctions(FunctionRegistry* registry) {
  // Store assignment into CHAR(n) / VARCHAR(n) columns (analysis/write_binder.cc): no SQL name.
  registry->AddLowering(
      "parley_char_varchar_write", [](const BoundExpr&, std::vector<cp::Expression> args) {
        return Result<cp::Expression>(cp::call("parley_char_varchar_write", std::move(args)));
      });
  AddUnary(registry, {"upper", "ucase"}, "upper", "utf8_upper", arrow::utf8());
  AddUnary(registry, {"lower", "lcase"}, "lower", "utf8_lower", arrow::utf8());
  AddUnary(registry, {"reverse"}, "reverse", "utf8_reverse", arrow::utf8(), "binary_reverse");
  AddUnary(registry, {"length", "char_length", "character_length", "len"}, "length", "utf8_length",
           arrow::int32(), "binary_length");
  AddUnary(registry, {"octet_length"}, "octet_length", "binary_length", arrow::int32(),
           "binary_length");
  AddUnary(registry, {"bit_length"}, "bit_length", "binary_length", arrow::int32(), "binary_length",
           8);
  registry->AddTypeRule({"initcap"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
    return Call("initcap", {text}, arrow::utf8());
  });
  registry->AddLowering("initcap", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(
        cp::call("utf8_title", {cp::call("utf8_lower", {std::move(args[0])})}));
  });
  AddTrim(registry, "trim", "utf8_trim");
  AddTrim(registry, "ltrim", "utf8_ltrim");
  AddTrim(registry, "rtrim", "utf8_rtrim");
  registry->AddTypeRule({"btrim"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 2));
    std::string characters = " ";
    if (call.args.size() == 2) {
      ARROW_ASSIGN_OR_RAISE(auto given, PatternArg(call, 1));
      if (!given) return NullString();
      characters = *given;
    }
    ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
    return Call("trim", {text, StringLiteral(characters)}, arrow::utf8());
  });

  registry->AddTypeRule({"substring", "substr"}, BindSubstring);
  registry->AddLowering(
      "substring_slice", [](const BoundExpr& call, std::vector<cp::Expression> args) {
        int64_t start = static_cast<const arrow::Int64Scalar&>(*call.args[1]->literal).value;
        int64_t stop = static_cast<const arrow::Int64Scalar&>(*call.args[2]->literal).value;
        return Result<cp::Expression>(
            cp::call("utf8_slice_codeunits", {std::move(args[0])}, cp::SliceOptions(start, stop)));
      });
  registry->AddLowering("substring", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(cp::call("parley_substring", std::move(args)));
  });
  registry->AddTypeRule({"left"},
                        [](const FunctionCall& call) { return BindLeftRight(call, true); });
  registry->AddTypeRule({"right"},
                        [](const FunctionCall& call) { return BindLeftRight(call, false); });

  registry->AddTypeRule({"concat"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    bool arrays = std::any_of(call.args.begin(), call.args.end(), [](const BoundExprPtr& arg) {
      return arg->type->id() == arrow::Type::LIST;
    });
    if (arrays) return ConcatArrays(call);
    std::vector<BoundExprPtr> args;
    for (size_t i = 0; i < call.args.size(); ++i) {
      ARROW_ASSIGN_OR_RAISE(auto arg, StringArg(call, i));
      args.push_back(arg);
    }
    if (args.empty()) return StringLiteral("");
    return Call("concat", std::move(args), arrow::utf8());
  });
  registry->AddLowering("concat", [](const BoundExpr&, std::vector<cp::Expression> args) {
    args.push_back(cp::literal(""));
    return Result<cp::Expression>(cp::call("binary_join_element_wise", std::move(args)));
  });
  registry->AddTypeRule({"concat_ws"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, SIZE_MAX));
    std::vector<BoundExprPtr> args;
    for (size_t i = 1; i < call.args.size(); ++i) {
      ARROW_ASSIGN_OR_RAISE(auto arg, StringArg(call, i));
      args.push_back(arg);
    }
    ARROW_ASSIGN_OR_RAISE(auto separator, StringArg(call, 0));
    if (args.empty()) {
      return Call("concat_ws", {StringLiteral(""), separator}, arrow::utf8());
    }
    args.push_back(separator);
    return Call("concat_ws", std::move(args), arrow::utf8());
  });
  registry->AddLowering("concat_ws", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(cp::call("binary_join_element_wise", std::move(args),
                                           cp::JoinOptions(cp::JoinOptions::SKIP)));
  });

  // replace(str, search[, replacement]): Arrow's kernel for constants, Parley's for columns.
  registry->AddTypeRule({"replace"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 3));
    ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
    std::vector<BoundExprPtr> args = {text};
    for (size_t i = 1; i < call.args.size(); ++i) {
      ARROW_ASSIGN_OR_RAISE(auto arg, StringArg(call, i));
      args.push_back(arg);
    }
    if (args.size() == 2) args.push_back(StringLiteral(""));
    if (args[1]->kind != BoundExpr::Kind::kLiteral || args[2]->kind != BoundExpr::Kind::kLiteral) {
      return Call("parley_replace", std::move(args), arrow::utf8());
    }
    ARROW_ASSIGN_OR_RAISE(auto search, PatternArg(call, 1));
    std::optional<std::string> replacement = "";
    if (call.args.size() == 3) {
      ARROW_ASSIGN_OR_RAISE(replacement, PatternArg(call, 2));
    }
    if (!search || !replacement) return NullString();
    if (search->empty()) return text;
    return Call("replace", {text, StringLiteral(*search), StringLiteral(*replacement)},
                arrow::utf8());
  });
  registry->AddLowering("parley_replace", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(cp::call("parley_replace", std::move(args)));
  });
  registry->AddLowering("replace", [](const BoundExpr& call, std::vector<cp::Expression> args) {
    cp::ReplaceSubstringOptions options(LiteralString(*call.args[1]), LiteralString(*call.args[2]));
    return Result<cp::Expression>(
        cp::call("replace_substring", {std::move(args[0])}, std::move(options)));
  });

  AddPad(registry, "lpad", "utf8_lpad");
  AddPad(registry, "rpad", "utf8_rpad");

  // locate(substr, str[, pos]), position(substr, str[, pos]) and instr(str, substr).
  registry->AddTypeRule({"locate", "position"},
                        [](const FunctionCall& call) -> Result<BoundExprPtr> {
                          ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 3));
                          ARROW_ASSIGN_OR_RAISE(auto needle, StringArg(call, 0));
                          ARROW_ASSIGN_OR_RAISE(auto haystack, StringArg(call, 1));
                          BoundExprPtr start = IntLiteral(1);
                          if (call.args.size() == 3) {
                            ARROW_ASSIGN_OR_RAISE(start, IntArg(call, 2));
                          }
                          return Call("locate", {needle, haystack, start}, arrow::int32());
                        });
  registry->AddTypeRule({"instr"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    ARROW_ASSIGN_OR_RAISE(auto haystack, StringArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto needle, StringArg(call, 1));
    return Call("locate", {needle, haystack, IntLiteral(1)}, arrow::int32());
  });
  registry->AddLowering("locate", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(cp::call("parley_locate", std::move(args)));
  });

  registry->AddTypeRule({"repeat"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto count, IntArg(call, 1));
    return Call("repeat", {text, count}, arrow::utf8());
  });
  registry->AddLowering("repeat", [](const BoundExpr&, std::vector<cp::Expression> args) {
    auto count = cp::call("max_element_wise", {args[1], cp::literal(0)});
    return Result<cp::Expression>(cp::call("binary_repeat", {args[0], count}));
  });

  AddMatch(registry, {"startswith"}, "STARTS_WITH", "parley_starts_with");
  AddMatch(registry, {"endswith"}, "ENDS_WITH", "parley_ends_with");
  AddMatch(registry, {"contains"}, "CONTAINS", "parley_contains");
  AddMatch(registry, {"rlike", "regexp", "regexp_like"}, "RLIKE", "");

  registry->AddTypeRule({"regexp_extract"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 3));
    ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto pattern, PatternArg(call, 1));
    BoundExprPtr index = IntLiteral(1);
    if (call.args.size() == 3) {
      ARROW_ASSIGN_OR_RAISE(index, IntArg(call, 2));
    }
    if (!pattern || IsNullLiteral(*index)) return NullString();
    auto group = IntConstant(*index);
    if (!group) {
      return AnalysisError("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                           fmt::format("Cannot resolve \"{}\" due to data type mismatch: the "
                                       "group index should be a constant.",
                                       call.expr.source_text),
                           call.expr.pos);
    }
    ARROW_ASSIGN_OR_RAISE(auto named, GroupNamedPattern(call, *pattern, *group));
    return Call("regexp_extract", {text, StringLiteral(named), IntLiteral(*group)}, arrow::utf8());
  });
  registry->AddLowering(
      "regexp_extract", [](const BoundExpr& call, std::vector<cp::Expression> args) {
        int32_t group = static_cast<const arrow::Int32Scalar&>(*call.args[2]->literal).value;
        auto groups = cp::call("extract_regex", {args[0]},
                               cp::ExtractRegexOptions(LiteralString(*call.args[1])));
        auto value = cp::call("struct_field", {groups}, cp::StructFieldOptions({group}));
        // No match (or a group that took no part) is '', a NULL input stays NULL.
        auto or_empty = cp::call("coalesce", {value, cp::literal("")});
        return Result<cp::Expression>(
            cp::call("if_else", {cp::call("is_null", {args[0]}),
                                 cp::literal(arrow::MakeNullScalar(arrow::utf8())), or_empty}));
      });
  // split(str, regex[, limit]): at most `limit` parts when it is positive, trailing empty parts
  // kept, as Java's String.split(regex, -1).
  registry->AddTypeRule({"split"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 3));
    ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto pattern, PatternArg(call, 1));
    int32_t limit = -1;
    if (call.args.size() == 3) {
      ARROW_ASSIGN_OR_RAISE(auto given, IntArg(call, 2));
      auto constant = IntConstant(*given);
      if (!constant) {
        return AnalysisError("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                             fmt::format("Cannot resolve \"{}\" due to data type mismatch: the "
                                         "limit should be a constant.",
                                         call.expr.source_text),
                             call.expr.pos);
      }
      limit = *constant;
    }
    auto type = arrow::list(arrow::utf8());
    if (!pattern) return MakeBoundLiteral(arrow::MakeNullScalar(type));
    return Call("split", {text, StringLiteral(*pattern), IntLiteral(limit)}, type);
  });
  registry->AddLowering("split", [](const BoundExpr& call, std::vector<cp::Expression> args) {
    int32_t limit = static_cast<const arrow::Int32Scalar&>(*call.args[2]->literal).value;
    cp::SplitPatternOptions options(LiteralString(*call.args[1]), limit > 0 ? limit - 1 : -1);
    return Result<cp::Expression>(
        cp::call("split_pattern_regex", {std::move(args[0])}, std::move(options)));
  });
  registry->AddTypeRule({"size", "cardinality", "array_size"},
                        [](const FunctionCall& call) -> Result<BoundExprPtr> {
                          ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
                          auto id = call.args[0]->type->id();
                          bool map = id == arrow::Type::MAP && call.name != "array_size";
                          if (id != arrow::Type::LIST && id != arrow::Type::NA && !map) {
                            return UnexpectedInputType(
                                call, 0, call.name == "array_size" ? "ARRAY" : "ARRAY\" or \"MAP");
                          }
                          if (call.args[0]->type->id() == arrow::Type::NA) {
                            return MakeBoundLiteral(arrow::MakeNullScalar(arrow::int32()));
                          }
                          return Call("size", {call.args[0]}, arrow::int32());
                        });
  registry->AddLowering("size", [](const BoundExpr& call, std::vector<cp::Expression> args) {
    cp::Expression value = std::move(args[0]);
    if (call.args[0]->type->id() == arrow::Type::MAP) {
      // A map's size is the length of its list of entries.
      const auto& map = static_cast<const arrow::MapType&>(*call.args[0]->type);
      value = cp::call("cast", {value}, cp::CastOptions::Safe(arrow::list(map.value_type())));
    }
    return Result<cp::Expression>(cp::call("cast", {cp::call("list_value_length", {value})},
                                           cp::CastOptions::Safe(arrow::int32())));
  });

  registry->AddTypeRule({"regexp_replace"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 3));
    ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto pattern, PatternArg(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto replacement, PatternArg(call, 2));
    if (!pattern || !replacement) return NullString();
    return Call("regexp_replace",
                {text, StringLiteral(*pattern), StringLiteral(Re2Replacement(*replacement))},
                arrow::utf8());
  });
  registry->AddLowering("regexp_replace", [](const BoundExpr& call,
                                             std::vector<cp::Expression> args) {
    cp::ReplaceSubstringOptions options(LiteralString(*call.args[1]), LiteralString(*call.args[2]));
    return Result<cp::Expression>(
        cp::call("replace_substring_regex", {std::move(args[0])}, std::move(options)));
  });
}

}  // namespace parley
