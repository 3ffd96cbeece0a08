// Write job: task attempts on their own pool, the commit coordinator, retries, speculation and
// the single driver commit. The driver thread owns every decision; attempts only report their
// outcome through a queue, so the bookkeeping needs no locks beyond that queue and the
// coordinator.
#include "exec/write_job.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "arrow/array.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/compute/api_vector.h"
#include "arrow/compute/exec.h"
#include "arrow/compute/row/grouper.h"
#include "arrow/record_batch.h"
#include "arrow/table.h"
#include "arrow/util/thread_pool.h"
#include "exec/executor.h"
#include "exec/task_pools.h"
#include "parley/connector/fault_injection.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using Clock = std::chrono::steady_clock;

Status NotSerializable(const std::string& what, const std::string& detail) {
  return InvalidError("CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
                      fmt::format("The {} did not survive serialization: {}", what, detail));
}

// ---- Partitioning the input as the write requires

Result<int> ColumnIndex(const arrow::Schema& schema, const Expression& expression) {
  const std::string* name = AsColumnName(expression);
  int index = name == nullptr ? -1 : schema.GetFieldIndex(*name);
  if (index < 0) {
    return InvalidError("UNSUPPORTED_FEATURE.WRITE_DISTRIBUTION",
                        fmt::format("The write requires a layout by {}, which is not a column "
                                    "of the written rows.",
                                    expression.ToString()));
  }
  return index;
}

Result<std::shared_ptr<arrow::Table>> SortTable(
    const std::shared_ptr<arrow::Table>& data,
    const std::vector<std::shared_ptr<SortOrder>>& ordering) {
  if (ordering.empty() || data->num_rows() == 0) return data;
  std::vector<cp::SortKey> keys;
  for (const auto& order : ordering) {
    ARROW_ASSIGN_OR_RAISE(int index, ColumnIndex(*data->schema(), *order->children()[0]));
    keys.emplace_back(arrow::FieldRef(index),
                      order->direction() == SortDirection::kAscending ? cp::SortOrder::Ascending
                                                                      : cp::SortOrder::Descending,
                      order->null_ordering() == NullOrdering::kNullsFirst
                          ? cp::NullPlacement::AtStart
                          : cp::NullPlacement::AtEnd);
  }
  ARROW_ASSIGN_OR_RAISE(auto indices, cp::SortIndices(arrow::Datum(data), cp::SortOptions(keys)));
  ARROW_ASSIGN_OR_RAISE(auto sorted, cp::Take(arrow::Datum(data), arrow::Datum(indices)));
  return sorted.table();
}

// Contiguous slices of `data`: `count` of them, as equal as possible.
WritePartitions SliceEvenly(const arrow::Table& data, int count) {
  WritePartitions partitions(count);
  const int64_t rows = data.num_rows();
  for (int p = 0; p < count; ++p) {
    int64_t begin = rows * p / count, end = rows * (p + 1) / count;
    if (end <= begin) continue;
    auto slice = data.Slice(begin, end - begin);
    arrow::TableBatchReader reader(*slice);
    std::shared_ptr<arrow::RecordBatch> batch;
    while (reader.ReadNext(&batch).ok() && batch != nullptr) partitions[p].push_back(batch);
  }
  return partitions;
}

// Rows with equal values of the clustering columns go to the same partition.
Result<WritePartitions> Cluster(const std::shared_ptr<arrow::Table>& data,
                                const std::vector<ExpressionPtr>& clustering, int count) {
  std::vector<int> columns;
  std::vector<arrow::TypeHolder> types;
  for (const auto& expression : clustering) {
    ARROW_ASSIGN_OR_RAISE(int index, ColumnIndex(*data->schema(), *expression));
    columns.push_back(index);
    types.emplace_back(data->schema()->field(index)->type());
  }
  ARROW_ASSIGN_OR_RAISE(auto combined, data->CombineChunksToBatch());
  std::vector<arrow::Datum> keys;
  for (int index : columns) keys.emplace_back(combined->column(index));
  ARROW_ASSIGN_OR_RAISE(auto grouper, cp::Grouper::Make(types));
  ARROW_ASSIGN_OR_RAISE(auto group_ids,
                        grouper->Consume(cp::ExecSpan(cp::ExecBatch(keys, combined->num_rows()))));
  if (count <= 0) count = std::max<int>(1, std::min<int>(grouper->num_groups(), 8));
  std::vector<std::vector<int64_t>> rows(count);
  const auto ids = group_ids.array_as<arrow::UInt32Array>();
  for (int64_t row = 0; row < combined->num_rows(); ++row) {
    rows[ids->Value(row) % count].push_back(row);
  }
  WritePartitions partitions(count);
  for (int p = 0; p < count; ++p) {
    if (rows[p].empty()) continue;
    arrow::Int64Builder builder;
    ARROW_RETURN_NOT_OK(builder.AppendValues(rows[p]));
    ARROW_ASSIGN_OR_RAISE(auto indices, builder.Finish());
    ARROW_ASSIGN_OR_RAISE(auto taken, cp::Take(arrow::Datum(combined), arrow::Datum(indices)));
    partitions[p].push_back(taken.record_batch());
  }
  return partitions;
}

