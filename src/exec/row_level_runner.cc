// The row-level runner: metadata-only delete, or scan the target, compute, and write the rows
// that replace its groups (group-based) or the changes (delta-based).
#include "exec/row_level_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <deque>
#include <optional>
#include <vector>

#include "arrow/array.h"
#include "arrow/array/util.h"
#include "arrow/builder.h"
#include "arrow/compute/api.h"
#include "arrow/record_batch.h"
#include "arrow/scalar.h"
#include "arrow/table.h"
#include "arrow/type.h"
#include "exec/executor.h"
#include "exec/merge_on_read_writer.h"
#include "exec/row_selection.h"
#include "plan/predicate_translation.h"
#include "plan/pushdown.h"

namespace parley {
namespace {

// The operation's scan builder with the group filter already pushed; it offers no other
// filter, so the engine's own filters never narrow the groups it returns (a delta-based scan
// may use the group filter to return only the rows that can change). Column pruning passes
// through: the query reads every table column, and it selects the metadata columns.
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

// The metadata-only delete's predicates when the table accepts the condition; nothing when
// the delete must read rows.
Result<std::optional<std::vector<PredicatePtr>>> MetadataDelete(const RowLevelPlan& plan) {
  auto* deletable = dynamic_cast<SupportsDeleteV2*>(plan.table.get());
  if (plan.command != RowLevelCommand::kDelete || deletable == nullptr || plan.subquery_condition) {
    return std::nullopt;
  }
  auto predicates = TranslateAll(plan.delete_conjuncts);
  if (predicates && deletable->CanDeleteWhere(*predicates)) return predicates;
  if (plan.operation != nullptr) return std::nullopt;
  std::string text;
  for (const auto& conjunct : plan.delete_conjuncts) {
    text += (text.empty() ? "" : " AND ") + conjunct->ToString();
  }
  return Unsupported(plan, fmt::format("DELETE WHERE {} without reading rows", text));
}

// Give the plan's target scan the operation's scan builder, with the group filter pushed
// when it takes V2 filters; notes in `strategy` the filter's predicates and whether they were
// offered.
Status PrepareGroupScan(RowLevelPlan* plan, RowLevelOperation* operation,
                        RowLevelStrategy* strategy) {
  ARROW_ASSIGN_OR_RAISE(auto builder, operation->NewScanBuilder({}));
  auto negotiation = std::make_shared<ScanNegotiation>();
  for (const auto& conjunct : plan->group_filter) {
    if (auto predicate = TranslatePredicate(*conjunct)) {
      strategy->group_filter.push_back(std::move(predicate));
    }
  }
  auto* filters = dynamic_cast<SupportsPushDownV2Filters*>(builder.get());
  strategy->group_filter_offered = filters != nullptr && !strategy->group_filter.empty();
  if (strategy->group_filter_offered) {
    ARROW_RETURN_NOT_OK(filters->PushPredicates(strategy->group_filter).status());
    negotiation->pushed_predicates = filters->PushedPredicates();
  }
  negotiation->builder = std::make_unique<GroupScanBuilder>(std::move(builder));
  plan->target_scan->negotiation = std::move(negotiation);
  return Status::OK();
}

// Whether the query's output ends with the pre-images of the table's columns.
bool PreimageColumns(const RowLevelPlan& plan) {
  return plan.change_rows && plan.command != RowLevelCommand::kDelete;
}

// The schema of the rows a group-based write receives: the table's columns, then, when the
// operation has metadata columns or wants change rows, those columns and the row's action
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

// Whether the write receives rows of each RowAction (kCopy to kDiscard). Group-based: the rows
// of the new groups, and the deleted ones when the operation wants change rows; delta-based:
// the changes.
using SentActions = std::array<bool, 5>;

SentActions SentActionsOf(const RowLevelPlan& plan) {
  SentActions sent{};
  const bool delta = plan.representation == RowLevelRepresentation::kDeltaBased;
  sent[static_cast<int>(RowAction::kCopy)] = !delta;
  sent[static_cast<int>(RowAction::kUpdate)] = true;
  sent[static_cast<int>(RowAction::kDelete)] = delta || plan.change_rows;
  sent[static_cast<int>(RowAction::kInsert)] = true;
  return sent;
}

// A delta-based plan's layout of the rows its write tasks receive.
std::shared_ptr<const MergeOnReadRowLayout> MergeOnReadLayout(const RowLevelPlan& plan) {
  auto layout = std::make_shared<MergeOnReadRowLayout>();
  layout->rows = ColumnsToSchema(plan.columns);
  arrow::FieldVector metadata, row_ids;
  for (const auto& column : plan.metadata_columns) metadata.push_back(column.ToField());
  for (const auto& column : plan.row_id_columns) row_ids.push_back(column.ToField());
  layout->metadata = arrow::schema(std::move(metadata));
  layout->row_ids = arrow::schema(std::move(row_ids));
  layout->update_as_delete_and_insert = plan.update_as_delete_and_insert;
  layout->table_name = plan.target_name.ToString();
  return layout;
}

using TaskRows = std::vector<std::shared_ptr<arrow::RecordBatch>>;

// The query's rows turned into the write's (`schema`) as the query produces them, and handed
// to the write job in tasks of `rows_per_task` rows (the last fewer). Of each query batch a
// group-based write receives the copied, updated and inserted rows; when the operation wants
// change rows, also the deleted ones and, in a batch of their own, the pre-images of the
// updated ones. A delta-based write receives the updated, deleted and inserted rows, each
// with its metadata and row id columns and its action (MergeOnReadTaskSchema), never a copy.
//
// MERGE: a target row appears once per source row the join pairs it with, and once when it
// has none. Pairs are told apart by kMatchedField (null for a row that is not a pair). The
// first pair a MATCHED clause applies to stands for its target row; a second one is
// MERGE_CARDINALITY_VIOLATION when the plan checks cardinality, and discarded otherwise. Pairs
// no clause applies to are copies; a group-based write holds them back until the query ends:
// one per target row is written then, unless a clause applied to another pair of the same row.
class RowLevelRows : public WriteInput {
 public:
  RowLevelRows(const RowLevelPlan& plan, PlanStream* stream, int64_t rows_per_task,
               std::shared_ptr<arrow::Schema> schema, RowLevelResult* result)
      : plan_(plan),
        stream_(stream),
        rows_per_task_(std::max<int64_t>(rows_per_task, 1)),
        result_(result),
        schema_(std::move(schema)),
        sent_(SentActionsOf(plan)),
        attributes_(static_cast<int>(plan.metadata_columns.size() + plan.row_id_columns.size())) {}

