// The row-level runner: metadata-only delete, or scan the groups, compute, and replace them.
#include "exec/row_level_runner.h"

#include <fmt/format.h>

#include <optional>
#include <unordered_map>

#include "arrow/array.h"
#include "arrow/array/concatenate.h"
#include "arrow/builder.h"
#include "arrow/chunked_array.h"
#include "arrow/compute/api.h"
#include "arrow/table.h"
#include "arrow/type.h"
#include "exec/executor.h"
#include "plan/predicate_translation.h"
#include "plan/pushdown.h"

namespace parley {
namespace {

// The operation's scan builder with the group filter already pushed; it offers no other
// pushdown, so the engine's own filters and pruning never narrow the groups it returns.
class GroupScanBuilder : public ScanBuilder {
 public:
  explicit GroupScanBuilder(std::unique_ptr<ScanBuilder> inner) : inner_(std::move(inner)) {}
  Result<std::shared_ptr<Scan>> Build() override { return inner_->Build(); }

 private:
  std::unique_ptr<ScanBuilder> inner_;
};

Status Unsupported(const RowLevelPlan& plan, std::string_view what) {
  return InvalidError("UNSUPPORTED_FEATURE.TABLE_OPERATION",
                      fmt::format("The feature is not supported: Table {} does not support {}.",
                                  plan.target_name.ToString(), what));
}

// The conjuncts as V2 predicates, or nothing when one does not translate.
std::optional<std::vector<PredicatePtr>> TranslateAll(const std::vector<BoundExprPtr>& conjuncts) {
  std::vector<PredicatePtr> predicates;
  for (const auto& conjunct : conjuncts) {
    auto predicate = TranslatePredicate(*conjunct);
    if (predicate == nullptr) return std::nullopt;
    predicates.push_back(std::move(predicate));
  }
  return predicates;
}

// Try the metadata-only delete; true when it ran.
Result<bool> TryDeleteWhere(const RowLevelPlan& plan, RowLevelResult* result) {
  auto* deletable = dynamic_cast<SupportsDeleteV2*>(plan.table.get());
  if (deletable == nullptr) return false;
  auto predicates = TranslateAll(plan.delete_conjuncts);
  const bool row_level = dynamic_cast<SupportsRowLevelOperations*>(plan.table.get()) != nullptr;
  if (!predicates || !deletable->CanDeleteWhere(*predicates)) {
    if (row_level) return false;
    std::string text;
    for (const auto& conjunct : plan.delete_conjuncts) {
      text += (text.empty() ? "" : " AND ") + conjunct->ToString();
    }
    return Unsupported(plan, fmt::format("DELETE WHERE {} without reading rows", text));
  }
  ARROW_ASSIGN_OR_RAISE(result->deleted, deletable->DeleteWhere(*predicates));
  result->metadata_only = true;
  return true;
}

// Give the plan's target scan the operation's scan builder, with the group filter pushed.
Status PrepareGroupScan(RowLevelPlan* plan, RowLevelOperation* operation) {
  ARROW_ASSIGN_OR_RAISE(auto builder, operation->NewScanBuilder({}));
  auto negotiation = std::make_shared<ScanNegotiation>();
  if (!plan->group_filter.empty()) {
    if (auto* filters = dynamic_cast<SupportsPushDownV2Filters*>(builder.get())) {
      std::vector<PredicatePtr> offer;
      for (const auto& conjunct : plan->group_filter) {
        if (auto predicate = TranslatePredicate(*conjunct)) offer.push_back(std::move(predicate));
      }
      if (!offer.empty()) {
        ARROW_RETURN_NOT_OK(filters->PushPredicates(std::move(offer)).status());
        negotiation->pushed_predicates = filters->PushedPredicates();
      }
    }
  }
  for (const auto& column : operation->RequiredMetadataAttributes()) {
    plan->target_scan->output.push_back({column.name, column.name, column.type, true});
  }
  negotiation->builder = std::make_unique<GroupScanBuilder>(std::move(builder));
  plan->target_scan->negotiation = std::move(negotiation);
  return Status::OK();
}

// Each row's action, with MERGE's pairs resolved: a target row the join paired with several
// source rows keeps one row (the one a clause applied to, else the first) and the others are
// discarded; a MATCHED clause applying to one target row twice is a cardinality violation.
Result<std::vector<RowAction>> ResolveActions(const RowLevelPlan& plan, const arrow::Table& rows) {
  const int n = static_cast<int>(plan.columns.size());
  std::vector<RowAction> actions;
  actions.reserve(rows.num_rows());
  for (const auto& chunk : rows.column(n)->chunks()) {
    const auto& values = static_cast<const arrow::Int32Array&>(*chunk);
    for (int64_t i = 0; i < values.length(); ++i) {
      actions.push_back(static_cast<RowAction>(values.Value(i)));
    }
  }
  if (plan.command != RowLevelCommand::kMerge) return actions;
  ARROW_ASSIGN_OR_RAISE(auto ids_column, arrow::Concatenate(rows.column(n + 1)->chunks()));
  ARROW_ASSIGN_OR_RAISE(auto matched_column, arrow::Concatenate(rows.column(n + 2)->chunks()));
  const auto& ids = static_cast<const arrow::Int32Array&>(*ids_column);
  const auto& matched = static_cast<const arrow::BooleanArray&>(*matched_column);
  std::unordered_map<int32_t, int64_t> kept;  // target row -> the row that stands for it
  for (int64_t i = 0; i < ids.length(); ++i) {
    if (ids.IsNull(i)) continue;
    auto [entry, first] = kept.emplace(ids.Value(i), i);
    if (first) continue;
    const bool applies = matched.IsValid(i) && matched.Value(i);
    const int64_t other = entry->second;
    if (plan.check_cardinality && applies && matched.IsValid(other) && matched.Value(other)) {
      return InvalidError(
          "MERGE_CARDINALITY_VIOLATION",
          fmt::format("The ON search condition of the MERGE statement matched a single row "
                      "from the target table {} with multiple rows of the source table. This "
                      "could result in the target row being operated on more than once with an "
                      "update or delete operation and is not allowed.",
                      plan.target_name.ToString()));
    }
    if (actions[other] == RowAction::kCopy && actions[i] != RowAction::kCopy) {
      actions[other] = RowAction::kDiscard;
      entry->second = i;
    } else {
      actions[i] = RowAction::kDiscard;
    }
  }
  return actions;
}

// The rows that stay in the table or join it: copied, updated and inserted ones, as the
// table's columns.
Result<std::shared_ptr<arrow::Table>> RowsToWrite(const RowLevelPlan& plan,
                                                  const arrow::Table& rows,
                                                  const std::vector<RowAction>& actions) {
  const int n = static_cast<int>(plan.columns.size());
  arrow::BooleanBuilder keep;
  ARROW_RETURN_NOT_OK(keep.Reserve(static_cast<int64_t>(actions.size())));
  for (RowAction action : actions) {
    keep.UnsafeAppend(action == RowAction::kCopy || action == RowAction::kUpdate ||
                      action == RowAction::kInsert);
  }
  ARROW_ASSIGN_OR_RAISE(auto mask, keep.Finish());
  std::vector<std::shared_ptr<arrow::ChunkedArray>> columns(rows.columns().begin(),
                                                            rows.columns().begin() + n);
  auto schema = ColumnsToSchema(plan.columns);
  auto data = arrow::Table::Make(schema, columns, rows.num_rows());
  ARROW_ASSIGN_OR_RAISE(auto filtered, arrow::compute::Filter(data, mask));
  auto table = filtered.table();
  for (int i = 0; i < n; ++i) {
    if (!plan.columns[i].nullable && table->column(i)->null_count() > 0) {
      return InvalidError("NOT_NULL_ASSERT_VIOLATION",
                          fmt::format("NULL value appeared in non-nullable field: {} of the table "
                                      "{}.",
                                      QuoteIdentifier(plan.columns[i].name),
                                      plan.target_name.ToString()));
    }
  }
  return table;
}

}  // namespace

Result<RowLevelResult> RunRowLevel(RowLevelPlan* plan, const WriteRunOptions& options) {
  RowLevelResult result;
  if (plan->command == RowLevelCommand::kDelete) {
    ARROW_ASSIGN_OR_RAISE(bool done, TryDeleteWhere(*plan, &result));
    if (done) return result;
  }
  auto* supports = dynamic_cast<SupportsRowLevelOperations*>(plan->table.get());
  if (supports == nullptr) return Unsupported(*plan, RowLevelCommandName(plan->command));
  RowLevelOperationInfo info{plan->command, {}};
  ARROW_ASSIGN_OR_RAISE(auto builder, supports->NewRowLevelOperationBuilder(info));
  ARROW_ASSIGN_OR_RAISE(auto operation, builder->Build());
  if (operation->representation() != RowLevelRepresentation::kGroupBased) {
    return Unsupported(*plan, "delta-based (merge-on-read) row-level operations");
  }
  ARROW_RETURN_NOT_OK(PrepareGroupScan(plan, operation.get()));
  ARROW_ASSIGN_OR_RAISE(plan->query, NegotiatePushdown(plan->query));
  // Every row of a rewritten group must be read, so no join may prune the target's scan.
  ScanRunOptions scan_options = options.scan;
  scan_options.runtime_filter_max_build_rows = 0;
  ARROW_ASSIGN_OR_RAISE(auto executed, ExecutePlan(plan->query, scan_options));
  ARROW_ASSIGN_OR_RAISE(auto actions, ResolveActions(*plan, *executed.table));
  for (RowAction action : actions) {
    result.updated += action == RowAction::kUpdate;
    result.deleted += action == RowAction::kDelete;
    result.inserted += action == RowAction::kInsert;
  }
  if (result.updated + result.deleted + result.inserted == 0) return result;
  ARROW_RETURN_NOT_OK(EnsureComputeInitialized());
  ARROW_ASSIGN_OR_RAISE(auto data, RowsToWrite(*plan, *executed.table, actions));

  LogicalWriteInfo write_info{options.query_id, ColumnsToSchema(plan->columns), {}};
  RowLevelWriteSummary summary{data->num_rows() - result.updated - result.inserted,
                               result.updated, result.deleted, result.inserted};
  ARROW_ASSIGN_OR_RAISE(auto write_builder, operation->NewWriteBuilder(write_info, summary));
  ARROW_ASSIGN_OR_RAISE(auto write, write_builder->Build());
  ARROW_ASSIGN_OR_RAISE(auto partitions, PartitionForWrite(data, *write, options.rows_per_task));
  ARROW_ASSIGN_OR_RAISE(result.write, RunWriteJob(write.get(), partitions, options.job));
  return result;
}

}  // namespace parley
