// Reading a MemoryTable: the scan builder (column pruning, metadata columns), the scan that is
// also its own Batch, one input partition per stored record batch, the reader factory, and the
// snapshot registry through which partitions and factories reference in-memory data from
// bytes. The serialized forms and the lifetime rule are described in memory_scan_internal.h.
#include "memory_scan_internal.h"
#include "task_bytes_internal.h"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "arrow/array/util.h"
#include "arrow/builder.h"
#include "arrow/record_batch.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "parley/connector/status.h"

namespace parley::memory {
namespace {

constexpr std::string_view kPartitionTag = "memory-partition";
constexpr std::string_view kFactoryTag = "memory-factory";

// The frozen data of one scan: the table's batches at ScanBuilder::Build() time. Immutable.
struct Snapshot {
  uint64_t id;
  std::string table_name;
  std::shared_ptr<arrow::Schema> schema;
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
};

// Process-wide map from snapshot id to the live snapshot (held weakly, see the header).
class SnapshotRegistry {
 public:
  // Leaked on purpose: snapshots may be released during static destruction.
  static SnapshotRegistry& Instance() {
    static auto* registry = new SnapshotRegistry();
    return *registry;
  }

  uint64_t process_token() const { return ProcessToken(); }

  // Freeze `batches` under a fresh id; the snapshot leaves the registry when released.
  std::shared_ptr<const Snapshot> Register(
      std::string table_name, std::shared_ptr<arrow::Schema> schema,
      std::vector<std::shared_ptr<arrow::RecordBatch>> batches) {
    std::lock_guard<std::mutex> lock(mutex_);
    const uint64_t id = next_id_++;
    std::shared_ptr<const Snapshot> snapshot(
        new Snapshot{id, std::move(table_name), std::move(schema), std::move(batches)},
        [this](const Snapshot* released) {
          Unregister(released->id);
          delete released;
        });
    snapshots_.emplace(id, snapshot);
    return snapshot;
  }

  Result<std::shared_ptr<const Snapshot>> Find(uint64_t process_token, uint64_t id) const {
    if (process_token != ProcessToken()) {
      return NotSerializable(
          "A memory table task was serialized in another process: memory table data lives "
          "only in the process that planned the scan.");
    }
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = snapshots_.find(id);
    std::shared_ptr<const Snapshot> snapshot = it == snapshots_.end() ? nullptr : it->second.lock();
    if (snapshot == nullptr) {
      return NotSerializable("Memory table snapshot " + std::to_string(id) +
                             " is no longer alive: the scan that planned it was released "
                             "before its tasks were rebuilt.");
    }
    return snapshot;
  }

 private:
  SnapshotRegistry() = default;

  void Unregister(uint64_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    snapshots_.erase(id);
  }

  mutable std::mutex mutex_;
  uint64_t next_id_ = 1;                                                   // guarded
  std::unordered_map<uint64_t, std::weak_ptr<const Snapshot>> snapshots_;  // guarded
};

// The field of column `index` of `schema` (data columns, then the metadata columns).
std::shared_ptr<arrow::Field> ReadField(const arrow::Schema& schema, int index) {
  if (index < schema.num_fields()) return schema.field(index);
  return MemoryMetadataColumns()[index - schema.num_fields()].ToField();
}

// The columns `columns` (ascending) of the snapshot's batch `batch_index`.
Result<std::shared_ptr<arrow::RecordBatch>> ReadColumns(const Snapshot& snapshot,
                                                        uint64_t batch_index,
                                                        const std::vector<int>& columns) {
  const auto& batch = snapshot.batches[batch_index];
  const int data_columns = snapshot.schema->num_fields();
  arrow::FieldVector fields;
  arrow::ArrayVector arrays;
  for (int column : columns) {
    fields.push_back(ReadField(*snapshot.schema, column));
    if (column < data_columns) {
      arrays.push_back(batch->column(column));
    } else if (column == data_columns) {
      ARROW_ASSIGN_OR_RAISE(auto index, arrow::MakeArrayFromScalar(
                                            arrow::Int64Scalar(static_cast<int64_t>(batch_index)),
                                            batch->num_rows()));
      arrays.push_back(std::move(index));
    } else {
      arrow::Int64Builder positions;
      ARROW_RETURN_NOT_OK(positions.Reserve(batch->num_rows()));
      for (int64_t row = 0; row < batch->num_rows(); ++row) positions.UnsafeAppend(row);
      ARROW_ASSIGN_OR_RAISE(auto array, positions.Finish());
      arrays.push_back(std::move(array));
    }
  }
  return arrow::RecordBatch::Make(arrow::schema(std::move(fields)), batch->num_rows(),
                                  std::move(arrays));
}

// ---- Partitions, readers, factory.

class MemoryInputPartition : public InputPartition {
 public:
  MemoryInputPartition(uint64_t process_token, uint64_t snapshot_id, uint64_t batch_index)
      : process_token_(process_token), snapshot_id_(snapshot_id), batch_index_(batch_index) {}

