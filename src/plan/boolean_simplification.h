// Rewrites of boolean conditions that let more of a condition reach joins and scans, as Spark's
// BooleanSimplification and PushExtraPredicateThroughJoin do.
#pragma once

#include <vector>

#include "plan/bound_expression.h"

namespace parley {

/// \brief The conjuncts of `condition` with every disjunction's common conjuncts factored out:
/// `(a AND b) OR (a AND c)` becomes `a` and `b OR c`; a disjunction with a branch that is
/// nothing but common conjuncts becomes just those. Other conjuncts are returned unchanged.
/// TPC-H Q19's join condition, repeated in each branch of an OR, becomes a hash-join key so.
std::vector<BoundExprPtr> FactorCommonConjuncts(const std::vector<BoundExprPtr>& conjuncts);

/// \brief For a disjunction over several inputs, the weaker condition over the columns
/// `reads_only` accepts: the OR, across branches, of each branch's conjuncts that read only
/// such columns. Null when some branch has no such conjunct (nothing can be implied) or when
/// `condition` is not a disjunction. The original condition must still be evaluated: the result
/// is implied by it, not equivalent.
template <typename Predicate>
BoundExprPtr ImpliedDisjunction(const BoundExprPtr& condition, Predicate reads_only);

/// \brief The branches of `condition` split on OR (one branch when it is not an OR).
std::vector<BoundExprPtr> SplitDisjuncts(const BoundExprPtr& condition);
/// \brief Branches joined with OR; requires at least one.
BoundExprPtr CombineDisjuncts(const std::vector<BoundExprPtr>& disjuncts);

template <typename Predicate>
BoundExprPtr ImpliedDisjunction(const BoundExprPtr& condition, Predicate reads_only) {
  std::vector<BoundExprPtr> branches = SplitDisjuncts(condition);
  if (branches.size() < 2) return nullptr;
  std::vector<BoundExprPtr> implied;
  for (const auto& branch : branches) {
    std::vector<BoundExprPtr> kept;
    for (const auto& conjunct : SplitConjuncts(branch)) {
      if (reads_only(*conjunct)) kept.push_back(conjunct);
    }
    if (kept.empty()) return nullptr;
    implied.push_back(CombineConjuncts(kept));
  }
  return CombineDisjuncts(implied);
}

}  // namespace parley
