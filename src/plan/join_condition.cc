// Join conditions: sides, equi-join keys and residuals.
#include "plan/join_condition.h"

#include <algorithm>

namespace parley {
namespace {

bool Outputs(const PlanNode& node, const std::string& field) {
  return std::any_of(node.output.begin(), node.output.end(),
                     [&](const OutputField& f) { return f.name == field; });
}

}  // namespace

JoinSide ReferencedSide(const BoundExpr& expr, const PlanNode& left, const PlanNode& right) {
  std::vector<std::string> fields;
  expr.CollectFields(&fields);
  bool reads_left = false;
  bool reads_right = false;
  for (const auto& field : fields) {
    if (Outputs(left, field)) {
      reads_left = true;
    } else if (Outputs(right, field)) {
      reads_right = true;
    }
  }
  if (reads_left && reads_right) return JoinSide::kBoth;
  if (reads_left) return JoinSide::kLeft;
  return reads_right ? JoinSide::kRight : JoinSide::kNeither;
}

void AddJoinCondition(PlanNode* join, const BoundExprPtr& condition) {
  const PlanNode& left = *join->children[0];
  const PlanNode& right = *join->children[1];
  std::vector<BoundExprPtr> residual;
  if (join->condition) residual = SplitConjuncts(join->condition);
  for (const auto& conjunct : SplitConjuncts(condition)) {
    if (conjunct->kind == BoundExpr::Kind::kCall &&
        (conjunct->function == "=" || conjunct->function == "<=>")) {
      JoinSide first = ReferencedSide(*conjunct->args[0], left, right);
      JoinSide second = ReferencedSide(*conjunct->args[1], left, right);
      bool null_safe = conjunct->function == "<=>";
      if (first == JoinSide::kLeft && second == JoinSide::kRight) {
        join->join_keys.push_back({conjunct->args[0], conjunct->args[1], null_safe});
        continue;
      }
      if (first == JoinSide::kRight && second == JoinSide::kLeft) {
        join->join_keys.push_back({conjunct->args[1], conjunct->args[0], null_safe});
        continue;
      }
    }
    residual.push_back(conjunct);
  }
  join->condition = CombineConjuncts(residual);
}

}  // namespace parley
