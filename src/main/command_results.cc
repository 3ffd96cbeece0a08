// Command results as Arrow tables.
#include "main/command_results.h"

#include "arrow/array/builder_binary.h"
#include "arrow/table.h"

namespace parley {

Result<std::shared_ptr<arrow::Table>> StringTable(const std::vector<std::string>& columns,
                                                  const StringRows& rows) {
  arrow::FieldVector fields;
  arrow::ArrayVector arrays;
  for (size_t c = 0; c < columns.size(); ++c) {
    arrow::StringBuilder builder;
    for (const auto& row : rows) ARROW_RETURN_NOT_OK(builder.Append(row[c]));
    ARROW_ASSIGN_OR_RAISE(auto array, builder.Finish());
    fields.push_back(arrow::field(columns[c], arrow::utf8(), false));
    arrays.push_back(array);
  }
  return arrow::Table::Make(arrow::schema(fields), arrays, static_cast<int64_t>(rows.size()));
}

std::shared_ptr<arrow::Table> EmptyResult() {
  return arrow::Table::Make(arrow::schema({}), arrow::ArrayVector{}, 0);
}

}  // namespace parley
