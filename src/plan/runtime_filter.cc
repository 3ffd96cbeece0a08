// Finding the scans a join's build keys can prune.
#include "plan/runtime_filter.h"

#include <fmt/format.h>

#include <algorithm>

namespace parley {
namespace {

bool Outputs(const PlanNode& node, const std::string& name) {
  return std::any_of(node.output.begin(), node.output.end(),
                     [&](const OutputField& f) { return f.name == name; });
}

// A scan may be filtered when it agreed to nothing that depends on which rows it reads.
bool ScanAcceptsRuntimeFilter(const PlanNode& scan, const std::string& column) {
  const auto& n = *scan.negotiation;
  if (n.scan == nullptr || n.pushed_limit || !n.pushed_top_n.empty() || n.pushed_offset ||
      n.pushed_sample || n.pushed_aggregation) {
    return false;
  }
  const auto* filtering = dynamic_cast<const SupportsRuntimeV2Filtering*>(n.scan.get());
  if (filtering == nullptr) return false;
  for (const auto& attribute : filtering->FilterAttributes()) {
    const auto& names = attribute->field_names();
    if (names.size() == 1 && names[0] == column) return true;
  }
  return false;
}

// The scan whose column `name` of `node`'s output is, unchanged, with no operator between them
// that needs the rows a runtime filter would remove; null when there is none.
PlanNode* FindTarget(PlanNode& node, const std::string& name, std::string* column) {
  switch (node.kind) {
    case PlanNode::Kind::kScan:
      if (!Outputs(node, name) || !ScanAcceptsRuntimeFilter(node, name)) return nullptr;
      *column = name;
      return &node;
    case PlanNode::Kind::kFilter:
    case PlanNode::Kind::kDistinct: return FindTarget(*node.children[0], name, column);
    case PlanNode::Kind::kProject:
      for (size_t i = 0; i < node.output.size(); ++i) {
        if (node.output[i].name != name) continue;
        const auto& expr = *node.exprs[i];
        if (expr.kind != BoundExpr::Kind::kColumn) return nullptr;
        return FindTarget(*node.children[0], expr.field, column);
      }
      return nullptr;
    case PlanNode::Kind::kAggregate:
      for (size_t i = 0; i < node.group_keys.size(); ++i) {
        if (node.output[i].name != name) continue;
        const auto& key = *node.group_keys[i];
        if (key.kind != BoundExpr::Kind::kColumn) return nullptr;
        return FindTarget(*node.children[0], key.field, column);
      }
      return nullptr;
    case PlanNode::Kind::kJoin: {
      // Every output row of these joins carries the key of the input row it came from, so a
      // row removed below is a row whose key the filter removes above.
      const PlanJoinType type = node.join_type;
      const bool left_ok = type != PlanJoinType::kFullOuter;
      const bool right_ok = type == PlanJoinType::kInner || type == PlanJoinType::kCross ||
                            type == PlanJoinType::kRightOuter;
      if (left_ok && Outputs(*node.children[0], name)) {
        return FindTarget(*node.children[0], name, column);
      }
      if (right_ok && Outputs(*node.children[1], name)) {
        return FindTarget(*node.children[1], name, column);
      }
      return nullptr;
    }
    default: return nullptr;
  }
}

// Whether `node` is likely to return few of its inputs' rows, as Spark asks of a runtime
// filter's creation side: it filters (a Filter, predicates a scan accepted, a semi or anti
// join) or is a constant table. Without that the build keys rarely prune anything, and
// computing the build side first only costs.
bool IsSelective(const PlanNode& node) {
  switch (node.kind) {
    case PlanNode::Kind::kFilter:
    case PlanNode::Kind::kValues:
    case PlanNode::Kind::kOneRow: return true;
    case PlanNode::Kind::kScan:
      return !node.negotiation->pushed_predicates.empty() ||
             !node.negotiation->pushed_filters.empty();
    case PlanNode::Kind::kJoin:
      if (node.join_type == PlanJoinType::kLeftSemi || node.join_type == PlanJoinType::kLeftAnti) {
        return true;
      }
      break;
    default: break;
  }
  return std::any_of(node.children.begin(), node.children.end(),
                     [](const PlanNodePtr& child) { return IsSelective(*child); });
}

}  // namespace

std::vector<RuntimeFilterTarget> FindRuntimeFilterTargets(const PlanNode& join) {
  std::vector<RuntimeFilterTarget> targets;
  const bool semi_or_anti =
      join.join_type == PlanJoinType::kLeftSemi || join.join_type == PlanJoinType::kLeftAnti;
  // A join filters its probe side's rows by key when probe rows without a match are dropped:
  // inner, right outer and left semi joins, and a semi or anti join built on its left input.
  if (!(semi_or_anti && join.build_left) && join.join_type != PlanJoinType::kInner &&
      join.join_type != PlanJoinType::kRightOuter && join.join_type != PlanJoinType::kLeftSemi) {
    return targets;
  }
  const size_t build_child = BuildChild(join);
  const size_t probe_child = 1 - build_child;
  if (!IsSelective(*join.children[build_child])) return targets;
  PlanNode& probe = *join.children[probe_child];
  for (size_t i = 0; i < join.join_keys.size(); ++i) {
    const JoinKey& key = join.join_keys[i];
    if (key.null_safe) continue;
    const BoundExpr& probe_key = probe_child == 0 ? *key.left : *key.right;
    if (probe_key.kind != BoundExpr::Kind::kColumn) continue;
    std::string column;
    PlanNode* scan = FindTarget(probe, probe_key.field, &column);
    if (scan != nullptr) targets.push_back({i, scan, column});
  }
  return targets;
}

std::string RuntimeFilterSummary(const PlanNode& join,
                                 const std::vector<RuntimeFilterTarget>& targets) {
  if (targets.empty()) return {};
  std::vector<std::string> items;
  const size_t probe_child = 1 - BuildChild(join);
  for (const auto& target : targets) {
    const JoinKey& key = join.join_keys[target.key_index];
    const BoundExpr& probe_key = probe_child == 0 ? *key.left : *key.right;
    items.push_back(fmt::format("{} -> {}.{}", probe_key.ToString(),
                                target.scan->table_name.ToString(), target.column));
  }
  return fmt::format("[{}]", fmt::join(items, ", "));
}

}  // namespace parley
