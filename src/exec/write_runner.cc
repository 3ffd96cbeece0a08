// The write runner: from a bound WritePlan to a committed (or aborted) write.
#include "exec/write_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <vector>

#include "arrow/array.h"
#include "arrow/compute/cast.h"
#include "arrow/record_batch.h"
#include "arrow/scalar.h"
#include "arrow/table.h"
#include "arrow/type.h"
#include "arrow/util/byte_size.h"
#include "arrow/util/decimal.h"
#include "exec/executor.h"

namespace parley {
namespace {

Status MissingMixin(const WritePlan& plan, std::string_view mixin) {
  return InvalidError("CONNECTOR_CONTRACT_VIOLATION.MISSING_WRITE_MIXIN",
                      fmt::format("The table {} declares the capability for {} but its write "
                                  "builder does not implement {}.",
                                  plan.target_name.ToString(), plan.ModeDescription(), mixin));
}

// Evaluate the static PARTITION values into `column = value` predicates.
Status BuildOverwritePredicates(WritePlan* plan, const ScanRunOptions& options) {
  auto values = std::make_shared<PlanNode>();
  values->kind = PlanNode::Kind::kValues;
  std::vector<BoundExprPtr> row;
  for (size_t i = 0; i < plan->static_partition_values.size(); ++i) {
    const auto& value = plan->static_partition_values[i].second;
    values->output.push_back({fmt::format("_p{}", i), "p", value->type, true});
    row.push_back(value);
  }
  values->values = {row};
  ARROW_ASSIGN_OR_RAISE(auto result, ExecutePlan(values, options));
  plan->overwrite_predicates.clear();
  for (size_t i = 0; i < plan->static_partition_values.size(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto scalar, result.table->column(static_cast<int>(i))->GetScalar(0));
    auto column = FieldReference(plan->static_partition_values[i].first);
    plan->overwrite_predicates.push_back(scalar->is_valid
                                             ? MakePredicate("=", {column, MakeLiteral(scalar)})
                                             : MakePredicate("IS_NULL", {column}));
  }
  return Status::OK();
}

Status ConfigureMode(WritePlan* plan, WriteBuilder* builder) {
  switch (plan->mode) {
    case WritePlan::Mode::kAppend: return Status::OK();
    case WritePlan::Mode::kTruncate: {
      auto* truncate = dynamic_cast<SupportsTruncate*>(builder);
      if (truncate == nullptr) return MissingMixin(*plan, "SupportsTruncate");
      return truncate->Truncate();
    }
    case WritePlan::Mode::kOverwriteByFilter: {
      auto* overwrite = dynamic_cast<SupportsOverwriteV2*>(builder);
      if (overwrite == nullptr) return MissingMixin(*plan, "SupportsOverwriteV2");
      if (!overwrite->CanOverwrite(plan->overwrite_predicates)) {
        return InvalidError("UNSUPPORTED_OVERWRITE.TABLE",
                            fmt::format("Can't overwrite the target {}: the table cannot "
                                        "overwrite by the filter {}.",
                                        plan->target_name.ToString(), plan->ModeDescription()));
      }
      return overwrite->Overwrite(plan->overwrite_predicates);
    }
    case WritePlan::Mode::kOverwriteDynamic: {
      auto* dynamic = dynamic_cast<SupportsDynamicOverwrite*>(builder);
      if (dynamic == nullptr) return MissingMixin(*plan, "SupportsDynamicOverwrite");
      return dynamic->OverwriteDynamicPartitions();
    }
  }
  return Status::OK();
}

Status InsertOverflow(const arrow::DataType& from, const Column& column) {
  return InvalidError(
      "CAST_OVERFLOW_IN_TABLE_INSERT",
      fmt::format("Fail to insert a value of \"{}\" type into the \"{}\" type "
                  "column {} due to an overflow. Use `try_cast` on the input value "
                  "to tolerate overflow and return NULL instead.",
                  SqlTypeName(from), SqlTypeName(*column.type), QuoteIdentifier(column.name)));
}

// The type a written column had before store assignment cast it.
const arrow::DataType& SourceType(const WritePlan& plan, size_t column) {
  const auto& expr = plan.query->exprs[column];
  if (expr->kind == BoundExpr::Kind::kCall && expr->function == "CAST") return *expr->args[0]->type;
  return *expr->type;
}

// Whether every value of a decimal column fits its type's precision (other types always fit).
bool FitsPrecision(const arrow::ChunkedArray& values, const arrow::DataType& type) {
  if (type.id() != arrow::Type::DECIMAL128) return true;
  const int precision = static_cast<const arrow::Decimal128Type&>(type).precision();
  for (const auto& chunk : values.chunks()) {
    const auto& array = static_cast<const arrow::Decimal128Array&>(*chunk);
    for (int64_t row = 0; row < array.length(); ++row) {
      if (array.IsValid(row) &&
          !arrow::Decimal128(array.GetValue(row)).FitsInPrecision(precision)) {
        return false;
      }
    }
  }
  return true;
}

// Decimal casts from integers keep values that exceed the declared precision; Spark's store
// assignment fails.
Status CheckDecimalPrecision(const WritePlan& plan, const arrow::Table& rows) {
  for (size_t i = 0; i < plan.columns.size(); ++i) {
    if (!FitsPrecision(*rows.column(static_cast<int>(i)), *plan.columns[i].type)) {
      return InsertOverflow(SourceType(plan, i), plan.columns[i]);
    }
  }
  return Status::OK();
}

// A cast overflow while running the write's query: if it came from store assignment (the query
// alone runs, and casting one of its columns to the table's type overflows), report Spark's
// CAST_OVERFLOW_IN_TABLE_INSERT naming the column; otherwise the query's own error stands.
Status DiagnoseOverflow(const WritePlan& plan, const ScanRunOptions& options, Status error) {
  const std::string condition = ErrorCondition(error);
  if (condition != "CAST_OVERFLOW" && condition.rfind("NUMERIC_VALUE_OUT_OF_RANGE", 0) != 0) {
    return error;
  }
  auto query = ExecutePlan(plan.query->children[0], options);
  if (!query.ok()) return error;
  const auto& input = plan.query->children[0]->output;
  for (size_t i = 0; i < plan.columns.size(); ++i) {
    const auto& expr = plan.query->exprs[i];
    if (expr->kind != BoundExpr::Kind::kCall || expr->function != "CAST" ||
        expr->args[0]->kind != BoundExpr::Kind::kColumn) {
      continue;
    }
    for (size_t f = 0; f < input.size(); ++f) {
      if (input[f].name != expr->args[0]->field) continue;
      // The store-assignment cast alone; a decimal fraction that is rounded away is no overflow.
      auto options = arrow::compute::CastOptions::Safe(plan.columns[i].type);
      options.allow_decimal_truncate = true;
      auto cast = arrow::compute::Cast(query->table->column(static_cast<int>(f)), options);
      if (!cast.ok() || !FitsPrecision(*cast->chunked_array(), *plan.columns[i].type)) {
        return InsertOverflow(*expr->args[0]->type, plan.columns[i]);
      }
    }
  }
  return error;
}

Status NotNullViolation(const WritePlan& plan, const Column& column) {
  return InvalidError("NOT_NULL_ASSERT_VIOLATION",
                      fmt::format("NULL value appeared in non-nullable field: {} of the table {}.",
                                  QuoteIdentifier(column.name), plan.target_name.ToString()));
}

// The checks of store assignment a cast cannot make: NOT NULL columns and decimal precision.
Status CheckRows(const WritePlan& plan, const arrow::Table& rows) {
  ARROW_RETURN_NOT_OK(CheckDecimalPrecision(plan, rows));
  for (size_t i = 0; i < plan.columns.size(); ++i) {
    if (!plan.columns[i].nullable && rows.column(static_cast<int>(i))->null_count() > 0) {
      return NotNullViolation(plan, plan.columns[i]);
    }
  }
  return Status::OK();
}

// Whether `write` lays its rows out (a distribution, a task count or an ordering), which needs
// the query's whole result before the first task starts.
bool LaysOutRows(const Write& write) {
  const auto* layout = dynamic_cast<const RequiresDistributionAndOrdering*>(&write);
  return layout != nullptr &&
         (layout->RequiredDistribution().kind != Distribution::Kind::kUnspecified ||
          layout->RequiredNumPartitions() > 0 || !layout->RequiredOrdering().empty());
}

// The query's rows as it produces them, in tasks of at most `rows_per_task` rows and about
// `bytes_per_task` bytes (at least one task, empty when the query has no rows); each batch is
// checked as it arrives. The write job holds only the rows of its unfinished tasks (for
// retries), so memory follows the task size, not the result's.
class StreamedRows : public WriteInput {
 public:
  StreamedRows(const WritePlan& plan, PlanStream* stream, std::shared_ptr<arrow::Schema> schema,
               int64_t rows_per_task, int64_t bytes_per_task)
      : plan_(plan),
        stream_(stream),
        schema_(std::move(schema)),
        rows_per_task_(std::max<int64_t>(rows_per_task, 1)),
        bytes_per_task_(std::max<int64_t>(bytes_per_task, 1)) {}

