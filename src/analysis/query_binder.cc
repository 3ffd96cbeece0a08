// QueryBinder: WITH, the query shapes, and a SELECT's FROM, WHERE, select list, DISTINCT,
// ORDER BY, LIMIT and OFFSET.
#include "analysis/query_binder.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "analysis/aggregate_binder.h"
#include "analysis/analysis_error.h"
#include "analysis/column_naming.h"
#include "analysis/expression_binder.h"
#include "analysis/from_binder.h"
#include "analysis/result_clauses.h"
#include "analysis/set_operation_binder.h"
#include "analysis/types.h"
#include "analysis/window_binder.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"

namespace parley {
namespace {

std::string QuotedParts(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += '.';
    out += QuoteIdentifier(parts[i]);
  }
  return out;
}

bool ContainsAggregate(const sql::Expr& expr) {
  if (expr.kind == sql::ExprKind::kFunction && expr.name_parts.size() == 1 && !expr.window &&
      IsAggregateFunction(expr.name_parts[0])) {
    return true;
  }
  for (const auto& child : expr.children) {
    if (ContainsAggregate(*child)) return true;
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

BoundExprPtr RefTo(const OutputField& field) {
  return MakeColumnRef(field.name, field.display, field.type);
}

class SelectBinder {
 public:
  /// `ctes`: the common table expressions the query sees; `outer`: the queries around a
  /// subquery, null for a query that is not one.
  SelectBinder(const sql::SelectStatement& select, CatalogManager* catalogs, const CteScope* ctes,
               const OuterQuery* outer = nullptr)
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

  Result<PlanNodePtr> Bind() {
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

  /// The subquery this binder bound into `plan` (with an OuterQuery).
  BoundSubquery Subquery(PlanNodePtr plan) const {
    BoundSubquery subquery;
    subquery.plan = std::move(plan);
    subquery.columns = columns_;
    subquery.correlation = correlation_;
    subquery.aggregate = aggregate_.has_value() && !select_.group_by;
    subquery.one_row = subquery.aggregate && !select_.having && !select_.limit && !select_.offset;
    subquery.empty_value = empty_value_;
    return subquery;
  }

 private:
  Result<PlanNodePtr> BindFrom() {
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
  BindOptions Options(bool where) {
    BindOptions options;
    options.subquery_hook = [this](const sql::Expr& expr) {
      return BindSubqueryValue(expr, false);
    };
    if (where && outer_ != nullptr) options.outer_scopes = outer_->scopes;
    return options;
  }

  // WHERE: EXISTS and IN subqueries among its conjuncts become semi and anti joins; in a
  // subquery, the conjuncts that read the enclosing query become the correlation. Returns the
  // filter's condition (null when nothing is left).
  Result<BoundExprPtr> BindWhere(const sql::Expr& where) {
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

  bool ReadsOuter(const BoundExpr& expr) const {
    std::vector<std::string> fields;
    expr.CollectFields(&fields);
    return std::any_of(fields.begin(), fields.end(),
                       [&](const std::string& f) { return outer_fields_.count(f) > 0; });
  }

  // The queries around a subquery of this one's.
  OuterQuery Outer() const {
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

  Status BindPredicateSubquery(const sql::Expr& expr, bool negated) {
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
  Result<BoundExprPtr> BindSubqueryValue(const sql::Expr& expr, bool after_aggregate) {
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
  Status GroupByCorrelation() {
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

  bool ReadsOnlyOuter(const BoundExpr& expr) const {
    std::vector<std::string> fields;
    expr.CollectFields(&fields);
    return std::all_of(fields.begin(), fields.end(),
                       [&](const std::string& f) { return outer_fields_.count(f) > 0; });
  }

  // The inner values the correlation reads leave the subquery as extra outputs (the grouping
  // keys of an aggregate), and the correlation reads them there.
  Status CarryCorrelation(PlanNode* project) {
    if (correlation_.empty()) return Status::OK();
    if (aggregate_) {
      std::vector<BoundExprPtr> rewritten;
      for (const auto& key : correlation_keys_) {
        ARROW_ASSIGN_OR_RAISE(auto after, aggregate_->ReplaceKeys(key.second, *select_.where));
        AddOutput(project, after, key.second->ToString());
        rewritten.push_back(
            MakeCall("=", {CastTo(key.first, after->type), RefTo(project->output.back())},
                     arrow::boolean()));
      }
      correlation_ = std::move(rewritten);
      return Status::OK();
    }
    std::map<std::string, BoundExprPtr> carried;
    for (const auto& column : ColumnRefs(CombineConjuncts(correlation_))) {
      if (outer_fields_.count(column->field) > 0) continue;
      AddOutput(project, column, column->display);
      carried[column->field] = RefTo(project->output.back());
    }
    for (auto& conjunct : correlation_) conjunct = ReplaceColumns(conjunct, carried);
    return Status::OK();
  }

  void AddOutput(PlanNode* project, BoundExprPtr expr, std::string display) {
    std::string name = fmt::format("{}{}", prefix_, project->output.size());
    project->output.push_back({name, std::move(display), expr->type, true});
    project->exprs.push_back(std::move(expr));
  }

  Result<PlanNodePtr> BindProjection(const PlanNodePtr& input) {
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

  bool IsAggregateQuery() const {
    if (select_.group_by || select_.having) return true;
    for (const auto& item : select_.items) {
      if (ContainsAggregate(*item.expr)) return true;
    }
    for (const auto& item : select_.order_by) {
      if (ContainsAggregate(*item.expr)) return true;
    }
    return false;
  }

  // An expression of the select list or ORDER BY: over the input, or after grouping. Window
  // calls in it are computed by a Window node below the projection.
  Result<BoundExprPtr> BindItem(const sql::Expr& expr) {
    if (aggregate_) return aggregate_->BindAfterAggregate(expr);
    BindOptions options = Options(false);
    options.aggregate_hook = [this](const sql::Expr& call) { return BindWindow(call); };
    return BindExpression(expr, scope_, options);
  }

  Result<BoundExprPtr> BindWindow(const sql::Expr& call) {
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

  Status BindGroupBy() {
    if (!select_.group_by) return Status::OK();
    const auto& clause = *select_.group_by;
    if (clause.all) {
      for (const auto& item : select_.items) {
        if (item.expr->kind == sql::ExprKind::kStar || ContainsAggregate(*item.expr)) continue;
        ARROW_RETURN_NOT_OK(aggregate_->AddGroupKey(*item.expr));
      }
      return Status::OK();
    }
    const bool analytic = std::any_of(
        clause.elements.begin(), clause.elements.end(),
        [](const auto& element) { return element.kind != sql::GroupingKind::kExpression; });
    if (analytic) return BindGroupingSets(clause);
    for (const auto& element : clause.elements) {
      const sql::Expr& expr = *element.expr;
      if (expr.kind == sql::ExprKind::kLiteral && expr.literal_kind == sql::LiteralKind::kInteger) {
        int64_t ordinal = std::atoll(expr.text.c_str());
        if (ordinal < 1 || ordinal > static_cast<int64_t>(select_.items.size())) {
          return AnalysisError("GROUP_BY_POS_OUT_OF_RANGE",
                               fmt::format("GROUP BY position {} is not in select list (valid "
                                           "range is [1, {}]).",
                                           expr.text, select_.items.size()),
                               expr.pos);
        }
        const sql::Expr& item = *select_.items[ordinal - 1].expr;
        if (ContainsAggregate(item)) {
          return AnalysisError("GROUP_BY_POS_AGGREGATE",
                               fmt::format("GROUP BY {} refers to an expression \"{}\" that "
                                           "contains an aggregate function.",
                                           expr.text, item.source_text),
                               expr.pos);
        }
        ARROW_RETURN_NOT_OK(aggregate_->AddGroupKey(item));
        continue;
      }
      ARROW_RETURN_NOT_OK(aggregate_->AddGroupKey(expr));
    }
    return Status::OK();
  }

  using GroupingSets = std::vector<std::vector<size_t>>;

  // GROUP BY with GROUPING SETS, ROLLUP or CUBE among its elements: the clause groups by the
  // cross product of its elements' sets (GROUP BY a, ROLLUP(b) is (a, b), (a)).
  Status BindGroupingSets(const sql::GroupByClause& clause) {
    GroupingSets sets = {{}};
    for (const auto& element : clause.elements) {
      ARROW_ASSIGN_OR_RAISE(auto element_sets, ElementSets(element));
      GroupingSets product;
      for (const auto& left : sets) {
        for (const auto& right : element_sets) product.push_back(Concat(left, right));
      }
      sets = std::move(product);
    }
    aggregate_->SetGroupingSets(std::move(sets));
    return Status::OK();
  }

  // `left` then the indexes of `right` it lacks.
  static std::vector<size_t> Concat(std::vector<size_t> left, const std::vector<size_t>& right) {
    for (size_t key : right) {
      if (std::find(left.begin(), left.end(), key) == left.end()) left.push_back(key);
    }
    return left;
  }

  Result<std::vector<size_t>> KeysOf(const std::vector<sql::ExprPtr>& items) {
    std::vector<size_t> keys;
    for (const auto& item : items) {
      ARROW_ASSIGN_OR_RAISE(size_t key, aggregate_->AddGroupingKey(*item));
      keys = Concat(std::move(keys), {key});
    }
    return keys;
  }

  // The grouping sets one GROUP BY element stands for, as Spark expands them: ROLLUP(a, b) is
  // (a, b), (a), (); CUBE(a, b) is (a, b), (a), (b), ().
  Result<GroupingSets> ElementSets(const sql::GroupingElement& element) {
    switch (element.kind) {
      case sql::GroupingKind::kExpression: {
        ARROW_ASSIGN_OR_RAISE(size_t key, aggregate_->AddGroupingKey(*element.expr));
        return GroupingSets{{key}};
      }
      case sql::GroupingKind::kSet: {
        ARROW_ASSIGN_OR_RAISE(auto keys, KeysOf(element.items));
        return GroupingSets{keys};
      }
      case sql::GroupingKind::kRollup:
      case sql::GroupingKind::kCube: {
        GroupingSets parts;
        for (const auto& child : element.children) {
          ARROW_ASSIGN_OR_RAISE(auto keys, KeysOf(child.items));
          parts.push_back(std::move(keys));
        }
        GroupingSets sets;
        if (element.kind == sql::GroupingKind::kRollup) {
          for (size_t n = parts.size() + 1; n-- > 0;) {
            std::vector<size_t> set;
            for (size_t i = 0; i < n; ++i) set = Concat(std::move(set), parts[i]);
            sets.push_back(std::move(set));
          }
        } else {
          sets = {{}};
          for (size_t i = parts.size(); i-- > 0;) {
            GroupingSets with;
            for (const auto& set : sets) with.push_back(Concat(parts[i], set));
            with.insert(with.end(), sets.begin(), sets.end());
            sets = std::move(with);
          }
        }
        return sets;
      }
      case sql::GroupingKind::kGroupingSets: {
        // The Hive form lists the grouping columns first; they fix the keys' order.
        ARROW_RETURN_NOT_OK(KeysOf(element.items).status());
        GroupingSets sets;
        for (const auto& child : element.children) {
          ARROW_ASSIGN_OR_RAISE(auto child_sets, ElementSets(child));
          sets.insert(sets.end(), child_sets.begin(), child_sets.end());
        }
        return sets;
      }
    }
    return Status::Invalid("unknown grouping element");
  }

  Status ExpandStar(const sql::Expr& star, PlanNode* project) {
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
      return AnalysisError(
          "CANNOT_RESOLVE_STAR_EXPAND",
          fmt::format("Cannot resolve {}.* given input columns [{}].", QuotedParts(star.name_parts),
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
  Result<BoundExprPtr> BindSortKey(const sql::Expr& expr, PlanNode* project, size_t visible) {
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
};

}  // namespace

Result<BoundSubquery> BindSubquery(const sql::SelectStatement& select, CatalogManager* catalogs,
                                   const OuterQuery& outer) {
  if (select.kind != sql::QueryKind::kSelect) {
    return AnalysisError("UNSUPPORTED_FEATURE.SUBQUERY",
                         "A subquery that is a set operation, a VALUES list or a parenthesised "
                         "query is not supported yet.",
                         select.pos);
  }
  // The subquery sees the CTEs around it, then its own.
  const CteScope* ctes = outer.ctes;
  std::vector<CteScope> scopes;
  scopes.reserve(select.with.size());
  for (const auto& cte : select.with) {
    scopes.push_back({&cte, ctes});
    ctes = &scopes.back();
  }
  SelectBinder binder(select, catalogs, ctes, &outer);
  ARROW_ASSIGN_OR_RAISE(auto plan, binder.Bind());
  return binder.Subquery(std::move(plan));
}

namespace {

// The version or the timestamp a time travel clause names, as text.
Result<std::string> TimeTravelValue(const sql::TimeTravel& travel) {
  const sql::Expr& value = *travel.value;
  bool literal = value.kind == sql::ExprKind::kLiteral;
  if (travel.by_version && literal &&
      (value.literal_kind == sql::LiteralKind::kInteger ||
       value.literal_kind == sql::LiteralKind::kString)) {
    return value.text;
  }
  if (!travel.by_version && literal &&
      (value.literal_kind == sql::LiteralKind::kString ||
       value.literal_kind == sql::LiteralKind::kTimestamp ||
       value.literal_kind == sql::LiteralKind::kDate)) {
    return value.text;
  }
  return AnalysisError(
      "INVALID_TIME_TRAVEL_SPEC",
      std::string("The time travel ") + (travel.by_version ? "version" : "timestamp") + " " +
          value.source_text + " must be a " +
          (travel.by_version ? "version number or string literal" : "constant timestamp literal") +
          ".",
      travel.pos);
}

// Microseconds since the epoch of a timestamp text (UTC, as the session time zone).
Result<int64_t> TimestampMicros(const std::string& text, SourcePosition pos) {
  auto parsed = arrow::Scalar::Parse(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"), text);
  if (!parsed.ok()) {
    return AnalysisError("INVALID_TIME_TRAVEL_TIMESTAMP_EXPR",
                         "The time travel timestamp '" + text + "' is not a valid timestamp.", pos);
  }
  return static_cast<const arrow::TimestampScalar&>(**parsed).value;
}

}  // namespace

Result<ResolvedName> ResolveNameForRead(const sql::QualifiedName& name, CatalogManager* catalogs) {
  // A read of a name that cannot exist (e.g. a multi-part namespace in spark_catalog) is a
  // table that is not found, as Spark reports it; DDL raises the namespace error itself.
  auto resolved = catalogs->ResolveTableName(name.parts);
  if (!resolved.ok() && ErrorCondition(resolved.status()) == "REQUIRES_SINGLE_PART_NAMESPACE") {
    return TableNotFound(name);
  }
  return resolved;
}

Result<std::pair<ResolvedName, std::shared_ptr<Table>>> LoadTableForName(
    const sql::QualifiedName& name, CatalogManager* catalogs, const sql::TimeTravel* time_travel) {
  std::optional<std::string> travel_value;
  if (time_travel != nullptr) {
    ARROW_ASSIGN_OR_RAISE(travel_value, TimeTravelValue(*time_travel));
  }
  if (auto provider = catalogs->PathProvider(name.parts)) {
    Options options{{"path", name.parts[1]}};
    if (time_travel != nullptr) {
      options[time_travel->by_version ? "versionasof" : "timestampasof"] = *travel_value;
    }
    ARROW_ASSIGN_OR_RAISE(auto schema, provider->InferSchema(options));
    ARROW_ASSIGN_OR_RAISE(auto table, provider->GetTable(schema, options));
    return std::make_pair(ResolvedName{nullptr, Identifier{{name.parts[0]}, name.parts[1]}},
                          std::move(table));
  }
  ARROW_ASSIGN_OR_RAISE(ResolvedName resolved, ResolveNameForRead(name, catalogs));
  ARROW_ASSIGN_OR_RAISE(auto* table_catalog, AsTableCatalog(resolved.catalog.get(), name.pos));
  Result<std::shared_ptr<Table>> table;
  if (time_travel == nullptr) {
    table = table_catalog->LoadTable(resolved.ident);
  } else if (time_travel->by_version) {
    table = table_catalog->LoadTableAtVersion(resolved.ident, *travel_value);
  } else {
    ARROW_ASSIGN_OR_RAISE(int64_t micros, TimestampMicros(*travel_value, time_travel->pos));
    table = table_catalog->LoadTableAtTimestamp(resolved.ident, micros);
  }
  if (!table.ok()) {
    std::string condition = ErrorCondition(table.status());
    if (condition == "TABLE_OR_VIEW_NOT_FOUND" || condition == "SCHEMA_NOT_FOUND") {
      return TableNotFound(name);
    }
    return table.status();
  }
  return std::make_pair(std::move(resolved), std::move(table).ValueUnsafe());
}

// VALUES (...), (...) [AS alias (names)]: every row has as many values as the first; a column's
// type is the common type of its values (Spark's inline-table widening), each value cast to it.
bool IsDefaultKeyword(const sql::Expr& expr) {
  return expr.kind == sql::ExprKind::kColumn && expr.name_parts.size() == 1 &&
         EqualsIgnoreCase(expr.name_parts[0], "default");
}

Result<PlanNodePtr> BindValues(const sql::SelectStatement& select,
                               const DefaultResolver& resolve_default) {
  const auto& rows = select.values.rows;
  if (resolve_default &&
      (!select.with.empty() || !select.order_by.empty() || select.limit || select.offset)) {
    return AnalysisError("UNSUPPORTED_FEATURE.QUERY_SHAPE",
                         "WITH, ORDER BY, LIMIT or OFFSET on a VALUES query is not supported yet.",
                         select.pos);
  }
  const size_t width = rows.empty() ? 0 : rows[0].size();
  std::vector<std::vector<BoundExprPtr>> bound;
  std::vector<std::shared_ptr<arrow::DataType>> types(width, arrow::null());
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() != width) {
      return AnalysisError("INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH",
                           fmt::format("Invalid inline table. Inline table expected {} columns "
                                       "but found {} columns in row {}.",
                                       width, rows[r].size(), r),
                           select.values.pos);
    }
    std::vector<BoundExprPtr> row;
    for (size_t c = 0; c < width; ++c) {
      const sql::Expr& expr = *rows[r][c];
      BoundExprPtr value;
      if (resolve_default && IsDefaultKeyword(expr)) {
        ARROW_ASSIGN_OR_RAISE(value, resolve_default(c));
      } else {
        ARROW_ASSIGN_OR_RAISE(value, BindExpression(expr, Scope{}));
      }
      auto common = CommonType(types[c], value->type);
      if (common == nullptr) {
        return AnalysisError("INVALID_INLINE_TABLE.INCOMPATIBLE_TYPES_IN_INLINE_TABLE",
                             fmt::format("Invalid inline table. Found incompatible types in the "
                                         "column `col{}` for inline table.",
                                         c + 1),
                             expr.pos);
      }
      types[c] = common;
      row.push_back(std::move(value));
    }
    bound.push_back(std::move(row));
  }
  const auto& names = select.values.column_aliases;
  if (!names.empty() && names.size() != width) {
    return AnalysisError("ASSIGNMENT_ARITY_MISMATCH",
                         fmt::format("The number of columns or variables assigned or aliased: {} "
                                     "does not match the number of source tuples: {}.",
                                     names.size(), width),
                         select.values.pos);
  }
  auto node = std::make_shared<PlanNode>();
  node->kind = PlanNode::Kind::kValues;
  for (size_t c = 0; c < width; ++c) {
    bool nullable = false;
    for (auto& row : bound) {
      row[c] = CastTo(row[c], types[c]);
      if (row[c]->kind != BoundExpr::Kind::kLiteral || !row[c]->literal->is_valid) nullable = true;
    }
    std::string display = names.empty() ? fmt::format("col{}", c + 1) : names[c];
    node->output.push_back({fmt::format("_v{}", c), display, types[c], nullable});
  }
  node->values = std::move(bound);
  return node;
}

Result<PlanNodePtr> BindSelect(const sql::SelectStatement& select, CatalogManager* catalogs,
                               const CteScope* ctes) {
  // Each CTE sees those before it; the body sees them all, innermost first.
  std::vector<CteScope> scopes;
  scopes.reserve(select.with.size());
  for (const auto& cte : select.with) {
    scopes.push_back({&cte, ctes});
    ctes = &scopes.back();
  }
  PlanNodePtr body;
  switch (select.kind) {
    case sql::QueryKind::kSelect: return SelectBinder(select, catalogs, ctes).Bind();
    case sql::QueryKind::kValues: {
      ARROW_ASSIGN_OR_RAISE(body, BindValues(select));
      break;
    }
    case sql::QueryKind::kSetOperation: {
      ARROW_ASSIGN_OR_RAISE(body, BindSetOperation(*select.set_operation, catalogs, ctes));
      break;
    }
    case sql::QueryKind::kNested: {
      ARROW_ASSIGN_OR_RAISE(body, BindSelect(*select.nested, catalogs, ctes));
      break;
    }
  }
  return ApplyResultClauses(std::move(body), select);
}

}  // namespace parley
