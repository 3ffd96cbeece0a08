// Pushdown negotiation over the logical plan, in Spark's order and in passes:
//   0. filters move down through projections and joins (plan/filter_pushdown.h), never
//      through a Sample;
//   1. a Sample directly above a scan is offered (TABLESAMPLE); then each Filter directly
//      above a scan offers its conjuncts;
//   2a. inner joins of two scans whose builders take joins (plan/join_pushdown.h);
//   2. aggregates, then limit / top-N / offset: offered only for a scan with no filter left
//      above it, through nothing but projections (so never to a scan below a join);
//   3. column pruning and Build(): a top-down walk carrying the fields each parent needs;
//   4. inner joins reordered by the statistics the built scans report (plan/join_reorder.h);
//   5. joins of scans grouped by the join keys marked storage-partitioned
//      (plan/storage_partitioned_join.h);
//   6. the physical decisions: join build sides, runtime filters, subplan reuse
//      (plan/physical_planning.h).
#include "plan/pushdown.h"

#include <charconv>

#include <fmt/format.h>

#include <algorithm>

#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "parley/connector/metadata_columns.h"
#include "plan/filter_pushdown.h"
#include "plan/join_pushdown.h"
#include "plan/join_reorder.h"
#include "plan/nested_pruning.h"
#include "plan/predicate_translation.h"
#include "plan/storage_partitioned_join.h"

