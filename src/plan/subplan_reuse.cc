// Finding repeated aggregations by a canonical text of their subtrees.
#include "plan/subplan_reuse.h"

#include <optional>
#include <string>

#include "arrow/type.h"
#include "plan/explain.h"

namespace parley {
namespace {

// Within one chain of operators over one scan, a column's user-facing name identifies it as
// long as no operator outputs two columns of the same name.
bool NamesAreUnique(const PlanNode& node) {
  std::set<std::string> names;
  for (const auto& field : node.output) {
    if (!names.insert(field.display).second) return false;
  }
  return true;
}

// The canonical text of `node`'s subtree, or nothing when it may not be reused.
std::optional<std::string> Canonical(const PlanNode& node,
                                     const std::set<const PlanNode*>& excluded_scans) {
  if (!NamesAreUnique(node)) return std::nullopt;
  std::string text = OperatorLine(node) + " ->";
  for (const auto& field : node.output) text += " " + field.display + ":" + field.type->ToString();
  switch (node.kind) {
    case PlanNode::Kind::kScan: {
      const auto& n = *node.negotiation;
      if (excluded_scans.count(&node) > 0 || n.pushed_sample || n.pushed_limit || n.pushed_offset ||
          !n.pushed_top_n.empty()) {
        return std::nullopt;
      }
      return text;
    }
    case PlanNode::Kind::kAggregate:
    case PlanNode::Kind::kProject:
    case PlanNode::Kind::kFilter: {
      auto child = Canonical(*node.children[0], excluded_scans);
      if (!child) return std::nullopt;
      return text + "\n" + *child;
    }
    default: return std::nullopt;
  }
}

void Collect(const PlanNode& node, const std::set<const PlanNode*>& excluded_scans,
             std::map<std::string, const PlanNode*>* first,
             std::map<const PlanNode*, const PlanNode*>* reused) {
  if (node.kind == PlanNode::Kind::kAggregate) {
    if (auto text = Canonical(node, excluded_scans)) {
      auto [it, inserted] = first->emplace(*text, &node);
      if (!inserted) {
        (*reused)[&node] = it->second;
        return;
      }
    }
  }
  for (const auto& child : node.children) Collect(*child, excluded_scans, first, reused);
}

}  // namespace

std::map<const PlanNode*, const PlanNode*> FindReusedSubplans(
    const PlanNode& plan, const std::set<const PlanNode*>& excluded_scans) {
  std::map<std::string, const PlanNode*> first;
  std::map<const PlanNode*, const PlanNode*> reused;
  Collect(plan, excluded_scans, &first, &reused);
  return reused;
}

}  // namespace parley
