// MemoryTable's write path: builder (mode), write, batch write (commit/abort), writer factory
// and writers, with task output staged in a process-wide registry (memory_write_internal.h).
#include <map>
#include <mutex>
#include <unordered_map>

#include "arrow/array.h"
#include "arrow/record_batch.h"
#include "arrow/type.h"
#include "memory_table.h"
#include "memory_write_internal.h"
#include "task_bytes_internal.h"
#include "parley/connector/status.h"

namespace parley::memory {
namespace {

constexpr std::string_view kFactoryTag = "memory-writer";
constexpr std::string_view kMessageTag = "memory-commit";

// Staged task output of every running write in this process: write id -> task id -> batches.
class StagingRegistry {
 public:
  static StagingRegistry& Instance() {
    static auto* registry = new StagingRegistry();
    return *registry;
  }

  uint64_t NewWriteId() {
    std::lock_guard<std::mutex> lock(mutex_);
    return next_write_id_++;
  }

  void Append(uint64_t write_id, int64_t task_id, std::shared_ptr<arrow::RecordBatch> batch) {
    std::lock_guard<std::mutex> lock(mutex_);
    staged_[write_id][task_id].push_back(std::move(batch));
  }

  // Make sure a committed task with no rows still has an entry, so Commit can tell it apart
  // from a task whose output was dropped.
  void Touch(uint64_t write_id, int64_t task_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    staged_[write_id][task_id];
  }

  Result<std::vector<std::shared_ptr<arrow::RecordBatch>>> Take(uint64_t write_id,
                                                                int64_t task_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto write = staged_.find(write_id);
    if (write == staged_.end() || write->second.count(task_id) == 0) {
      return InvalidError("CONNECTOR_CONTRACT_VIOLATION.UNKNOWN_COMMIT_MESSAGE",
                          "Memory write " + std::to_string(write_id) + " has no staged output " +
                              "for task " + std::to_string(task_id) + ".");
    }
    return write->second[task_id];
  }

  void DropTask(uint64_t write_id, int64_t task_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto write = staged_.find(write_id);
    if (write != staged_.end()) write->second.erase(task_id);
  }

  void DropWrite(uint64_t write_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    staged_.erase(write_id);
  }

 private:
  StagingRegistry() = default;

  mutable std::mutex mutex_;
  uint64_t next_write_id_ = 1;  // guarded by mutex_
  std::unordered_map<uint64_t, std::map<int64_t, std::vector<std::shared_ptr<arrow::RecordBatch>>>>
      staged_;  // guarded by mutex_
};

// Parse "<tag>:<process token>:<write id>[:more...]" and check the token.
Result<std::vector<std::string_view>> ParseReference(std::string_view bytes, std::string_view tag,
                                                     size_t field_count, uint64_t* write_id) {
  auto fields = SplitFields(bytes);
  uint64_t token = 0;
  if (fields.size() != field_count || fields[0] != tag || !ParseInteger(fields[1], &token) ||
      !ParseInteger(fields[2], write_id)) {
    return NotSerializable("Malformed memory write bytes: " + Printable(bytes));
  }
  if (token != ProcessToken()) {
    return NotSerializable(
        "A memory table write task was serialized in another process: memory table data "
        "lives only in the process that planned the write.");
  }
  return fields;
}

class MemoryCommitMessage : public WriterCommitMessage {
 public:
  MemoryCommitMessage(uint64_t write_id, int partition_id, int64_t task_id)
      : write_id_(write_id), partition_id_(partition_id), task_id_(task_id) {}

  Result<std::string> Serialize() const override {
    return std::string(kMessageTag) + ":" +
           std::to_string(ProcessToken()) + ":" +
           std::to_string(write_id_) + ":" + std::to_string(partition_id_) + ":" +
           std::to_string(task_id_);
  }

  uint64_t write_id() const { return write_id_; }
  int64_t task_id() const { return task_id_; }

 private:
  uint64_t write_id_;
  int partition_id_;
  int64_t task_id_;
};

class MemoryDataWriter : public DataWriter {
 public:
  MemoryDataWriter(std::shared_ptr<arrow::Schema> schema, uint64_t write_id, int partition_id,
                   int64_t task_id)
      : schema_(std::move(schema)),
        write_id_(write_id),
        partition_id_(partition_id),
        task_id_(task_id) {}