// ---- The commit coordinator: the first attempt of a partition that asks may commit.

class CommitCoordinator {
 public:
  bool CanCommit(int partition, int64_t task_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto [it, first] = authorized_.emplace(partition, task_id);
    return it->second == task_id;
  }

  // An authorized attempt that failed before its commit finished releases the partition.
  void AttemptFailed(int partition, int64_t task_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = authorized_.find(partition);
    if (it != authorized_.end() && it->second == task_id) authorized_.erase(it);
  }

 private:
  std::mutex mutex_;
  std::map<int, int64_t> authorized_;  // guarded by mutex_
};

using TaskRows = std::vector<std::shared_ptr<arrow::RecordBatch>>;

struct AttemptOutcome {
  int partition = 0;
  int64_t task_id = 0;
  Status status;
  bool denied = false;
  CommitMessagePtr message;
  int64_t rows = 0;
  std::vector<CustomTaskMetric> metrics;
};

// Everything one write job's attempts share.
struct JobContext {
  std::shared_ptr<BatchWrite> batch_write;
  std::shared_ptr<DataWriterFactory> factory;
  bool use_coordinator = true;
  bool round_trip = false;
  std::function<Result<std::unique_ptr<DataWriter>>(std::unique_ptr<DataWriter>)> wrap_writer;
  std::unique_ptr<CommitCoordinator> coordinator;
  std::atomic<bool> cancelled{false};

  std::mutex mutex;
  std::condition_variable changed;
  std::deque<AttemptOutcome> outcomes;  // guarded by mutex
};

Result<CommitMessagePtr> RoundTripMessage(const BatchWrite& batch_write,
                                          const CommitMessagePtr& message) {
  if (message == nullptr) return message;
  ARROW_ASSIGN_OR_RAISE(auto bytes, message->Serialize());
  auto rebuilt = batch_write.DeserializeCommitMessage(bytes);
  if (!rebuilt.ok()) return NotSerializable("commit message", rebuilt.status().message());
  ARROW_ASSIGN_OR_RAISE(auto again, (*rebuilt)->Serialize());
  if (again != bytes) return NotSerializable("commit message", "its bytes changed on rebuild");
  return *rebuilt;
}

