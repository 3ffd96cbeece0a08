// Filter pushdown through projections and joins.
#include "plan/filter_pushdown.h"

#include <algorithm>
#include <map>
#include <set>

#include "plan/boolean_simplification.h"
#include "plan/join_condition.h"
#include "plan/null_rejection.h"

namespace parley {
namespace {

PlanNodePtr WithFilter(const PlanNodePtr& node, const std::vector<BoundExprPtr>& conjuncts) {
  if (conjuncts.empty()) return node;
  auto filter = std::make_shared<PlanNode>();
  filter->kind = PlanNode::Kind::kFilter;
  filter->children = {node};
  filter->output = node->output;
  filter->condition = CombineConjuncts(conjuncts);
  return filter;
}

PlanNodePtr Push(const PlanNodePtr& node, std::vector<BoundExprPtr> conjuncts);

PlanNodePtr PushThroughProject(const PlanNodePtr& project,
                               const std::vector<BoundExprPtr>& conjuncts) {
  std::map<std::string, BoundExprPtr> columns;
  for (size_t i = 0; i < project->exprs.size(); ++i) {
    if (project->exprs[i]->kind == BoundExpr::Kind::kColumn) {
      columns[project->output[i].name] = project->exprs[i];
    }
  }
  std::vector<BoundExprPtr> below;
  std::vector<BoundExprPtr> above;
  for (const auto& conjunct : conjuncts) {
    std::vector<std::string> fields;
    conjunct->CollectFields(&fields);
    bool plain = true;
    for (const auto& field : fields) plain = plain && columns.count(field) > 0;
    (plain ? below : above).push_back(plain ? ReplaceColumns(conjunct, columns) : conjunct);
  }
  project->children[0] = Push(project->children[0], std::move(below));
  return WithFilter(project, above);
}

// Change post-processing decides per group of rows, so a conjunct may go below a stage only when
// it keeps or drops whole groups: one that reads nothing but top-level row identity columns
// (and, below the row-level stage, whose groups are per commit, the commit version and
// timestamp). Anything else (change type, row version, other data) stays above.
PlanNodePtr PushThroughChangelogPass(const PlanNodePtr& pass,
                                     const std::vector<BoundExprPtr>& conjuncts) {
  std::set<std::string> allowed;
  for (const auto& path : pass->changelog->row_id) {
    if (path.size() == 1) allowed.insert(path.front());
  }
  if (pass->changelog_stage == ChangelogStage::kRowLevel) {
    allowed.insert(kCommitVersionColumn);
    allowed.insert(kCommitTimestampColumn);
  }
  std::vector<BoundExprPtr> below;
  std::vector<BoundExprPtr> above;
  for (const auto& conjunct : conjuncts) {
    std::vector<std::string> fields;
    conjunct->CollectFields(&fields);
    bool safe = true;
    for (const auto& field : fields) safe = safe && allowed.count(field) > 0;
    (safe ? below : above).push_back(conjunct);
  }
  pass->children[0] = Push(pass->children[0], std::move(below));
  return WithFilter(pass, above);
}

// For a condition over both inputs of an inner join that is a disjunction, the weaker
// conditions it implies on each input alone (Spark's PushExtraPredicateThroughJoin): from
// `(l1 AND r1) OR (l2 AND r2)`, `l1 OR l2` filters the left input early and `r1 OR r2` the right.
void AddImpliedPredicates(const BoundExprPtr& conjunct, const PlanNode& left, const PlanNode& right,
                          std::vector<BoundExprPtr>* to_left, std::vector<BoundExprPtr>* to_right) {
  auto reads = [&](JoinSide wanted) {
    return [&, wanted](const BoundExpr& e) { return ReferencedSide(e, left, right) == wanted; };
  };
  if (auto implied = ImpliedDisjunction(conjunct, reads(JoinSide::kLeft))) {
    to_left->push_back(implied);
  }
  if (auto implied = ImpliedDisjunction(conjunct, reads(JoinSide::kRight))) {
    to_right->push_back(implied);
  }
}

std::set<std::string> OutputNames(const PlanNode& node) {
  std::set<std::string> names;
  for (const auto& field : node.output) names.insert(field.name);
  return names;
}

// The join type once the filter of `conjuncts` above it is taken into account (Spark's
// EliminateOuterJoin): a NULL-extended row of an outer join's side that a conjunct rejects
// never survives the filter, so that side need not be NULL-extended.
PlanJoinType WithoutNullExtension(const PlanNode& join,
                                  const std::vector<BoundExprPtr>& conjuncts) {
  const PlanJoinType type = join.join_type;
  if (type != PlanJoinType::kLeftOuter && type != PlanJoinType::kRightOuter &&
      type != PlanJoinType::kFullOuter) {
    return type;
  }
  auto rejected = [&](const PlanNode& side) {
    const std::set<std::string> names = OutputNames(side);
    return std::any_of(conjuncts.begin(), conjuncts.end(), [&](const BoundExprPtr& conjunct) {
      return RejectsNulls(*conjunct, names);
    });
  };
  // A left outer join NULL-extends its right side's columns, a right outer join its left's.
  const bool left_rejected = type != PlanJoinType::kLeftOuter && rejected(*join.children[0]);
  const bool right_rejected = type != PlanJoinType::kRightOuter && rejected(*join.children[1]);
  if (type == PlanJoinType::kFullOuter) {
    if (left_rejected && right_rejected) return PlanJoinType::kInner;
    if (left_rejected) return PlanJoinType::kLeftOuter;
    if (right_rejected) return PlanJoinType::kRightOuter;
    return type;
  }
  return left_rejected || right_rejected ? PlanJoinType::kInner : type;
}

PlanNodePtr PushThroughJoin(const PlanNodePtr& join, const std::vector<BoundExprPtr>& conjuncts) {
  const PlanNode& left = *join->children[0];
  const PlanNode& right = *join->children[1];
  join->join_type = WithoutNullExtension(*join, conjuncts);
  const PlanJoinType type = join->join_type;
  const bool inner = type == PlanJoinType::kInner || type == PlanJoinType::kCross;
  const bool left_kept = type == PlanJoinType::kLeftOuter || type == PlanJoinType::kLeftSemi ||
                         type == PlanJoinType::kLeftAnti;
  std::vector<BoundExprPtr> to_left;
  std::vector<BoundExprPtr> to_right;
  std::vector<BoundExprPtr> above;
  std::vector<BoundExprPtr> to_condition;
  for (const auto& conjunct : conjuncts) {
    JoinSide side = ReferencedSide(*conjunct, left, right);
    if (side == JoinSide::kLeft && (inner || left_kept)) {
      to_left.push_back(conjunct);
    } else if (side == JoinSide::kRight && (inner || type == PlanJoinType::kRightOuter)) {
      to_right.push_back(conjunct);
    } else if (side == JoinSide::kBoth && inner) {
      to_condition.push_back(conjunct);
      AddImpliedPredicates(conjunct, left, right, &to_left, &to_right);
    } else {
      above.push_back(conjunct);
    }
  }
  // The join's residual condition: one-sided conjuncts go to the side Spark sends them to.
  std::vector<BoundExprPtr> residual;
  if (join->condition) {
    const bool into_left =
        inner || type == PlanJoinType::kLeftSemi || type == PlanJoinType::kRightOuter;
    const bool into_right = inner || type == PlanJoinType::kLeftSemi ||
                            type == PlanJoinType::kLeftOuter || type == PlanJoinType::kLeftAnti;
    for (const auto& conjunct : FactorCommonConjuncts(SplitConjuncts(join->condition))) {
      JoinSide side = ReferencedSide(*conjunct, left, right);
      if (side == JoinSide::kBoth && inner) {
        AddImpliedPredicates(conjunct, left, right, &to_left, &to_right);
      }
      if (side == JoinSide::kLeft && into_left) {
        to_left.push_back(conjunct);
      } else if (side == JoinSide::kRight && into_right) {
        to_right.push_back(conjunct);
      } else {
        residual.push_back(conjunct);
      }
    }
  }
  join->condition = CombineConjuncts(residual);
  if (!to_condition.empty()) {
    AddJoinCondition(join.get(), CombineConjuncts(to_condition));
    join->join_type = PlanJoinType::kInner;
  }
  join->children[0] = Push(join->children[0], std::move(to_left));
  join->children[1] = Push(join->children[1], std::move(to_right));
  return WithFilter(join, above);
}

// A window computes each partition on its own, so a conjunct that reads only columns every call
// partitions by keeps or drops whole partitions and may go below it; anything else stays above.
PlanNodePtr PushThroughWindow(const PlanNodePtr& window,
                              const std::vector<BoundExprPtr>& conjuncts) {
  std::set<std::string> keys;
  for (size_t i = 0; i < window->window_calls.size(); ++i) {
    std::set<std::string> call_keys;
    for (const auto& key : window->window_calls[i].partition_by) {
      if (key->kind == BoundExpr::Kind::kColumn) call_keys.insert(key->field);
    }
    if (i == 0) {
      keys = std::move(call_keys);
    } else {
      std::set<std::string> common;
      for (const auto& key : keys) {
        if (call_keys.count(key) > 0) common.insert(key);
      }
      keys = std::move(common);
    }
  }
  std::vector<BoundExprPtr> below;
  std::vector<BoundExprPtr> above;
  for (const auto& conjunct : conjuncts) {
    std::vector<std::string> fields;
    conjunct->CollectFields(&fields);
    bool on_keys = !fields.empty();
    for (const auto& field : fields) on_keys = on_keys && keys.count(field) > 0;
    (on_keys ? below : above).push_back(conjunct);
  }
  window->children[0] = Push(window->children[0], std::move(below));
  return WithFilter(window, above);
}

// The plan of `node` under a filter of `conjuncts`, with the conjuncts (and every filter below)
// pushed as far down as they may go.
PlanNodePtr Push(const PlanNodePtr& node, std::vector<BoundExprPtr> conjuncts) {
  switch (node->kind) {
    case PlanNode::Kind::kFilter: {
      std::vector<BoundExprPtr> all = FactorCommonConjuncts(SplitConjuncts(node->condition));
      all.insert(all.end(), conjuncts.begin(), conjuncts.end());
      return Push(node->children[0], std::move(all));
    }
    case PlanNode::Kind::kProject: return PushThroughProject(node, conjuncts);
    case PlanNode::Kind::kJoin: return PushThroughJoin(node, conjuncts);
    case PlanNode::Kind::kChangelogPass: return PushThroughChangelogPass(node, conjuncts);
    case PlanNode::Kind::kUnion:
      // Every child outputs the union's fields: each takes every conjunct.
      for (auto& child : node->children) child = Push(child, conjuncts);
      return node;
    case PlanNode::Kind::kDistinct:
      node->children[0] = Push(node->children[0], std::move(conjuncts));
      return node;
    case PlanNode::Kind::kWindow: return PushThroughWindow(node, conjuncts);
    default:
      for (auto& child : node->children) child = Push(child, {});
      return WithFilter(node, conjuncts);
  }
}

}  // namespace

PlanNodePtr PushDownFilters(const PlanNodePtr& plan) { return Push(plan, {}); }

}  // namespace parley
