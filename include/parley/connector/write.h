// The write path: WriteBuilder (mode) -> Write (description, metrics, layout requirements) ->
// BatchWrite (the two-phase commit) -> DataWriterFactory -> DataWriter (per task attempt).
//
// Calling protocol, as in Spark:
//   1. At analysis the engine checks the table's capabilities (BATCH_WRITE, and TRUNCATE,
//      OVERWRITE_BY_FILTER or OVERWRITE_DYNAMIC for overwrites) before any builder is called.
//   2. SupportsWrite::NewWriteBuilder once per write; then at most one mode call: none for an
//      append, Truncate(), Overwrite(predicates) (after CanOverwrite) or
//      OverwriteDynamicPartitions(); then Build() once and Write::ToBatch() once.
//   3. BatchWrite::CreateBatchWriterFactory once, on the driver. The factory crosses to the
//      tasks: it must serialize to bytes that BatchWrite::DeserializeWriterFactory rebuilds. In
//      test mode (`parley.test.roundTripTasks=true`) the engine round-trips it and every commit
//      message, and fails with CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE on a mismatch.
//   4. Each task attempt: CreateWriter(partition_id, task_id) with a task id unique to the
//      attempt; Write(batch) for each input batch; then, if the coordinator allows it, Commit(),
//      which returns a commit message naming what the attempt staged; on any failure Abort()
//      instead. Close() always runs last. A retried or speculative attempt of the same partition
//      gets a new task id, so two attempts never share staged output.
//   5. With UseCommitCoordinator() (the default) only the first attempt of a partition that asks
//      may commit; later ones are denied and aborted. The driver calls OnDataWriterCommit for
//      each committed message, then Commit(messages) exactly once with one message per
//      partition; or, when any partition failed for good, Abort(messages) with null entries for
//      partitions that never committed. After a failed Commit only Abort is called.
//   6. Nothing a task writes may be visible to readers before BatchWrite::Commit returns; an
//      overwrite removes old data only inside Commit.
// Builders, writes and batch writes are used by one thread at a time, on the driver. A
// DataWriterFactory must be safe to call from several task threads at once; each DataWriter is
// used by one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/expressions.h"
#include "parley/connector/metrics.h"
#include "parley/connector/status.h"
#include "parley/connector/types.h"