// One task attempt: write the partition's rows, then commit if the coordinator allows it.
AttemptOutcome RunAttempt(JobContext* job, const TaskRows& rows, int partition, int attempt,
                          int64_t task_id) {
  AttemptOutcome outcome;
  outcome.partition = partition;
  outcome.task_id = task_id;
  if (job->cancelled) {
    outcome.status = Status::Cancelled("the write was cancelled");
    return outcome;
  }
  auto finish = [&](DataWriter* writer, Status status) {
    if (!status.ok() && writer != nullptr) {
      Status aborted = writer->Abort();
      if (!aborted.ok())
        status = status.WithMessage(status.message() + " (abort also failed: " + aborted.message() +
                                    ")");
    }
    if (writer != nullptr) {
      outcome.metrics = writer->CurrentMetricsValues();
      Status closed = writer->Close();
      if (status.ok()) status = closed;
    }
    outcome.status = std::move(status);
    return outcome;
  };
  Status injected = InjectFault(kFaultTaskBeforeWrite, partition, attempt);
  if (!injected.ok()) return finish(nullptr, injected);
  auto writer_or = job->factory->CreateWriter(partition, task_id);
  if (!writer_or.ok()) return finish(nullptr, writer_or.status());
  std::unique_ptr<DataWriter> writer = std::move(writer_or).ValueUnsafe();
  if (job->wrap_writer) {
    auto wrapped = job->wrap_writer(std::move(writer));
    if (!wrapped.ok()) return finish(nullptr, wrapped.status());
    writer = std::move(wrapped).ValueUnsafe();
  }
  for (const auto& batch : rows) {
    Status written = writer->Write(*batch);
    if (!written.ok()) return finish(writer.get(), written);
    outcome.rows += batch->num_rows();
  }
  injected = InjectFault(kFaultTaskBeforeCommit, partition, attempt);
  if (!injected.ok()) return finish(writer.get(), injected);
  if (job->use_coordinator && !job->coordinator->CanCommit(partition, task_id)) {
    outcome.denied = true;
    Status aborted = writer->Abort();
    return finish(writer.get(), aborted);
  }
  auto message = writer->Commit();
  if (!message.ok()) {
    if (job->use_coordinator) job->coordinator->AttemptFailed(partition, task_id);
    return finish(writer.get(), message.status());
  }
  outcome.message = *message;
  Status delivered = Status::OK();
  if (job->round_trip) {
    // A message that cannot cross to the driver fails the attempt; its writer already
    // committed, so it is only closed, and the driver's Abort sees a null for it.
    auto rebuilt = RoundTripMessage(*job->batch_write, outcome.message);
    if (rebuilt.ok()) {
      outcome.message = *rebuilt;
    } else {
      delivered = rebuilt.status();
      outcome.message = nullptr;
    }
  }
  outcome.metrics = writer->CurrentMetricsValues();
  Status closed = writer->Close();
  outcome.status = delivered.ok() ? closed : delivered;
  return outcome;
}

Result<std::shared_ptr<DataWriterFactory>> MakeFactory(const BatchWrite& batch_write,
                                                       std::shared_ptr<DataWriterFactory> factory,
                                                       bool round_trip) {
  if (!round_trip) return factory;
  ARROW_ASSIGN_OR_RAISE(auto bytes, factory->Serialize());
  auto rebuilt = batch_write.DeserializeWriterFactory(bytes);
  if (!rebuilt.ok()) return NotSerializable("writer factory", rebuilt.status().message());
  ARROW_ASSIGN_OR_RAISE(auto again, (*rebuilt)->Serialize());
  if (again != bytes) return NotSerializable("writer factory", "its bytes changed on rebuild");
  return *rebuilt;
}

// Per-partition state the driver keeps.
struct PartitionState {
  std::shared_ptr<const TaskRows> rows;  // released once the partition committed
  int launched = 0;                      // attempts launched
  int failures = 0;
  int running = 0;
  bool done = false;
  Clock::time_point first_start;
};

// Partitions known in advance, handed over in order.
class PartitionsInput : public WriteInput {
 public:
  explicit PartitionsInput(const WritePartitions& partitions) : partitions_(partitions) {}
  Result<std::optional<TaskRows>> Next() override {
    if (next_ == partitions_.size()) return std::nullopt;
    return partitions_[next_++];
  }

 private:
  const WritePartitions& partitions_;
  size_t next_ = 0;
};

// Runs the job. With `known_partitions`, the input holds that many tasks, all launched at
// once; otherwise tasks launch as the input hands them over, a pool's worth at a time.
Result<WriteJobResult> RunJob(Write* write, WriteInput* input, std::optional<int> known_partitions,
                              const WriteJobOptions& options);

}  // namespace

