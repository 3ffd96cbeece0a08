// MergeOnReadRowWriter: a write task's rows, split by action into DeltaWriter calls.
#include "exec/merge_on_read_writer.h"

#include <fmt/format.h>

#include <array>
#include <vector>

#include "arrow/array.h"
#include "arrow/record_batch.h"
#include "arrow/type.h"
#include "exec/row_selection.h"

namespace parley {
namespace {

constexpr int kActions = 4;  // RowLevelWriteAction kCopy..kInsert index the row lists

class MergeOnReadRowWriter : public DataWriter {
 public:
  MergeOnReadRowWriter(std::unique_ptr<DataWriter> owner, DeltaWriter* writer,
                       std::shared_ptr<const MergeOnReadRowLayout> layout)
      : owner_(std::move(owner)), writer_(writer), layout_(std::move(layout)) {}

  Status Write(const arrow::RecordBatch& batch) override {
    const int n = layout_->rows->num_fields();
    const int m = layout_->metadata->num_fields();
    const int r = layout_->row_ids->num_fields();
    const auto& actions = static_cast<const arrow::Int32Array&>(*batch.column(n + m + r));
    std::array<std::vector<int64_t>, kActions> rows;
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      const int32_t action = actions.Value(i);
      if (action != static_cast<int32_t>(RowLevelWriteAction::kDelete) &&
          action != static_cast<int32_t>(RowLevelWriteAction::kUpdate) &&
          action != static_cast<int32_t>(RowLevelWriteAction::kInsert)) {
        return InvalidError("INTERNAL_ERROR",
                            fmt::format("A delta-based write into {} received a row with "
                                        "action {}.",
                                        layout_->table_name, action));
      }
      rows[action].push_back(i);
    }
    for (auto action : {RowLevelWriteAction::kDelete, RowLevelWriteAction::kUpdate,
                        RowLevelWriteAction::kInsert}) {
      const auto& selected = rows[static_cast<int>(action)];
      if (selected.empty()) continue;
      ARROW_ASSIGN_OR_RAISE(auto part, TakeRows(batch, selected));
      const auto& columns = part->columns();
      auto slice = [&](const std::shared_ptr<arrow::Schema>& schema, int start) {
        return arrow::RecordBatch::Make(
            schema, part->num_rows(),
            arrow::ArrayVector(columns.begin() + start,
                               columns.begin() + start + schema->num_fields()));
      };
      auto data = slice(layout_->rows, 0);
      auto metadata = slice(layout_->metadata, n);
      auto row_ids = slice(layout_->row_ids, n + m);
      switch (action) {
        case RowLevelWriteAction::kDelete:
          ARROW_RETURN_NOT_OK(writer_->Delete(*metadata, *row_ids));
          break;
        case RowLevelWriteAction::kUpdate:
          if (layout_->update_as_delete_and_insert) {
            ARROW_RETURN_NOT_OK(writer_->Delete(*metadata, *row_ids));
            ARROW_RETURN_NOT_OK(writer_->Insert(*data));
          } else {
            ARROW_RETURN_NOT_OK(writer_->Update(*metadata, *row_ids, *data));
          }
          break;
        default: ARROW_RETURN_NOT_OK(writer_->Insert(*data)); break;
      }
    }
    return Status::OK();
  }

  Result<CommitMessagePtr> Commit() override { return writer_->Commit(); }
  Status Abort() override { return writer_->Abort(); }
  Status Close() override { return writer_->Close(); }
  std::vector<CustomTaskMetric> CurrentMetricsValues() const override {
    return writer_->CurrentMetricsValues();
  }

 private:
  std::unique_ptr<DataWriter> owner_;
  DeltaWriter* writer_;  // owner_ as a DeltaWriter
  std::shared_ptr<const MergeOnReadRowLayout> layout_;
};

}  // namespace

std::shared_ptr<arrow::Schema> MergeOnReadTaskSchema(const MergeOnReadRowLayout& layout) {
  arrow::FieldVector fields = layout.rows->fields();
  for (const auto& field : layout.metadata->fields()) fields.push_back(field);
  for (const auto& field : layout.row_ids->fields()) {
    fields.push_back(field->WithName("__row_id_" + field->name()));
  }
  fields.push_back(arrow::field(kRowLevelWriteActionColumn, arrow::int32(), false));
  return arrow::schema(std::move(fields));
}

Result<std::unique_ptr<DataWriter>> MakeMergeOnReadRowWriter(
    std::unique_ptr<DataWriter> writer, std::shared_ptr<const MergeOnReadRowLayout> layout) {
  auto* delta = dynamic_cast<DeltaWriter*>(writer.get());
  if (delta == nullptr) {
    std::string message = fmt::format(
        "The delta-based row-level write into {} created a task writer that is not a "
        "DeltaWriter.",
        layout->table_name);
    Status aborted = writer->Abort();
    Status closed = writer->Close();
    if (aborted.ok()) aborted = closed;
    if (!aborted.ok()) message += " (releasing it also failed: " + aborted.message() + ")";
    return InvalidError("CONNECTOR_CONTRACT_VIOLATION.NOT_A_DELTA_WRITER", message);
  }
  return std::make_unique<MergeOnReadRowWriter>(std::move(writer), delta, std::move(layout));
}

}  // namespace parley