namespace parley {

class Write;
class BatchWrite;
class DataWriter;
struct RowLevelWriteSummary;

/// \brief What the engine tells a table about a write it is about to run.
struct LogicalWriteInfo {
  /// Unique per write; connectors use it to name staging locations.
  std::string query_id;
  /// The schema of the rows the writers will receive: the table's columns, in order, after
  /// Spark's store-assignment casts (for some group-based row-level writes, then metadata
  /// columns and the row's action: row_level.h).
  std::shared_ptr<arrow::Schema> schema;
  /// The write options, keys lower-cased.
  Options options;
  /// Delta-based row-level writes only (row_level.h): the schemas of DeltaWriter's `row_ids`
  /// (SupportsDelta::RowId()) and `metadata` (RequiredMetadataAttributes()) batches; `schema`
  /// is then the table's columns. Null for every other write.
  std::shared_ptr<arrow::Schema> row_id_schema = nullptr;
  std::shared_ptr<arrow::Schema> metadata_schema = nullptr;
};

/// \brief What the engine tells a BatchWrite about the physical plan.
struct PhysicalWriteInfo {
  /// How many partitions (tasks) will write; partition ids run from 0 to num_partitions - 1.
  /// 0 when not known in advance: the engine streams a query's rows into the tasks (INSERT,
  /// CTAS and row-level operations, unless the Write asks for a distribution or an ordering),
  /// and ids then run from 0 up as tasks start.
  int num_partitions = 0;
};

/// \brief Configures one write; mode mix-ins are called at most once, before Build().
class WriteBuilder {
 public:
  virtual ~WriteBuilder() = default;
  /// \brief Return the configured Write. Called once.
  virtual Result<std::shared_ptr<Write>> Build() = 0;
};

/// \brief WriteBuilder mix-in: replace all of the table's data (INSERT OVERWRITE without a
/// partition spec). Needs the TRUNCATE capability.
class SupportsTruncate {
 public:
  virtual ~SupportsTruncate() = default;
  /// \brief Make the write replace every existing row. Old rows go only at BatchWrite::Commit.
  virtual Status Truncate() = 0;
};

/// \brief WriteBuilder mix-in: replace the rows matching predicates (INSERT OVERWRITE with a
/// static partition spec). Needs the OVERWRITE_BY_FILTER capability.
class SupportsOverwriteV2 : public SupportsTruncate {
 public:
  /// \brief Whether Overwrite(predicates) is possible; the engine asks before calling it and
  /// fails with UNSUPPORTED_OVERWRITE.TABLE naming the predicates when it is not.
  virtual bool CanOverwrite(const std::vector<PredicatePtr>& predicates) const { return true; }
  /// \brief Make the write delete the rows matching all predicates (a conjunction) and add the
  /// new ones, in one commit.
  virtual Status Overwrite(std::vector<PredicatePtr> predicates) = 0;
  /// \brief Truncation is an overwrite of every row: Overwrite({ALWAYS_TRUE}).
  Status Truncate() override;
};

/// \brief WriteBuilder mix-in: replace only the partitions the written rows fall into
/// (`spark.sql.sources.partitionOverwriteMode=dynamic`). Needs OVERWRITE_DYNAMIC.
class SupportsDynamicOverwrite {
 public:
  virtual ~SupportsDynamicOverwrite() = default;
  virtual Status OverwriteDynamicPartitions() = 0;
};

/// \brief How rows must be spread across write tasks (Spark's Distributions).
struct Distribution {
  enum class Kind {
    kUnspecified,  // any layout; no repartition
    kClustered,    // rows with equal `clustering` values go to the same task
    kOrdered,      // tasks hold disjoint ranges of `ordering`, in order
  };
  Kind kind = Kind::kUnspecified;
  std::vector<ExpressionPtr> clustering;
  std::vector<std::shared_ptr<SortOrder>> ordering;

