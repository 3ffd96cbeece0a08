// Scan task execution. Tasks run on a thread pool sized to the cores; the driver
// thread plans partitions, hands each task its partition, and gathers the batches in partition
// order. A residual filter is applied by the tasks, batch by batch, in parallel. Test mode round-trips factory and partitions through bytes, as crossing to an executor
// would, so a connector that holds a live handle fails here rather than on a cluster.
#include "exec/scan_tasks.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "arrow/record_batch.h"
#include "arrow/table.h"
#include "arrow/util/future.h"
#include "arrow/util/thread_pool.h"
#include "arrow/compute/api.h"
#include "exec/expression_lowering.h"
#include "exec/task_pools.h"
#include "plan/pushdown.h"

namespace parley {
namespace {

Status NotSerializable(const PlanNode& scan, const std::string& what, const Status& cause) {
  return MakeError(arrow::StatusCode::Invalid,
                   "CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
                   fmt::format("The {} of table {} does not round-trip through bytes: {}", what,
                               scan.table_name.ToString(), cause.message()));
}

Result<std::shared_ptr<PartitionReaderFactory>> RoundTripFactory(
    const PlanNode& scan, const std::shared_ptr<PartitionReaderFactory>& factory) {
  auto bytes = factory->Serialize();
  if (!bytes.ok()) return NotSerializable(scan, "reader factory", bytes.status());
  auto rebuilt = scan.negotiation->batch->DeserializeReaderFactory(*bytes);
  if (!rebuilt.ok()) return NotSerializable(scan, "reader factory", rebuilt.status());
  auto again = (*rebuilt)->Serialize();
  if (!again.ok() || *again != *bytes) {
    return NotSerializable(scan, "reader factory",
                           Status::Invalid("the rebuilt factory serializes differently"));
  }
  return *rebuilt;
}

Result<std::shared_ptr<InputPartition>> RoundTripPartition(
    const PlanNode& scan, const PartitionReaderFactory& factory,
    const std::shared_ptr<InputPartition>& partition, size_t index) {
  std::string what = fmt::format("input partition {}", index);
  auto bytes = partition->Serialize();
  if (!bytes.ok()) return NotSerializable(scan, what, bytes.status());
  auto rebuilt = factory.DeserializePartition(*bytes);
  if (!rebuilt.ok()) return NotSerializable(scan, what, rebuilt.status());
  auto again = (*rebuilt)->Serialize();
  if (!again.ok() || *again != *bytes) {
    return NotSerializable(scan, what,
                           Status::Invalid("the rebuilt partition serializes differently"));
  }
  return *rebuilt;
}

// One exactly-pushed predicate, ready to evaluate on the scan's batches.
struct PushedCheck {
  PredicatePtr predicate;
  arrow::compute::Expression expression;
};

Result<std::vector<PushedCheck>> PrepareChecks(const PlanNode& scan,
                                               const arrow::Schema& schema) {
  std::vector<PushedCheck> checks;
  for (const auto& [predicate, condition] : scan.negotiation->exact_predicates) {
    std::vector<std::string> fields;
    condition->CollectFields(&fields);
    bool available = std::all_of(fields.begin(), fields.end(), [&](const std::string& f) {
      return schema.GetFieldByName(f) != nullptr;
    });
    if (!available) continue;
    ARROW_ASSIGN_OR_RAISE(auto expression, LowerExpression(*condition));
    ARROW_ASSIGN_OR_RAISE(expression, expression.Bind(schema));
    checks.push_back({predicate, std::move(expression)});
  }
  return checks;
}

Status VerifyBatch(const PlanNode& scan, const std::vector<PushedCheck>& checks,
                   const arrow::RecordBatch& batch) {
  for (const auto& check : checks) {
    ARROW_ASSIGN_OR_RAISE(auto result, arrow::compute::ExecuteScalarExpression(
                                           check.expression, arrow::compute::ExecBatch(batch)));
    // A row passes only where the predicate is TRUE; FALSE and NULL rows should not be here.
    ARROW_ASSIGN_OR_RAISE(auto definite, arrow::compute::CallFunction(
                                             "coalesce", {result, arrow::Datum(false)}));
    ARROW_ASSIGN_OR_RAISE(auto all_true, arrow::compute::CallFunction("all", {definite}));
    const auto& scalar = *all_true.scalar();
    bool ok = scalar.is_valid && static_cast<const arrow::BooleanScalar&>(scalar).value;
    if (!ok) {
      return MakeError(arrow::StatusCode::Invalid,
                       "CONNECTOR_CONTRACT_VIOLATION.PUSHED_PREDICATE_NOT_APPLIED",
                       fmt::format("The connector of table {} accepted the predicate {} without "
                                   "returning it, but returned rows that do not satisfy it.",
                                   scan.table_name.ToString(), check.predicate->ToString()));
    }
  }
  return Status::OK();
}

// The rows of `batch` for which the bound `filter` is TRUE.
Result<std::shared_ptr<arrow::RecordBatch>> ApplyFilter(
    const arrow::compute::Expression& filter, const std::shared_ptr<arrow::RecordBatch>& batch) {
  auto mask = arrow::compute::ExecuteScalarExpression(filter, arrow::compute::ExecBatch(*batch));
  if (!mask.ok()) return ToSparkError(mask.status());
  if (mask->is_scalar()) {
    const auto& scalar = static_cast<const arrow::BooleanScalar&>(*mask->scalar());
    if (scalar.is_valid && scalar.value) return batch;
    return batch->Slice(0, 0);
  }
  ARROW_ASSIGN_OR_RAISE(auto kept, arrow::compute::Filter(batch, *mask));
  return kept.record_batch();
}

struct TaskOutput {
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  TaskMetrics metrics;
};

Result<TaskOutput> RunTask(const PlanNode& scan, const PartitionReaderFactory& factory,
                           const InputPartition& partition, size_t index,
                           const std::shared_ptr<arrow::Schema>& schema,
                           const std::vector<PushedCheck>& checks,
                           const std::optional<arrow::compute::Expression>& filter) {
  auto start = std::chrono::steady_clock::now();
  TaskOutput output;
  output.metrics.partition = index;
  ARROW_ASSIGN_OR_RAISE(auto reader, factory.CreateReader(partition));
  while (true) {
    ARROW_ASSIGN_OR_RAISE(auto batch, reader->Next());
    if (batch == nullptr) break;
    if (!batch->schema()->Equals(*schema, /*check_metadata=*/false)) {
      return MakeError(arrow::StatusCode::Invalid,
                       "CONNECTOR_CONTRACT_VIOLATION.READ_SCHEMA_MISMATCH",
                       fmt::format("The reader of table {} produced a batch with schema {} "
                                   "where ReadSchema() is {}.",
                                   scan.table_name.ToString(), batch->schema()->ToString(),
                                   schema->ToString()));
    }
    ARROW_RETURN_NOT_OK(VerifyBatch(scan, checks, *batch));
    output.metrics.rows += batch->num_rows();
    if (filter) {
      ARROW_ASSIGN_OR_RAISE(batch, ApplyFilter(*filter, batch));
      if (batch->num_rows() == 0) continue;
    }
    output.batches.push_back(std::move(batch));
  }
  output.metrics.custom = reader->CurrentMetricsValues();
  output.metrics.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return output;
}

}  // namespace

Result<std::shared_ptr<arrow::Table>> RunScanTasks(
    PlanNode* scan, const ScanRunOptions& options, std::vector<TaskMetrics>* metrics,
    const std::optional<arrow::compute::Expression>& filter) {
  ARROW_RETURN_NOT_OK(PlanScanPartitions(scan));
  auto& negotiation = *scan->negotiation;
  auto schema = negotiation.scan->ReadSchema();
  ARROW_ASSIGN_OR_RAISE(auto factory, negotiation.batch->CreateReaderFactory());
  std::vector<std::shared_ptr<InputPartition>> partitions = negotiation.partitions;
  if (options.round_trip_tasks) {
    ARROW_ASSIGN_OR_RAISE(factory, RoundTripFactory(*scan, factory));
    for (size_t i = 0; i < partitions.size(); ++i) {
      ARROW_ASSIGN_OR_RAISE(partitions[i], RoundTripPartition(*scan, *factory, partitions[i], i));
    }
  }
  std::vector<PushedCheck> checks;
  if (options.verify_pushdown) {
    ARROW_ASSIGN_OR_RAISE(checks, PrepareChecks(*scan, *schema));
  }
  std::optional<arrow::compute::Expression> bound_filter;
  if (filter) {
    auto bound = filter->Bind(*schema);
    if (!bound.ok()) return ToSparkError(bound.status());
    bound_filter = std::move(*bound);
  }
  ARROW_ASSIGN_OR_RAISE(auto* pool, ScanTaskPool());
  std::vector<arrow::Future<TaskOutput>> futures;
  for (size_t i = 0; i < partitions.size(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto future, pool->Submit([scan, factory, partition = partitions[i], i,
                                                     schema, &checks,
                                                     &bound_filter]() -> Result<TaskOutput> {
      return RunTask(*scan, *factory, *partition, i, schema, checks, bound_filter);
    }));
    futures.push_back(std::move(future));
  }
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  int64_t rows_read = 0;
  Status first_error;
  for (auto& future : futures) {
    auto result = future.result();
    if (!result.ok()) {
      if (first_error.ok()) first_error = result.status();
      continue;
    }
    metrics->push_back(result->metrics);
    rows_read += result->metrics.rows;
    for (auto& batch : result->batches) batches.push_back(std::move(batch));
  }
  ARROW_RETURN_NOT_OK(first_error);
  if (options.verify_pushdown && negotiation.limit_fully_pushed) {
    if (rows_read > *negotiation.pushed_limit) {
      return MakeError(arrow::StatusCode::Invalid,
                       "CONNECTOR_CONTRACT_VIOLATION.PUSHED_LIMIT_NOT_APPLIED",
                       fmt::format("The connector of table {} accepted LIMIT {} as complete but "
                                   "returned {} rows.",
                                   scan->table_name.ToString(), *negotiation.pushed_limit,
                                   rows_read));
    }
  }
  return arrow::Table::FromRecordBatches(schema, std::move(batches));
}

}  // namespace parley
