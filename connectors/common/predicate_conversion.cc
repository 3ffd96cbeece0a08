// V2 predicate -> Arrow compute expression. Each Spark predicate name maps onto the Arrow
// function with the same SQL semantics: comparisons onto equal/less/..., AND/OR onto the Kleene
// kernels, NOT onto invert, IS_NULL/IS_NOT_NULL onto is_null/is_valid, the string predicates
// onto starts_with/ends_with/match_substring. `IN` becomes a balanced OR of equalities, which is
// exactly SQL's definition (NULL when nothing matches and the value or the list holds NULL), and
// `<=>` is spelled out with is_null so that it never yields NULL.
#include "connectors/common/predicate_conversion.h"

#include <string>
#include <utility>
#include <vector>

#include "arrow/compute/api_scalar.h"
#include "arrow/scalar.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using MaybeExpression = std::optional<cp::Expression>;

MaybeExpression Translate(const Expression& expression);

// Translate every child, or nothing when one of them fails.
std::optional<std::vector<cp::Expression>> TranslateChildren(const GeneralScalarExpression& call) {
  std::vector<cp::Expression> out;
  for (const auto& child : call.children()) {
    if (child == nullptr) return std::nullopt;
    MaybeExpression translated = Translate(*child);
    if (!translated) return std::nullopt;
    out.push_back(std::move(*translated));
  }
  return out;
}

// Combine `terms` with a binary Kleene function as a balanced tree, so that long IN lists do
// not become deep left-leaning chains.
cp::Expression Balanced(const std::string& function, const std::vector<cp::Expression>& terms,
                        size_t begin, size_t end) {
  if (end - begin == 1) return terms[begin];
  size_t middle = begin + (end - begin) / 2;
  return cp::call(
      function, {Balanced(function, terms, begin, middle), Balanced(function, terms, middle, end)});
}

bool IsNullLiteral(const cp::Expression& expression) {
  const arrow::Datum* value = expression.literal();
  return value != nullptr && value->is_scalar() && !value->scalar()->is_valid;
}

// The literal pattern of a string predicate, when it is a non-null string.
std::optional<std::string> StringPattern(const cp::Expression& expression) {
  const arrow::Datum* value = expression.literal();
  if (value == nullptr || !value->is_scalar() || !value->scalar()->is_valid) return std::nullopt;
  const auto& scalar = *value->scalar();
  if (scalar.type->id() != arrow::Type::STRING && scalar.type->id() != arrow::Type::LARGE_STRING) {
    return std::nullopt;
  }
  return static_cast<const arrow::BaseBinaryScalar&>(scalar).value->ToString();
}

MaybeExpression TranslateCall(const GeneralScalarExpression& call) {
  const std::string& name = call.name();
  if (name == "ALWAYS_TRUE" || name == "ALWAYS_FALSE") {
    if (!call.children().empty()) return std::nullopt;
    return cp::literal(name == "ALWAYS_TRUE");
  }
  auto children = TranslateChildren(call);
  if (!children || children->empty()) return std::nullopt;
  auto& args = *children;

  static const std::pair<const char*, const char*> kComparisons[] = {
      {"=", "equal"},       {"<>", "not_equal"}, {"<", "less"},
      {"<=", "less_equal"}, {">", "greater"},    {">=", "greater_equal"},
  };
  for (const auto& [spark, arrow_name] : kComparisons) {
    if (name == spark) {
      if (args.size() != 2) return std::nullopt;
      return cp::call(arrow_name, {std::move(args[0]), std::move(args[1])});
    }
  }
  if (name == "<=>") {
    if (args.size() != 2) return std::nullopt;
    if (IsNullLiteral(args[0])) return cp::is_null(std::move(args[1]));
    if (IsNullLiteral(args[1])) return cp::is_null(std::move(args[0]));
    cp::Expression both_null = cp::and_(cp::is_null(args[0]), cp::is_null(args[1]));
    cp::Expression both_equal = cp::and_(cp::and_(cp::is_valid(args[0]), cp::is_valid(args[1])),
                                         cp::equal(args[0], args[1]));
    return cp::or_(std::move(both_null), std::move(both_equal));
  }
  if (name == "IS_NULL" || name == "IS_NOT_NULL") {
    if (args.size() != 1) return std::nullopt;
    return name == "IS_NULL" ? cp::is_null(std::move(args[0])) : cp::is_valid(std::move(args[0]));
  }
  if (name == "IN") {
    if (args.size() < 2) return std::nullopt;
    std::vector<cp::Expression> equalities;
    for (size_t i = 1; i < args.size(); ++i) equalities.push_back(cp::equal(args[0], args[i]));
    return Balanced("or_kleene", equalities, 0, equalities.size());
  }
  if (name == "STARTS_WITH" || name == "ENDS_WITH" || name == "CONTAINS") {
    if (args.size() != 2) return std::nullopt;
    std::optional<std::string> pattern = StringPattern(args[1]);
    if (!pattern) return std::nullopt;
    const char* function = name == "STARTS_WITH" ? "starts_with"
                           : name == "ENDS_WITH" ? "ends_with"
                                                 : "match_substring";
    return cp::call(function, {std::move(args[0])}, cp::MatchSubstringOptions(*pattern));
  }
  if (name == "AND" || name == "OR") {
    if (args.size() < 2) return std::nullopt;
    return Balanced(name == "AND" ? "and_kleene" : "or_kleene", args, 0, args.size());
  }
  if (name == "NOT") {
    if (args.size() != 1) return std::nullopt;
    return cp::not_(std::move(args[0]));
  }
  return std::nullopt;
}

MaybeExpression Translate(const Expression& expression) {
  if (const auto* literal = dynamic_cast<const Literal*>(&expression)) {
    if (literal->value() == nullptr) return std::nullopt;
    return cp::literal(literal->value());
  }
  if (dynamic_cast<const NamedReference*>(&expression) != nullptr) {
    const std::string* column = AsColumnName(expression);
    if (column == nullptr) return std::nullopt;  // nested fields are left to the engine
    return cp::field_ref(*column);
  }
  if (const auto* call = dynamic_cast<const GeneralScalarExpression*>(&expression)) {
    return TranslateCall(*call);
  }
  return std::nullopt;
}

}  // namespace

std::optional<arrow::compute::Expression> ToArrowExpression(const Predicate& predicate) {
  return Translate(predicate);
}

}  // namespace parley