  Status Write(const arrow::RecordBatch& batch) override {
    if (batch.num_columns() != schema_->num_fields()) {
      return InvalidError("INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_FIND_DATA",
                          "The memory writer expected " + std::to_string(schema_->num_fields()) +
                              " columns but got " + std::to_string(batch.num_columns()) + ".");
    }
    for (int i = 0; i < schema_->num_fields(); ++i) {
      const auto& field = schema_->field(i);
      if (!batch.column(i)->type()->Equals(*field->type())) {
        return InvalidError("INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST",
                            "Cannot safely cast " + QuoteIdentifier(field->name()) + " \"" +
                                batch.column(i)->type()->ToString() + "\" to \"" +
                                field->type()->ToString() + "\".");
      }
      if (!field->nullable() && batch.column(i)->null_count() > 0) {
        return InvalidError("NOT_NULL_ASSERT_VIOLATION",
                            "NULL value appeared in non-nullable field: " +
                                QuoteIdentifier(field->name()) + ".");
      }
    }
    if (batch.num_rows() == 0) return Status::OK();
    rows_ += batch.num_rows();
    StagingRegistry::Instance().Append(
        write_id_, task_id_, arrow::RecordBatch::Make(schema_, batch.num_rows(), batch.columns()));
    return Status::OK();
  }

  Result<CommitMessagePtr> Commit() override {
    StagingRegistry::Instance().Touch(write_id_, task_id_);
    return std::make_shared<MemoryCommitMessage>(write_id_, partition_id_, task_id_);
  }

  Status Abort() override {
    StagingRegistry::Instance().DropTask(write_id_, task_id_);
    return Status::OK();
  }

  std::vector<CustomTaskMetric> CurrentMetricsValues() const override {
    return {{"rowsWritten", rows_}};
  }

 private:
  std::shared_ptr<arrow::Schema> schema_;
  uint64_t write_id_;
  int partition_id_;
  int64_t task_id_;
  int64_t rows_ = 0;
};

class MemoryWriterFactory : public DataWriterFactory {
 public:
  MemoryWriterFactory(std::shared_ptr<arrow::Schema> schema, uint64_t write_id)
      : schema_(std::move(schema)), write_id_(write_id) {}

  Result<std::unique_ptr<DataWriter>> CreateWriter(int partition_id, int64_t task_id) override {
    return std::make_unique<MemoryDataWriter>(schema_, write_id_, partition_id, task_id);
  }

  Result<std::string> Serialize() const override {
    return std::string(kFactoryTag) + ":" +
           std::to_string(ProcessToken()) + ":" +
           std::to_string(write_id_);
  }

 private:
  std::shared_ptr<arrow::Schema> schema_;
  uint64_t write_id_;
};

class MemoryBatchWrite : public BatchWrite {
 public:
  MemoryBatchWrite(std::shared_ptr<MemoryTable> table, std::shared_ptr<arrow::Schema> schema,
                   MemoryWriteMode mode)
      : table_(std::move(table)),
        schema_(std::move(schema)),
        mode_(std::move(mode)),
        write_id_(StagingRegistry::Instance().NewWriteId()) {}

  ~MemoryBatchWrite() override { StagingRegistry::Instance().DropWrite(write_id_); }

  Result<std::shared_ptr<DataWriterFactory>> CreateBatchWriterFactory(
      const PhysicalWriteInfo&) override {
    return std::make_shared<MemoryWriterFactory>(schema_, write_id_);
  }

  Result<std::shared_ptr<DataWriterFactory>> DeserializeWriterFactory(
      std::string_view bytes) const override {
    uint64_t write_id = 0;
    ARROW_RETURN_NOT_OK(ParseReference(bytes, kFactoryTag, 3, &write_id).status());
    if (write_id != write_id_) {
      return NotSerializable("The memory writer factory bytes belong to another write.");
    }
    return std::make_shared<MemoryWriterFactory>(schema_, write_id);
  }

  Result<CommitMessagePtr> DeserializeCommitMessage(std::string_view bytes) const override {
    uint64_t write_id = 0;
    ARROW_ASSIGN_OR_RAISE(auto fields, ParseReference(bytes, kMessageTag, 5, &write_id));
    int partition_id = 0;
    int64_t task_id = 0;
    if (!ParseInteger(fields[3], &partition_id) || !ParseInteger(fields[4], &task_id)) {
      return NotSerializable("Malformed memory commit message: " + Printable(bytes));
    }
    return std::make_shared<MemoryCommitMessage>(write_id, partition_id, task_id);
  }

  Status Commit(const std::vector<CommitMessagePtr>& messages) override {
    if (committed_) {
      return InvalidError("CONNECTOR_CONTRACT_VIOLATION.COMMIT_TWICE",
                          "The memory write into " + table_->name() + " was already committed.");
    }
    std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
    for (const auto& message : messages) {
      auto* memory = dynamic_cast<const MemoryCommitMessage*>(message.get());
      if (memory == nullptr || memory->write_id() != write_id_) {
        return InvalidError("CONNECTOR_CONTRACT_VIOLATION.UNKNOWN_COMMIT_MESSAGE",
                            "Commit of the memory write into " + table_->name() +
                                " received a message of another write.");
      }
      ARROW_ASSIGN_OR_RAISE(auto staged,
                            StagingRegistry::Instance().Take(write_id_, memory->task_id()));
      batches.insert(batches.end(), staged.begin(), staged.end());
    }
    ARROW_RETURN_NOT_OK(table_->CommitWrite(mode_, std::move(batches)));
    committed_ = true;
    StagingRegistry::Instance().DropWrite(write_id_);
    return Status::OK();
  }