Result<WritePartitions> PartitionForWrite(const std::shared_ptr<arrow::Table>& data,
                                          const Write& write, int64_t rows_per_task) {
  ARROW_RETURN_NOT_OK(EnsureComputeInitialized());
  auto* layout = dynamic_cast<const RequiresDistributionAndOrdering*>(&write);
  if (layout == nullptr) {
    int count = static_cast<int>(std::max<int64_t>(
        1, (data->num_rows() + rows_per_task - 1) / std::max<int64_t>(rows_per_task, 1)));
    return SliceEvenly(*data, count);
  }
  const Distribution distribution = layout->RequiredDistribution();
  int count = layout->RequiredNumPartitions();
  WritePartitions partitions;
  switch (distribution.kind) {
    case Distribution::Kind::kUnspecified: {
      int64_t rows = data->num_rows();
      if (count <= 0)
        count = static_cast<int>(std::max<int64_t>(1, (rows + rows_per_task - 1) / rows_per_task));
      partitions = SliceEvenly(*data, count);
      break;
    }
    case Distribution::Kind::kClustered: {
      ARROW_ASSIGN_OR_RAISE(partitions, Cluster(data, distribution.clustering, count));
      break;
    }
    case Distribution::Kind::kOrdered: {
      ARROW_ASSIGN_OR_RAISE(auto sorted, SortTable(data, distribution.ordering));
      if (count <= 0) {
        count = static_cast<int>(
            std::max<int64_t>(1, (sorted->num_rows() + rows_per_task - 1) / rows_per_task));
      }
      partitions = SliceEvenly(*sorted, count);
      break;
    }
  }
  const auto ordering = layout->RequiredOrdering();
  if (!ordering.empty()) {
    for (auto& partition : partitions) {
      if (partition.empty()) continue;
      ARROW_ASSIGN_OR_RAISE(auto table, arrow::Table::FromRecordBatches(partition));
      ARROW_ASSIGN_OR_RAISE(auto sorted, SortTable(table, ordering));
      ARROW_ASSIGN_OR_RAISE(auto batch, sorted->CombineChunksToBatch());
      partition = {batch};
    }
  }
  return partitions;
}

Result<bool> WriteInput::Commit(BatchWrite* batch_write,
                                const std::vector<CommitMessagePtr>& messages) {
  ARROW_RETURN_NOT_OK(batch_write->Commit(messages));
  return true;
}

Result<WriteJobResult> RunWriteJob(Write* write, WriteInput* input,
                                   const WriteJobOptions& options) {
  return RunJob(write, input, std::nullopt, options);
}

Result<WriteJobResult> RunWriteJob(Write* write, const WritePartitions& partitions,
                                   const WriteJobOptions& options) {
  PartitionsInput input(partitions);
  return RunJob(write, &input, static_cast<int>(partitions.size()), options);
}

