// Connector expressions: the neutral expression language the engine uses to offer predicates,
// sort orders and partition transforms to a connector.
//
// They mirror Spark's org.apache.spark.sql.connector.expressions package: a NamedReference
// points at a (possibly nested) column, a Literal holds an Arrow scalar, a
// GeneralScalarExpression applies a function named by one of Spark's V2 names ("+", "ABS"...),
// a UserDefinedScalarFunc calls a catalog's function, and a Predicate is a boolean-valued
// GeneralScalarExpression whose name is one of
//   =  <>  <  <=  >  >=  <=>  IS_NULL  IS_NOT_NULL  IN  STARTS_WITH  ENDS_WITH  CONTAINS
//   AND  OR  NOT  ALWAYS_TRUE  ALWAYS_FALSE
// with the children Spark documents (IN: the value first, then the list).
//
// Expressions are immutable after construction and safe to share between threads.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"

namespace parley {

class NamedReference;

/// \brief Base of every connector expression.
class Expression {
 public:
  virtual ~Expression() = default;
  /// \brief The direct children, in order; empty for leaves.
  virtual std::vector<std::shared_ptr<Expression>> children() const { return {}; }
  /// \brief A readable SQL-like rendering used in EXPLAIN and error messages, e.g. `i > 6`.
  virtual std::string ToString() const = 0;
  /// \brief Every column this expression reads, in first-seen order.
  std::vector<std::shared_ptr<NamedReference>> References() const;
};

using ExpressionPtr = std::shared_ptr<Expression>;

/// \brief A reference to a column, or to a nested field by its path of names.
class NamedReference : public Expression {
 public:
  explicit NamedReference(std::vector<std::string> field_names)
      : field_names_(std::move(field_names)) {}
  const std::vector<std::string>& field_names() const { return field_names_; }
  std::string ToString() const override;

 private:
  std::vector<std::string> field_names_;
};

/// \brief A constant. A SQL NULL is a null scalar of the literal's type.
class Literal : public Expression {
 public:
  explicit Literal(std::shared_ptr<arrow::Scalar> value) : value_(std::move(value)) {}
  const std::shared_ptr<arrow::Scalar>& value() const { return value_; }
  const std::shared_ptr<arrow::DataType>& data_type() const;
  std::string ToString() const override;

 private:
  std::shared_ptr<arrow::Scalar> value_;
};

/// \brief A function applied to children, named by its Spark V2 name ("+", "UPPER", ...).
class GeneralScalarExpression : public Expression {
 public:
  GeneralScalarExpression(std::string name, std::vector<ExpressionPtr> children)
      : name_(std::move(name)), children_(std::move(children)) {}
  const std::string& name() const { return name_; }
  std::vector<ExpressionPtr> children() const override { return children_; }
  std::string ToString() const override;

 private:
  std::string name_;
  std::vector<ExpressionPtr> children_;
};

/// \brief A call of a catalog's function (parley/connector/function.h) inside a predicate
/// (Spark's UserDefinedScalarFunc): `name` as the function calls itself, `canonical_name`
/// telling which computation it is (a source evaluates only the functions it recognizes by it).
/// Only deterministic functions are offered; a boolean call in a condition is offered as
/// `call = TRUE`.
class UserDefinedScalarFunc : public Expression {
 public:
  UserDefinedScalarFunc(std::string name, std::string canonical_name,
                        std::vector<ExpressionPtr> children)
      : name_(std::move(name)),
        canonical_name_(std::move(canonical_name)),
        children_(std::move(children)) {}
  const std::string& name() const { return name_; }
  const std::string& canonical_name() const { return canonical_name_; }
  std::vector<ExpressionPtr> children() const override { return children_; }
  std::string ToString() const override;

 private:
  std::string name_;
  std::string canonical_name_;
  std::vector<ExpressionPtr> children_;
};

/// \brief A boolean-valued expression the engine may push to a source (see file comment).
class Predicate : public GeneralScalarExpression {
 public:
  using GeneralScalarExpression::GeneralScalarExpression;
};

using PredicatePtr = std::shared_ptr<Predicate>;

/// \brief Sort direction and null placement of a SortOrder.
enum class SortDirection { kAscending, kDescending };
enum class NullOrdering { kNullsFirst, kNullsLast };

/// \brief One key of an ordering. Spark's default: ascending puts nulls first, descending last.
class SortOrder : public Expression {
 public:
  SortOrder(ExpressionPtr expression, SortDirection direction, NullOrdering null_ordering)
      : expression_(std::move(expression)), direction_(direction), null_ordering_(null_ordering) {}
  const ExpressionPtr& expression() const { return expression_; }
  SortDirection direction() const { return direction_; }
  NullOrdering null_ordering() const { return null_ordering_; }
  std::vector<ExpressionPtr> children() const override { return {expression_}; }
  std::string ToString() const override;

 private:
  ExpressionPtr expression_;
  SortDirection direction_;
  NullOrdering null_ordering_;
};

/// \brief A partition transform: identity(col), bucket(n, col), years(col), months(col),
/// days(col), hours(col), truncate(col, width), named as in Spark.
class Transform : public Expression {
 public:
  Transform(std::string name, std::vector<ExpressionPtr> arguments)
      : name_(std::move(name)), arguments_(std::move(arguments)) {}
  const std::string& name() const { return name_; }
  const std::vector<ExpressionPtr>& arguments() const { return arguments_; }
  std::vector<ExpressionPtr> children() const override { return arguments_; }
  std::string ToString() const override;

 private:
  std::string name_;
  std::vector<ExpressionPtr> arguments_;
};

/// \brief Shorthands for building expressions.
std::shared_ptr<NamedReference> FieldReference(std::string name);
std::shared_ptr<Literal> MakeLiteral(std::shared_ptr<arrow::Scalar> value);
PredicatePtr MakePredicate(std::string name, std::vector<ExpressionPtr> children);

/// \brief If `expression` is a single-part column reference, return its name; else nullptr.
const std::string* AsColumnName(const Expression& expression);

}  // namespace parley
