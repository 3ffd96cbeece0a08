// Scan task execution. Tasks run on a thread pool sized to the cores; the driver thread plans
// partitions and hands each task its partition; the batches are gathered, or streamed, in
// partition order. A residual filter is applied by the tasks, batch by batch, in parallel. Test
// mode round-trips factory and partitions through bytes, as crossing to an executor would, so a
// connector that holds a live handle fails here rather than on a cluster.
#include "exec/scan_tasks.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <functional>
#include <mutex>
#include <utility>

#include "arrow/compute/api.h"
#include "arrow/record_batch.h"
#include "arrow/table.h"
#include "arrow/util/future.h"
#include "arrow/util/thread_pool.h"
#include "exec/expression_lowering.h"
#include "exec/row_selection.h"
#include "exec/task_pools.h"
#include "kernels/spark_errors.h"
#include "plan/pushdown.h"

namespace parley {
namespace {

Status NotSerializable(const PlanNode& scan, const std::string& what, const Status& cause) {
  return MakeError(arrow::StatusCode::Invalid, "CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
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

Result<std::vector<PushedCheck>> PrepareChecks(const PlanNode& scan, const arrow::Schema& schema) {
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
    ARROW_ASSIGN_OR_RAISE(auto definite,
                          arrow::compute::CallFunction("coalesce", {result, arrow::Datum(false)}));
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

// The rows of `batch` for which the bound filter's conjuncts are all TRUE.
Result<std::shared_ptr<arrow::RecordBatch>> ApplyFilter(
    const std::vector<arrow::compute::Expression>& conjuncts,
    std::shared_ptr<arrow::RecordBatch> batch) {
  auto kept = SelectRowsWhere(std::move(batch), conjuncts);
  if (!kept.ok()) return ToSparkError(kept.status());
  return kept;
}

// Everything a scan's tasks share, prepared once by the driver.
struct ScanSetup {
  const PlanNode* scan = nullptr;
  std::shared_ptr<arrow::Schema> schema;
  std::shared_ptr<PartitionReaderFactory> factory;
  std::vector<std::shared_ptr<InputPartition>> partitions;
  // The index of each of `partitions` among the scan's planned partitions.
  std::vector<size_t> indices;
  std::vector<PushedCheck> checks;
  // The residual filter's conjuncts, bound to the read schema (none: no filter).
  std::vector<arrow::compute::Expression> filter;
  // A fully pushed limit to check the rows read against (verify_pushdown).
  std::optional<int64_t> verified_limit;
  // Checked before each batch is read: a cancelled statement's tasks end there.
  QueryControl control;
};

Result<std::shared_ptr<ScanSetup>> PrepareScan(
    PlanNode* scan, const ScanRunOptions& options,
    const std::optional<arrow::compute::Expression>& filter,
    const std::optional<std::vector<size_t>>& only) {
  ARROW_RETURN_NOT_OK(PlanScanPartitions(scan));
  auto& negotiation = *scan->negotiation;
  auto setup = std::make_shared<ScanSetup>();
  setup->scan = scan;
  setup->control = options.control;
  setup->schema = negotiation.scan->ReadSchema();
  ARROW_ASSIGN_OR_RAISE(setup->factory, negotiation.batch->CreateReaderFactory());
  if (only) {
    for (size_t index : *only) setup->partitions.push_back(negotiation.partitions.at(index));
    setup->indices = *only;
  } else {
    setup->partitions = negotiation.partitions;
    for (size_t i = 0; i < setup->partitions.size(); ++i) setup->indices.push_back(i);
  }
  if (options.round_trip_tasks) {
    ARROW_ASSIGN_OR_RAISE(setup->factory, RoundTripFactory(*scan, setup->factory));
    for (size_t i = 0; i < setup->partitions.size(); ++i) {
      ARROW_ASSIGN_OR_RAISE(
          setup->partitions[i],
          RoundTripPartition(*scan, *setup->factory, setup->partitions[i], setup->indices[i]));
    }
  }
  if (options.verify_pushdown) {
    ARROW_ASSIGN_OR_RAISE(setup->checks, PrepareChecks(*scan, *setup->schema));
    if (negotiation.limit_fully_pushed) setup->verified_limit = *negotiation.pushed_limit;
  }
  if (filter) {
    auto bound = filter->Bind(*setup->schema);
    if (!bound.ok()) return ToSparkError(bound.status());
    setup->filter = Conjuncts(*bound);
  }
  return setup;
}

Status CheckLimit(const ScanSetup& setup, int64_t rows_read) {
  if (!setup.verified_limit || rows_read <= *setup.verified_limit) return Status::OK();
  return MakeError(
      arrow::StatusCode::Invalid, "CONNECTOR_CONTRACT_VIOLATION.PUSHED_LIMIT_NOT_APPLIED",
      fmt::format("The connector of table {} accepted LIMIT {} as complete but "
                  "returned {} rows.",
                  setup.scan->table_name.ToString(), *setup.verified_limit, rows_read));
}

// What a task's sink says after taking a batch.
enum class SinkReply { kMore, kPause, kStop };

// Receives each batch a task keeps.
using BatchSink = std::function<SinkReply(std::shared_ptr<arrow::RecordBatch>)>;

// One task's reading, which can pause when its consumer is behind and resume later on any
// thread: the partition's reader and the metrics so far. One thread at a time.
class TaskRun {
 public:
  TaskRun(const ScanSetup& setup, size_t index) : setup_(setup), index_(index) {
    metrics_.partition = setup.indices[index];
  }

  // Read batches into `sink` until the reader ends or the sink stops it (true), or the sink
  // asks to pause (false).
  Result<bool> Pump(const BatchSink& sink) {
    auto start = std::chrono::steady_clock::now();
    auto ended = PumpBatches(sink);
    metrics_.seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return ended;
  }

  // The metrics so far, with the reader's current custom metrics.
  TaskMetrics Metrics() const {
    TaskMetrics metrics = metrics_;
    if (reader_ != nullptr) metrics.custom = reader_->CurrentMetricsValues();
    return metrics;
  }

 private:
  Result<bool> PumpBatches(const BatchSink& sink) {
    if (reader_ == nullptr) {
      ARROW_ASSIGN_OR_RAISE(reader_, setup_.factory->CreateReader(*setup_.partitions[index_]));
    }
    while (true) {
      ARROW_RETURN_NOT_OK(setup_.control.Check());
      ARROW_ASSIGN_OR_RAISE(auto batch, reader_->Next());
      if (batch == nullptr) return true;
      if (!batch->schema()->Equals(*setup_.schema, /*check_metadata=*/false)) {
        return MakeError(arrow::StatusCode::Invalid,
                         "CONNECTOR_CONTRACT_VIOLATION.READ_SCHEMA_MISMATCH",
                         fmt::format("The reader of table {} produced a batch with schema {} "
                                     "where ReadSchema() is {}.",
                                     setup_.scan->table_name.ToString(),
                                     batch->schema()->ToString(), setup_.schema->ToString()));
      }
      ARROW_RETURN_NOT_OK(VerifyBatch(*setup_.scan, setup_.checks, *batch));
      metrics_.rows += batch->num_rows();
      if (!setup_.filter.empty()) {
        ARROW_ASSIGN_OR_RAISE(batch, ApplyFilter(setup_.filter, std::move(batch)));
        if (batch->num_rows() == 0) continue;
      }
      switch (sink(std::move(batch))) {
        case SinkReply::kMore: break;
        case SinkReply::kPause: return false;
        case SinkReply::kStop: return true;
      }
    }
  }

  const ScanSetup& setup_;
  const size_t index_;
  std::unique_ptr<PartitionReader> reader_;
  TaskMetrics metrics_;
};

// Run one task to its end.
Result<TaskMetrics> RunTask(const ScanSetup& setup, size_t index, const BatchSink& sink) {
  TaskRun run(setup, index);
  ARROW_RETURN_NOT_OK(run.Pump(sink).status());
  return run.Metrics();
}

// The stream. Each task appends its batches to its partition's queue.
// Ordered: Next() takes from the first partition not yet drained; every task starts at once
// and keeps what the consumer has not taken yet.
// Unordered: Next() takes from any partition, in turn; a task pauses once kQueuedBatches of its
// batches wait and resumes, on a pool thread, when the consumer has taken one; at most a window
// of partitions (twice the pool's threads) is started and not yet drained. The batches held
// stay within window x kQueuedBatches, so their memory is reused while the scan runs.
class TaskStream final : public ScanStream, public std::enable_shared_from_this<TaskStream> {
 public:
  using Item = Result<std::optional<arrow::compute::ExecBatch>>;

  TaskStream(std::shared_ptr<ScanSetup> setup, bool ordered)
      : setup_(std::move(setup)), ordered_(ordered), partitions_(setup_->partitions.size()) {}

  Status Start() {
    ARROW_ASSIGN_OR_RAISE(pool_, ScanTaskPool());
    window_ = ordered_ ? partitions_.size() : 2 * static_cast<size_t>(pool_->GetCapacity());
    std::lock_guard<std::mutex> lock(mutex_);
    StartWindow();
    return Status::OK();
  }

  const std::shared_ptr<arrow::Schema>& schema() const override { return setup_->schema; }

  arrow::Future<std::optional<arrow::compute::ExecBatch>> Next() override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopped_) {
      return arrow::Future<std::optional<arrow::compute::ExecBatch>>::MakeFinished(
          std::optional<arrow::compute::ExecBatch>());
    }
    if (auto item = Ready()) {
      return arrow::Future<std::optional<arrow::compute::ExecBatch>>::MakeFinished(
          std::move(*item));
    }
    waiting_ = arrow::Future<std::optional<arrow::compute::ExecBatch>>::Make();
    return waiting_;
  }

  void Stop() override {
    Completion completion;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopped_ = true;
      if (waiting_.is_valid()) {
        completion.future = std::exchange(waiting_, {});
        completion.item = Item(std::optional<arrow::compute::ExecBatch>());
      }
    }
    completion.Run();
  }

  Result<std::vector<TaskMetrics>> Finish() override {
    std::vector<arrow::Future<>> tasks;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopped_ = true;
      tasks = tasks_;
    }
    for (auto& task : tasks) task.Wait();
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<TaskMetrics> metrics;
    Status first_error;
    for (size_t i = 0; i < partitions_.size(); ++i) {
      auto& partition = partitions_[i];
      if (!partition.status.ok()) {
        if (first_error.ok()) first_error = partition.status;
        partition.run.reset();
        continue;
      }
      if (!partition.done) {
        // Paused or never started when the consumer stopped. A paused task's reader closes
        // here, not whenever the last reference to this stream goes.
        partition.metrics = partition.run ? partition.run->Metrics() : TaskMetrics{};
        partition.metrics.partition = setup_->indices[i];
        partition.run.reset();
      }
      metrics.push_back(std::move(partition.metrics));
    }
    ARROW_RETURN_NOT_OK(first_error);
    return metrics;
  }

