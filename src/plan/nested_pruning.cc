// Nested schema pruning: the field paths each expression reads, and the narrowed struct types.
#include "plan/nested_pruning.h"

#include <optional>

#include "arrow/scalar.h"
#include "arrow/type.h"

namespace parley {
namespace {

using FieldPaths = std::map<std::string, std::vector<std::vector<std::string>>>;

// The field name a struct_field call reads (its second argument, a string literal).
std::optional<std::string> AccessedField(const BoundExpr& expr) {
  if (expr.kind != BoundExpr::Kind::kCall || expr.function != "struct_field" ||
      expr.args.size() != 2 || expr.args[1]->kind != BoundExpr::Kind::kLiteral) {
    return std::nullopt;
  }
  const auto* name = dynamic_cast<const arrow::StringScalar*>(expr.args[1]->literal.get());
  if (name == nullptr || !name->is_valid) return std::nullopt;
  return name->value->ToString();
}

// The expressions that read a scan's columns when `consumer` (a projection or aggregate) is
// over it through filters; nullptr when something else is between them.
PlanNode* ScanUnder(const PlanNode& consumer, std::vector<BoundExprPtr>* reads) {
  if (consumer.kind == PlanNode::Kind::kProject) {
    reads->insert(reads->end(), consumer.exprs.begin(), consumer.exprs.end());
  } else if (consumer.kind == PlanNode::Kind::kAggregate) {
    reads->insert(reads->end(), consumer.group_keys.begin(), consumer.group_keys.end());
    for (const auto& call : consumer.aggregates) {
      reads->insert(reads->end(), call.args.begin(), call.args.end());
    }
  } else {
    return nullptr;
  }
  PlanNode* node = consumer.children[0].get();
  while (node->kind == PlanNode::Kind::kFilter) {
    reads->push_back(node->condition);
    node = node->children[0].get();
  }
  return node->kind == PlanNode::Kind::kScan ? node : nullptr;
}

}  // namespace

void CollectFieldPaths(const BoundExpr& expr, FieldPaths* out) {
  std::vector<std::string> path;
  const BoundExpr* base = &expr;
  while (auto field = AccessedField(*base)) {
    path.insert(path.begin(), *field);
    base = base->args[0].get();
  }
  if (base->kind == BoundExpr::Kind::kColumn) {
    (*out)[base->field].push_back(std::move(path));
    return;
  }
  for (const auto& arg : base->args) CollectFieldPaths(*arg, out);
}

std::shared_ptr<arrow::DataType> NarrowType(const std::shared_ptr<arrow::DataType>& type,
                                            const std::vector<std::vector<std::string>>& paths) {
  if (type->id() != arrow::Type::STRUCT) return type;
  std::map<std::string, std::vector<std::vector<std::string>>> by_field;
  for (const auto& path : paths) {
    if (path.empty()) return type;
    by_field[path[0]].emplace_back(path.begin() + 1, path.end());
  }
  arrow::FieldVector kept;
  for (const auto& field : type->fields()) {
    auto it = by_field.find(field->name());
    if (it == by_field.end()) continue;
    kept.push_back(field->WithType(NarrowType(field->type(), it->second)));
  }
  return arrow::struct_(std::move(kept));
}

void PlanNestedPruning(const PlanNodePtr& plan) {
  for (const auto& child : plan->children) PlanNestedPruning(child);
  std::vector<BoundExprPtr> reads;
  PlanNode* scan = ScanUnder(*plan, &reads);
  if (scan == nullptr || !scan->negotiation || scan->negotiation->pushed_aggregation) return;
  auto& negotiation = *scan->negotiation;
  for (const auto& [predicate, condition] : negotiation.exact_predicates) {
    reads.push_back(condition);
  }
  FieldPaths paths;
  for (const auto& expr : reads) CollectFieldPaths(*expr, &paths);
  for (const auto& field : scan->output) {
    auto it = paths.find(field.name);
    if (it == paths.end() || field.type->id() != arrow::Type::STRUCT) continue;
    auto narrowed = NarrowType(field.type, it->second);
    if (!narrowed->Equals(*field.type)) negotiation.narrowed_types[field.name] = narrowed;
  }
}

}  // namespace parley
