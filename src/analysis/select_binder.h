// SelectBinder: binds one SELECT (FROM, WHERE, GROUP BY, HAVING, the select list, DISTINCT,
// ORDER BY, LIMIT, OFFSET) into a logical plan, clause by clause. Internal to analysis: the
// entry points are BindSelect and BindSubquery (query_binder.h, subquery.h).
//
// The members live by clause: select_binder.cc (the order of the clauses, FROM),
// select_where.cc (WHERE and the subqueries and correlations it holds), select_group_by.cc
// (GROUP BY and grouping sets) and select_list.cc (the select list, windows, `*` and ORDER BY,
// which resolves against the select list).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/aggregate_binder.h"
#include "analysis/cte_scope.h"
#include "analysis/expression_binder.h"
#include "analysis/generator.h"
#include "analysis/subquery.h"
#include "analysis/window_binder.h"
#include "catalog/catalog_manager.h"
#include "plan/logical_plan.h"
#include "sql/ast.h"

namespace parley {

/// \brief Whether `expr` calls an aggregate function (outside a window): a built-in one, or a
/// connector's, whose arguments bind over `input`.
bool ContainsAggregate(const sql::Expr& expr, const Scope& input);
/// \brief DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN unless `condition` (bound from `expr`) is a
/// BOOLEAN.
Status CheckFilterType(const sql::Expr& expr, const BoundExpr& condition);
/// \brief A reference to `field` of an operator's output.
BoundExprPtr RefToField(const OutputField& field);

class SelectBinder {
 public:
  /// `ctes`: the common table expressions the query sees; `outer`: the queries around a
  /// subquery, null for a query that is not one.
  SelectBinder(const sql::SelectStatement& select, CatalogManager* catalogs, const CteScope* ctes,
               const OuterQuery* outer = nullptr);

  /// \brief The query's plan.
  Result<PlanNodePtr> Bind();
  /// \brief The subquery this binder bound into `plan` (with an OuterQuery).
  BoundSubquery Subquery(PlanNodePtr plan) const;

 private:
  using GroupingSets = std::vector<std::vector<size_t>>;

  // A generator of the select list and the fields it makes.
  struct Generator {
    BoundGenerator call;
    std::vector<OutputField> outputs;
  };

  // select_binder.cc
  Result<PlanNodePtr> BindFrom();
  BindOptions Options(bool where);
  void AddOutput(PlanNode* project, BoundExprPtr expr, std::string display);
  bool IsAggregateQuery() const;

  // select_where.cc
  Result<BoundExprPtr> BindWhere(const sql::Expr& where);
  bool ReadsOuter(const BoundExpr& expr) const;
  OuterQuery Outer() const;
  Status BindPredicateSubquery(const sql::Expr& expr, bool negated);
  Result<BoundExprPtr> BindSubqueryValue(const sql::Expr& expr, bool after_aggregate);
  Status GroupByCorrelation();
  bool ReadsOnlyOuter(const BoundExpr& expr) const;
  Status CarryCorrelation(PlanNode* project);

  // select_list.cc
  Result<PlanNodePtr> BindProjection(const PlanNodePtr& input);
  Result<BoundExprPtr> BindItem(const sql::Expr& expr);
  Result<BoundExprPtr> BindWindow(const sql::Expr& call);
  Status ExpandStar(const sql::Expr& star, PlanNode* project);
  Result<BoundExprPtr> BindSortKey(const sql::Expr& expr, PlanNode* project, size_t visible);

  // select_generator.cc
  bool IsGeneratorItem(const sql::Expr& expr) const;
  Status BindGeneratorItem(const sql::Expr& expr, const std::string& alias, PlanNode* project);
  PlanNodePtr MakeGenerate(PlanNodePtr input) const;

  // select_group_by.cc
  Status BindGroupBy();
  Status BindGroupingSets(const sql::GroupByClause& clause);
  static std::vector<size_t> Concat(std::vector<size_t> left, const std::vector<size_t>& right);
  Result<std::vector<size_t>> KeysOf(const std::vector<sql::ExprPtr>& items);
  Result<GroupingSets> ElementSets(const sql::GroupingElement& element);

  const sql::SelectStatement& select_;
  CatalogManager* catalogs_;
  const CteScope* ctes_;
  const OuterQuery* outer_;
  int own_counter_ = 0;
  int* counter_;
  // Prefix of the projection's internal names: unique in the statement for a subquery.
  std::string prefix_;
  // The fields of the innermost enclosing query's scope, which a correlation reads.
  std::set<std::string> outer_fields_;
  PlanNodePtr from_plan_;
  Scope scope_;
  std::optional<AggregateBinder> aggregate_;
  std::optional<WindowBinder> window_;
  bool in_having_ = false;
  std::vector<SortKey> sort_keys_;
  size_t hidden_columns_ = 0;
  // The subqueries' joins below the filter or projection, and above the aggregate.
  std::vector<SubqueryJoin> input_joins_;
  std::vector<SubqueryJoin> aggregate_joins_;
  // As a subquery: the select list's width, the correlated conjuncts, and for an aggregate the
  // (outer side, inner side) of each correlation equality and the value over no rows.
  size_t columns_ = 0;
  std::vector<BoundExprPtr> correlation_;
  std::vector<std::pair<BoundExprPtr, BoundExprPtr>> correlation_keys_;
  BoundExprPtr empty_value_;
  // The select list's generators, in order: each runs over the rows of the one before.
  std::vector<Generator> generators_;
};

}  // namespace parley