 private:
  // Unordered: a task pauses once this many of its batches wait for the consumer.
  static constexpr size_t kQueuedBatches = 4;

  struct Partition {
    std::deque<std::shared_ptr<arrow::RecordBatch>> batches;
    std::unique_ptr<TaskRun> run;  // used only by the task's running turn
    bool started = false;
    bool running = false;  // a turn of the task is submitted or running
    bool done = false;
    bool retired = false;  // done and drained: out of the window
    Status status;
    TaskMetrics metrics;
  };

  // A waiting future and the item that completes it, completed outside the lock.
  struct Completion {
    arrow::Future<std::optional<arrow::compute::ExecBatch>> future;
    std::optional<Item> item;
    void Run() {
      if (item) future.MarkFinished(std::move(*item));
    }
  };

  // Under the lock: submit a turn of partition `index`'s task.
  void Launch(size_t index) {
    auto& partition = partitions_[index];
    partition.started = true;
    partition.running = true;
    auto self = shared_from_this();
    auto task = pool_->Submit([self, index] { self->RunPartition(index); });
    if (task.ok()) {
      std::erase_if(tasks_, [](const arrow::Future<>& turn) { return turn.is_finished(); });
      tasks_.push_back(std::move(*task));
      return;
    }
    MarkDone(index, task.status());
  }

