// SelectBinder: GROUP BY keys, GROUPING SETS, ROLLUP and CUBE.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/aggregate_binder.h"
#include "analysis/analysis_error.h"
#include "analysis/expression_binder.h"
#include "analysis/select_binder.h"
#include "analysis/window_binder.h"
#include "catalog/identifiers.h"

namespace parley {

Status SelectBinder::BindGroupBy() {
  if (!select_.group_by) return Status::OK();
  const auto& clause = *select_.group_by;
  if (clause.all) {
    for (const auto& item : select_.items) {
      if (item.expr->kind == sql::ExprKind::kStar || ContainsAggregate(*item.expr, scope_))
        continue;
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
      if (ContainsAggregate(item, scope_)) {
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

// GROUP BY with GROUPING SETS, ROLLUP or CUBE among its elements: the clause groups by the
// cross product of its elements' sets (GROUP BY a, ROLLUP(b) is (a, b), (a)).
Status SelectBinder::BindGroupingSets(const sql::GroupByClause& clause) {
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
std::vector<size_t> SelectBinder::Concat(std::vector<size_t> left,
                                         const std::vector<size_t>& right) {
  for (size_t key : right) {
    if (std::find(left.begin(), left.end(), key) == left.end()) left.push_back(key);
  }
  return left;
}

Result<std::vector<size_t>> SelectBinder::KeysOf(const std::vector<sql::ExprPtr>& items) {
  std::vector<size_t> keys;
  for (const auto& item : items) {
    ARROW_ASSIGN_OR_RAISE(size_t key, aggregate_->AddGroupingKey(*item));
    keys = Concat(std::move(keys), {key});
  }
  return keys;
}

// The grouping sets one GROUP BY element stands for, as Spark expands them: ROLLUP(a, b) is
// (a, b), (a), (); CUBE(a, b) is (a, b), (a), (b), ().
Result<SelectBinder::GroupingSets> SelectBinder::ElementSets(const sql::GroupingElement& element) {
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

}  // namespace parley