  Result<std::optional<TaskRows>> Next() override {
    TaskRows task;
    int64_t rows = 0;
    while (rows < rows_per_task_) {
      if (pending_.empty()) ARROW_RETURN_NOT_OK(Fill());
      if (pending_.empty()) break;
      auto& front = pending_.front();
      const int64_t room = rows_per_task_ - rows;
      if (front->num_rows() > room) {
        task.push_back(front->Slice(0, room));
        front = front->Slice(room);
        break;
      }
      rows += front->num_rows();
      task.push_back(std::move(front));
      pending_.pop_front();
    }
    if (task.empty()) return std::nullopt;
    return task;
  }

  // Nothing changed: the write is aborted, and nothing is committed.
  Result<bool> Commit(BatchWrite* batch_write,
                      const std::vector<CommitMessagePtr>& messages) override {
    if (result_->updated + result_->deleted + result_->inserted == 0) return false;
    RowLevelWriteSummary summary{copied_, result_->updated, result_->deleted, result_->inserted};
    ARROW_RETURN_NOT_OK(batch_write->CommitRowLevel(messages, summary));
    return true;
  }

 private:
  // Read query batches until one yields rows to write or the query ended; at its end, close
  // the stream (a scan task's late error fails the write before it commits) and release the
  // held-back copies.
  Status Fill() {
    while (pending_.empty() && !ended_) {
      ARROW_ASSIGN_OR_RAISE(auto batch, stream_->Next());
      if (batch == nullptr) {
        ended_ = true;
        ARROW_RETURN_NOT_OK(stream_->Close());
        return ReleaseHeld();
      }
      ARROW_RETURN_NOT_OK(Consume(*batch));
    }
    return Status::OK();
  }