  // Under the lock: start partitions, in order, while the window has room.
  void StartWindow() {
    while (!stopped_ && next_start_ < partitions_.size() && active_ < window_) {
      ++active_;
      Launch(next_start_++);
    }
  }

  // Under the lock: a done partition whose batches were all taken leaves the window.
  void Retire(Partition* partition) {
    if (partition->done && partition->batches.empty() && !partition->retired) {
      partition->retired = true;
      --active_;
    }
  }

  // One turn of a task: read until it ends, or until it pauses and the consumer has not
  // taken a batch since.
  void RunPartition(size_t index) {
    auto& partition = partitions_[index];
    while (true) {
      if (partition.run == nullptr) partition.run = std::make_unique<TaskRun>(*setup_, index);
      auto ended = partition.run->Pump([this, index](std::shared_ptr<arrow::RecordBatch> b) {
        return Push(index, std::move(b));
      });
      Completion completion;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (ended.ok() && !*ended && !stopped_) {
          if (partition.batches.size() < kQueuedBatches) continue;
          partition.running = false;  // the consumer resumes it
          return;
        }
        if (ended.ok()) partition.metrics = partition.run->Metrics();
        MarkDone(index, ended.status());
        partition.run.reset();
        Retire(&partition);
        StartWindow();
        completion = TakeReady();
      }
      completion.Run();
      return;
    }
  }

