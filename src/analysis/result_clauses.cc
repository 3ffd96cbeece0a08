// Result clauses over a query body's output.
#include "analysis/result_clauses.h"

#include <fmt/format.h>

#include "analysis/analysis_error.h"
#include "analysis/expression_binder.h"
#include "analysis/types.h"
#include "arrow/scalar.h"
#include "arrow/type.h"

namespace parley {

Result<int64_t> LimitValue(const sql::Expr& expr, const char* clause) {
  ARROW_ASSIGN_OR_RAISE(auto bound, BindExpression(expr, {}));
  if (bound->kind != BoundExpr::Kind::kLiteral || !IsIntegral(*bound->type) ||
      !bound->literal->is_valid) {
    return AnalysisError("INVALID_LIMIT_LIKE_EXPRESSION.DATA_TYPE",
                         fmt::format("The {} expression \"{}\" is invalid. The limit expression "
                                     "must be an integer constant.",
                                     clause, expr.source_text),
                         expr.pos);
  }
  ARROW_ASSIGN_OR_RAISE(auto as_int64, bound->literal->CastTo(arrow::int64()));
  int64_t value = static_cast<const arrow::Int64Scalar&>(*as_int64).value;
  if (value < 0) {
    return AnalysisError("INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE",
                         fmt::format("The {} expression \"{}\" is invalid. The expression must "
                                     "be equal to or greater than 0, but got {}.",
                                     clause, expr.source_text, value),
                         expr.pos);
  }
  return value;
}

namespace {

BoundExprPtr OutputRef(const OutputField& field) {
  return MakeColumnRef(field.name, field.display, field.type);
}

PlanNodePtr MakeProject(PlanNodePtr input, std::vector<OutputField> output,
                        std::vector<BoundExprPtr> exprs) {
  auto project = std::make_shared<PlanNode>();
  project->kind = PlanNode::Kind::kProject;
  project->children = {std::move(input)};
  project->output = std::move(output);
  project->exprs = std::move(exprs);
  return project;
}

}  // namespace

Result<PlanNodePtr> ApplyLimit(PlanNodePtr plan, const sql::SelectStatement& query) {
  if (!query.limit && !query.offset) return plan;
  auto limit = std::make_shared<PlanNode>();
  limit->kind = PlanNode::Kind::kLimit;
  limit->children = {plan};
  limit->output = plan->output;
  if (query.limit) {
    ARROW_ASSIGN_OR_RAISE(limit->limit, LimitValue(*query.limit, "limit"));
  }
  if (query.offset) {
    ARROW_ASSIGN_OR_RAISE(limit->offset, LimitValue(*query.offset, "offset"));
  }
  return limit;
}

Result<PlanNodePtr> ApplyResultClauses(PlanNodePtr plan, const sql::SelectStatement& query) {
  if (query.order_by.empty()) return ApplyLimit(std::move(plan), query);
  Scope scope;
  for (const auto& field : plan->output) {
    scope.push_back({{}, field.display, field.name, field.type});
  }
  const size_t visible = plan->output.size();
  std::vector<OutputField> output = plan->output;
  std::vector<BoundExprPtr> exprs;
  for (const auto& field : plan->output) exprs.push_back(OutputRef(field));
  std::vector<SortKey> keys;
  for (const auto& item : query.order_by) {
    const sql::Expr& expr = *item.expr;
    BoundExprPtr key;
    if (expr.kind == sql::ExprKind::kLiteral && expr.literal_kind == sql::LiteralKind::kInteger) {
      int64_t ordinal = std::atoll(expr.text.c_str());
      if (ordinal < 1 || ordinal > static_cast<int64_t>(visible)) {
        return AnalysisError("ORDER_BY_POS_OUT_OF_RANGE",
                             fmt::format("ORDER BY position {} is not in select list (valid "
                                         "range is [1, {}]).",
                                         expr.text, visible),
                             expr.pos);
      }
      key = OutputRef(plan->output[ordinal - 1]);
    } else {
      ARROW_ASSIGN_OR_RAISE(key, BindExpression(expr, scope));
      if (key->kind != BoundExpr::Kind::kColumn) {
        output.push_back(
            {fmt::format("#order{}", output.size() - visible), expr.source_text, key->type, true});
        exprs.push_back(key);
        key = OutputRef(output.back());
      }
    }
    keys.push_back({key, item.ascending, item.nulls_first.value_or(item.ascending)});
  }
  const bool computed = output.size() > visible;
  if (computed) plan = MakeProject(plan, output, std::move(exprs));
  auto sort = std::make_shared<PlanNode>();
  sort->kind = PlanNode::Kind::kSort;
  sort->children = {plan};
  sort->output = plan->output;
  sort->sort_keys = std::move(keys);
  ARROW_ASSIGN_OR_RAISE(plan, ApplyLimit(sort, query));
  if (!computed) return plan;
  // The helper columns go last, after the limit, as in a SELECT.
  std::vector<OutputField> kept(output.begin(), output.begin() + visible);
  std::vector<BoundExprPtr> refs;
  for (const auto& field : kept) refs.push_back(OutputRef(field));
  return MakeProject(plan, std::move(kept), std::move(refs));
}

}  // namespace parley