  int n() const { return static_cast<int>(plan_.columns.size()); }

  // Count the row's final action and note whether the write receives it (and its pre-image).
  void Take(int64_t row, RowAction action) {
    switch (action) {
      case RowAction::kCopy:
        if (!sent_[static_cast<int>(action)]) return;
        ++copied_;
        break;
      case RowAction::kUpdate:
        ++result_->updated;
        if (PreimageColumns(plan_)) preimages_.push_back(row);
        break;
      case RowAction::kDelete: ++result_->deleted; break;
      case RowAction::kInsert: ++result_->inserted; break;
      case RowAction::kDiscard: return;
    }
    if (sent_[static_cast<int>(action)]) selected_.push_back(row);
  }

  static bool Marked(const std::vector<bool>& marks, int32_t id) {
    return id >= 0 && static_cast<size_t>(id) < marks.size() && marks[id];
  }
  static void Mark(std::vector<bool>* marks, int32_t id) {
    if (static_cast<size_t>(id) >= marks->size()) marks->resize(static_cast<size_t>(id) + 1);
    (*marks)[id] = true;
  }

  Status Consume(const arrow::RecordBatch& batch) {
    const auto& actions = static_cast<const arrow::Int32Array&>(*batch.column(n()));
    const bool merge = plan_.command == RowLevelCommand::kMerge;
    const arrow::Int32Array* ids = nullptr;
    const arrow::BooleanArray* matched = nullptr;
    if (merge) {
      ids = static_cast<const arrow::Int32Array*>(batch.column(n() + 1).get());
      matched = static_cast<const arrow::BooleanArray*>(batch.column(n() + 2).get());
    }
    selected_.clear();
    preimages_.clear();
    std::vector<int64_t> held;
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      const auto action = static_cast<RowAction>(actions.Value(i));
      if (!merge || ids->IsNull(i) || matched->IsNull(i)) {
        Take(i, action);
        continue;
      }
      const int32_t id = ids->Value(i);
      if (!matched->Value(i)) {
        if (sent_[static_cast<int>(RowAction::kCopy)]) held.push_back(i);
        continue;
      }
      if (Marked(applied_, id)) {
        if (plan_.check_cardinality) return CardinalityViolation();
        continue;
      }
      Mark(&applied_, id);
      Take(i, action);
    }
    ARROW_RETURN_NOT_OK(Emit(batch));
    if (!held.empty()) {
      ARROW_ASSIGN_OR_RAISE(auto rows, TakeRows(batch, held));
      held_.push_back(std::move(rows));
    }
    return Status::OK();
  }

  // One copy per held-back target row that no clause applied to.
  Status ReleaseHeld() {
    for (const auto& batch : held_) {
      const auto& ids = static_cast<const arrow::Int32Array&>(*batch->column(n() + 1));
      selected_.clear();
      preimages_.clear();
      for (int64_t i = 0; i < batch->num_rows(); ++i) {
        const int32_t id = ids.Value(i);
        if (Marked(applied_, id) || Marked(emitted_, id)) continue;
        Mark(&emitted_, id);
        Take(i, RowAction::kCopy);
      }
      ARROW_RETURN_NOT_OK(Emit(*batch));
    }
    held_.clear();
    return Status::OK();
  }

  Status CardinalityViolation() const {
    return InvalidError(
        "MERGE_CARDINALITY_VIOLATION",
        fmt::format("The ON search condition of the MERGE statement matched a single row from "
                    "the target table {} with multiple rows of the source table. This could "
                    "result in the target row being operated on more than once with an update "
                    "or delete operation and is not allowed.",
                    plan_.target_name.ToString()));
  }

