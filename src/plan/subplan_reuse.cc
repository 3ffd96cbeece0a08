// Finding repeated aggregations by comparing subtrees operator by operator.
#include "plan/subplan_reuse.h"

#include <string>
#include <vector>

#include "arrow/type.h"
#include "plan/expression_equality.h"

namespace parley {
namespace {

// Internal column names of one subtree's output mapped to the other's, by position.
using FieldMap = std::map<std::string, std::string>;

template <typename T>
bool SameTexts(const std::vector<std::shared_ptr<T>>& a, const std::vector<std::shared_ptr<T>>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i]->ToString() != b[i]->ToString()) return false;
  }
  return true;
}

bool SameOutputTypes(const PlanNode& a, const PlanNode& b) {
  if (a.output.size() != b.output.size()) return false;
  for (size_t i = 0; i < a.output.size(); ++i) {
    if (!a.output[i].type->Equals(*b.output[i].type)) return false;
  }
  return true;
}

bool Reusable(const PlanNode& scan, const std::set<const PlanNode*>& excluded_scans) {
  const auto& n = *scan.negotiation;
  return excluded_scans.count(&scan) == 0 && !n.pushed_sample && !n.pushed_limit &&
         !n.pushed_offset && n.pushed_top_n.empty() && !n.pushed_aggregation &&
         n.pushed_joins.empty();
}

// Two scans read the same rows: the same table (one object, or two loads the connector names
// and describes alike: a time-travelled table's name and description carry its version), the
// same columns, the same predicates pushed.
bool SameScan(const PlanNode& a, const PlanNode& b) {
  const auto& x = *a.negotiation;
  const auto& y = *b.negotiation;
  const bool same_table =
      a.table == b.table ||
      (a.table != nullptr && b.table != nullptr && a.table->name() == b.table->name() &&
       x.scan != nullptr && y.scan != nullptr && x.scan->Description() == y.scan->Description());
  if (!same_table || a.table_name.ToString() != b.table_name.ToString() ||
      x.required_columns != y.required_columns ||
      x.exact_predicates.size() != y.exact_predicates.size() ||
      !SameTexts(x.pushed_predicates, y.pushed_predicates) ||
      !SameTexts(x.pushed_filters, y.pushed_filters)) {
    return false;
  }
  if (x.narrowed_types.size() != y.narrowed_types.size()) return false;
  for (const auto& [column, type] : x.narrowed_types) {
    auto it = y.narrowed_types.find(column);
    if (it == y.narrowed_types.end() || !it->second->Equals(*type)) return false;
  }
  for (size_t i = 0; i < a.output.size(); ++i) {
    if (a.output[i].display != b.output[i].display) return false;
  }
  return true;
}

bool SameExpressions(const std::vector<BoundExprPtr>& a, const std::vector<BoundExprPtr>& b,
                     const FieldMap& fields) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!SameExpression(*a[i], *b[i], fields)) return false;
  }
  return true;
}

bool SameAggregates(const std::vector<AggregateCall>& a, const std::vector<AggregateCall>& b,
                    const FieldMap& fields) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].function != b[i].function || a[i].distinct != b[i].distinct ||
        !a[i].type->Equals(*b[i].type) || !SameExpressions(a[i].args, b[i].args, fields)) {
      return false;
    }
  }
  return true;
}

// Whether `a` and `b` compute the same rows, both eligible for reuse; on success `fields`
// maps `a`'s output columns to `b`'s.
bool SameSubplan(const PlanNode& a, const PlanNode& b,
                 const std::set<const PlanNode*>& excluded_scans, FieldMap* fields) {
  if (a.kind != b.kind || !SameOutputTypes(a, b)) return false;
  FieldMap input;
  switch (a.kind) {
    case PlanNode::Kind::kScan:
      if (!Reusable(a, excluded_scans) || !Reusable(b, excluded_scans) || !SameScan(a, b)) {
        return false;
      }
      break;
    case PlanNode::Kind::kFilter:
      if (!SameSubplan(*a.children[0], *b.children[0], excluded_scans, &input) ||
          !SameExpression(*a.condition, *b.condition, input)) {
        return false;
      }
      break;
    case PlanNode::Kind::kProject:
      if (!SameSubplan(*a.children[0], *b.children[0], excluded_scans, &input) ||
          !SameExpressions(a.exprs, b.exprs, input)) {
        return false;
      }
      break;
    case PlanNode::Kind::kAggregate:
      if (!SameSubplan(*a.children[0], *b.children[0], excluded_scans, &input) ||
          !SameExpressions(a.group_keys, b.group_keys, input) ||
          !SameAggregates(a.aggregates, b.aggregates, input)) {
        return false;
      }
      break;
    default: return false;
  }
  fields->clear();
  for (size_t i = 0; i < a.output.size(); ++i) (*fields)[a.output[i].name] = b.output[i].name;
  return true;
}

void Collect(PlanNode& node, const std::set<const PlanNode*>& excluded_scans,
             std::vector<const PlanNode*>* firsts, std::map<PlanNode*, const PlanNode*>* reused) {
  if (node.kind == PlanNode::Kind::kAggregate) {
    for (const PlanNode* first : *firsts) {
      FieldMap fields;
      if (SameSubplan(node, *first, excluded_scans, &fields)) {
        (*reused)[&node] = first;
        return;
      }
    }
    firsts->push_back(&node);
  }
  for (const auto& child : node.children) Collect(*child, excluded_scans, firsts, reused);
}

}  // namespace

std::map<PlanNode*, const PlanNode*> FindReusedSubplans(
    PlanNode& plan, const std::set<const PlanNode*>& excluded_scans) {
  std::vector<const PlanNode*> firsts;
  std::map<PlanNode*, const PlanNode*> reused;
  Collect(plan, excluded_scans, &firsts, &reused);
  return reused;
}

}  // namespace parley
