// Bound condition -> V2 predicate: comparisons, null tests, IN, string prefix/suffix/contains,
// AND/OR/NOT and constant truth values, with Spark's predicate names; calls of catalog functions
// as UserDefinedScalarFunc operands.
#include "plan/predicate_translation.h"

#include <map>
#include <set>

#include "arrow/scalar.h"
#include "arrow/type.h"
#include "parley/connector/function.h"

namespace parley {
namespace {

// A CAST of a non-NULL integer or decimal literal to a decimal type that holds its value
// exactly (the binder's coercion of `l_quantity < 24` or `x >= 0.05` to the column's
// decimal type), as a literal of that type; nullptr for any other cast, whose value may round
// or fail at run time.
std::shared_ptr<arrow::Scalar> ExactDecimalLiteral(const BoundExpr& cast) {
  if (cast.function != "CAST" || cast.args.size() != 1 ||
      cast.args[0]->kind != BoundExpr::Kind::kLiteral ||
      cast.type->id() != arrow::Type::DECIMAL128 || !cast.args[0]->literal->is_valid) {
    return nullptr;
  }
  const auto& target = static_cast<const arrow::Decimal128Type&>(*cast.type);
  const arrow::Scalar& value = *cast.args[0]->literal;
  arrow::Decimal128 unscaled;
  int32_t scale = 0;
  if (value.type->id() == arrow::Type::DECIMAL128) {
    unscaled = static_cast<const arrow::Decimal128Scalar&>(value).value;
    scale = static_cast<const arrow::Decimal128Type&>(*value.type).scale();
  } else if (arrow::is_integer(value.type->id())) {
    auto as_int64 = value.CastTo(arrow::int64());
    if (!as_int64.ok()) return nullptr;
    unscaled = arrow::Decimal128(static_cast<const arrow::Int64Scalar&>(**as_int64).value);
  } else {
    return nullptr;
  }
  if (target.scale() < scale) return nullptr;
  auto rescaled = unscaled.Rescale(scale, target.scale());
  if (!rescaled.ok() || !rescaled->FitsInPrecision(target.precision())) return nullptr;
  return std::make_shared<arrow::Decimal128Scalar>(*rescaled, cast.type);
}

ExpressionPtr TranslateOperand(const BoundExpr& expr);

// A call of a deterministic catalog function over translatable operands; nullptr otherwise.
ExpressionPtr TranslateFunctionCall(const BoundExpr& expr) {
  if (expr.connector_function == nullptr || !expr.connector_function->deterministic()) {
    return nullptr;
  }
  std::vector<ExpressionPtr> children;
  for (const auto& arg : expr.args) {
    auto child = TranslateOperand(*arg);
    if (!child) return nullptr;
    children.push_back(std::move(child));
  }
  return std::make_shared<UserDefinedScalarFunc>(expr.connector_function->name(),
                                                 expr.connector_function->canonical_name(),
                                                 std::move(children));
}

// A column, literal or catalog function call operand (a literal cast exactly to a decimal counts
// as a literal); nullptr for anything else.
ExpressionPtr TranslateOperand(const BoundExpr& expr) {
  if (expr.kind == BoundExpr::Kind::kColumn) return FieldReference(expr.field);
  if (expr.kind == BoundExpr::Kind::kLiteral) return MakeLiteral(expr.literal);
  if (expr.kind == BoundExpr::Kind::kCall) {
    if (auto literal = ExactDecimalLiteral(expr)) return MakeLiteral(literal);
    return TranslateFunctionCall(expr);
  }
  return nullptr;
}

}  // namespace

PredicatePtr TranslatePredicate(const BoundExpr& condition) {
  if (condition.kind == BoundExpr::Kind::kLiteral) {
    if (condition.type->id() != arrow::Type::BOOL || !condition.literal->is_valid) return nullptr;
    bool value = static_cast<const arrow::BooleanScalar&>(*condition.literal).value;
    return MakePredicate(value ? "ALWAYS_TRUE" : "ALWAYS_FALSE", {});
  }
  if (condition.kind != BoundExpr::Kind::kCall) return nullptr;
  if (condition.connector_function != nullptr) {
    // A boolean function call as a condition is offered as `call = TRUE`, as Spark offers it.
    auto call = TranslateFunctionCall(condition);
    if (!call || condition.type->id() != arrow::Type::BOOL) return nullptr;
    return MakePredicate("=", {call, MakeLiteral(std::make_shared<arrow::BooleanScalar>(true))});
  }
  const std::string& f = condition.function;
  static const std::set<std::string> kBinary = {
      "=", "<>", "<", "<=", ">", ">=", "<=>", "STARTS_WITH", "ENDS_WITH", "CONTAINS"};
  if (kBinary.count(f) > 0) {
    auto left = TranslateOperand(*condition.args[0]);
    auto right = TranslateOperand(*condition.args[1]);
    if (!left || !right) return nullptr;
    return MakePredicate(f, {left, right});
  }
  if (f == "AND" || f == "OR" || f == "NOT") {
    std::vector<ExpressionPtr> children;
    for (const auto& arg : condition.args) {
      auto child = TranslatePredicate(*arg);
      if (!child) return nullptr;
      children.push_back(child);
    }
    return MakePredicate(f, std::move(children));
  }
  if (f == "IS_NULL" || f == "IS_NOT_NULL") {
    if (condition.args[0]->kind != BoundExpr::Kind::kColumn) return nullptr;
    return MakePredicate(f, {TranslateOperand(*condition.args[0])});
  }
  if (f == "IN") {
    if (condition.args[0]->kind != BoundExpr::Kind::kColumn) return nullptr;
    std::vector<ExpressionPtr> children;
    for (const auto& arg : condition.args) {
      if (&arg != &condition.args[0] && arg->kind != BoundExpr::Kind::kLiteral) return nullptr;
      children.push_back(TranslateOperand(*arg));
    }
    return MakePredicate("IN", std::move(children));
  }
  return nullptr;
}

FilterPtr ToV1Filter(const Predicate& predicate) {
  using Kind = Filter::Kind;
  const std::string& name = predicate.name();
  auto children = predicate.children();
  auto make = [](Kind kind) {
    auto filter = std::make_shared<Filter>();
    filter->kind = kind;
    return filter;
  };
  if (name == "ALWAYS_TRUE") return make(Kind::kAlwaysTrue);
  if (name == "ALWAYS_FALSE") return make(Kind::kAlwaysFalse);
  if (name == "AND" || name == "OR" || name == "NOT") {
    auto filter = make(name == "AND" ? Kind::kAnd : name == "OR" ? Kind::kOr : Kind::kNot);
    for (const auto& child : children) {
      auto* child_predicate = dynamic_cast<const Predicate*>(child.get());
      auto translated = child_predicate ? ToV1Filter(*child_predicate) : nullptr;
      if (!translated) return nullptr;
      filter->children.push_back(translated);
    }
    return filter;
  }
  if (children.empty()) return nullptr;
  // Comparisons are written column-first in V1; a literal on the left flips the operator.
  const std::string* column = AsColumnName(*children[0]);
  bool flipped = false;
  if (column == nullptr && children.size() == 2) {
    column = AsColumnName(*children[1]);
    flipped = true;
  }
  if (column == nullptr) return nullptr;
  std::vector<std::shared_ptr<arrow::Scalar>> values;
  for (size_t i = 0; i < children.size(); ++i) {
    if (i == (flipped ? 1u : 0u)) continue;
    auto* literal = dynamic_cast<const Literal*>(children[i].get());
    if (literal == nullptr) return nullptr;
    values.push_back(literal->value());
  }
  static const std::map<std::string, std::pair<Kind, Kind>> kComparisons = {
      {"=", {Kind::kEqualTo, Kind::kEqualTo}},
      {"<=>", {Kind::kEqualNullSafe, Kind::kEqualNullSafe}},
      {"<", {Kind::kLessThan, Kind::kGreaterThan}},
      {"<=", {Kind::kLessThanOrEqual, Kind::kGreaterThanOrEqual}},
      {">", {Kind::kGreaterThan, Kind::kLessThan}},
      {">=", {Kind::kGreaterThanOrEqual, Kind::kLessThanOrEqual}}};
  static const std::map<std::string, Kind> kUnflippable = {{"IS_NULL", Kind::kIsNull},
                                                           {"IS_NOT_NULL", Kind::kIsNotNull},
                                                           {"IN", Kind::kIn},
                                                           {"STARTS_WITH", Kind::kStringStartsWith},
                                                           {"ENDS_WITH", Kind::kStringEndsWith},
                                                           {"CONTAINS", Kind::kStringContains}};
  std::shared_ptr<Filter> filter;
  if (auto it = kComparisons.find(name); it != kComparisons.end()) {
    filter = make(flipped ? it->second.second : it->second.first);
  } else if (auto it = kUnflippable.find(name); it != kUnflippable.end() && !flipped) {
    filter = make(it->second);
  } else if (name == "<>") {
    auto equal = make(Kind::kEqualTo);
    equal->attribute = *column;
    equal->values = std::move(values);
    filter = make(Kind::kNot);
    filter->children.push_back(equal);
    return filter;
  } else {
    return nullptr;
  }
  filter->attribute = *column;
  filter->values = std::move(values);
  return filter;
}

}  // namespace parley
