// MemoryTable's write path: builder (mode), write, batch write (commit/abort), writer factory
// and writers, with task output staged in a process-wide registry (memory_write_internal.h).
#include <atomic>

#include "arrow/array.h"
#include "arrow/record_batch.h"
#include "arrow/type.h"
#include "memory_table.h"
#include "memory_write_internal.h"
#include "parley/connector/status.h"
#include "task_bytes_internal.h"

namespace parley::memory {
namespace {

constexpr std::string_view kFactoryTag = "memory-writer";
constexpr std::string_view kMessageTag = "memory-commit";

using Batches = std::vector<std::shared_ptr<arrow::RecordBatch>>;
using Staging = StagingRegistry<Batches>;

// Parse "<tag>:<process token>:<write id>[:more...]" and check the token and the write.
Result<std::vector<std::string_view>> ParseReference(std::string_view bytes, std::string_view tag,
                                                     size_t field_count, uint64_t write_id) {
  auto fields = SplitFields(bytes);
  uint64_t token = 0, id = 0;
  if (fields.size() != field_count || fields[0] != tag || !ParseInteger(fields[1], &token) ||
      !ParseInteger(fields[2], &id)) {
    return NotSerializable("Malformed memory write bytes: " + Printable(bytes));
  }
  if (token != ProcessToken()) {
    return NotSerializable(
        "A memory table write task was serialized in another process: memory table data "
        "lives only in the process that planned the write.");
  }
  if (id != write_id) return NotSerializable("The memory write bytes belong to another write.");
  return fields;
}

class MemoryDataWriter : public DataWriter {
 public:
  MemoryDataWriter(std::shared_ptr<arrow::Schema> schema, uint64_t write_id, int partition_id,
                   int64_t task_id)
      : schema_(std::move(schema)),
        write_id_(write_id),
        partition_id_(partition_id),
        task_id_(task_id) {}

  Status Write(const arrow::RecordBatch& batch) override {
    ARROW_RETURN_NOT_OK(CheckWriterRows(*schema_, batch));
    if (batch.num_rows() == 0) return Status::OK();
    rows_ += batch.num_rows();
    auto staged = arrow::RecordBatch::Make(schema_, batch.num_rows(), batch.columns());
    Staging::Instance().Stage(write_id_, task_id_,
                              [&](Batches* batches) { batches->push_back(std::move(staged)); });
    return Status::OK();
  }

  // A committed task with no rows still gets an entry, so Commit can tell it apart from a task
  // whose output was dropped.
  Result<CommitMessagePtr> Commit() override {
    Staging::Instance().Stage(write_id_, task_id_, [](Batches*) {});
    return std::make_shared<MemoryCommitMessage>(write_id_, partition_id_, task_id_);
  }

