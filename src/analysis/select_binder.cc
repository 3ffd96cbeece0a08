// SelectBinder: the order in which a SELECT's clauses are bound, and its FROM clause.
#include <fmt/format.h>

#include "analysis/aggregate_binder.h"
#include "analysis/analysis_error.h"
#include "analysis/expression_binder.h"
#include "analysis/from_binder.h"
#include "analysis/result_clauses.h"
#include "analysis/select_binder.h"
#include "analysis/window_binder.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "functions/function_registry.h"

namespace parley {

bool ContainsAggregate(const sql::Expr& expr, const Scope& input) {
  if (expr.kind == sql::ExprKind::kFunction && !expr.window) {
    if (expr.name_parts.size() == 1 && IsAggregateFunction(expr.name_parts[0])) return true;
    const bool builtin =
        expr.name_parts.size() == 1 &&
        (FunctionRegistry::Builtin().FindTypeRule(ToLowerAscii(expr.name_parts[0])) != nullptr ||
         IsWindowOnlyFunction(ToLowerAscii(expr.name_parts[0])) || expr.interval);
    if (!builtin && IsConnectorAggregateCall(expr, input)) return true;
  }
  for (const auto& child : expr.children) {
    if (ContainsAggregate(*child, input)) return true;
  }
  return false;
}

Status CheckFilterType(const sql::Expr& expr, const BoundExpr& condition) {
  if (condition.type->id() == arrow::Type::BOOL) return Status::OK();
  return AnalysisError(
      "DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN",
      fmt::format("Cannot resolve \"{}\" due to data type mismatch: filter expression \"{}\" "
                  "of type \"{}\" is not a boolean.",
                  expr.source_text, expr.source_text, SqlTypeName(*condition.type)),
      expr.pos);
}

BoundExprPtr RefToField(const OutputField& field) {
  return MakeColumnRef(field.name, field.display, field.type);
}

SelectBinder::SelectBinder(const sql::SelectStatement& select, CatalogManager* catalogs,
                           const CteScope* ctes, const OuterQuery* outer)
    : select_(select),
      catalogs_(catalogs),
      ctes_(ctes),
      outer_(outer),
      counter_(outer != nullptr ? outer->counter : &own_counter_),
      prefix_(outer != nullptr ? fmt::format("#s{}_", ++*counter_) : "_c") {
  if (outer_ != nullptr) {
    for (const auto& column : *outer_->scopes[0]) outer_fields_.insert(column.field);
  }
}

Result<PlanNodePtr> SelectBinder::Bind() {
  window_.emplace([this](const sql::Expr& expr) { return BindItem(expr); }, select_.windows);
  ARROW_ASSIGN_OR_RAISE(auto plan, BindFrom());
  if (select_.where) {
    ARROW_ASSIGN_OR_RAISE(auto condition, BindWhere(*select_.where));
    plan = ApplySubqueryJoins(plan, input_joins_);
    input_joins_.clear();
    if (condition) {
      auto filter = std::make_shared<PlanNode>();
      filter->kind = PlanNode::Kind::kFilter;
      filter->children = {plan};
      filter->output = plan->output;
      filter->condition = condition;
      plan = filter;
    }
  }
  if (!correlation_.empty() && (select_.limit || select_.offset)) {
    return AnalysisError("UNSUPPORTED_FEATURE.SUBQUERY",
                         "LIMIT or OFFSET in a correlated subquery is not supported yet.",
                         select_.pos);
  }
  if (IsAggregateQuery()) {
    aggregate_.emplace(scope_);
    aggregate_->SetSubqueryHook(
        [this](const sql::Expr& expr) { return BindSubqueryValue(expr, true); });
    aggregate_->SetWindowHook([this](const sql::Expr& call) { return BindWindow(call); });
    ARROW_RETURN_NOT_OK(BindGroupBy());
    ARROW_RETURN_NOT_OK(GroupByCorrelation());
  }
  ARROW_ASSIGN_OR_RAISE(plan, BindProjection(plan));
  if (select_.distinct) {
    auto distinct = std::make_shared<PlanNode>();
    distinct->kind = PlanNode::Kind::kDistinct;
    distinct->children = {plan};
    distinct->output = plan->output;
    plan = distinct;
  }
  if (!sort_keys_.empty()) {
    auto sort = std::make_shared<PlanNode>();
    sort->kind = PlanNode::Kind::kSort;
    sort->children = {plan};
    sort->output = plan->output;
    sort->sort_keys = sort_keys_;
    plan = sort;
  }
  ARROW_ASSIGN_OR_RAISE(plan, ApplyLimit(std::move(plan), select_));
  if (hidden_columns_ > 0) {
    auto project = std::make_shared<PlanNode>();
    project->kind = PlanNode::Kind::kProject;
    project->children = {plan};
    for (size_t i = 0; i + hidden_columns_ < plan->output.size(); ++i) {
      const auto& field = plan->output[i];
      project->output.push_back(field);
      project->exprs.push_back(MakeColumnRef(field.name, field.display, field.type));
    }
    plan = project;
  }
  return plan;
}

BoundSubquery SelectBinder::Subquery(PlanNodePtr plan) const {
  BoundSubquery subquery;
  subquery.plan = std::move(plan);
  subquery.columns = columns_;
  subquery.correlation = correlation_;
  subquery.aggregate = aggregate_.has_value() && !select_.group_by;
  subquery.one_row = subquery.aggregate && !select_.having && !select_.limit && !select_.offset;
  subquery.empty_value = empty_value_;
  return subquery;
}

Result<PlanNodePtr> SelectBinder::BindFrom() {
  if (!select_.from_item) {
    auto node = std::make_shared<PlanNode>();
    node->kind = PlanNode::Kind::kOneRow;
    from_plan_ = node;
    return node;
  }
  ARROW_ASSIGN_OR_RAISE(auto relation, BindFromItem(*select_.from_item, catalogs_, ctes_));
  if (outer_ != nullptr) relation = RenameApart(std::move(relation), outer_->taken);
  scope_ = std::move(relation.scope);
  from_plan_ = relation.plan;
  return relation.plan;
}

// Binding options of WHERE (which may read the enclosing query) and of the other clauses.
BindOptions SelectBinder::Options(bool where) {
  BindOptions options;
  options.subquery_hook = [this](const sql::Expr& expr) { return BindSubqueryValue(expr, false); };
  if (where && outer_ != nullptr) options.outer_scopes = outer_->scopes;
  return options;
}

void SelectBinder::AddOutput(PlanNode* project, BoundExprPtr expr, std::string display) {
  std::string name = fmt::format("{}{}", prefix_, project->output.size());
  project->output.push_back({name, std::move(display), expr->type, true});
  project->exprs.push_back(std::move(expr));
}

bool SelectBinder::IsAggregateQuery() const {
  if (select_.group_by || select_.having) return true;
  for (const auto& item : select_.items) {
    if (ContainsAggregate(*item.expr, scope_)) return true;
  }
  for (const auto& item : select_.order_by) {
    if (ContainsAggregate(*item.expr, scope_)) return true;
  }
  return false;
}

}  // namespace parley