  Result<std::optional<std::vector<std::shared_ptr<arrow::RecordBatch>>>> Next() override {
    std::vector<std::shared_ptr<arrow::RecordBatch>> task;
    int64_t rows = 0;
    int64_t bytes = 0;
    while (rows < rows_per_task_ && bytes < bytes_per_task_) {
      if (pending_ == nullptr) ARROW_RETURN_NOT_OK(Fill());
      if (pending_ == nullptr) break;
      const int64_t room = rows_per_task_ - rows;
      if (pending_->num_rows() > room) {
        task.push_back(pending_->Slice(0, room));
        pending_ = pending_->Slice(room);
        break;
      }
      rows += pending_->num_rows();
      bytes += arrow::util::TotalBufferSize(*pending_);
      task.push_back(std::move(pending_));
      pending_ = nullptr;
    }
    if (task.empty() && tasks_ > 0) return std::nullopt;
    ++tasks_;
    return task;
  }

 private:
  // Read until a batch with rows arrives or the query ended; at its end, close the stream so
  // that a scan task's late error fails the write before it commits.
  Status Fill() {
    while (pending_ == nullptr && !ended_) {
      ARROW_ASSIGN_OR_RAISE(auto batch, stream_->Next());
      if (batch == nullptr) {
        ended_ = true;
        return stream_->Close();
      }
      if (batch->num_rows() == 0) continue;
      auto rows = arrow::RecordBatch::Make(schema_, batch->num_rows(), batch->columns());
      ARROW_ASSIGN_OR_RAISE(auto table, arrow::Table::FromRecordBatches({rows}));
      ARROW_RETURN_NOT_OK(CheckRows(plan_, *table));
      pending_ = std::move(rows);
    }
    return Status::OK();
  }