  Status Abort(const std::vector<CommitMessagePtr>&) override {
    StagingRegistry::Instance().DropWrite(write_id_);
    return Status::OK();
  }

 private:
  std::shared_ptr<MemoryTable> table_;
  std::shared_ptr<arrow::Schema> schema_;
  MemoryWriteMode mode_;
  uint64_t write_id_;
  bool committed_ = false;
};

std::string ModeDescription(const MemoryWriteMode& mode) {
  switch (mode.kind) {
    case MemoryWriteMode::Kind::kAppend: return "append";
    case MemoryWriteMode::Kind::kTruncate: return "truncate";
    case MemoryWriteMode::Kind::kOverwriteDynamic: return "dynamic partition overwrite";
    case MemoryWriteMode::Kind::kReplaceGroups: return "replace the groups a row-level scan read";
    case MemoryWriteMode::Kind::kOverwriteByFilter: {
      std::string text = "overwrite where ";
      for (size_t i = 0; i < mode.predicates.size(); ++i) {
        if (i > 0) text += " AND ";
        text += mode.predicates[i]->ToString();
      }
      return text;
    }
  }
  return "append";
}

class MemoryWrite : public Write {
 public:
  MemoryWrite(std::shared_ptr<MemoryTable> table, std::shared_ptr<arrow::Schema> schema,
              MemoryWriteMode mode)
      : table_(std::move(table)), schema_(std::move(schema)), mode_(std::move(mode)) {}

  std::string description() const override {
    return "MemoryWrite " + table_->name() + " (" + ModeDescription(mode_) + ")";
  }

  Result<std::shared_ptr<BatchWrite>> ToBatch() override {
    return std::make_shared<MemoryBatchWrite>(table_, schema_, mode_);
  }

  std::vector<std::shared_ptr<CustomMetric>> SupportedCustomMetrics() const override {
    return {std::make_shared<CustomSumMetric>("rowsWritten", "rows written")};
  }

 private:
  std::shared_ptr<MemoryTable> table_;
  std::shared_ptr<arrow::Schema> schema_;
  MemoryWriteMode mode_;
};

class MemoryWriteBuilder : public WriteBuilder,
                           public SupportsOverwriteV2,
                           public SupportsDynamicOverwrite {
 public:
  MemoryWriteBuilder(std::shared_ptr<MemoryTable> table, std::shared_ptr<arrow::Schema> schema,
                     MemoryWriteMode mode)
      : table_(std::move(table)), schema_(std::move(schema)), mode_(std::move(mode)) {}

  Result<std::shared_ptr<Write>> Build() override {
    return std::make_shared<MemoryWrite>(table_, schema_, mode_);
  }

  Status Truncate() override {
    mode_ = {MemoryWriteMode::Kind::kTruncate, {}, {}};
    return Status::OK();
  }

  bool CanOverwrite(const std::vector<PredicatePtr>& predicates) const override {
    return table_->CanEvaluate(predicates);
  }

  Status Overwrite(std::vector<PredicatePtr> predicates) override {
    if (!table_->CanEvaluate(predicates)) {
      return InvalidError("UNSUPPORTED_OVERWRITE.TABLE",
                          "The memory table " + table_->name() +
                              " cannot overwrite rows by these predicates.");
    }
    mode_ = {MemoryWriteMode::Kind::kOverwriteByFilter, std::move(predicates), {}};
    return Status::OK();
  }

  Status OverwriteDynamicPartitions() override {
    mode_ = {MemoryWriteMode::Kind::kOverwriteDynamic, {}, {}};
    return Status::OK();
  }

 private:
  std::shared_ptr<MemoryTable> table_;
  std::shared_ptr<arrow::Schema> schema_;
  MemoryWriteMode mode_;
};

}  // namespace

std::unique_ptr<WriteBuilder> MakeMemoryWriteBuilder(std::shared_ptr<MemoryTable> table,
                                                     const LogicalWriteInfo& info,
                                                     MemoryWriteMode mode) {
  auto schema = table->schema();
  return std::make_unique<MemoryWriteBuilder>(std::move(table), std::move(schema),
                                              std::move(mode));
}

}  // namespace parley::memory