  SinkReply Push(size_t index, std::shared_ptr<arrow::RecordBatch> batch) {
    Completion completion;
    SinkReply reply;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopped_) return SinkReply::kStop;
      auto& batches = partitions_[index].batches;
      if (!ordered_ && batches.empty()) with_batches_.push_back(index);
      batches.push_back(std::move(batch));
      reply = !ordered_ && batches.size() >= kQueuedBatches ? SinkReply::kPause : SinkReply::kMore;
      completion = TakeReady();
    }
    completion.Run();
    return reply;
  }

  // Under the lock: the next item, if it is known yet.
  std::optional<Item> Ready() { return ordered_ ? ReadyInOrder() : ReadyInTurn(); }

  std::optional<Item> ReadyInOrder() {
    while (current_ < partitions_.size()) {
      auto& partition = partitions_[current_];
      if (!partition.batches.empty()) return Take(current_);
      if (!partition.done) return std::nullopt;
      if (!partition.status.ok()) return Item(partition.status);
      ++current_;
    }
    return End();
  }

  std::optional<Item> ReadyInTurn() {
    if (!failure_.ok()) return Item(failure_);
    if (!with_batches_.empty()) {
      const size_t index = with_batches_.front();
      with_batches_.pop_front();
      Item item = Take(index);
      if (!partitions_[index].batches.empty()) with_batches_.push_back(index);
      return item;
    }
    if (done_ < partitions_.size()) return std::nullopt;
    return End();
  }

  // Under the lock: partition `index` is done, with `status`.
  void MarkDone(size_t index, Status status) {
    auto& partition = partitions_[index];
    partition.running = false;
    partition.done = true;
    ++done_;
    if (!status.ok()) {
      if (failure_.ok()) failure_ = status;
      partition.status = std::move(status);
    }
  }

  // Under the lock: the first batch of partition `index`, resuming its paused task.
  Item Take(size_t index) {
    auto& partition = partitions_[index];
    auto batch = std::move(partition.batches.front());
    partition.batches.pop_front();
    if (partition.started && !partition.running && !partition.done && !stopped_) {
      Launch(index);
    }
    Retire(&partition);
    StartWindow();
    return Item(std::optional<arrow::compute::ExecBatch>(arrow::compute::ExecBatch(*batch)));
  }

  // Under the lock: the end of the stream, once every task is done and drained.
  Item End() {
    int64_t rows_read = 0;
    for (const auto& partition : partitions_) rows_read += partition.metrics.rows;
    Status limit = CheckLimit(*setup_, rows_read);
    if (!limit.ok()) return Item(limit);
    return Item(std::optional<arrow::compute::ExecBatch>());
  }

  // Under the lock: the waiting future with its item, if both exist.
  Completion TakeReady() {
    Completion completion;
    if (!waiting_.is_valid()) return completion;
    completion.item = Ready();
    if (completion.item) completion.future = std::exchange(waiting_, {});
    return completion;
  }

  std::shared_ptr<ScanSetup> setup_;
  const bool ordered_;
  arrow::internal::ThreadPool* pool_ = nullptr;
  size_t window_ = 0;
  std::mutex mutex_;
  std::vector<arrow::Future<>> tasks_;  // the turns not known to be finished
  std::vector<Partition> partitions_;
  size_t next_start_ = 0;            // the next partition to start
  size_t active_ = 0;                // started and not retired
  size_t current_ = 0;               // ordered: the partition being drained
  std::deque<size_t> with_batches_;  // unordered: the partitions holding batches, in turn
  size_t done_ = 0;                  // partitions done
  Status failure_;                   // the first task error
  bool stopped_ = false;
  arrow::Future<std::optional<arrow::compute::ExecBatch>> waiting_;
};

}  // namespace

