// The writers of a copy-on-write rewrite that records the Change Data Feed (§6 of the protocol
// digest): each batch a row-level write receives is split into the rows of the new files and
// the change rows, which go to `_change_data/` with their `_change_type`.
#include <string>
#include <utility>
#include <vector>

#include "arrow/array.h"
#include "arrow/builder.h"
#include "arrow/compute/api_vector.h"
#include "arrow/datum.h"
#include "arrow/filesystem/filesystem.h"
#include "arrow/record_batch.h"
#include "arrow/type.h"

#include "connectors/delta/table_state.h"
#include "connectors/delta/util.h"
#include "connectors/delta/write/change_data.h"
#include "connectors/delta/write/data_writer.h"
#include "connectors/delta/write/write.h"
#include "parley/connector/changelog.h"
#include "parley/connector/row_level.h"

namespace parley::delta {
namespace {

// The change type a row with `action` records; null for a copied row, which records none.
const char* ChangeTypeOf(int32_t action) {
  switch (static_cast<RowLevelWriteAction>(action)) {
    case RowLevelWriteAction::kCopy: return nullptr;
    case RowLevelWriteAction::kUpdate: return kChangeUpdatePostimage;
    case RowLevelWriteAction::kDelete: return kChangeDelete;
    case RowLevelWriteAction::kInsert: return kChangeInsert;
    case RowLevelWriteAction::kUpdatePreimage: return kChangeUpdatePreimage;
  }
  return nullptr;
}

bool IsDataRow(int32_t action) {
  return action == static_cast<int32_t>(RowLevelWriteAction::kCopy) ||
         action == static_cast<int32_t>(RowLevelWriteAction::kUpdate) ||
         action == static_cast<int32_t>(RowLevelWriteAction::kInsert);
}

Status InvalidAction(int32_t action) {
  return InvalidError("DELTA_CHANGE_DATA_INVALID_ROWS",
                      "A change data rewrite got a row with the unknown " +
                          std::string(kRowLevelWriteActionColumn) + " " + std::to_string(action) +
                          ".");
}

class ChangeRowsWriter : public DataWriter {
 public:
  ChangeRowsWriter(std::unique_ptr<DataWriter> data, std::unique_ptr<DataWriter> changes,
                   int columns, std::shared_ptr<arrow::fs::FileSystem> filesystem, std::string root)
      : data_(std::move(data)),
        changes_(std::move(changes)),
        columns_(columns),
        filesystem_(std::move(filesystem)),
        root_(std::move(root)) {}

  Status Write(const arrow::RecordBatch& batch) override {
    const auto& actions =
        static_cast<const arrow::Int32Array&>(*batch.column(batch.num_columns() - 1));
    arrow::BooleanBuilder data_mask;
    arrow::BooleanBuilder change_mask;
    arrow::StringBuilder change_types;
    ARROW_RETURN_NOT_OK(data_mask.Reserve(batch.num_rows()));
    ARROW_RETURN_NOT_OK(change_mask.Reserve(batch.num_rows()));
    int64_t data_rows = 0, change_rows = 0;
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      const int32_t action = actions.Value(i);
      const char* type = ChangeTypeOf(action);
      if (type == nullptr && action != static_cast<int32_t>(RowLevelWriteAction::kCopy)) {
        return InvalidAction(action);
      }
      const bool data = IsDataRow(action);
      data_mask.UnsafeAppend(data);
      change_mask.UnsafeAppend(type != nullptr);
      data_rows += data;
      if (type != nullptr) {
        ++change_rows;
        ARROW_RETURN_NOT_OK(change_types.Append(type));
      }
    }
    if (data_rows == batch.num_rows()) {
      ARROW_RETURN_NOT_OK(data_->Write(batch));
    } else if (data_rows > 0) {
      ARROW_ASSIGN_OR_RAISE(auto mask, data_mask.Finish());
      ARROW_ASSIGN_OR_RAISE(
          auto kept, arrow::compute::Filter(arrow::Datum(batch.Slice(0)), arrow::Datum(mask)));
      ARROW_RETURN_NOT_OK(data_->Write(*kept.record_batch()));
    }
    if (change_rows == 0) return Status::OK();
    ARROW_ASSIGN_OR_RAISE(auto mask, change_mask.Finish());
    ARROW_ASSIGN_OR_RAISE(auto types, change_types.Finish());
    arrow::ArrayVector arrays(batch.columns().begin(), batch.columns().begin() + columns_);
    arrow::FieldVector fields(batch.schema()->fields().begin(),
                              batch.schema()->fields().begin() + columns_);
    auto table_columns =
        arrow::RecordBatch::Make(arrow::schema(fields), batch.num_rows(), std::move(arrays));
    ARROW_ASSIGN_OR_RAISE(auto changed,
                          arrow::compute::Filter(arrow::Datum(table_columns), arrow::Datum(mask)));
    ARROW_ASSIGN_OR_RAISE(auto rows, changed.record_batch()->AddColumn(columns_, kChangeTypeColumn,
                                                                       std::move(types)));
    return changes_->Write(*rows);
  }

