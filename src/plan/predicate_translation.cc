// Bound condition -> V2 predicate: comparisons, null tests, IN, string prefix/suffix/contains,
// AND/OR/NOT and constant truth values, with Spark's predicate names.
#include "plan/predicate_translation.h"

#include <set>

#include "arrow/scalar.h"
#include "arrow/type.h"

namespace parley {
namespace {

// A column or literal operand; nullptr for anything else.
ExpressionPtr TranslateOperand(const BoundExpr& expr) {
  if (expr.kind == BoundExpr::Kind::kColumn) return FieldReference(expr.field);
  if (expr.kind == BoundExpr::Kind::kLiteral) return MakeLiteral(expr.literal);
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
  const std::string& f = condition.function;
  static const std::set<std::string> kBinary = {"=",         "<>",          "<",       "<=", ">",
                                                ">=",        "<=>",         "STARTS_WITH",
                                                "ENDS_WITH", "CONTAINS"};
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

}  // namespace parley
