// ReplicateRows: row indices repeated by count, then one Take.
#include "exec/replicate_rows.h"

#include "arrow/array.h"
#include "arrow/builder.h"
#include "arrow/compute/api_vector.h"
#include "arrow/datum.h"
#include "arrow/table.h"

namespace parley {

Result<std::shared_ptr<arrow::Table>> ReplicateRows(const arrow::Table& input,
                                                    const std::string& count_column,
                                                    const std::vector<std::string>& columns) {
  auto counts = input.GetColumnByName(count_column);
  if (counts == nullptr) return Status::Invalid("ReplicateRows: no column ", count_column);
  arrow::Int64Builder indices;
  int64_t row = 0;
  for (const auto& chunk : counts->chunks()) {
    const auto& values = static_cast<const arrow::Int64Array&>(*chunk);
    for (int64_t i = 0; i < values.length(); ++i, ++row) {
      if (values.IsNull(i)) continue;
      for (int64_t copy = 0; copy < values.Value(i); ++copy) {
        ARROW_RETURN_NOT_OK(indices.Append(row));
      }
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto take, indices.Finish());
  if (columns.empty()) {
    // Only the number of rows is wanted (count(*) above).
    return arrow::Table::Make(arrow::schema({}), arrow::ChunkedArrayVector{}, take->length());
  }
  std::vector<int> kept;
  for (const auto& name : columns) {
    int index = input.schema()->GetFieldIndex(name);
    if (index < 0) return Status::Invalid("ReplicateRows: no column ", name);
    kept.push_back(index);
  }
  ARROW_ASSIGN_OR_RAISE(auto selected, input.SelectColumns(kept));
  ARROW_ASSIGN_OR_RAISE(auto taken,
                        arrow::compute::Take(arrow::Datum(selected), arrow::Datum(take)));
  return taken.table();
}

}  // namespace parley
