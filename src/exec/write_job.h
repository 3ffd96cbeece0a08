// The driver side of a batch write: runs one task attempt per input partition, lets the commit
// coordinator pick the one attempt per partition that may commit, retries failed attempts,
// optionally launches speculative duplicates of slow ones, then commits once or aborts
// (parley/connector/write.h has the protocol this implements).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/status.h"
#include "parley/connector/write.h"

namespace parley {

/// \brief How a write job runs its tasks.
struct WriteJobOptions {
  /// Attempts per partition before the write fails (spark.task.maxFailures).
  int max_attempts = 4;
  /// Launch a duplicate attempt of a task that runs much longer than the finished ones
  /// (spark.speculation and its multiplier, quantile and minimum runtime).
  bool speculation = false;
  double speculation_multiplier = 1.5;
  double speculation_quantile = 0.75;
  int64_t speculation_min_ms = 100;
  /// Test mode: also launch a duplicate of every task at once, so two attempts of each
  /// partition race for the commit.
  bool duplicate_every_task = false;
  /// Round-trip the writer factory and each commit message through their bytes.
  bool round_trip = false;
  /// When set, wraps each task attempt's writer before it receives rows (a delta-based
  /// row-level write turns its rows into DeltaWriter calls); an error fails the attempt.
  std::function<Result<std::unique_ptr<DataWriter>>(std::unique_ptr<DataWriter>)> wrap_writer;
};

/// \brief What a finished write job did.
struct WriteJobResult {
  /// False when the input's Commit declined (WriteInput::Commit) and the write was aborted.
  bool committed = true;
  int64_t rows = 0;
  int partitions = 0;
  /// Every attempt launched, committed or not, and how many were denied the commit.
  int attempts = 0;
  int denied = 0;
  double seconds = 0;
  /// The write's declared custom metrics aggregated over the committed attempts.
  std::vector<std::pair<std::string, std::string>> custom_metrics;
};

/// \brief The input rows of each write task, in partition order.
using WritePartitions = std::vector<std::vector<std::shared_ptr<arrow::RecordBatch>>>;

/// \brief Spread `data` over write tasks as `write` requires (RequiresDistributionAndOrdering:
/// clustered by columns, ordered, a required task count, a sort within each task); otherwise
/// tasks of at most `rows_per_task` rows. Always at least one partition.
/// Errors: UNSUPPORTED_FEATURE.WRITE_DISTRIBUTION for requirements on expressions other than
/// columns.
Result<WritePartitions> PartitionForWrite(const std::shared_ptr<arrow::Table>& data,
                                          const Write& write, int64_t rows_per_task);

/// \brief A write job's input, handed over one task's rows at a time while the job runs, so
/// rows can stream from a query into the writers. Used by the driver thread only.
class WriteInput {
 public:
  virtual ~WriteInput() = default;
  /// \brief The rows of the next task, or std::nullopt after the last task. The job asks for
  /// the next task only while fewer tasks than its pool has threads are unfinished, and keeps
  /// a task's rows until the task committed (for retries). An error aborts the write.
  virtual Result<std::optional<std::vector<std::shared_ptr<arrow::RecordBatch>>>> Next() = 0;
  /// \brief Called once, after the last task committed: make the write visible, by default
  /// `batch_write->Commit(messages)`. Returns false to abort the write instead, e.g. when the
  /// rows turned out to change nothing.
  virtual Result<bool> Commit(BatchWrite* batch_write,
                              const std::vector<CommitMessagePtr>& messages);
};

/// \brief Run the write: `Write::ToBatch()`, the tasks as `input` hands them over, then
/// exactly one commit (WriteInput::Commit), or `Abort` (with null messages for partitions
/// that never committed) when a partition failed `max_attempts` times, the input failed,
/// OnDataWriterCommit failed, the commit failed or was declined. Returns the first error of the
/// input or of the partition that failed for good. The factory is created with
/// PhysicalWriteInfo::num_partitions 0: the task count is not known in advance.
Result<WriteJobResult> RunWriteJob(Write* write, WriteInput* input, const WriteJobOptions& options);

/// \brief RunWriteJob over partitions known in advance (PhysicalWriteInfo::num_partitions is
/// their count), committed with `BatchWrite::Commit`.
Result<WriteJobResult> RunWriteJob(Write* write, const WritePartitions& partitions,
                                   const WriteJobOptions& options);

}  // namespace parley