  const WritePlan& plan_;
  PlanStream* stream_;
  std::shared_ptr<arrow::Schema> schema_;
  int64_t rows_per_task_;
  int64_t bytes_per_task_;
  std::shared_ptr<arrow::RecordBatch> pending_;
  bool ended_ = false;
  int tasks_ = 0;
};

// The write of a query's whole result, laid out as `write` requires.
Result<WriteJobResult> WriteGathered(const WritePlan& plan, Write* write,
                                     const std::shared_ptr<arrow::Schema>& schema,
                                     const WriteRunOptions& options) {
  ARROW_ASSIGN_OR_RAISE(auto result, ExecutePlan(plan.query, options.scan));
  ARROW_RETURN_NOT_OK(CheckRows(plan, *result.table));
  auto data = arrow::Table::Make(schema, result.table->columns(), result.table->num_rows());
  ARROW_ASSIGN_OR_RAISE(auto partitions, PartitionForWrite(data, *write, options.rows_per_task));
  return RunWriteJob(write, partitions, options.job);
}

// The scans whose rows reach the written rows through filters and projections only: their
// order changes nothing the write keeps, so they may stream unordered with bounded read-ahead
// (an ordered scan buffers the partitions after the one being taken).
void AddUnorderedScans(const PlanNodePtr& node, std::set<const PlanNode*>* scans) {
  switch (node->kind) {
    case PlanNode::Kind::kScan: scans->insert(node.get()); return;
    case PlanNode::Kind::kFilter:
    case PlanNode::Kind::kProject: AddUnorderedScans(node->children[0], scans); return;
    default: return;
  }
}

// The write of a query's rows as they are produced.
Result<WriteJobResult> WriteStreamed(const WritePlan& plan, Write* write,
                                     const std::shared_ptr<arrow::Schema>& schema,
                                     const WriteRunOptions& options) {
  ScanRunOptions scan_options = options.scan;
  AddUnorderedScans(plan.query, &scan_options.unordered_scans);
  ARROW_ASSIGN_OR_RAISE(auto stream, ExecutePlanStream(plan.query, scan_options));
  StreamedRows rows(plan, stream.get(), schema, options.rows_per_task, options.bytes_per_task);
  return RunWriteJob(write, &rows, options.job);
}

}  // namespace

Result<WriteJobResult> RunWrite(WritePlan* plan, const WriteRunOptions& options) {
  if (plan->mode == WritePlan::Mode::kOverwriteByFilter && !plan->static_partition_values.empty()) {
    ARROW_RETURN_NOT_OK(BuildOverwritePredicates(plan, options.scan));
  }
  auto schema = ColumnsToSchema(plan->columns);
  auto* writable = dynamic_cast<SupportsWrite*>(plan->table.get());
  if (writable == nullptr) return MissingMixin(*plan, "SupportsWrite");
  LogicalWriteInfo info{options.query_id, schema, plan->options};
  ARROW_ASSIGN_OR_RAISE(auto builder, writable->NewWriteBuilder(info));
  ARROW_RETURN_NOT_OK(ConfigureMode(plan, builder.get()));
  ARROW_ASSIGN_OR_RAISE(auto write, builder->Build());
  auto written = LaysOutRows(*write) ? WriteGathered(*plan, write.get(), schema, options)
                                     : WriteStreamed(*plan, write.get(), schema, options);
  if (!written.ok()) return DiagnoseOverflow(*plan, options.scan, written.status());
  return written;
}

}  // namespace parley
