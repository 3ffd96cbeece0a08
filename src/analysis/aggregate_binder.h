// AggregateBinder: binds the parts of an aggregate query that are evaluated after grouping
// (select list, HAVING, ORDER BY). Aggregate calls become references to the Aggregate node's
// outputs, expressions equal to a grouping key become references to that key, and a column
// that is neither grouped nor aggregated is MISSING_AGGREGATION, as in Spark.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "analysis/expression_binder.h"
#include "plan/logical_plan.h"

namespace parley {

class AggregateBinder {
 public:
  /// \brief `input` is the scope below the aggregate (FROM and WHERE).
  explicit AggregateBinder(const Scope& input) : input_(input) {}

  /// \brief Add a GROUP BY key, bound against the input.
  Status AddGroupKey(const sql::Expr& expr);
  /// \brief Add a key that is already bound (GROUP BY ordinal or ALL).
  void AddBoundGroupKey(BoundExprPtr key, std::string display);
  /// \brief Bind an expression evaluated after grouping.
  Result<BoundExprPtr> BindAfterAggregate(const sql::Expr& expr);
  /// \brief An expression over the input as evaluated after grouping: parts equal to a key
  /// become that key's field; any other input column is MISSING_AGGREGATION at `source`.
  Result<BoundExprPtr> ReplaceKeys(const BoundExprPtr& expr, const sql::Expr& source) const;
  /// \brief Subquery expressions met after grouping go to `hook` (without one they are errors).
  void SetSubqueryHook(SubqueryHook hook) { subquery_hook_ = std::move(hook); }
  /// \brief Let expressions after grouping read `field`, a field joined above the aggregate.
  void AllowField(const std::string& field) { aggregate_fields_.insert(field); }
  /// \brief Bind an expression against the input, aggregates refused (for GROUP BY ALL).
  Result<BoundExprPtr> BindInput(const sql::Expr& expr) const;
  /// \brief The Aggregate node over `input`, with every key and aggregate bound so far.
  PlanNodePtr MakeNode(PlanNodePtr input) const;

 private:
  Result<BoundExprPtr> BindCall(const sql::Expr& call);

  const Scope& input_;
  std::vector<BoundExprPtr> keys_;
  std::vector<std::string> key_displays_;
  std::vector<AggregateCall> calls_;
  std::set<std::string> aggregate_fields_;
  SubqueryHook subquery_hook_;
};

}  // namespace parley
