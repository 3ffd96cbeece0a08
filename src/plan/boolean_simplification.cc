// Factoring of disjunctions and the predicates they imply.
#include "plan/boolean_simplification.h"

#include <algorithm>

#include "arrow/type.h"
#include "plan/expression_equality.h"

namespace parley {
namespace {

void AppendDisjuncts(const BoundExprPtr& expr, std::vector<BoundExprPtr>* out) {
  if (expr->kind == BoundExpr::Kind::kCall && expr->function == "OR") {
    for (const auto& arg : expr->args) AppendDisjuncts(arg, out);
    return;
  }
  out->push_back(expr);
}

bool Contains(const std::vector<BoundExprPtr>& exprs, const BoundExpr& expr) {
  return std::any_of(exprs.begin(), exprs.end(),
                     [&](const BoundExprPtr& e) { return SameExpression(*e, expr); });
}

// Appends the conjuncts of `disjunction` after factoring its common conjuncts out.
void Factor(const BoundExprPtr& disjunction, std::vector<BoundExprPtr>* out) {
  std::vector<BoundExprPtr> branches = SplitDisjuncts(disjunction);
  if (branches.size() < 2) {
    out->push_back(disjunction);
    return;
  }
  std::vector<std::vector<BoundExprPtr>> branch_conjuncts;
  for (const auto& branch : branches) branch_conjuncts.push_back(SplitConjuncts(branch));
  std::vector<BoundExprPtr> common;
  for (const auto& candidate : branch_conjuncts[0]) {
    bool everywhere = std::all_of(branch_conjuncts.begin() + 1, branch_conjuncts.end(),
                                  [&](const std::vector<BoundExprPtr>& conjuncts) {
                                    return Contains(conjuncts, *candidate);
                                  });
    if (everywhere && !Contains(common, *candidate)) common.push_back(candidate);
  }
  if (common.empty()) {
    out->push_back(disjunction);
    return;
  }
  std::vector<BoundExprPtr> rests;
  bool some_branch_is_common_only = false;
  for (const auto& conjuncts : branch_conjuncts) {
    std::vector<BoundExprPtr> rest;
    for (const auto& conjunct : conjuncts) {
      if (!Contains(common, *conjunct)) rest.push_back(conjunct);
    }
    if (rest.empty())
      some_branch_is_common_only = true;
    else
      rests.push_back(CombineConjuncts(rest));
  }
  out->insert(out->end(), common.begin(), common.end());
  // (a) OR (a AND c) is just a; otherwise the branches keep what they do not share.
  if (!some_branch_is_common_only) out->push_back(CombineDisjuncts(rests));
}

}  // namespace

std::vector<BoundExprPtr> FactorCommonConjuncts(const std::vector<BoundExprPtr>& conjuncts) {
  std::vector<BoundExprPtr> out;
  for (const auto& conjunct : conjuncts) Factor(conjunct, &out);
  return out;
}

std::vector<BoundExprPtr> SplitDisjuncts(const BoundExprPtr& condition) {
  std::vector<BoundExprPtr> out;
  AppendDisjuncts(condition, &out);
  return out;
}

BoundExprPtr CombineDisjuncts(const std::vector<BoundExprPtr>& disjuncts) {
  BoundExprPtr combined = disjuncts[0];
  for (size_t i = 1; i < disjuncts.size(); ++i) {
    combined = MakeCall("OR", {combined, disjuncts[i]}, arrow::boolean());
  }
  return combined;
}

}  // namespace parley