  Result<std::string> Serialize() const override {
    return std::string(kPartitionTag) + ":" + std::to_string(process_token_) + ":" +
           std::to_string(snapshot_id_) + ":" + std::to_string(batch_index_);
  }

  uint64_t process_token() const { return ProcessToken(); }
  uint64_t snapshot_id() const { return snapshot_id_; }
  uint64_t batch_index() const { return batch_index_; }

 private:
  uint64_t process_token_;
  uint64_t snapshot_id_;
  uint64_t batch_index_;
};

// Yields one (already projected) batch, then the end.
class MemoryPartitionReader : public PartitionReader {
 public:
  explicit MemoryPartitionReader(std::shared_ptr<arrow::RecordBatch> batch)
      : batch_(std::move(batch)) {}

  Result<std::shared_ptr<arrow::RecordBatch>> Next() override { return std::move(batch_); }

 private:
  std::shared_ptr<arrow::RecordBatch> batch_;
};

class MemoryReaderFactory : public PartitionReaderFactory {
 public:
  MemoryReaderFactory(std::shared_ptr<const Snapshot> snapshot, std::vector<int> columns)
      : snapshot_(std::move(snapshot)), columns_(std::move(columns)) {}

  Result<std::unique_ptr<PartitionReader>> CreateReader(
      const InputPartition& partition) const override {
    auto* memory = dynamic_cast<const MemoryInputPartition*>(&partition);
    if (memory == nullptr) {
      return InvalidError("INTERNAL_ERROR", "The memory table reader of " + snapshot_->table_name +
                                                " was given a partition of another connector.");
    }
    ARROW_RETURN_NOT_OK(
        CheckPartition(memory->process_token(), memory->snapshot_id(), memory->batch_index()));
    ARROW_ASSIGN_OR_RAISE(auto batch, ReadColumns(*snapshot_, memory->batch_index(), columns_));
    return std::make_unique<MemoryPartitionReader>(std::move(batch));
  }

  Result<std::string> Serialize() const override {
    std::string columns;
    for (int column : columns_) {
      if (!columns.empty()) columns += ',';
      columns += std::to_string(column);
    }
    return std::string(kFactoryTag) + ":" +
           std::to_string(SnapshotRegistry::Instance().process_token()) + ":" +
           std::to_string(snapshot_->id) + ":" + columns;
  }

  Result<std::shared_ptr<InputPartition>> DeserializePartition(
      std::string_view bytes) const override {
    auto fields = SplitFields(bytes);
    uint64_t token = 0, snapshot_id = 0, batch_index = 0;
    if (fields.size() != 4 || fields[0] != kPartitionTag || !ParseInteger(fields[1], &token) ||
        !ParseInteger(fields[2], &snapshot_id) || !ParseInteger(fields[3], &batch_index)) {
      return NotSerializable("Cannot rebuild a memory table partition from " + Printable(bytes) +
                             ": expected " + std::string(kPartitionTag) +
                             ":<process token>:<snapshot id>:<batch index>.");
    }
    ARROW_RETURN_NOT_OK(CheckPartition(token, snapshot_id, batch_index));
    return std::make_shared<MemoryInputPartition>(token, snapshot_id, batch_index);
  }

 private:
  Status CheckPartition(uint64_t token, uint64_t snapshot_id, uint64_t batch_index) const {
    if (token != SnapshotRegistry::Instance().process_token() || snapshot_id != snapshot_->id ||
        batch_index >= snapshot_->batches.size()) {
      return NotSerializable("Memory table partition (snapshot " + std::to_string(snapshot_id) +
                             ", batch " + std::to_string(batch_index) +
                             ") does not belong to the scan of " + snapshot_->table_name +
                             " (snapshot " + std::to_string(snapshot_->id) + ", " +
                             std::to_string(snapshot_->batches.size()) + " batches).");
    }
    return Status::OK();
  }

  std::shared_ptr<const Snapshot> snapshot_;
  std::vector<int> columns_;  // indices into ReadField(snapshot_->schema), ascending
};

// ---- Scan (also the Batch, as in Spark's in-memory test tables) and its builder.

class MemoryScan : public Scan, public Batch, public std::enable_shared_from_this<MemoryScan> {
 public:
  MemoryScan(std::shared_ptr<const Snapshot> snapshot, std::vector<int> columns)
      : snapshot_(std::move(snapshot)), columns_(std::move(columns)) {
    arrow::FieldVector fields;
    for (int column : columns_) fields.push_back(ReadField(*snapshot_->schema, column));
    read_schema_ = arrow::schema(std::move(fields));
  }

  std::shared_ptr<arrow::Schema> ReadSchema() const override { return read_schema_; }

  std::string Description() const override {
    std::string names;
    for (const auto& field : read_schema_->fields()) {
      if (!names.empty()) names += ", ";
      names += field->name();
    }
    return "readSchema=[" + names + "]";
  }

  Result<std::shared_ptr<Batch>> ToBatch() override { return shared_from_this(); }

