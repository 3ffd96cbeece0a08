// Pushdown negotiation over the logical plan: a top-down walk that carries the fields each
// operator's parent needs, pushes filters into the scan below them, then prunes and builds.
#include "plan/pushdown.h"

#include <fmt/format.h>

#include <algorithm>

#include "arrow/type.h"
#include "plan/predicate_translation.h"

namespace parley {
namespace {

Status ContractViolation(const PlanNode& scan, std::string_view what, std::string_view detail) {
  return MakeError(arrow::StatusCode::Invalid,
                   fmt::format("CONNECTOR_CONTRACT_VIOLATION.{}", what),
                   fmt::format("The connector of table {} broke the scan contract: {}",
                               scan.table_name.ToString(), detail));
}

void AddFields(const std::vector<std::string>& fields, std::vector<std::string>* out) {
  for (const auto& field : fields) {
    if (std::find(out->begin(), out->end(), field) == out->end()) out->push_back(field);
  }
}

Status StartNegotiation(PlanNode* scan) {
  if (scan->negotiation) return Status::OK();
  auto* readable = dynamic_cast<SupportsRead*>(scan->table.get());
  if (readable == nullptr) {
    return ContractViolation(*scan, "NOT_READABLE", "the table does not implement SupportsRead");
  }
  scan->negotiation = std::make_shared<ScanNegotiation>();
  ARROW_ASSIGN_OR_RAISE(scan->negotiation->builder, readable->NewScanBuilder({}));
  return Status::OK();
}

// Offer a filter's conjuncts to the scan; return the residual conjuncts.
Result<std::vector<BoundExprPtr>> PushFilters(PlanNode* scan,
                                              const std::vector<BoundExprPtr>& conjuncts) {
  ARROW_RETURN_NOT_OK(StartNegotiation(scan));
  auto& negotiation = *scan->negotiation;
  auto* pushable = dynamic_cast<SupportsPushDownV2Filters*>(negotiation.builder.get());
  std::vector<BoundExprPtr> residual;
  std::vector<std::pair<BoundExprPtr, PredicatePtr>> offered;
  for (const auto& conjunct : conjuncts) {
    PredicatePtr predicate = pushable ? TranslatePredicate(*conjunct) : nullptr;
    if (predicate) {
      offered.emplace_back(conjunct, predicate);
    } else {
      residual.push_back(conjunct);
    }
  }
  if (offered.empty()) return conjuncts;
  std::vector<PredicatePtr> predicates;
  for (const auto& entry : offered) predicates.push_back(entry.second);
  negotiation.filters_offered = true;
  ARROW_ASSIGN_OR_RAISE(auto returned, pushable->PushPredicates(predicates));
  negotiation.pushed_predicates = pushable->PushedPredicates();
  for (const auto& predicate : returned) {
    auto match = std::find_if(offered.begin(), offered.end(), [&](const auto& entry) {
      return entry.second == predicate || entry.second->ToString() == predicate->ToString();
    });
    if (match == offered.end()) {
      return ContractViolation(*scan, "UNKNOWN_RESIDUAL_PREDICATE",
                               fmt::format("PushPredicates returned {}, which it was not offered",
                                           predicate->ToString()));
    }
    residual.push_back(match->first);
  }
  // Keep the residual conjuncts in the order the query wrote them.
  std::vector<BoundExprPtr> ordered;
  for (const auto& conjunct : conjuncts) {
    if (std::find(residual.begin(), residual.end(), conjunct) != residual.end()) {
      ordered.push_back(conjunct);
    }
  }
  return ordered;
}

// Prune to the required fields, build the scan, and adopt its read schema as the output.
Status PruneAndBuild(PlanNode* scan, const std::vector<std::string>& required) {
  ARROW_RETURN_NOT_OK(StartNegotiation(scan));
  auto& negotiation = *scan->negotiation;
  if (auto* prunable =
          dynamic_cast<SupportsPushDownRequiredColumns*>(negotiation.builder.get())) {
    arrow::FieldVector fields;
    for (const auto& column : scan->table->columns()) {
      if (std::find(required.begin(), required.end(), column.name) != required.end()) {
        fields.push_back(column.ToField());
        negotiation.required_columns.push_back(column.name);
      }
    }
    negotiation.pruning_offered = true;
    ARROW_RETURN_NOT_OK(prunable->PruneColumns(arrow::schema(std::move(fields))));
  }
  ARROW_ASSIGN_OR_RAISE(negotiation.scan, negotiation.builder->Build());
  auto read_schema = negotiation.scan->ReadSchema();
  std::vector<OutputField> output;
  for (const auto& field : read_schema->fields()) {
    auto table_field = std::find_if(scan->output.begin(), scan->output.end(),
                                    [&](const OutputField& f) { return f.name == field->name(); });
    if (table_field == scan->output.end()) {
      return ContractViolation(*scan, "READ_SCHEMA_MISMATCH",
                               fmt::format("ReadSchema() has column {} which the table does not",
                                           QuoteIdentifier(field->name())));
    }
    if (!table_field->type->Equals(*field->type())) {
      return ContractViolation(
          *scan, "READ_SCHEMA_MISMATCH",
          fmt::format("ReadSchema() types column {} as {}, the table as {}",
                      QuoteIdentifier(field->name()), field->type()->ToString(),
                      table_field->type->ToString()));
    }
    output.push_back(*table_field);
  }
  for (const auto& name : required) {
    if (!read_schema->GetFieldByName(name)) {
      return ContractViolation(*scan, "MISSING_REQUIRED_COLUMN",
                               fmt::format("ReadSchema() lacks the required column {}",
                                           QuoteIdentifier(name)));
    }
  }
  scan->output = std::move(output);
  return Status::OK();
}

std::vector<std::string> OutputNames(const PlanNode& node) {
  std::vector<std::string> names;
  for (const auto& field : node.output) names.push_back(field.name);
  return names;
}

Result<PlanNodePtr> Negotiate(const PlanNodePtr& node, const std::vector<std::string>& required) {
  switch (node->kind) {
    case PlanNode::Kind::kScan:
      ARROW_RETURN_NOT_OK(PruneAndBuild(node.get(), required));
      return node;
    case PlanNode::Kind::kOneRow:
      return node;
    case PlanNode::Kind::kFilter: {
      auto child = node->children[0];
      std::vector<BoundExprPtr> residual = SplitConjuncts(node->condition);
      if (child->kind == PlanNode::Kind::kScan) {
        ARROW_ASSIGN_OR_RAISE(residual, PushFilters(child.get(), residual));
      }
      std::vector<std::string> child_required = required;
      for (const auto& conjunct : residual) {
        std::vector<std::string> fields;
        conjunct->CollectFields(&fields);
        AddFields(fields, &child_required);
      }
      ARROW_ASSIGN_OR_RAISE(child, Negotiate(child, child_required));
      if (residual.empty()) return child;
      node->children[0] = child;
      node->condition = CombineConjuncts(residual);
      node->output = child->output;
      return node;
    }
    case PlanNode::Kind::kProject: {
      std::vector<std::string> child_required;
      for (const auto& expr : node->exprs) {
        std::vector<std::string> fields;
        expr->CollectFields(&fields);
        AddFields(fields, &child_required);
      }
      ARROW_ASSIGN_OR_RAISE(node->children[0], Negotiate(node->children[0], child_required));
      return node;
    }
    case PlanNode::Kind::kDistinct:
    case PlanNode::Kind::kSort:
    case PlanNode::Kind::kLimit:
      ARROW_ASSIGN_OR_RAISE(node->children[0],
                            Negotiate(node->children[0], OutputNames(*node->children[0])));
      return node;
  }
  return node;
}

}  // namespace

Result<PlanNodePtr> NegotiatePushdown(const PlanNodePtr& plan) {
  return Negotiate(plan, OutputNames(*plan));
}

Status PlanScanPartitions(PlanNode* scan) {
  auto& negotiation = *scan->negotiation;
  if (negotiation.batch) return Status::OK();
  ARROW_ASSIGN_OR_RAISE(negotiation.batch, negotiation.scan->ToBatch());
  ARROW_ASSIGN_OR_RAISE(negotiation.partitions, negotiation.batch->PlanInputPartitions());
  return Status::OK();
}

}  // namespace parley