Result<std::shared_ptr<arrow::Table>> RunScanTasks(
    PlanNode* scan, const ScanRunOptions& options, std::vector<TaskMetrics>* metrics,
    const std::optional<arrow::compute::Expression>& filter,
    const std::optional<std::vector<size_t>>& only) {
  ARROW_ASSIGN_OR_RAISE(auto setup, PrepareScan(scan, options, filter, only));
  ARROW_ASSIGN_OR_RAISE(auto* pool, ScanTaskPool());
  size_t count = setup->partitions.size();
  std::vector<std::vector<std::shared_ptr<arrow::RecordBatch>>> outputs(count);
  std::vector<arrow::Future<TaskMetrics>> futures;
  for (size_t i = 0; i < count; ++i) {
    auto* output = &outputs[i];
    ARROW_ASSIGN_OR_RAISE(auto future, pool->Submit([setup, i, output]() -> Result<TaskMetrics> {
      return RunTask(*setup, i, [output](auto batch) {
        output->push_back(std::move(batch));
        return SinkReply::kMore;
      });
    }));
    futures.push_back(std::move(future));
  }
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  int64_t rows_read = 0;
  Status first_error;
  for (size_t i = 0; i < count; ++i) {
    auto result = futures[i].result();
    if (!result.ok()) {
      if (first_error.ok()) first_error = result.status();
      continue;
    }
    metrics->push_back(*result);
    rows_read += result->rows;
    for (auto& batch : outputs[i]) batches.push_back(std::move(batch));
  }
  ARROW_RETURN_NOT_OK(first_error);
  ARROW_RETURN_NOT_OK(CheckLimit(*setup, rows_read));
  return arrow::Table::FromRecordBatches(setup->schema, std::move(batches));
}

Result<std::shared_ptr<ScanStream>> StartScanTasks(
    PlanNode* scan, const ScanRunOptions& options,
    const std::optional<arrow::compute::Expression>& filter,
    const std::optional<std::vector<size_t>>& only, bool ordered) {
  ARROW_ASSIGN_OR_RAISE(auto setup, PrepareScan(scan, options, filter, only));
  auto stream = std::make_shared<TaskStream>(std::move(setup), ordered);
  ARROW_RETURN_NOT_OK(stream->Start());
  return stream;
}

}  // namespace parley
