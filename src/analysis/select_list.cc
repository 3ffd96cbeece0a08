// SelectBinder: the select list, window calls, `*`, and ORDER BY keys resolved against the
// select list.
#include <fmt/format.h>

#include "analysis/aggregate_binder.h"
#include "analysis/analysis_error.h"
#include "analysis/column_naming.h"
#include "analysis/expression_binder.h"
#include "analysis/select_binder.h"
#include "analysis/types.h"
#include "analysis/window_binder.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "parley/connector/procedure.h"

namespace parley {

Result<PlanNodePtr> SelectBinder::BindProjection(const PlanNodePtr& input) {
  auto project = std::make_shared<PlanNode>();
  project->kind = PlanNode::Kind::kProject;
  for (const auto& item : select_.items) {
    const sql::Expr& expr = *item.expr;
    if (expr.kind == sql::ExprKind::kStar) {
      if (aggregate_) {
        return AnalysisError("UNSUPPORTED_FEATURE.STAR_IN_AGGREGATE",
                             "'*' in the select list of an aggregate query is not supported; "
                             "name the grouped columns.",
                             expr.pos);
      }
      ARROW_RETURN_NOT_OK(ExpandStar(expr, project.get()));
      continue;
    }
    if (IsGeneratorItem(expr)) {
      ARROW_RETURN_NOT_OK(BindGeneratorItem(expr, item.alias, project.get()));
      continue;
    }
    ARROW_ASSIGN_OR_RAISE(auto bound, BindItem(expr));
    // As Spark names an unaliased item: a column by its name, and so a CAST of a column.
    const BoundExpr* named = expr.kind == sql::ExprKind::kColumn ? bound.get() : nullptr;
    if (expr.kind == sql::ExprKind::kCast && expr.children[0]->kind == sql::ExprKind::kColumn) {
      named = bound->kind == BoundExpr::Kind::kColumn ? bound.get()
              : !bound->args.empty()                  ? bound->args[0].get()
                                                      : nullptr;
    }
    std::string display =
        !item.alias.empty()
            ? item.alias
            : SparkItemName(expr).value_or(named != nullptr ? named->display : expr.source_text);
    AddOutput(project.get(), bound, display);
  }
  size_t visible = project->output.size();
  columns_ = visible;
  ARROW_RETURN_NOT_OK(CarryCorrelation(project.get()));
  size_t kept = project->output.size();
  for (const auto& item : select_.order_by) {
    ARROW_ASSIGN_OR_RAISE(auto key, BindSortKey(*item.expr, project.get(), visible));
    SortKey sort_key;
    sort_key.expr = key;
    sort_key.ascending = item.ascending;
    sort_key.nulls_first = item.nulls_first.value_or(item.ascending);
    sort_keys_.push_back(sort_key);
  }
  hidden_columns_ = project->output.size() - kept;
  if (!aggregate_) {
    project->children = {ApplySubqueryJoins(input, input_joins_)};
    if (!generators_.empty()) project->children = {MakeGenerate(project->children[0])};
  } else {
    BoundExprPtr condition;
    if (select_.having) {
      in_having_ = true;
      auto having = aggregate_->BindAfterAggregate(*select_.having);
      in_having_ = false;
      ARROW_ASSIGN_OR_RAISE(condition, std::move(having));
      if (condition->type->id() != arrow::Type::BOOL) {
        return AnalysisError("DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN",
                             fmt::format("The HAVING condition \"{}\" is not a boolean.",
                                         select_.having->source_text),
                             select_.having->pos);
      }
    }
    // Made after every clause is bound, so aggregates met in any of them are computed.
    PlanNodePtr below = aggregate_->MakeNode(input);
    if (!correlation_.empty() && visible > 0) {
      empty_value_ = ValueOverNoRows(*below, project->exprs[0]);
    }
    below = ApplySubqueryJoins(below, aggregate_joins_);
    if (condition) {
      auto having = std::make_shared<PlanNode>();
      having->kind = PlanNode::Kind::kFilter;
      having->children = {below};
      having->output = below->output;
      having->condition = condition;
      below = having;
    }
    project->children = {below};
  }
  if (!window_->empty()) project->children = {window_->MakeNode(project->children[0])};
  return project;
}

// An expression of the select list or ORDER BY: over the input, or after grouping. Window
// calls in it are computed by a Window node below the projection.
Result<BoundExprPtr> SelectBinder::BindItem(const sql::Expr& expr) {
  if (aggregate_) return aggregate_->BindAfterAggregate(expr);
  BindOptions options = Options(false);
  options.aggregate_hook = [this](const sql::Expr& call) { return BindWindow(call); };
  return BindExpression(expr, scope_, options);
}

Result<BoundExprPtr> SelectBinder::BindWindow(const sql::Expr& call) {
  if (!call.window) {
    // An aggregate met only inside a window specification: the query is not grouped.
    return AnalysisError("MISSING_GROUP_BY",
                         fmt::format("The query does not include a GROUP BY clause for \"{}\". "
                                     "Add GROUP BY or turn it into the window functions using "
                                     "OVER clauses.",
                                     call.source_text),
                         call.pos);
  }
  if (in_having_) {
    return AnalysisError("UNSUPPORTED_EXPR_FOR_OPERATOR",
                         fmt::format("A query operator contains one or more unsupported "
                                     "expressions: the window function \"{}\" in HAVING.",
                                     call.source_text),
                         call.pos);
  }
  return window_->BindCall(call);
}

Status SelectBinder::ExpandStar(const sql::Expr& star, PlanNode* project) {
  size_t before = project->output.size();
  for (const auto& column : scope_) {
    if (column.hidden) continue;
    bool match = star.name_parts.size() <= column.qualifier.size();
    size_t offset = match ? column.qualifier.size() - star.name_parts.size() : 0;
    for (size_t i = 0; match && i < star.name_parts.size(); ++i) {
      std::string a = column.qualifier[offset + i];
      std::string b = star.name_parts[i];
      std::transform(a.begin(), a.end(), a.begin(), ::tolower);
      std::transform(b.begin(), b.end(), b.begin(), ::tolower);
      match = a == b;
    }
    if (match)
      AddOutput(project, MakeColumnRef(column.field, column.name, column.type), column.name);
  }
  if (project->output.size() == before) {
    if (star.name_parts.empty()) {
      return AnalysisError("INVALID_USAGE_OF_STAR_OR_REGEX",
                           "Invalid usage of '*' in a SELECT without FROM.", star.pos);
    }
    return AnalysisError("CANNOT_RESOLVE_STAR_EXPAND",
                         fmt::format("Cannot resolve {}.* given input columns [{}].",
                                     QuoteMultipartIdentifier(star.name_parts),
                                     [&] {
                                       std::string names;
                                       for (const auto& c : scope_) {
                                         if (!names.empty()) names += ", ";
                                         names += QuoteIdentifier(c.name);
                                       }
                                       return names;
                                     }()),
                         star.pos);
  }
  return Status::OK();
}

// ORDER BY resolves an ordinal or a select-list name first, then an input expression, which
// becomes a hidden projection column (not allowed with DISTINCT).
Result<BoundExprPtr> SelectBinder::BindSortKey(const sql::Expr& expr, PlanNode* project,
                                               size_t visible) {
  auto output_ref = [&](size_t i) {
    const auto& field = project->output[i];
    return MakeColumnRef(field.name, field.display, field.type);
  };
  if (expr.kind == sql::ExprKind::kLiteral && expr.literal_kind == sql::LiteralKind::kInteger) {
    ARROW_ASSIGN_OR_RAISE(auto value, LiteralValue(expr));
    int64_t ordinal = value->type->id() == arrow::Type::INT32
                          ? static_cast<const arrow::Int32Scalar&>(*value).value
                          : -1;
    if (ordinal < 1 || ordinal > static_cast<int64_t>(visible)) {
      return AnalysisError("ORDER_BY_POS_OUT_OF_RANGE",
                           fmt::format("ORDER BY position {} is not in select list (valid "
                                       "range is [1, {}]).",
                                       expr.text, visible),
                           expr.pos);
    }
    return output_ref(ordinal - 1);
  }
  if (expr.kind == sql::ExprKind::kColumn && expr.name_parts.size() == 1) {
    std::string wanted = expr.name_parts[0];
    std::transform(wanted.begin(), wanted.end(), wanted.begin(), ::tolower);
    for (size_t i = 0; i < visible; ++i) {
      std::string display = project->output[i].display;
      std::transform(display.begin(), display.end(), display.begin(), ::tolower);
      if (display == wanted) return output_ref(i);
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto bound, BindItem(expr));
  for (size_t i = 0; i < project->exprs.size(); ++i) {
    if (project->exprs[i]->ToString() == bound->ToString()) return output_ref(i);
  }
  if (select_.distinct) {
    return AnalysisError("MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_APPEAR_IN_OPERATION",
                         fmt::format("Resolved attribute(s) \"{}\" missing from the select "
                                     "list of a SELECT DISTINCT.",
                                     expr.source_text),
                         expr.pos);
  }
  AddOutput(project, bound, expr.source_text);
  return output_ref(project->output.size() - 1);
}

}  // namespace parley
