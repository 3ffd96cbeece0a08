#include "functions/string_options.h"

#include <fmt/format.h>

#include "arrow/scalar.h"
#include "arrow/type.h"
#include "kernels/json_document.h"
#include "plan/type_rules.h"
#include "sql/positioned_error.h"

namespace parley {
namespace {

// The string a constant (a literal, perhaps cast) holds; nullopt for anything else.
std::optional<std::string> ConstantText(const BoundExpr& expr) {
  if (expr.kind == BoundExpr::Kind::kLiteral && expr.literal->is_valid &&
      IsStringLike(*expr.type)) {
    return expr.literal->ToString();
  }
  if (expr.kind == BoundExpr::Kind::kCall && expr.function == "CAST" && expr.args.size() == 1) {
    return ConstantText(*expr.args[0]);
  }
  return std::nullopt;
}

}  // namespace

Result<std::string> OptionsArg(const FunctionCall& call, size_t index) {
  if (call.args.size() <= index) return std::string("{}");
  const BoundExpr& options = *call.args[index];
  if (options.kind != BoundExpr::Kind::kCall || options.function != "map") {
    return AnalysisError("INVALID_OPTIONS.NON_MAP_FUNCTION",
                         "Invalid options: Must use the `map()` function for options.",
                         call.expr.pos);
  }
  const auto& map = static_cast<const arrow::MapType&>(*options.type);
  if (!IsStringLike(*map.key_type()) || !IsStringLike(*map.item_type())) {
    return AnalysisError("INVALID_OPTIONS.NON_STRING_TYPE",
                         fmt::format("Invalid options: A type of keys and values in `map()` must "
                                     "be string, but got \"{}\".",
                                     SqlTypeName(*options.type)),
                         call.expr.pos);
  }
  std::string out = "{";
  for (size_t i = 0; i + 1 < options.args.size(); i += 2) {
    auto key = ConstantText(*options.args[i]);
    auto value = ConstantText(*options.args[i + 1]);
    if (!key || !value) {
      return AnalysisError("INVALID_OPTIONS.NON_MAP_FUNCTION",
                           "Invalid options: Must use the `map()` function for options.",
                           call.expr.pos);
    }
    if (out.size() > 1) out.push_back(',');
    kernels::AppendJsonString(*key, &out);
    out.push_back(':');
    kernels::AppendJsonString(*value, &out);
  }
  out.push_back('}');
  return out;
}

}  // namespace parley
