// SelectBinder: WHERE, and the subqueries and correlations its conditions (and the select
// list's) hold.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/aggregate_binder.h"
#include "analysis/analysis_error.h"
#include "analysis/expression_binder.h"
#include "analysis/query_binder.h"
#include "analysis/select_binder.h"
#include "analysis/window_binder.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"

namespace parley {

// WHERE: EXISTS and IN subqueries among its conjuncts become semi and anti joins; in a
// subquery, the conjuncts that read the enclosing query become the correlation. Returns the
// filter's condition (null when nothing is left).
Result<BoundExprPtr> SelectBinder::BindWhere(const sql::Expr& where) {
  std::vector<const sql::Expr*> conjuncts;
  CollectConjuncts(where, &conjuncts);
  bool negated = false;
  bool predicates = std::any_of(conjuncts.begin(), conjuncts.end(), [&](const sql::Expr* c) {
    return AsPredicateSubquery(*c, &negated) != nullptr;
  });
  if (!predicates) conjuncts = {&where};
  std::vector<BoundExprPtr> local;
  for (const sql::Expr* conjunct : conjuncts) {
    if (const sql::Expr* predicate = AsPredicateSubquery(*conjunct, &negated)) {
      ARROW_RETURN_NOT_OK(BindPredicateSubquery(*predicate, negated));
      continue;
    }
    ARROW_ASSIGN_OR_RAISE(auto condition, BindExpression(*conjunct, scope_, Options(true)));
    ARROW_RETURN_NOT_OK(CheckFilterType(*conjunct, *condition));
    for (auto& part : SplitConjuncts(condition)) {
      (ReadsOuter(*part) ? correlation_ : local).push_back(std::move(part));
    }
  }
  return CombineConjuncts(local);
}

bool SelectBinder::ReadsOuter(const BoundExpr& expr) const {
  std::vector<std::string> fields;
  expr.CollectFields(&fields);
  return std::any_of(fields.begin(), fields.end(),
                     [&](const std::string& f) { return outer_fields_.count(f) > 0; });
}

// The queries around a subquery of this one's.
OuterQuery SelectBinder::Outer() const {
  OuterQuery outer;
  outer.scopes.push_back(&scope_);
  if (outer_ != nullptr) {
    outer.scopes.insert(outer.scopes.end(), outer_->scopes.begin(), outer_->scopes.end());
    outer.taken = outer_->taken;
  }
  for (const auto& column : scope_) outer.taken.insert(column.field);
  for (const auto& field : from_plan_->output) outer.taken.insert(field.name);
  outer.counter = counter_;
  outer.ctes = ctes_;
  return outer;
}

Status SelectBinder::BindPredicateSubquery(const sql::Expr& expr, bool negated) {
  BoundExprPtr value;
  if (expr.subquery_kind == sql::SubqueryKind::kIn) {
    ARROW_ASSIGN_OR_RAISE(value, BindExpression(*expr.children[0], scope_, Options(false)));
  }
  ARROW_ASSIGN_OR_RAISE(auto subquery, BindSubquery(*expr.subquery, catalogs_, Outer()));
  ARROW_ASSIGN_OR_RAISE(auto join,
                        PlanPredicateSubquery(expr, value, negated, std::move(subquery)));
  input_joins_.push_back(std::move(join));
  return Status::OK();
}

// A subquery expression met in an expression: a scalar subquery, EXISTS or IN, joined below
// the filter or projection (or, `after_aggregate`, above the aggregate) that reads its value.
Result<BoundExprPtr> SelectBinder::BindSubqueryValue(const sql::Expr& expr, bool after_aggregate) {
  BoundExprPtr in_value;
  if (expr.subquery_kind == sql::SubqueryKind::kIn) {
    ARROW_ASSIGN_OR_RAISE(
        in_value, after_aggregate ? aggregate_->BindAfterAggregate(*expr.children[0])
                                  : BindExpression(*expr.children[0], scope_, Options(false)));
  }
  auto bind = [&]() -> Result<BoundSubquery> {
    ARROW_ASSIGN_OR_RAISE(auto subquery, BindSubquery(*expr.subquery, catalogs_, Outer()));
    if (after_aggregate && !subquery.correlation.empty()) {
      return AnalysisError("UNSUPPORTED_FEATURE.SUBQUERY",
                           fmt::format("A correlated subquery after grouping (in the select "
                                       "list, HAVING or ORDER BY of an aggregate query) is "
                                       "not supported yet: \"{}\".",
                                       expr.source_text),
                           expr.pos);
    }
    return subquery;
  };
  ARROW_ASSIGN_OR_RAISE(auto value,
                        PlanSubqueryValue(expr, in_value, bind, counter_,
                                          after_aggregate ? &aggregate_joins_ : &input_joins_));
  if (after_aggregate) {
    std::vector<std::string> fields;
    value->CollectFields(&fields);
    for (const auto& field : fields) aggregate_->AllowField(field);
  }
  return value;
}

// A correlated aggregate groups by the inner side of each correlation equality.
Status SelectBinder::GroupByCorrelation() {
  if (correlation_.empty()) return Status::OK();
  if (select_.group_by) {
    return AnalysisError(
        "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.NON_CORRELATED_COLUMNS_IN_GROUP_BY",
        "Unsupported subquery expression: A GROUP BY clause in a scalar correlated subquery "
        "cannot contain non-correlated columns.",
        select_.group_by->pos);
  }
  for (const auto& conjunct : correlation_) {
    BoundExprPtr inner;
    BoundExprPtr outer;
    if (conjunct->kind == BoundExpr::Kind::kCall && conjunct->function == "=") {
      for (size_t i = 0; i < 2 && inner == nullptr; ++i) {
        const auto& a = conjunct->args[i];
        const auto& b = conjunct->args[1 - i];
        std::vector<std::string> inner_fields;
        a->CollectFields(&inner_fields);
        if (!inner_fields.empty() && !ReadsOuter(*a) && ReadsOnlyOuter(*b)) {
          inner = a;
          outer = b;
        }
      }
    }
    if (inner == nullptr) {
      return AnalysisError(
          "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY."
          "CORRELATED_COLUMN_IS_NOT_ALLOWED_IN_PREDICATE",
          fmt::format("Unsupported subquery expression: Correlated column is not allowed in "
                      "predicate: \"{}\".",
                      conjunct->ToString()),
          select_.where->pos);
    }
    aggregate_->AddBoundGroupKey(inner, inner->ToString());
    correlation_keys_.push_back({outer, inner});
  }
  return Status::OK();
}

bool SelectBinder::ReadsOnlyOuter(const BoundExpr& expr) const {
  std::vector<std::string> fields;
  expr.CollectFields(&fields);
  return std::all_of(fields.begin(), fields.end(),
                     [&](const std::string& f) { return outer_fields_.count(f) > 0; });
}

// The inner values the correlation reads leave the subquery as extra outputs (the grouping
// keys of an aggregate), and the correlation reads them there.
Status SelectBinder::CarryCorrelation(PlanNode* project) {
  if (correlation_.empty()) return Status::OK();
  if (aggregate_) {
    std::vector<BoundExprPtr> rewritten;
    for (const auto& key : correlation_keys_) {
      ARROW_ASSIGN_OR_RAISE(auto after, aggregate_->ReplaceKeys(key.second, *select_.where));
      AddOutput(project, after, key.second->ToString());
      rewritten.push_back(
          MakeCall("=", {CastTo(key.first, after->type), RefToField(project->output.back())},
                   arrow::boolean()));
    }
    correlation_ = std::move(rewritten);
    return Status::OK();
  }
  std::map<std::string, BoundExprPtr> carried;
  for (const auto& column : ColumnRefs(CombineConjuncts(correlation_))) {
    if (outer_fields_.count(column->field) > 0) continue;
    AddOutput(project, column, column->display);
    carried[column->field] = RefToField(project->output.back());
  }
  for (auto& conjunct : correlation_) conjunct = ReplaceColumns(conjunct, carried);
  return Status::OK();
}

}  // namespace parley