namespace {

Result<WriteJobResult> RunJob(Write* write, WriteInput* input, std::optional<int> known_partitions,
                              const WriteJobOptions& options) {
  const auto start = Clock::now();
  JobContext job;
  ARROW_ASSIGN_OR_RAISE(job.batch_write, write->ToBatch());
  ARROW_ASSIGN_OR_RAISE(auto factory, job.batch_write->CreateBatchWriterFactory(
                                          PhysicalWriteInfo{known_partitions.value_or(0)}));
  ARROW_ASSIGN_OR_RAISE(job.factory, MakeFactory(*job.batch_write, factory, options.round_trip));
  job.use_coordinator = job.batch_write->UseCommitCoordinator();
  job.round_trip = options.round_trip;
  job.wrap_writer = options.wrap_writer;
  job.coordinator = std::make_unique<CommitCoordinator>();
  ARROW_ASSIGN_OR_RAISE(auto* pool, WriteTaskPool());
  const int max_unfinished =
      known_partitions ? std::max(1, *known_partitions) : std::max(1, pool->GetCapacity());

  std::vector<PartitionState> state;
  std::vector<CommitMessagePtr> messages;
  std::vector<double> durations;
  std::map<std::string, std::vector<int64_t>> metric_values;
  WriteJobResult result;
  int64_t next_task_id = 0;
  int count = 0, running = 0, done = 0;
  bool input_done = false;
  Status failure;

  auto launch = [&](int partition) -> Status {
    PartitionState& s = state[partition];
    int attempt = s.launched++;
    int64_t task_id = next_task_id++;
    if (attempt == 0) s.first_start = Clock::now();
    // Counted as running once submitted: an attempt the pool refused never reports back.
    ARROW_ASSIGN_OR_RAISE(
        auto future, pool->Submit([&job, rows = s.rows, partition, attempt, task_id] {
          AttemptOutcome outcome = RunAttempt(&job, *rows, partition, attempt, task_id);
          std::lock_guard<std::mutex> lock(job.mutex);
          job.outcomes.push_back(std::move(outcome));
          job.changed.notify_all();
        }));
    (void)future;
    ++s.running;
    ++running;
    ++result.attempts;
    return Status::OK();
  };
  auto fail = [&](Status status) {
    if (failure.ok()) failure = std::move(status);
    job.cancelled = true;
  };
  // Take the input's next task and launch it; at the input's end (or error) note that.
  auto feed = [&]() -> Status {
    auto rows = input->Next();
    if (!rows.ok() || !rows->has_value()) {
      input_done = true;
      if (!rows.ok()) fail(rows.status());
      return Status::OK();
    }
    PartitionState s;
    s.rows = std::make_shared<const TaskRows>(std::move(**rows));
    state.push_back(std::move(s));
    messages.push_back(nullptr);
    const int partition = count++;
    ARROW_RETURN_NOT_OK(launch(partition));
    if (options.duplicate_every_task) ARROW_RETURN_NOT_OK(launch(partition));
    return Status::OK();
  };

  while (true) {
    while (failure.ok() && !input_done && count - done < max_unfinished) {
      Status fed = feed();
      if (!fed.ok()) {
        fail(fed);
        input_done = true;
      }
    }
    if (!failure.ok()) input_done = true;
    if (running == 0 && input_done) break;
    std::deque<AttemptOutcome> outcomes;
    {
      std::unique_lock<std::mutex> lock(job.mutex);
      job.changed.wait_for(lock, std::chrono::milliseconds(20),
                           [&] { return !job.outcomes.empty(); });
      outcomes.swap(job.outcomes);
    }
    for (auto& outcome : outcomes) {
      PartitionState& s = state[outcome.partition];
      --s.running;
      --running;
      if (outcome.denied) {
        ++result.denied;
        continue;
      }
      if (!outcome.status.ok()) {
        ++s.failures;
        if (job.use_coordinator) job.coordinator->AttemptFailed(outcome.partition, outcome.task_id);
        if (s.done || !failure.ok()) continue;
        if (s.failures >= options.max_attempts) {
          fail(outcome.status);
        } else if (s.running == 0) {
          Status relaunched = launch(outcome.partition);
          if (!relaunched.ok()) fail(relaunched);
        }
        continue;
      }
      // Without the coordinator a later duplicate may also commit; the first message wins.
      if (s.done) continue;
      s.done = true;
      s.rows.reset();
      ++done;
      messages[outcome.partition] = outcome.message;
      result.rows += outcome.rows;
      durations.push_back(std::chrono::duration<double>(Clock::now() - s.first_start).count());
      for (const auto& metric : outcome.metrics) metric_values[metric.name].push_back(metric.value);
      if (failure.ok()) {
        Status accepted = job.batch_write->OnDataWriterCommit(outcome.message);
        if (!accepted.ok()) fail(accepted);
      }
    }
    // Speculation: once the input is all handed out and enough tasks finished, duplicate any
    // much slower than their median.
    if (options.speculation && failure.ok() && input_done && done < count &&
        done >= options.speculation_quantile * count && !durations.empty()) {
      std::vector<double> sorted = durations;
      std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
      double threshold = std::max(options.speculation_multiplier * sorted[sorted.size() / 2],
                                  options.speculation_min_ms / 1000.0);
      for (int p = 0; p < count; ++p) {
        PartitionState& s = state[p];
        if (s.done || s.running != 1 || s.launched > s.failures + 1) continue;
        double elapsed = std::chrono::duration<double>(Clock::now() - s.first_start).count();
        if (elapsed > threshold) {
          Status launched = launch(p);
          if (!launched.ok()) fail(launched);
        }
      }
    }
  }
  result.partitions = count;

  bool committed = false;
  if (failure.ok()) failure = InjectFault(kFaultDriverBeforeCommit);
  if (failure.ok()) {
    auto commit = input->Commit(job.batch_write.get(), messages);
    if (commit.ok()) {
      committed = *commit;
    } else {
      failure = commit.status();
    }
  }
  if (!committed) {
    Status aborted = job.batch_write->Abort(messages);
    if (!failure.ok() && !aborted.ok()) {
      return failure.WithMessage(failure.message() + " (abort also failed: " + aborted.message() +
                                 ")");
    }
    ARROW_RETURN_NOT_OK(failure);
    ARROW_RETURN_NOT_OK(aborted);
    result.committed = false;
  }
  for (const auto& metric : write->SupportedCustomMetrics()) {
    auto it = metric_values.find(metric->name());
    if (it == metric_values.end()) continue;
    result.custom_metrics.emplace_back(metric->description(),
                                       metric->AggregateTaskMetrics(it->second));
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace

}  // namespace parley