  Result<std::vector<std::shared_ptr<InputPartition>>> PlanInputPartitions() override {
    std::vector<std::shared_ptr<InputPartition>> partitions;
    const uint64_t token = SnapshotRegistry::Instance().process_token();
    for (size_t i = 0; i < snapshot_->batches.size(); ++i) {
      partitions.push_back(std::make_shared<MemoryInputPartition>(token, snapshot_->id, i));
    }
    return partitions;
  }

  Result<std::shared_ptr<PartitionReaderFactory>> CreateReaderFactory() override {
    return std::make_shared<MemoryReaderFactory>(snapshot_, columns_);
  }

  Result<std::shared_ptr<PartitionReaderFactory>> DeserializeReaderFactory(
      std::string_view bytes) const override {
    auto fields = SplitFields(bytes);
    uint64_t token = 0, snapshot_id = 0;
    if (fields.size() != 4 || fields[0] != kFactoryTag || !ParseInteger(fields[1], &token) ||
        !ParseInteger(fields[2], &snapshot_id)) {
      return BadFactory(bytes);
    }
    ARROW_ASSIGN_OR_RAISE(auto snapshot, SnapshotRegistry::Instance().Find(token, snapshot_id));
    std::vector<int> columns;
    if (!fields[3].empty()) {
      for (std::string_view part : SplitFields(fields[3], ',')) {
        uint64_t column = 0;
        if (!ParseInteger(part, &column) ||
            column >= static_cast<uint64_t>(snapshot->schema->num_fields() +
                                            MemoryMetadataColumns().size()) ||
            (!columns.empty() && static_cast<int>(column) <= columns.back())) {
          return BadFactory(bytes);
        }
        columns.push_back(static_cast<int>(column));
      }
    }
    return std::make_shared<MemoryReaderFactory>(std::move(snapshot), std::move(columns));
  }

 private:
  static Status BadFactory(std::string_view bytes) {
    return NotSerializable("Cannot rebuild a memory table reader factory from " + Printable(bytes) +
                           ": expected " + std::string(kFactoryTag) +
                           ":<process token>:<snapshot id>:<ascending column indices>.");
  }

  std::shared_ptr<const Snapshot> snapshot_;
  std::vector<int> columns_;
  std::shared_ptr<arrow::Schema> read_schema_;
};

class MemoryScanBuilder : public ScanBuilder, public SupportsPushDownRequiredColumns {
 public:
  MemoryScanBuilder(std::shared_ptr<const MemoryTable> table,
                    std::shared_ptr<std::vector<std::shared_ptr<arrow::RecordBatch>>> batches)
      : table_(std::move(table)), schema_(table_->schema()), snapshot_batches_(std::move(batches)) {
    for (int i = 0; i < schema_->num_fields(); ++i) columns_.push_back(i);
  }

  Status PruneColumns(const std::shared_ptr<arrow::Schema>& required_schema) override {
    std::vector<int> columns;
    const auto metadata = MemoryMetadataColumns();
    for (const auto& field : required_schema->fields()) {
      int index = schema_->GetFieldIndex(field->name());
      for (size_t i = 0; index < 0 && i < metadata.size(); ++i) {
        if (metadata[i].name == field->name()) index = schema_->num_fields() + static_cast<int>(i);
      }
      if (index < 0) {
        return InvalidError("INTERNAL_ERROR", "Column pruning asked the memory table " +
                                                  table_->name() + " for the column " +
                                                  QuoteIdentifier(field->name()) +
                                                  ", which it does not have.");
      }
      columns.push_back(index);
    }
    std::sort(columns.begin(), columns.end());
    columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
    columns_ = std::move(columns);
    return Status::OK();
  }

  Result<std::shared_ptr<Scan>> Build() override {
    auto batches = table_->batches();
    if (snapshot_batches_) *snapshot_batches_ = batches;
    auto snapshot =
        SnapshotRegistry::Instance().Register(table_->name(), schema_, std::move(batches));
    return std::make_shared<MemoryScan>(std::move(snapshot), columns_);
  }

 private:
  std::shared_ptr<const MemoryTable> table_;
  std::shared_ptr<arrow::Schema> schema_;
  std::vector<int> columns_;  // indices as ReadField's, ascending; all data columns until pruned
  std::shared_ptr<std::vector<std::shared_ptr<arrow::RecordBatch>>> snapshot_batches_;
};

}  // namespace

std::vector<Column> MemoryMetadataColumns() {
  return {
      {kBatchColumn, arrow::int64(), false, "the stored batch of the row", std::nullopt},
      {kPositionColumn, arrow::int64(), false, "the row's position in its batch", std::nullopt}};
}

std::unique_ptr<ScanBuilder> MakeMemoryScanBuilder(
    std::shared_ptr<const MemoryTable> table,
    std::shared_ptr<std::vector<std::shared_ptr<arrow::RecordBatch>>> snapshot_batches) {
  return std::make_unique<MemoryScanBuilder>(std::move(table), std::move(snapshot_batches));
}

}  // namespace parley::memory