  // The write's rows of `batch` (as schema_ says): the table's columns from the first of the
  // batch's columns at `values`, the metadata and row id columns, and the action (`action`
  // when given, else the row's).
  Result<std::shared_ptr<arrow::RecordBatch>> WriteRows(const arrow::RecordBatch& batch, int values,
                                                        std::optional<RowLevelWriteAction> action) {
    arrow::ArrayVector columns(batch.columns().begin() + values,
                               batch.columns().begin() + values + n());
    if (schema_->num_fields() > n()) {
      // The metadata and row id columns end the query's output, or come just before the
      // pre-images.
      const int end = batch.num_columns() - (PreimageColumns(plan_) ? n() : 0);
      columns.insert(columns.end(), batch.columns().begin() + (end - attributes_),
                     batch.columns().begin() + end);
      if (action) {
        ARROW_ASSIGN_OR_RAISE(
            auto kinds, arrow::MakeArrayFromScalar(
                            arrow::Int32Scalar(static_cast<int32_t>(*action)), batch.num_rows()));
        columns.push_back(std::move(kinds));
      } else {
        columns.push_back(batch.column(n()));
      }
    }
    return arrow::RecordBatch::Make(schema_, batch.num_rows(), std::move(columns));
  }

  // Queue the selected rows of `batch`, and their pre-images, for the write.
  Status Emit(const arrow::RecordBatch& batch) {
    if (!selected_.empty()) {
      ARROW_ASSIGN_OR_RAISE(auto rows, WriteRows(batch, 0, std::nullopt));
      ARROW_ASSIGN_OR_RAISE(rows, TakeRows(*rows, selected_));
      ARROW_RETURN_NOT_OK(Queue(std::move(rows)));
    }
    if (!preimages_.empty()) {
      ARROW_ASSIGN_OR_RAISE(auto rows, WriteRows(batch, batch.num_columns() - n(),
                                                 RowLevelWriteAction::kUpdatePreimage));
      ARROW_ASSIGN_OR_RAISE(rows, TakeRows(*rows, preimages_));
      ARROW_RETURN_NOT_OK(Queue(std::move(rows)));
    }
    return Status::OK();
  }

  Status Queue(std::shared_ptr<arrow::RecordBatch> rows) {
    for (int i = 0; i < n(); ++i) {
      if (!plan_.columns[i].nullable && rows->column(i)->null_count() > 0) {
        return InvalidError(
            "NOT_NULL_ASSERT_VIOLATION",
            fmt::format("NULL value appeared in non-nullable field: {} of the "
                        "table {}.",
                        QuoteIdentifier(plan_.columns[i].name), plan_.target_name.ToString()));
      }
    }
    pending_.push_back(std::move(rows));
    return Status::OK();
  }

  const RowLevelPlan& plan_;
  PlanStream* stream_;
  const int64_t rows_per_task_;
  RowLevelResult* result_;
  std::shared_ptr<arrow::Schema> schema_;
  const SentActions sent_;
  const int attributes_;  // the query's metadata and row id columns
  bool ended_ = false;
  int64_t copied_ = 0;
  std::deque<std::shared_ptr<arrow::RecordBatch>> pending_;
  // MERGE: held-back copies (query batches), and the target rows a clause applied to and the
  // held-back ones written, by target row number.
  std::vector<std::shared_ptr<arrow::RecordBatch>> held_;
  std::vector<bool> applied_;
  std::vector<bool> emitted_;
  // Rows of the batch being consumed that the write receives, and those whose pre-image it does.
  std::vector<int64_t> selected_;
  std::vector<int64_t> preimages_;
};

// The rows laid out as the write requires (RequiresDistributionAndOrdering): gathered, then
// partitioned; committed as `rows` says.
class LaidOutRows : public WriteInput {
 public:
  LaidOutRows(WritePartitions partitions, WriteInput* rows)
      : partitions_(std::move(partitions)), rows_(rows) {}
  Result<std::optional<TaskRows>> Next() override {
    if (next_ == partitions_.size()) return std::nullopt;
    return std::move(partitions_[next_++]);
  }
  Result<bool> Commit(BatchWrite* batch_write,
                      const std::vector<CommitMessagePtr>& messages) override {
    return rows_->Commit(batch_write, messages);
  }