  Status Abort() override {
    Staging::Instance().DropTask(write_id_, task_id_);
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

  Result<std::string> Serialize() const override { return MemoryFactoryBytes(write_id_); }

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
        write_id_(NewMemoryWriteId()) {}

  ~MemoryBatchWrite() override { Staging::Instance().DropWrite(write_id_); }

  Result<std::shared_ptr<DataWriterFactory>> CreateBatchWriterFactory(
      const PhysicalWriteInfo&) override {
    return std::make_shared<MemoryWriterFactory>(schema_, write_id_);
  }

  Result<std::shared_ptr<DataWriterFactory>> DeserializeWriterFactory(
      std::string_view bytes) const override {
    ARROW_RETURN_NOT_OK(CheckMemoryFactoryBytes(bytes, write_id_));
    return std::make_shared<MemoryWriterFactory>(schema_, write_id_);
  }

  Result<CommitMessagePtr> DeserializeCommitMessage(std::string_view bytes) const override {
    return ParseMemoryCommitMessage(bytes, write_id_);
  }

  Status Commit(const std::vector<CommitMessagePtr>& messages) override {
    ARROW_ASSIGN_OR_RAISE(auto outputs, TakeCommittedOutputs(&Staging::Instance(), committed_,
                                                             messages, write_id_, table_->name()));
    Batches batches;
    for (const auto& staged : outputs) batches.insert(batches.end(), staged.begin(), staged.end());
    ARROW_RETURN_NOT_OK(table_->CommitWrite(mode_, std::move(batches)));
    committed_ = true;
    Staging::Instance().DropWrite(write_id_);
    return Status::OK();
  }

  Status Abort(const std::vector<CommitMessagePtr>&) override {
    Staging::Instance().DropWrite(write_id_);
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
    case MemoryWriteMode::Kind::kPatchGroups: return "patch the groups a row-level scan read";
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
    mode_ = {MemoryWriteMode::Kind::kTruncate, {}, {}, {}};
    return Status::OK();
  }

  bool CanOverwrite(const std::vector<PredicatePtr>& predicates) const override {
    return table_->CanEvaluate(predicates);
  }

  Status Overwrite(std::vector<PredicatePtr> predicates) override {
    if (!table_->CanEvaluate(predicates)) {
      return InvalidError(
          "UNSUPPORTED_OVERWRITE.TABLE",
          "The memory table " + table_->name() + " cannot overwrite rows by these predicates.");
    }
    mode_ = {MemoryWriteMode::Kind::kOverwriteByFilter, std::move(predicates), {}, {}};
    return Status::OK();
  }

  Status OverwriteDynamicPartitions() override {
    mode_ = {MemoryWriteMode::Kind::kOverwriteDynamic, {}, {}, {}};
    return Status::OK();
  }

 private:
  std::shared_ptr<MemoryTable> table_;
  std::shared_ptr<arrow::Schema> schema_;
  MemoryWriteMode mode_;
};

}  // namespace

Status CheckWriterRows(const arrow::Schema& schema, const arrow::RecordBatch& batch) {
  if (batch.num_columns() != schema.num_fields()) {
    return InvalidError("INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_FIND_DATA",
                        "The memory writer expected " + std::to_string(schema.num_fields()) +
                            " columns but got " + std::to_string(batch.num_columns()) + ".");
  }
  for (int i = 0; i < schema.num_fields(); ++i) {
    const auto& field = schema.field(i);
    if (!batch.column(i)->type()->Equals(*field->type())) {
      return InvalidError("INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST",
                          "Cannot safely cast " + QuoteIdentifier(field->name()) + " \"" +
                              batch.column(i)->type()->ToString() + "\" to \"" +
                              field->type()->ToString() + "\".");
    }
    if (!field->nullable() && batch.column(i)->null_count() > 0) {
      return InvalidError(
          "NOT_NULL_ASSERT_VIOLATION",
          "NULL value appeared in non-nullable field: " + QuoteIdentifier(field->name()) + ".");
    }
  }
  return Status::OK();
}

uint64_t NewMemoryWriteId() {
  static std::atomic<uint64_t> next{1};
  return next++;
}

Result<std::string> MemoryCommitMessage::Serialize() const {
  return std::string(kMessageTag) + ":" + std::to_string(ProcessToken()) + ":" +
         std::to_string(write_id_) + ":" + std::to_string(partition_id_) + ":" +
         std::to_string(task_id_);
}

Result<CommitMessagePtr> ParseMemoryCommitMessage(std::string_view bytes, uint64_t write_id) {
  ARROW_ASSIGN_OR_RAISE(auto fields, ParseReference(bytes, kMessageTag, 5, write_id));
  int partition_id = 0;
  int64_t task_id = 0;
  if (!ParseInteger(fields[3], &partition_id) || !ParseInteger(fields[4], &task_id)) {
    return NotSerializable("Malformed memory commit message: " + Printable(bytes));
  }
  return std::make_shared<MemoryCommitMessage>(write_id, partition_id, task_id);
}

Result<std::vector<int64_t>> MemoryCommitTasks(const std::vector<CommitMessagePtr>& messages,
                                               uint64_t write_id, const std::string& table_name) {
  std::vector<int64_t> tasks;
  for (const auto& message : messages) {
    auto* memory = dynamic_cast<const MemoryCommitMessage*>(message.get());
    if (memory == nullptr || memory->write_id() != write_id) {
      return InvalidError("CONNECTOR_CONTRACT_VIOLATION.UNKNOWN_COMMIT_MESSAGE",
                          "Commit of the memory write into " + table_name +
                              " received a message of another write.");
    }
    tasks.push_back(memory->task_id());
  }
  return tasks;
}

std::string MemoryFactoryBytes(uint64_t write_id) {
  return std::string(kFactoryTag) + ":" + std::to_string(ProcessToken()) + ":" +
         std::to_string(write_id);
}

Status CheckMemoryFactoryBytes(std::string_view bytes, uint64_t write_id) {
  return ParseReference(bytes, kFactoryTag, 3, write_id).status();
}

std::unique_ptr<WriteBuilder> MakeMemoryWriteBuilder(std::shared_ptr<MemoryTable> table,
                                                     const LogicalWriteInfo& info,
                                                     MemoryWriteMode mode) {
  auto schema = table->schema();
  return std::make_unique<MemoryWriteBuilder>(std::move(table), std::move(schema), std::move(mode));
}

}  // namespace parley::memory
