// AggregateBinder: binds the parts of an aggregate query that are evaluated after grouping
// (select list, HAVING, ORDER BY). Aggregate calls become references to the Aggregate node's
// outputs, expressions equal to a grouping key become references to that key, and a column
// that is neither grouped nor aggregated is MISSING_AGGREGATION, as in Spark.
//
// With grouping sets (GROUPING SETS, ROLLUP, CUBE), an Expand below the Aggregate emits each
// input row once per set: the keys outside the set are NULL there, and each row carries the
// set's grouping id, a grouping key too, with one bit per key (1 when the key is rolled up, the
// first key's bit the highest). grouping(key) and grouping_id() read it, so a rolled-up NULL is
// told apart from a NULL in the data.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "analysis/expression_binder.h"
#include "plan/logical_plan.h"

namespace parley {

/// \brief The result type of aggregate `function` (COUNT, COUNT_STAR, SUM, AVG, MIN, MAX) of
/// `arg` (null for COUNT_STAR), as Spark types it; `call` names it in errors
/// (DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE for SUM or AVG of a non-number).
Result<std::shared_ptr<arrow::DataType>> AggregateResultType(const std::string& function,
                                                             const sql::Expr& call,
                                                             const BoundExprPtr& arg);

/// \brief Whether `call` calls a connector's aggregate function (parley/connector/function.h):
/// a function found for its name that binds, with its arguments bound over `input`, to an
/// AggregateFunction.
bool IsConnectorAggregateCall(const sql::Expr& call, const Scope& input);

/// \brief The hook of an aggregate's arguments: an aggregate there is NESTED_AGGREGATE_FUNCTION.
Result<BoundExprPtr> NestedAggregate(const sql::Expr& inner);

/// \brief DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE for argument `index` of an aggregate call.
Status UnexpectedArgumentType(const sql::Expr& call, size_t index, const arrow::DataType& type,
                              const char* required);

/// \brief Whether `name` (lower case) is a collecting aggregate (first, collect_list,
/// percentile...; functions/collecting_aggregates.h), and the list of them.
bool IsCollectingAggregate(const std::string& name);
const std::vector<std::string>& CollectingAggregateNames();

class AggregateBinder {
 public:
  /// \brief `input` is the scope below the aggregate (FROM and WHERE).
  explicit AggregateBinder(const Scope& input) : input_(input) {}

  /// \brief Add a GROUP BY key, bound against the input.
  Status AddGroupKey(const sql::Expr& expr);
  /// \brief Add a key that is already bound (GROUP BY ordinal or ALL).
  void AddBoundGroupKey(BoundExprPtr key, std::string display);
  /// \brief The index of the key `expr` binds to, added unless an equal key exists.
  Result<size_t> AddGroupingKey(const sql::Expr& expr);
  /// \brief Group by each of `sets` (lists of key indexes) in turn rather than by every key.
  void SetGroupingSets(std::vector<std::vector<size_t>> sets);
  /// \brief Bind the window function calls met after grouping with `hook`, whose results are
  /// columns computed above the Aggregate node.
  void SetWindowHook(AggregateHook hook) { window_hook_ = std::move(hook); }
  /// \brief Bind an expression evaluated after grouping.
  Result<BoundExprPtr> BindAfterAggregate(const sql::Expr& expr);
  /// \brief An expression over the input as evaluated after grouping: parts equal to a key
  /// become that key's field; any other input column is MISSING_AGGREGATION at `source`
  /// (MISSING_GROUP_BY when the query has no grouping keys).
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
  Result<BoundExprPtr> BindConnectorCall(const sql::Expr& call);
  /// INVALID_USAGE_OF_STAR_OR_REGEX, WRONG_NUM_ARGS or UNSUPPORTED_FEATURE.AGGREGATE_DISTINCT
  /// unless the call has `arity` arguments, and DISTINCT only with one.
  Status CheckPlainAggregate(const sql::Expr& call, size_t arity) const;
  /// The call's FILTER (WHERE ...) condition, INVALID_AGGREGATE_FILTER unless a BOOLEAN
  /// without aggregates. REQUIRES: call.filter.
  Result<BoundExprPtr> BindFilterCondition(const sql::Expr& call) const;
  /// The call's FILTER (WHERE ...) applied to the arguments of `aggregate`.
  Status ApplyFilter(const sql::Expr& call, AggregateCall* aggregate) const;
  /// A call of one of the built-in library's aggregates (functions/builtin_aggregates.h).
  Result<BoundExprPtr> BindLibraryCall(const sql::Expr& call, const std::string& name);
  /// count_if, bool_and / every, bool_or / some / any, regr_count, regr_avgx and regr_avgy:
  /// Spark's aggregates that are count, min, max or avg of a rewritten argument.
  Result<BoundExprPtr> BindRewrittenCall(const sql::Expr& call, const std::string& name);
  /// first / last, max_by / min_by, collect_*, string_agg, the percentiles, mode and
  /// approx_count_distinct (analysis/aggregate_binder_collecting.cc).
  Result<BoundExprPtr> BindCollectingCall(const sql::Expr& call, const std::string& name);
  // The column of `aggregate`'s result, computed once however often the query names it.
  Result<BoundExprPtr> AddCall(const sql::Expr& call, AggregateCall aggregate);
  Result<BoundExprPtr> BindWindowCall(const sql::Expr& call);
  // grouping(key) and grouping_id(keys...).
  Result<BoundExprPtr> BindGrouping(const sql::Expr& call, const std::string& name);
  PlanNodePtr MakeExpand(PlanNodePtr input) const;
  bool HasDuplicateSets() const;

  const Scope& input_;
  std::vector<BoundExprPtr> keys_;
  std::vector<std::string> key_displays_;
  std::vector<AggregateCall> calls_;
  std::set<std::string> aggregate_fields_;
  SubqueryHook subquery_hook_;
  std::vector<std::vector<size_t>> sets_;
  AggregateHook window_hook_;
};

}  // namespace parley