namespace parley {
namespace {

Status ContractViolation(const PlanNode& scan, std::string_view what, std::string_view detail) {
  return MakeError(arrow::StatusCode::Invalid, fmt::format("CONNECTOR_CONTRACT_VIOLATION.{}", what),
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

// Settle a filter offer in either form (V2 predicates or V1 filters): map what the source
// returned back to the conjuncts they came from, record the ones it applies exactly, and return
// the residual conjuncts in query order.
template <typename Item>
Result<std::vector<BoundExprPtr>> SettleOffer(
    PlanNode* scan, const std::vector<BoundExprPtr>& conjuncts, std::vector<BoundExprPtr> residual,
    const std::vector<std::pair<BoundExprPtr, Item>>& offered, const std::vector<Item>& returned,
    const std::vector<Item>& pushed) {
  auto find = [&](const Item& item) {
    return std::find_if(offered.begin(), offered.end(), [&](const auto& entry) {
      return entry.second == item || entry.second->ToString() == item->ToString();
    });
  };
  std::vector<BoundExprPtr> returned_conjuncts;
  for (const auto& item : returned) {
    auto match = find(item);
    if (match == offered.end()) {
      return ContractViolation(
          *scan, "UNKNOWN_RESIDUAL_PREDICATE",
          fmt::format("the source returned {}, which it was not offered", item->ToString()));
    }
    returned_conjuncts.push_back(match->first);
  }
  for (const auto& item : pushed) {
    auto match = find(item);
    if (match != offered.end() && std::find(returned_conjuncts.begin(), returned_conjuncts.end(),
                                            match->first) == returned_conjuncts.end()) {
      scan->negotiation->exact_predicates.emplace_back(TranslatePredicate(*match->first),
                                                       match->first);
    }
  }
  residual.insert(residual.end(), returned_conjuncts.begin(), returned_conjuncts.end());
  std::vector<BoundExprPtr> ordered;
  for (const auto& conjunct : conjuncts) {
    if (std::find(residual.begin(), residual.end(), conjunct) != residual.end()) {
      ordered.push_back(conjunct);
    }
  }
  return ordered;
}

// Offer a filter's conjuncts to the scan; return the residual conjuncts, in query order.
// Spark checks the older V1 form first; a builder should implement one or the other.
Result<std::vector<BoundExprPtr>> OfferFilters(PlanNode* scan,
                                               const std::vector<BoundExprPtr>& conjuncts) {
  ARROW_RETURN_NOT_OK(StartNegotiation(scan));
  auto& negotiation = *scan->negotiation;
  auto* v1 = dynamic_cast<SupportsPushDownFilters*>(negotiation.builder.get());
  auto* v2 = dynamic_cast<SupportsPushDownV2Filters*>(negotiation.builder.get());
  if (v1 == nullptr && v2 == nullptr) return conjuncts;
  std::vector<BoundExprPtr> untranslated;
  std::vector<std::pair<BoundExprPtr, PredicatePtr>> predicates;
  std::vector<std::pair<BoundExprPtr, FilterPtr>> filters;
  for (const auto& conjunct : conjuncts) {
    auto predicate = TranslatePredicate(*conjunct);
    FilterPtr filter = predicate && v1 ? ToV1Filter(*predicate) : nullptr;
    if (v1 && filter) {
      filters.emplace_back(conjunct, filter);
    } else if (!v1 && predicate) {
      predicates.emplace_back(conjunct, predicate);
    } else {
      untranslated.push_back(conjunct);
    }
  }
  if (predicates.empty() && filters.empty()) return conjuncts;
  if (v1) {
    std::vector<FilterPtr> offer;
    for (const auto& entry : filters) offer.push_back(entry.second);
    ARROW_ASSIGN_OR_RAISE(auto returned, v1->PushFilters(offer));
    negotiation.pushed_filters = v1->PushedFilters();
    return SettleOffer(scan, conjuncts, untranslated, filters, returned,
                       negotiation.pushed_filters);
  }
  std::vector<PredicatePtr> offer;
  for (const auto& entry : predicates) offer.push_back(entry.second);
  ARROW_ASSIGN_OR_RAISE(auto returned, v2->PushPredicates(offer));
  negotiation.pushed_predicates = v2->PushedPredicates();
  return SettleOffer(scan, conjuncts, untranslated, predicates, returned,
                     negotiation.pushed_predicates);
}

// Rewrite the plan bottom-up: every node of `kind` is replaced by what `offer` returns for it,
// after its inputs were rewritten. Each negotiation pass is one such walk.
template <typename Offer>
Result<PlanNodePtr> RewriteBottomUp(const PlanNodePtr& node, PlanNode::Kind kind, Offer offer) {
  for (auto& child : node->children) {
    ARROW_ASSIGN_OR_RAISE(child, RewriteBottomUp(child, kind, offer));
  }
  if (node->kind == kind) return offer(node);
  return node;
}

// Pass 1a: a sample directly above a scan, offered before anything else as in Spark. A source
// that takes it samples the table itself, and the Sample node goes.
Result<PlanNodePtr> OfferSample(const PlanNodePtr& node) {
  PlanNode* scan = node->children[0].get();
  if (scan->kind != PlanNode::Kind::kScan) return node;
  auto* builder = dynamic_cast<SupportsPushDownTableSample*>(scan->negotiation->builder.get());
  if (builder == nullptr) return node;
  const SampleSpec& sample = node->sample;
  if (!builder->PushTableSample(sample.lower, sample.upper, sample.with_replacement, sample.seed)) {
    return node;
  }
  scan->negotiation->pushed_sample = sample;
  return node->children[0];
}

// Pass 1b: filters directly above a scan.
Result<PlanNodePtr> OfferFilterNode(const PlanNodePtr& node) {
  if (node->children[0]->kind != PlanNode::Kind::kScan) return node;
  ARROW_ASSIGN_OR_RAISE(auto residual,
                        OfferFilters(node->children[0].get(), SplitConjuncts(node->condition)));
  if (residual.empty()) return node->children[0];
  node->condition = CombineConjuncts(residual);
  return node;
}

// Offer a top-N to the scan under `sort` (through projections). Returns whether the source
// applies it completely, so the engine can drop its sort and limit.
Result<bool> OfferTopN(PlanNode* sort, int64_t limit) {
  std::map<std::string, std::string> mapping;
  PlanNode* scan = ScanBelowProjections(sort->children[0].get(), &mapping);
  if (scan == nullptr) return false;
  auto* builder = dynamic_cast<SupportsPushDownTopN*>(scan->negotiation->builder.get());
  if (builder == nullptr) return false;
  std::vector<std::shared_ptr<SortOrder>> orders;
  for (const auto& key : sort->sort_keys) {
    if (key.expr->kind != BoundExpr::Kind::kColumn || mapping[key.expr->field].empty()) {
      return false;
    }
    orders.push_back(std::make_shared<SortOrder>(
        FieldReference(mapping[key.expr->field]),
        key.ascending ? SortDirection::kAscending : SortDirection::kDescending,
        key.nulls_first ? NullOrdering::kNullsFirst : NullOrdering::kNullsLast));
  }
  if (!builder->PushTopN(orders, limit)) return false;
  scan->negotiation->pushed_top_n = orders;
  scan->negotiation->pushed_limit = limit;
  scan->negotiation->limit_fully_pushed = !builder->IsPartiallyPushed();
  return scan->negotiation->limit_fully_pushed;
}

// Pass 2: limit, top-N and offset, for a Limit node. Returns the node that replaces it.
Result<PlanNodePtr> OfferLimit(const PlanNodePtr& limit_node) {
  PlanNode* below = limit_node->children[0].get();
  std::map<std::string, std::string> mapping;
  // Sort with only projections between it and the scan: top-N.
  PlanNode* sort = below;
  while (sort->kind == PlanNode::Kind::kProject) sort = sort->children[0].get();
  if (sort->kind == PlanNode::Kind::kSort) {
    if (!limit_node->limit) return limit_node;
    ARROW_ASSIGN_OR_RAISE(bool complete, OfferTopN(sort, *limit_node->limit + limit_node->offset));
    // A complete top-N returns exactly the first rows: the engine's limit goes. Its sort stays
    // (on at most `limit` rows) because tasks of several partitions finish in any order.
    if (complete && limit_node->offset == 0) return limit_node->children[0];
    return limit_node;
  }
  PlanNode* scan = ScanBelowProjections(below, &mapping);
  if (scan == nullptr) return limit_node;
  auto& negotiation = *scan->negotiation;
  auto* limit_builder = dynamic_cast<SupportsPushDownLimit*>(negotiation.builder.get());
  auto* offset_builder = dynamic_cast<SupportsPushDownOffset*>(negotiation.builder.get());
  if (limit_node->limit && limit_builder != nullptr) {
    int64_t rows = *limit_node->limit + limit_node->offset;
    if (limit_builder->PushLimit(rows)) {
      negotiation.pushed_limit = rows;
      negotiation.limit_fully_pushed = !limit_builder->IsPartiallyPushed();
    }
  }
  bool limit_done = !limit_node->limit || negotiation.limit_fully_pushed;
  // An offset is pushed only once the limit (if any) is fully pushed, and all or nothing.
  if (limit_done && limit_node->offset > 0 && offset_builder != nullptr &&
      offset_builder->PushOffset(limit_node->offset)) {
    negotiation.pushed_offset = limit_node->offset;
    limit_node->offset = 0;
  }
  if (limit_done && limit_node->offset == 0) return limit_node->children[0];
  return limit_node;
}

// Translate an Aggregate node over a scan into a V2 Aggregation; nullopt when some key or
// argument is not a plain column, or a function has no V2 form.
std::optional<Aggregation> TranslateAggregation(const PlanNode& aggregate) {
  Aggregation aggregation;
  for (const auto& key : aggregate.group_keys) {
    if (key->kind != BoundExpr::Kind::kColumn) return std::nullopt;
    aggregation.group_by_expressions.push_back(FieldReference(key->field));
  }
  for (const auto& call : aggregate.aggregates) {
    if (call.function == "COUNT_STAR") {
      aggregation.aggregate_expressions.push_back(std::make_shared<CountStar>());
      continue;
    }
    if (call.args.size() != 1 || call.args[0]->kind != BoundExpr::Kind::kColumn) {
      return std::nullopt;
    }
    auto column = FieldReference(call.args[0]->field);
    AggregateFuncPtr function;
    if (call.function == "COUNT") function = std::make_shared<Count>(column, call.distinct);
    if (call.function == "SUM") function = std::make_shared<Sum>(column, call.distinct);
    if (call.function == "AVG") function = std::make_shared<Avg>(column, call.distinct);
    if (call.function == "MIN") function = std::make_shared<Min>(column);
    if (call.function == "MAX") function = std::make_shared<Max>(column);
    if (!function) return std::nullopt;
    aggregation.aggregate_expressions.push_back(function);
  }
  return aggregation;
}

// Whether the engine can finish an aggregation the source computed per partition: only
// MIN, MAX, COUNT(*), COUNT and SUM without DISTINCT re-aggregate, as in Spark.
bool CanFinishPartialAggregation(const PlanNode& aggregate) {
  for (const auto& call : aggregate.aggregates) {
    if (call.distinct || call.function == "AVG") return false;
  }
  return true;
}

// `aggregate` reading its scan directly: a copy without the projection of columns only (as a
// pushed join leaves) between them; the aggregate itself when something else is in the way.
PlanNodePtr ReadScanDirectly(const PlanNodePtr& aggregate) {
  const PlanNodePtr& child = aggregate->children[0];
  if (child->kind != PlanNode::Kind::kProject ||
      child->children[0]->kind != PlanNode::Kind::kScan) {
    return aggregate;
  }
  std::map<std::string, BoundExprPtr> renames;
  for (size_t i = 0; i < child->exprs.size(); ++i) {
    if (child->exprs[i]->kind != BoundExpr::Kind::kColumn) return aggregate;
    renames[child->output[i].name] = child->exprs[i];
  }
  auto direct = std::make_shared<PlanNode>(*aggregate);
  direct->children = {child->children[0]};
  for (auto& key : direct->group_keys) key = ReplaceColumns(key, renames);
  for (auto& call : direct->aggregates) {
    for (auto& arg : call.args) arg = ReplaceColumns(arg, renames);
  }
  return direct;
}

// Pass 2a: offer an Aggregate directly over a scan (no filter left) to the source. A complete
// pushdown turns the Aggregate into a projection of the scan's output; a partial one keeps a
// final Aggregate that combines the per-partition results.
Result<PlanNodePtr> OfferAggregate(const PlanNodePtr& original) {
  PlanNodePtr node = ReadScanDirectly(original);
  PlanNode* scan = node->children[0].get();
  if (scan->kind != PlanNode::Kind::kScan) return original;
  auto* builder = dynamic_cast<SupportsPushDownAggregates*>(scan->negotiation->builder.get());
  if (builder == nullptr) return original;
  auto aggregation = TranslateAggregation(*node);
  if (!aggregation) return original;
  bool complete = builder->SupportCompletePushDown(*aggregation);
  if (!complete && !CanFinishPartialAggregation(*node)) return original;
  ARROW_ASSIGN_OR_RAISE(bool accepted, builder->PushAggregation(*aggregation));
  if (!accepted) return original;
  auto& negotiation = *scan->negotiation;
  negotiation.pushed_aggregation = *aggregation;
  negotiation.aggregation_complete = complete;
  ARROW_ASSIGN_OR_RAISE(negotiation.scan, negotiation.builder->Build());
  auto read_schema = negotiation.scan->ReadSchema();
  size_t keys = node->group_keys.size();
  if (static_cast<size_t>(read_schema->num_fields()) != keys + node->aggregates.size()) {
    return ContractViolation(*scan, "READ_SCHEMA_MISMATCH",
                             fmt::format("after accepting {} ReadSchema() has {} columns, not "
                                         "one per group-by key and aggregate",
                                         aggregation->ToString(), read_schema->num_fields()));
  }
  scan->output.clear();
  for (const auto& field : read_schema->fields()) {
    scan->output.push_back({field->name(), field->name(), field->type(), field->nullable()});
  }
  auto scan_ref = [&](size_t i) {
    const auto& field = scan->output[i];
    return MakeColumnRef(field.name, field.display, field.type);
  };
  if (complete) {
    auto project = std::make_shared<PlanNode>();
    project->kind = PlanNode::Kind::kProject;
    project->children = node->children;
    project->output = node->output;
    for (size_t i = 0; i < node->output.size(); ++i) {
      BoundExprPtr value = scan_ref(i);
      if (!value->type->Equals(*node->output[i].type)) {
        value = MakeCall("CAST", {value}, node->output[i].type);
      }
      project->exprs.push_back(value);
    }
    return project;
  }
  for (size_t i = 0; i < keys; ++i) node->group_keys[i] = scan_ref(i);
  for (size_t j = 0; j < node->aggregates.size(); ++j) {
    auto& call = node->aggregates[j];
    if (call.function == "COUNT" || call.function == "COUNT_STAR") call.function = "SUM";
    call.args = {scan_ref(keys + j)};
  }
  return node;
}

// Pass 1 needs every scan's builder, even under no filter.
Status StartAll(const PlanNodePtr& node) {
  if (node->kind == PlanNode::Kind::kScan) return StartNegotiation(node.get());
  for (const auto& child : node->children) ARROW_RETURN_NOT_OK(StartAll(child));
  return Status::OK();
}

// Prune to the required fields, build the scan, and adopt its read schema as the output.
Status PruneAndBuild(PlanNode* scan, const std::vector<std::string>& required) {
  auto& negotiation = *scan->negotiation;
  // A scan that computes an aggregation was built then; its output is the aggregation's.
  if (negotiation.pushed_aggregation) return Status::OK();
  if (auto* prunable = dynamic_cast<SupportsPushDownRequiredColumns*>(negotiation.builder.get())) {
    arrow::FieldVector fields;
    std::vector<Column> columns = scan->table->columns();
    if (!negotiation.pushed_joins.empty()) {
      // A scan of a pushed join reads the joined relation's columns.
      columns.clear();
      for (const auto& field : negotiation.joined_columns) {
        Column column;
        column.name = field.name;
        column.type = field.type;
        column.nullable = field.nullable;
        columns.push_back(std::move(column));
      }
    } else if (auto* metadata = dynamic_cast<const SupportsMetadataColumns*>(scan->table.get())) {
      for (auto& column : metadata->metadataColumns()) {
        bool shadowed = std::any_of(columns.begin(), columns.end(), [&](const Column& data) {
          return EqualsIgnoreCase(data.name, column.name);
        });
        if (!shadowed) columns.push_back(std::move(column));
      }
    }
    for (const auto& column : columns) {
      if (std::find(required.begin(), required.end(), column.name) != required.end()) {
        auto narrowed = negotiation.narrowed_types.find(column.name);
        fields.push_back(narrowed == negotiation.narrowed_types.end()
                             ? column.ToField()
                             : column.ToField()->WithType(narrowed->second));
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
    // A struct column asked for narrowed may come narrowed or whole.
    auto narrowed = negotiation.narrowed_types.find(field->name());
    bool narrowed_read = narrowed != negotiation.narrowed_types.end() &&
                         negotiation.pruning_offered && narrowed->second->Equals(*field->type());
    if (!table_field->type->Equals(*field->type()) && !narrowed_read) {
      return ContractViolation(
          *scan, "READ_SCHEMA_MISMATCH",
          fmt::format("ReadSchema() types column {} as {}, the table as {}",
                      QuoteIdentifier(field->name()), field->type()->ToString(),
                      table_field->type->ToString()));
    }
    output.push_back(*table_field);
    output.back().type = field->type();
  }
  for (const auto& name : required) {
    if (!read_schema->GetFieldByName(name)) {
      return ContractViolation(
          *scan, "MISSING_REQUIRED_COLUMN",
          fmt::format("ReadSchema() lacks the required column {}", QuoteIdentifier(name)));
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

Status PruneColumns(const PlanNodePtr& node, const std::vector<std::string>& required);

// A join needs from each input the fields its parent requires plus those its keys and
// residual condition read; its output then keeps the required fields its inputs still give.
Status PruneJoinColumns(const PlanNodePtr& join, const std::vector<std::string>& required) {
  std::vector<std::string> needed = required;
  for (const auto& key : join->join_keys) {
    key.left->CollectFields(&needed);
    key.right->CollectFields(&needed);
  }
  if (join->condition) join->condition->CollectFields(&needed);
  for (const auto& child : join->children) {
    std::vector<std::string> child_required;
    for (const auto& field : child->output) {
      if (std::find(needed.begin(), needed.end(), field.name) != needed.end()) {
        child_required.push_back(field.name);
      }
    }
    ARROW_RETURN_NOT_OK(PruneColumns(child, child_required));
  }
  std::vector<OutputField> output;
  for (const auto& field : join->output) {
    bool given = false;
    for (const auto& child : join->children) {
      for (const auto& f : child->output) given = given || f.name == field.name;
    }
    if (given && std::find(required.begin(), required.end(), field.name) != required.end()) {
      output.push_back(field);
    }
  }
  join->output = std::move(output);
  return Status::OK();
}

// The fields of `fields` that `required` names, in their order.
std::vector<OutputField> KeepRequired(const std::vector<OutputField>& fields,
                                      const std::vector<std::string>& required) {
  std::vector<OutputField> kept;
  for (const auto& field : fields) {
    if (std::find(required.begin(), required.end(), field.name) != required.end()) {
      kept.push_back(field);
    }
  }
  return kept;
}

// The positions of `node`'s output that `required` names; the first one when it names none, so
// that rows keep a column to be counted by.
std::vector<size_t> RequiredPositions(const PlanNode& node,
                                      const std::vector<std::string>& required) {
  std::vector<size_t> positions;
  for (size_t i = 0; i < node.output.size(); ++i) {
    if (std::find(required.begin(), required.end(), node.output[i].name) != required.end()) {
      positions.push_back(i);
    }
  }
  if (positions.empty() && !node.output.empty()) positions.push_back(0);
  return positions;
}

// A union's children output its fields by position: each keeps the required positions.
Status PruneUnionColumns(const PlanNodePtr& node, const std::vector<std::string>& required) {
  const auto positions = RequiredPositions(*node, required);
  for (const auto& child : node->children) {
    std::vector<std::string> child_required;
    for (size_t i : positions) child_required.push_back(child->output[i].name);
    ARROW_RETURN_NOT_OK(PruneColumns(child, child_required));
  }
  std::vector<OutputField> output;
  for (size_t i : positions) output.push_back(node->output[i]);
  node->output = std::move(output);
  return Status::OK();
}

// An expand keeps the required positions of every projection and needs what those read.
Status PruneExpandColumns(const PlanNodePtr& node, const std::vector<std::string>& required) {
  const auto positions = RequiredPositions(*node, required);
  std::vector<std::string> child_required;
  for (auto& projection : node->expand_projections) {
    std::vector<BoundExprPtr> kept;
    for (size_t i : positions) {
      projection[i]->CollectFields(&child_required);
      kept.push_back(projection[i]);
    }
    projection = std::move(kept);
  }
  std::vector<OutputField> output;
  for (size_t i : positions) output.push_back(node->output[i]);
  node->output = std::move(output);
  return PruneColumns(node->children[0], child_required);
}

// Pass 3: the fields each operator needs from its child, then pruning at every scan.
Status PruneColumns(const PlanNodePtr& node, const std::vector<std::string>& required) {
  switch (node->kind) {
    case PlanNode::Kind::kScan: return PruneAndBuild(node.get(), required);
    case PlanNode::Kind::kOneRow:
    case PlanNode::Kind::kValues: return Status::OK();
    case PlanNode::Kind::kFilter: {
      std::vector<std::string> child_required = required;
      std::vector<std::string> fields;
      node->condition->CollectFields(&fields);
      AddFields(fields, &child_required);
      ARROW_RETURN_NOT_OK(PruneColumns(node->children[0], child_required));
      node->output = node->children[0]->output;
      return Status::OK();
    }
    case PlanNode::Kind::kProject: {
      // Drop the columns no parent needs, then ask the input for what the rest read.
      std::vector<BoundExprPtr> exprs;
      std::vector<OutputField> output;
      std::vector<std::string> child_required;
      for (size_t i = 0; i < node->exprs.size(); ++i) {
        if (std::find(required.begin(), required.end(), node->output[i].name) == required.end()) {
          continue;
        }
        std::vector<std::string> fields;
        node->exprs[i]->CollectFields(&fields);
        AddFields(fields, &child_required);
        exprs.push_back(node->exprs[i]);
        output.push_back(node->output[i]);
      }
      node->exprs = std::move(exprs);
      node->output = std::move(output);
      return PruneColumns(node->children[0], child_required);
    }
    case PlanNode::Kind::kJoin: return PruneJoinColumns(node, required);
    case PlanNode::Kind::kAggregate: {
      std::vector<std::string> child_required;
      for (const auto& key : node->group_keys) key->CollectFields(&child_required);
      for (const auto& call : node->aggregates) {
        for (const auto& arg : call.args) arg->CollectFields(&child_required);
      }
      return PruneColumns(node->children[0], child_required);
    }
    case PlanNode::Kind::kDistinct:
    case PlanNode::Kind::kSort:
    case PlanNode::Kind::kLimit:
      return PruneColumns(node->children[0], OutputNames(*node->children[0]));
    case PlanNode::Kind::kUnion: return PruneUnionColumns(node, required);
    case PlanNode::Kind::kReplicateRows: {
      std::vector<std::string> child_required = required;
      std::vector<std::string> count;
      node->replicate_count->CollectFields(&count);
      AddFields(count, &child_required);
      ARROW_RETURN_NOT_OK(PruneColumns(node->children[0], child_required));
      node->output = KeepRequired(node->output, required);
      return Status::OK();
    }
    case PlanNode::Kind::kExpand: return PruneExpandColumns(node, required);
    case PlanNode::Kind::kWindow: {
      // Every call is kept; the input gives the required fields and what the calls read.
      const PlanNodePtr& child = node->children[0];
      std::vector<std::string> child_required;
      for (const auto& field : child->output) {
        if (std::find(required.begin(), required.end(), field.name) != required.end()) {
          child_required.push_back(field.name);
        }
      }
      std::vector<std::string> read;
      for (const auto& call : node->window_calls) {
        for (const auto& arg : call.args) arg->CollectFields(&read);
        for (const auto& key : call.partition_by) key->CollectFields(&read);
        for (const auto& key : call.order_by) key.expr->CollectFields(&read);
      }
      AddFields(read, &child_required);
      const size_t results = node->window_calls.size();
      std::vector<OutputField> computed(node->output.end() - results, node->output.end());
      ARROW_RETURN_NOT_OK(PruneColumns(child, child_required));
      node->output = child->output;
      node->output.insert(node->output.end(), computed.begin(), computed.end());
      return Status::OK();
    }
    case PlanNode::Kind::kSample:
      ARROW_RETURN_NOT_OK(PruneColumns(node->children[0], required));
      node->output = node->children[0]->output;
      return Status::OK();
    case PlanNode::Kind::kGenerate: {
      // Every generated field is kept; the input gives the required fields and the arguments.
      const size_t generated = node->output.size() - node->children[0]->output.size();
      std::vector<OutputField> made(node->output.end() - generated, node->output.end());
      std::vector<std::string> child_required = required;
      AddFields(node->generator_args, &child_required);
      ARROW_RETURN_NOT_OK(PruneColumns(node->children[0], child_required));
      node->output = node->children[0]->output;
      node->output.insert(node->output.end(), made.begin(), made.end());
      return Status::OK();
    }
    case PlanNode::Kind::kChangelogPass: {
      // The parent's columns plus those the passes read; the output follows the input.
      std::vector<std::string> child_required = required;
      const auto read = node->changelog->ColumnsRead();
      AddFields(std::vector<std::string>(read.begin(), read.end()), &child_required);
      ARROW_RETURN_NOT_OK(PruneColumns(node->children[0], child_required));
      node->output = node->children[0]->output;
      return Status::OK();
    }
  }
  return Status::OK();
}

}  // namespace

PlanNode* ScanBelowProjections(PlanNode* node, std::map<std::string, std::string>* mapping,
                               bool through_filters) {
  std::map<std::string, std::string> current;
  for (const auto& field : node->output) current[field.name] = field.name;
  while (node->kind == PlanNode::Kind::kProject ||
         (through_filters && node->kind == PlanNode::Kind::kFilter)) {
    if (node->kind == PlanNode::Kind::kProject) {
      std::map<std::string, std::string> next;
      for (size_t i = 0; i < node->exprs.size(); ++i) {
        const auto& expr = node->exprs[i];
        next[node->output[i].name] =
            expr->kind == BoundExpr::Kind::kColumn ? expr->field : std::string();
      }
      for (auto& [name, target] : current) {
        auto it = next.find(target);
        target = it == next.end() ? std::string() : it->second;
      }
    }
    node = node->children[0].get();
  }
  if (node->kind != PlanNode::Kind::kScan) return nullptr;
  *mapping = std::move(current);
  return node;
}

Result<PlanNodePtr> NegotiatePushdown(const PlanNodePtr& plan, const PushdownOptions& options) {
  PlanNodePtr pushed = PushDownFilters(plan);
  ARROW_RETURN_NOT_OK(StartAll(pushed));
  ARROW_ASSIGN_OR_RAISE(auto negotiated,
                        RewriteBottomUp(pushed, PlanNode::Kind::kSample, OfferSample));
  ARROW_ASSIGN_OR_RAISE(negotiated,
                        RewriteBottomUp(negotiated, PlanNode::Kind::kFilter, OfferFilterNode));
  if (options.join_pushdown) {
    ARROW_ASSIGN_OR_RAISE(negotiated,
                          RewriteBottomUp(negotiated, PlanNode::Kind::kJoin, OfferJoin));
  }
  ARROW_ASSIGN_OR_RAISE(negotiated,
                        RewriteBottomUp(negotiated, PlanNode::Kind::kAggregate, OfferAggregate));
  ARROW_ASSIGN_OR_RAISE(negotiated,
                        RewriteBottomUp(negotiated, PlanNode::Kind::kLimit, OfferLimit));
  if (options.nested_schema_pruning) PlanNestedPruning(negotiated);
  ARROW_RETURN_NOT_OK(PruneColumns(negotiated, OutputNames(*negotiated)));
  ARROW_ASSIGN_OR_RAISE(negotiated, ReorderJoins(negotiated));
  if (options.storage_partitioned_join) {
    ARROW_RETURN_NOT_OK(MarkStoragePartitionedJoins(negotiated));
  }
  FinalizePhysicalPlan(negotiated.get(), options.physical);
  return negotiated;
}

PushdownOptions PushdownOptionsFor(const SqlConf& conf) {
  PushdownOptions options;
  options.join_pushdown = conf.GetBool(kJoinPushdownKey, options.join_pushdown);
  options.storage_partitioned_join =
      conf.GetBool(kV2BucketingKey, options.storage_partitioned_join);
  options.nested_schema_pruning =
      conf.GetBool(kNestedSchemaPruningKey, options.nested_schema_pruning);
  // Runtime filters are off when disabled or when no build side may be small enough (a
  // maxBuildRows under 1; an unreadable one is the default, 1000, as the executor reads it).
  double max_build_rows = 1000;
  if (auto text = conf.Get(kRuntimeFilterMaxBuildRowsKey)) {
    if (std::from_chars(text->data(), text->data() + text->size(), max_build_rows).ec !=
        std::errc()) {
      max_build_rows = 1000;
    }
  }
  options.physical.runtime_filters =
      conf.GetBool(kRuntimeFilterEnabledKey, true) && max_build_rows >= 1;
  options.physical.reuse_subplans = conf.GetBool(kReuseSubplansKey, true);
  return options;
}

Status PlanScanPartitions(PlanNode* scan) {
  auto& negotiation = *scan->negotiation;
  if (negotiation.batch) return Status::OK();
  ARROW_ASSIGN_OR_RAISE(negotiation.batch, negotiation.scan->ToBatch());
  ARROW_ASSIGN_OR_RAISE(negotiation.partitions, negotiation.batch->PlanInputPartitions());
  return Status::OK();
}

}  // namespace parley