  // One message with the data files' adds, then the change files' (dataChange=false).
  Result<CommitMessagePtr> Commit() override {
    ARROW_ASSIGN_OR_RAISE(auto data, data_->Commit());
    ARROW_ASSIGN_OR_RAISE(committed_, AddsOfMessage(*data));
    ARROW_ASSIGN_OR_RAISE(auto changes, changes_->Commit());
    ARROW_ASSIGN_OR_RAISE(auto change_files, AddsOfMessage(*changes));
    std::vector<FileAction> adds = std::move(committed_);
    committed_.clear();
    adds.insert(adds.end(), change_files.begin(), change_files.end());
    return MakeDeltaCommitMessage(std::move(adds));
  }

  // Both writers' open files go, and the data files of a Commit that failed half-way.
  Status Abort() override {
    Status status = data_->Abort();
    status &= changes_->Abort();
    for (const auto& file : committed_) {
      status &= filesystem_->DeleteFile(ResolveDataPath(root_, file.path));
    }
    committed_.clear();
    return status;
  }

  Status Close() override {
    Status status = data_->Close();
    status &= changes_->Close();
    return status;
  }

  std::vector<CustomTaskMetric> CurrentMetricsValues() const override {
    auto metrics = data_->CurrentMetricsValues();
    for (const auto& metric : changes_->CurrentMetricsValues()) {
      bool summed = false;
      for (auto& existing : metrics) {
        if (existing.name == metric.name) {
          existing.value += metric.value;
          summed = true;
        }
      }
      if (!summed) metrics.push_back(metric);
    }
    return metrics;
  }

 private:
  std::unique_ptr<DataWriter> data_;
  std::unique_ptr<DataWriter> changes_;
  int columns_;
  std::shared_ptr<arrow::fs::FileSystem> filesystem_;
  std::string root_;
  // The data files of a Commit whose change files then failed.
  std::vector<FileAction> committed_;
};

class ChangeRowsWriterFactory : public DataWriterFactory {
 public:
  ChangeRowsWriterFactory(std::shared_ptr<DataWriterFactory> data,
                          std::shared_ptr<DataWriterFactory> changes, int columns,
                          std::shared_ptr<arrow::fs::FileSystem> filesystem, std::string root)
      : data_(std::move(data)),
        changes_(std::move(changes)),
        columns_(columns),
        filesystem_(std::move(filesystem)),
        root_(std::move(root)) {}

  Result<std::unique_ptr<DataWriter>> CreateWriter(int partition_id, int64_t task_id) override {
    ARROW_ASSIGN_OR_RAISE(auto data, data_->CreateWriter(partition_id, task_id));
    ARROW_ASSIGN_OR_RAISE(auto changes, changes_->CreateWriter(partition_id, task_id));
    return std::make_unique<ChangeRowsWriter>(std::move(data), std::move(changes), columns_,
                                              filesystem_, root_);
  }
  Result<std::string> Serialize() const override { return data_->Serialize(); }

 private:
  std::shared_ptr<DataWriterFactory> data_;
  std::shared_ptr<DataWriterFactory> changes_;
  int columns_;
  std::shared_ptr<arrow::fs::FileSystem> filesystem_;
  std::string root_;
};

}  // namespace

Result<std::shared_ptr<DataWriterFactory>> MakeChangeRowsWriterFactory(
    std::shared_ptr<DataWriterFactory> data, const TableState& table) {
  WriteSpec spec = WriteSpecFor(table);
  spec.change_data = true;
  ARROW_ASSIGN_OR_RAISE(auto changes, MakeDeltaWriterFactory(std::move(spec)));
  return std::make_shared<ChangeRowsWriterFactory>(std::move(data), std::move(changes),
                                                   table.schema->num_fields(), table.filesystem,
                                                   table.root);
}

}  // namespace parley::delta
