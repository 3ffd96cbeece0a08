// Aggregate functions and the Aggregation the engine offers through
// SupportsPushDownAggregates, mirroring Spark's connector.expressions.aggregate package.
//
// Typed functions: Count(column, distinct), CountStar, Sum(column, distinct),
// Avg(column, distinct), Min(column), Max(column); anything else Spark pushes is a
// GeneralAggregateFunc named VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP, COVAR_POP, COVAR_SAMP,
// CORR, REGR_INTERCEPT, REGR_R2, REGR_SLOPE, REGR_SXY. Immutable; safe to share.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "parley/connector/expressions.h"

namespace parley {

/// \brief Base of every aggregate function. name() is the Spark name ("COUNT", "SUM", ...,
/// "COUNT(*)" for CountStar).
class AggregateFunc : public Expression {
 public:
  AggregateFunc(std::string name, bool distinct, std::vector<ExpressionPtr> children)
      : name_(std::move(name)), distinct_(distinct), children_(std::move(children)) {}
  const std::string& name() const { return name_; }
  bool is_distinct() const { return distinct_; }
  std::vector<ExpressionPtr> children() const override { return children_; }
  std::string ToString() const override;

 private:
  std::string name_;
  bool distinct_;
  std::vector<ExpressionPtr> children_;
};

using AggregateFuncPtr = std::shared_ptr<AggregateFunc>;

/// \brief COUNT(column) / COUNT(DISTINCT column): rows where the column is not null.
class Count : public AggregateFunc {
 public:
  Count(ExpressionPtr column, bool distinct) : AggregateFunc("COUNT", distinct, {column}) {}
};
/// \brief COUNT(*): all rows.
class CountStar : public AggregateFunc {
 public:
  CountStar() : AggregateFunc("COUNT(*)", false, {}) {}
};
class Sum : public AggregateFunc {
 public:
  Sum(ExpressionPtr column, bool distinct) : AggregateFunc("SUM", distinct, {column}) {}
};
class Avg : public AggregateFunc {
 public:
  Avg(ExpressionPtr column, bool distinct) : AggregateFunc("AVG", distinct, {column}) {}
};
class Min : public AggregateFunc {
 public:
  explicit Min(ExpressionPtr column) : AggregateFunc("MIN", false, {column}) {}
};
class Max : public AggregateFunc {
 public:
  explicit Max(ExpressionPtr column) : AggregateFunc("MAX", false, {column}) {}
};
/// \brief Any other pushable aggregate, by its Spark name (see the file comment).
class GeneralAggregateFunc : public AggregateFunc {
 public:
  using AggregateFunc::AggregateFunc;
};

/// \brief GROUP BY keys and aggregate functions offered for pushdown. When a source accepts
/// it, its scan's output is the group-by columns then one column per aggregate, in order.
struct Aggregation {
  std::vector<AggregateFuncPtr> aggregate_expressions;
  std::vector<ExpressionPtr> group_by_expressions;
  std::string ToString() const;
};

}  // namespace parley
