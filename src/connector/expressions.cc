// Connector expressions: SQL-like rendering for EXPLAIN and messages, reference collection and
// small constructors.
#include "parley/connector/expressions.h"

#include <fmt/format.h>

#include <set>

#include "arrow/scalar.h"
#include "arrow/type.h"
#include "parley/connector/status.h"

namespace parley {
namespace {

bool IsInfix(const std::string& name) {
  static const std::set<std::string> kInfix = {"=", "<>", "<", "<=", ">", ">=", "<=>", "+",
                                               "-", "*",  "/", "%",  "&", "|",  "^"};
  return kInfix.count(name) > 0;
}

// Render a child, parenthesised unless it is a leaf (column or literal) or a function call.
std::string RenderChild(const Expression& child) {
  std::string text = child.ToString();
  auto* general = dynamic_cast<const GeneralScalarExpression*>(&child);
  if (general == nullptr) return text;
  const auto& name = general->name();
  if (IsInfix(name) || name == "AND" || name == "OR" || name == "NOT" || name == "IS_NULL" ||
      name == "IS_NOT_NULL" || name == "IN") {
    return "(" + text + ")";
  }
  return text;
}

std::string JoinRendered(const std::vector<ExpressionPtr>& items, size_t from = 0) {
  std::string out;
  for (size_t i = from; i < items.size(); ++i) {
    if (i > from) out += ", ";
    out += items[i]->ToString();
  }
  return out;
}

void CollectReferences(const Expression& expression, std::set<std::vector<std::string>>* seen,
                       std::vector<std::shared_ptr<NamedReference>>* out) {
  for (const auto& child : expression.children()) {
    if (auto ref = std::dynamic_pointer_cast<NamedReference>(child)) {
      if (seen->insert(ref->field_names()).second) out->push_back(ref);
    } else {
      CollectReferences(*child, seen, out);
    }
  }
}

}  // namespace

std::vector<std::shared_ptr<NamedReference>> Expression::References() const {
  std::vector<std::shared_ptr<NamedReference>> out;
  std::set<std::vector<std::string>> seen;
  if (auto* self = dynamic_cast<const NamedReference*>(this)) {
    out.push_back(std::make_shared<NamedReference>(self->field_names()));
    return out;
  }
  CollectReferences(*this, &seen, &out);
  return out;
}

std::string NamedReference::ToString() const {
  std::string out;
  for (size_t i = 0; i < field_names_.size(); ++i) {
    if (i > 0) out += '.';
    const auto& part = field_names_[i];
    bool plain = !part.empty() && !std::isdigit(static_cast<unsigned char>(part[0]));
    for (char c : part) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') plain = false;
    }
    out += plain ? part : QuoteIdentifier(part);
  }
  return out;
}

const std::shared_ptr<arrow::DataType>& Literal::data_type() const { return value_->type; }

std::string Literal::ToString() const {
  if (!value_->is_valid) return "NULL";
  switch (value_->type->id()) {
    case arrow::Type::STRING:
    case arrow::Type::LARGE_STRING: {
      std::string text = value_->ToString();
      std::string out = "'";
      for (char c : text) {
        if (c == '\'') out += '\\';
        out += c;
      }
      return out + "'";
    }
    case arrow::Type::DATE32: return "DATE '" + value_->ToString() + "'";
    case arrow::Type::BOOL:
      return static_cast<const arrow::BooleanScalar&>(*value_).value ? "true" : "false";
    default: return value_->ToString();
  }
}

std::string GeneralScalarExpression::ToString() const {
  if (name_ == "ALWAYS_TRUE") return "TRUE";
  if (name_ == "ALWAYS_FALSE") return "FALSE";
  if (children_.size() == 2 && (IsInfix(name_) || name_ == "AND" || name_ == "OR")) {
    return fmt::format("{} {} {}", RenderChild(*children_[0]), name_, RenderChild(*children_[1]));
  }
  if (children_.size() == 1 && name_ == "-") return "-" + RenderChild(*children_[0]);
  if (children_.size() == 1 && name_ == "NOT") return "NOT " + RenderChild(*children_[0]);
  if (children_.size() == 1 && name_ == "IS_NULL") {
    return RenderChild(*children_[0]) + " IS NULL";
  }
  if (children_.size() == 1 && name_ == "IS_NOT_NULL") {
    return RenderChild(*children_[0]) + " IS NOT NULL";
  }
  if (!children_.empty() && name_ == "IN") {
    return fmt::format("{} IN ({})", RenderChild(*children_[0]), JoinRendered(children_, 1));
  }
  return fmt::format("{}({})", name_, JoinRendered(children_));
}

std::string SortOrder::ToString() const {
  return fmt::format("{} {} {}", expression_->ToString(),
                     direction_ == SortDirection::kAscending ? "ASC" : "DESC",
                     null_ordering_ == NullOrdering::kNullsFirst ? "NULLS FIRST" : "NULLS LAST");
}

std::string UserDefinedScalarFunc::ToString() const {
  return fmt::format("{}({})", name_, JoinRendered(children_));
}

std::string Transform::ToString() const {
  return fmt::format("{}({})", name_, JoinRendered(arguments_));
}

std::shared_ptr<NamedReference> FieldReference(std::string name) {
  return std::make_shared<NamedReference>(std::vector<std::string>{std::move(name)});
}

std::shared_ptr<Literal> MakeLiteral(std::shared_ptr<arrow::Scalar> value) {
  return std::make_shared<Literal>(std::move(value));
}

PredicatePtr MakePredicate(std::string name, std::vector<ExpressionPtr> children) {
  return std::make_shared<Predicate>(std::move(name), std::move(children));
}

const std::string* AsColumnName(const Expression& expression) {
  auto* ref = dynamic_cast<const NamedReference*>(&expression);
  if (ref == nullptr || ref->field_names().size() != 1) return nullptr;
  return &ref->field_names()[0];
}

}  // namespace parley
