// Column access for the change-data passes, on Arrow compute kernels.
#include "cdc/change_columns.h"

#include <fmt/format.h>

#include "arrow/array.h"
#include "arrow/builder.h"
#include "arrow/compute/api.h"
#include "arrow/record_batch.h"
#include "arrow/table.h"
#include "parley/connector/changelog.h"

namespace parley {

namespace cp = arrow::compute;

Result<std::shared_ptr<arrow::Array>> ColumnAtPath(const arrow::RecordBatch& batch,
                                                   const std::vector<std::string>& path) {
  auto array = batch.GetColumnByName(path.front());
  if (array == nullptr) {
    return Status::KeyError(fmt::format("column {} is not in the change rows", path.front()));
  }
  for (size_t i = 1; i < path.size(); ++i) {
    cp::StructFieldOptions options{arrow::FieldRef(path[i])};
    ARROW_ASSIGN_OR_RAISE(auto field, cp::CallFunction("struct_field", {array}, &options));
    array = field.make_array();
  }
  return array;
}

Result<std::shared_ptr<arrow::Int32Array>> ChangeTypeCodes(const arrow::Array& change_type) {
  arrow::StringBuilder builder;
  ARROW_RETURN_NOT_OK(builder.AppendValues(
      {kChangeDelete, kChangeInsert, kChangeUpdatePreimage, kChangeUpdatePostimage}));
  ARROW_ASSIGN_OR_RAISE(auto value_set, builder.Finish());
  ARROW_ASSIGN_OR_RAISE(auto values, cp::Cast(change_type, arrow::utf8()));
  cp::SetLookupOptions options(value_set);
  ARROW_ASSIGN_OR_RAISE(auto codes, cp::CallFunction("index_in", {values}, &options));
  return std::static_pointer_cast<arrow::Int32Array>(codes.make_array());
}

Result<std::shared_ptr<arrow::RecordBatch>> WithChangeTypes(
    const std::shared_ptr<arrow::RecordBatch>& batch, const std::shared_ptr<arrow::Array>& labels) {
  int index = batch->schema()->GetFieldIndex(kChangeTypeColumn);
  if (index < 0) return Status::KeyError("the change rows have no _change_type column");
  ARROW_ASSIGN_OR_RAISE(auto typed, cp::Cast(*labels, batch->schema()->field(index)->type()));
  return batch->SetColumn(index, batch->schema()->field(index), typed);
}

Result<std::vector<std::shared_ptr<arrow::RecordBatch>>> TableBatches(
    const std::shared_ptr<arrow::Table>& table) {
  arrow::TableBatchReader reader(*table);
  return reader.ToRecordBatches();
}

}  // namespace parley