  static Distribution Unspecified() { return {}; }
  static Distribution Clustered(std::vector<ExpressionPtr> expressions);
  static Distribution Ordered(std::vector<std::shared_ptr<SortOrder>> ordering);
};

/// \brief A logical write: what it does and what it reports.
class Write {
 public:
  virtual ~Write() = default;
  /// \brief A short description shown by EXPLAIN.
  virtual std::string description() const = 0;
  /// \brief The physical batch write. Called once.
  virtual Result<std::shared_ptr<BatchWrite>> ToBatch() = 0;
  /// \brief Metrics the writers report through DataWriter::CurrentMetricsValues().
  virtual std::vector<std::shared_ptr<CustomMetric>> SupportedCustomMetrics() const { return {}; }
};

/// \brief Write mix-in: the layout the written rows must have. The engine repartitions and sorts
/// the input before the writers see it.
class RequiresDistributionAndOrdering {
 public:
  virtual ~RequiresDistributionAndOrdering() = default;
  /// \brief How rows are spread across tasks.
  virtual Distribution RequiredDistribution() const = 0;
  /// \brief An exact number of write tasks, or 0 for the engine's choice.
  virtual int RequiredNumPartitions() const { return 0; }
  /// \brief A target input size per task in bytes, or 0 for the session default. Must be 0
  /// when RequiredNumPartitions() is positive.
  virtual int64_t AdvisoryPartitionSizeInBytes() const { return 0; }
  /// \brief Whether the distribution must hold exactly (true) or is only a hint.
  virtual bool DistributionStrictlyRequired() const { return true; }
  /// \brief The order of rows within each task.
  virtual std::vector<std::shared_ptr<SortOrder>> RequiredOrdering() const = 0;
};

/// \brief What one committed task attempt produced: a reference to its staged output (paths, a
/// transaction id), never the rows. Crosses from the task to the driver, so it serializes.
class WriterCommitMessage {
 public:
  virtual ~WriterCommitMessage() = default;
  /// \brief Bytes that BatchWrite::DeserializeCommitMessage rebuilds.
  virtual Result<std::string> Serialize() const = 0;
};

using CommitMessagePtr = std::shared_ptr<WriterCommitMessage>;

/// \brief Creates the writer of each task attempt. Crosses to the tasks, so it serializes.
class DataWriterFactory {
 public:
  virtual ~DataWriterFactory() = default;
  /// \brief A writer for one attempt of partition `partition_id`. `task_id` is unique to the
  /// attempt across the whole write.
  virtual Result<std::unique_ptr<DataWriter>> CreateWriter(int partition_id, int64_t task_id) = 0;
  /// \brief Bytes that BatchWrite::DeserializeWriterFactory rebuilds.
  virtual Result<std::string> Serialize() const = 0;
};

/// \brief The two-phase commit of one batch write, on the driver.
class BatchWrite {
 public:
  virtual ~BatchWrite() = default;
  /// \brief The factory the tasks create their writers from. Called once.
  virtual Result<std::shared_ptr<DataWriterFactory>> CreateBatchWriterFactory(
      const PhysicalWriteInfo& info) = 0;
  /// \brief Rebuild a factory from DataWriterFactory::Serialize() bytes.
  virtual Result<std::shared_ptr<DataWriterFactory>> DeserializeWriterFactory(
      std::string_view bytes) const = 0;
  /// \brief Rebuild a commit message from WriterCommitMessage::Serialize() bytes.
  virtual Result<CommitMessagePtr> DeserializeCommitMessage(std::string_view bytes) const = 0;
  /// \brief Whether the engine lets only one attempt per partition commit (true) or the source
  /// tolerates duplicate and orphaned attempts itself (false).
  virtual bool UseCommitCoordinator() const { return true; }
  /// \brief Called on the driver as each task's message arrives. An error aborts the write.
  virtual Status OnDataWriterCommit(const CommitMessagePtr& message) { return Status::OK(); }
  /// \brief Make the write visible, atomically where the source can: one message per partition,
  /// in partition order. Called at most once.
  virtual Status Commit(const std::vector<CommitMessagePtr>& messages) = 0;
  /// \brief Commit the write of a row-level operation (row_level.h) with what its rows did,
  /// counted by the engine while they streamed into the tasks (Spark's commit(messages,
  /// WriteSummary)). The engine calls this instead of Commit for such writes; otherwise as
  /// Commit. Default: Commit(messages).
  virtual Status CommitRowLevel(const std::vector<CommitMessagePtr>& messages,
                                const RowLevelWriteSummary& summary) {
    return Commit(messages);
  }
  /// \brief Discard everything the write staged. Entries are null for partitions that never
  /// committed. Must tolerate being called after a failed Commit.
  virtual Status Abort(const std::vector<CommitMessagePtr>& messages) = 0;
};

/// \brief Writes one task attempt's rows to staging.
class DataWriter {
 public:
  virtual ~DataWriter() = default;
  /// \brief Stage one batch, whose schema is LogicalWriteInfo::schema.
  virtual Status Write(const arrow::RecordBatch& batch) = 0;
  /// \brief Finish the attempt's output and describe it. Nothing may become visible yet.
  virtual Result<CommitMessagePtr> Commit() = 0;
  /// \brief Remove this attempt's staged output. Called instead of Commit on failure.
  virtual Status Abort() = 0;
  /// \brief Release resources; always called last, after Commit or Abort.
  virtual Status Close() { return Status::OK(); }
  /// \brief Current values of the metrics Write::SupportedCustomMetrics() declares.
  virtual std::vector<CustomTaskMetric> CurrentMetricsValues() const { return {}; }
};

/// The task metrics every writer should report, shown by EXPLAIN ANALYZE as the write's
/// "bytes written" and "files written".
inline constexpr const char* kBytesWrittenMetric = "bytesWritten";
inline constexpr const char* kFilesWrittenMetric = "filesWritten";

}  // namespace parley
