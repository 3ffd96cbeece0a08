// The row-level runner: metadata-only delete, or scan the groups, compute, and replace them.
#include "exec/row_level_runner.h"

#include <fmt/format.h>

#include <optional>
#include <algorithm>
#include <vector>

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
// filter, so the engine's own filters never narrow the groups it returns. Column pruning
// passes through: the query reads every table column, and it selects the metadata columns.
class GroupScanBuilder : public ScanBuilder, public SupportsPushDownRequiredColumns {
 public:
  explicit GroupScanBuilder(std::unique_ptr<ScanBuilder> inner) : inner_(std::move(inner)) {}
  Result<std::shared_ptr<Scan>> Build() override { return inner_->Build(); }
  Status PruneColumns(const std::shared_ptr<arrow::Schema>& required_schema) override {
    auto* prunable = dynamic_cast<SupportsPushDownRequiredColumns*>(inner_.get());
    return prunable == nullptr ? Status::OK() : prunable->PruneColumns(required_schema);
  }

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
  // Target row numbers run from 1 (row_number()): the row that stands for each, or -1.
  int32_t max_id = 0;
  for (int64_t i = 0; i < ids.length(); ++i) {
    if (ids.IsValid(i)) max_id = std::max(max_id, ids.Value(i));
  }
  std::vector<int64_t> kept(static_cast<size_t>(max_id) + 1, -1);
  for (int64_t i = 0; i < ids.length(); ++i) {
    if (ids.IsNull(i)) continue;
    int64_t& entry = kept[ids.Value(i)];
    if (entry < 0) {
      entry = i;
      continue;
    }
    const bool applies = matched.IsValid(i) && matched.Value(i);
    const int64_t other = entry;
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
      entry = i;
    } else {
      actions[i] = RowAction::kDiscard;
    }
  }
  return actions;
}

// Whether the query's output ends with the pre-images of the table's columns.
bool PreimageColumns(const RowLevelPlan& plan) {
  return plan.change_rows && plan.command != RowLevelCommand::kDelete;
}

// The schema of the rows the write receives: the table's columns, then, when the operation
// has metadata columns or wants change rows, those columns and the row's action
// (kRowLevelWriteActionColumn).
std::shared_ptr<arrow::Schema> WriteSchema(const RowLevelPlan& plan) {
  auto fields = ColumnsToSchema(plan.columns)->fields();
  if (plan.metadata_columns.empty() && !plan.change_rows) return arrow::schema(std::move(fields));
  for (const auto& column : plan.metadata_columns) {
    fields.push_back(arrow::field(column.name, column.type));
  }
  fields.push_back(arrow::field(kRowLevelWriteActionColumn, arrow::int32(), false));
  return arrow::schema(std::move(fields));
}

// The rows of `rows` whose action `select` admits, as WriteSchema() says: the table's
// columns from `values` (the first of `rows`' columns at that index), the metadata columns,
// and each row's action, `action` when given.
Result<std::shared_ptr<arrow::Table>> SelectRows(const RowLevelPlan& plan,
                                                 const arrow::Table& rows, int values,
                                                 const std::vector<RowAction>& actions,
                                                 bool (*select)(RowAction),
                                                 std::optional<RowLevelWriteAction> action) {
  const int n = static_cast<int>(plan.columns.size());
  arrow::BooleanBuilder keep;
  arrow::Int32Builder kinds;
  ARROW_RETURN_NOT_OK(keep.Reserve(static_cast<int64_t>(actions.size())));
  ARROW_RETURN_NOT_OK(kinds.Reserve(static_cast<int64_t>(actions.size())));
  for (RowAction row : actions) {
    keep.UnsafeAppend(select(row));
    kinds.UnsafeAppend(action ? static_cast<int32_t>(*action) : static_cast<int32_t>(row));
  }
  ARROW_ASSIGN_OR_RAISE(auto mask, keep.Finish());
  std::vector<std::shared_ptr<arrow::ChunkedArray>> columns(
      rows.columns().begin() + values, rows.columns().begin() + values + n);
  if (!plan.metadata_columns.empty() || plan.change_rows) {
    const int m = static_cast<int>(plan.metadata_columns.size());
    // The metadata columns end the query's output, or come just before the pre-images.
    const int end = rows.num_columns() - (PreimageColumns(plan) ? n : 0);
    columns.insert(columns.end(), rows.columns().begin() + (end - m),
                   rows.columns().begin() + end);
    ARROW_ASSIGN_OR_RAISE(auto kind_array, kinds.Finish());
    columns.push_back(std::make_shared<arrow::ChunkedArray>(std::move(kind_array)));
  }
  auto data = arrow::Table::Make(WriteSchema(plan), columns, rows.num_rows());
  ARROW_ASSIGN_OR_RAISE(auto filtered, arrow::compute::Filter(data, mask));
  return filtered.table();
}

bool IsKept(RowAction action) {
  return action == RowAction::kCopy || action == RowAction::kUpdate ||
         action == RowAction::kInsert;
}

bool IsKeptOrDeleted(RowAction action) { return IsKept(action) || action == RowAction::kDelete; }

bool IsUpdated(RowAction action) { return action == RowAction::kUpdate; }

// The rows the write receives: copied, updated and inserted ones; when the write wants change
// rows, the deleted ones and the pre-images of the updated ones too.
Result<std::shared_ptr<arrow::Table>> RowsToWrite(const RowLevelPlan& plan,
                                                  const arrow::Table& rows,
                                                  const std::vector<RowAction>& actions) {
  const int n = static_cast<int>(plan.columns.size());
  ARROW_ASSIGN_OR_RAISE(auto table,
                        SelectRows(plan, rows, 0, actions,
                                   plan.change_rows ? IsKeptOrDeleted : IsKept, std::nullopt));
  if (PreimageColumns(plan)) {
    ARROW_ASSIGN_OR_RAISE(auto preimages,
                          SelectRows(plan, rows, rows.num_columns() - n, actions, IsUpdated,
                                     RowLevelWriteAction::kUpdatePreimage));
    ARROW_ASSIGN_OR_RAISE(table, arrow::ConcatenateTables({table, preimages}));
  }
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
  const auto& operation = plan->operation;
  if (operation == nullptr) return Unsupported(*plan, RowLevelCommandName(plan->command));
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
  int64_t copied = 0;
  for (RowAction action : actions) {
    copied += action == RowAction::kCopy;
    result.updated += action == RowAction::kUpdate;
    result.deleted += action == RowAction::kDelete;
    result.inserted += action == RowAction::kInsert;
  }
  if (result.updated + result.deleted + result.inserted == 0) return result;
  ARROW_RETURN_NOT_OK(EnsureComputeInitialized());
  ARROW_ASSIGN_OR_RAISE(auto data, RowsToWrite(*plan, *executed.table, actions));

  LogicalWriteInfo write_info{options.query_id, WriteSchema(*plan), {}};
  RowLevelWriteSummary summary{copied, result.updated, result.deleted, result.inserted};
  ARROW_ASSIGN_OR_RAISE(auto write_builder, operation->NewWriteBuilder(write_info, summary));
  ARROW_ASSIGN_OR_RAISE(auto write, write_builder->Build());
  ARROW_ASSIGN_OR_RAISE(auto partitions, PartitionForWrite(data, *write, options.rows_per_task));
  ARROW_ASSIGN_OR_RAISE(result.write, RunWriteJob(write.get(), partitions, options.job));
  return result;
}

}  // namespace parley