 private:
  WritePartitions partitions_;
  size_t next_ = 0;
  WriteInput* rows_;
};

// Stream `rows` into `write`, or lay them out first when the write requires a layout.
Result<WriteJobResult> RunRowLevelWrite(Write* write, WriteInput* rows,
                                        const std::shared_ptr<arrow::Schema>& schema,
                                        const WriteRunOptions& options) {
  if (dynamic_cast<const RequiresDistributionAndOrdering*>(write) == nullptr) {
    return RunWriteJob(write, rows, options.job);
  }
  TaskRows gathered;
  while (true) {
    ARROW_ASSIGN_OR_RAISE(auto task, rows->Next());
    if (!task) break;
    gathered.insert(gathered.end(), task->begin(), task->end());
  }
  ARROW_ASSIGN_OR_RAISE(auto table, arrow::Table::FromRecordBatches(schema, gathered));
  ARROW_ASSIGN_OR_RAISE(auto partitions, PartitionForWrite(table, *write, options.rows_per_task));
  LaidOutRows laid_out(std::move(partitions), rows);
  return RunWriteJob(write, &laid_out, options.job);
}

}  // namespace

Result<RowLevelStrategy> PlanRowLevel(RowLevelPlan* plan) {
  RowLevelStrategy strategy;
  ARROW_ASSIGN_OR_RAISE(auto metadata_delete, MetadataDelete(*plan));
  if (metadata_delete) {
    strategy.metadata_delete = true;
    strategy.delete_predicates = std::move(*metadata_delete);
    return strategy;
  }
  const auto& operation = plan->operation;
  if (operation == nullptr) return Unsupported(*plan, RowLevelCommandName(plan->command));
  ARROW_RETURN_NOT_OK(PrepareGroupScan(plan, operation.get(), &strategy));
  // Every row of a rewritten group must be read, so no join may prune the target's scan: the
  // query runs without runtime filters.
  PushdownOptions options;
  options.physical.runtime_filters = false;
  ARROW_ASSIGN_OR_RAISE(plan->query, NegotiatePushdown(plan->query, options));
  return strategy;
}

Result<RowLevelResult> RunRowLevel(RowLevelPlan* plan, const WriteRunOptions& options) {
  RowLevelResult result;
  ARROW_ASSIGN_OR_RAISE(auto strategy, PlanRowLevel(plan));
  if (strategy.metadata_delete) {
    auto* deletable = dynamic_cast<SupportsDeleteV2*>(plan->table.get());
    ARROW_ASSIGN_OR_RAISE(result.deleted, deletable->DeleteWhere(strategy.delete_predicates));
    result.metadata_only = true;
    return result;
  }
  const auto& operation = plan->operation;
  LogicalWriteInfo write_info{options.query_id, WriteSchema(*plan), {}};
  std::shared_ptr<arrow::Schema> task_schema = write_info.schema;
  WriteRunOptions run_options = options;
  if (plan->representation == RowLevelRepresentation::kDeltaBased) {
    auto layout = MergeOnReadLayout(*plan);
    write_info.schema = layout->rows;
    write_info.metadata_schema = layout->metadata;
    write_info.row_id_schema = layout->row_ids;
    task_schema = MergeOnReadTaskSchema(*layout);
    run_options.job.wrap_writer = [layout](std::unique_ptr<DataWriter> writer) {
      return MakeMergeOnReadRowWriter(std::move(writer), layout);
    };
  }
  ARROW_ASSIGN_OR_RAISE(auto write_builder, operation->NewWriteBuilder(write_info));
  ARROW_ASSIGN_OR_RAISE(auto write, write_builder->Build());
  ScanRunOptions scan_options = options.scan;
  // The target's rows are numbered and written in any order: its scan need not hold a whole
  // partition ahead of the query.
  scan_options.unordered_scans.insert(plan->target_scan.get());
  ARROW_ASSIGN_OR_RAISE(auto stream, ExecutePlanStream(plan->query, scan_options));
  RowLevelRows rows(*plan, stream.get(), options.rows_per_task, task_schema, &result);
  auto written = RunRowLevelWrite(write.get(), &rows, task_schema, run_options);
  // After a failure the query may still run: stop it (its own error, if any, comes second).
  Status closed = stream->Close();
  ARROW_ASSIGN_OR_RAISE(result.write, std::move(written));
  ARROW_RETURN_NOT_OK(closed);
  return result;
}

}  // namespace parley
