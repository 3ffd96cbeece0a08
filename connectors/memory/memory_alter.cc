// ALTER TABLE for the memory catalog: apply TableChanges to a copy of a table's metadata and
// data. The catalog swaps the copy in only when every change applied, so a failing change leaves
// the table as it was (TableCatalog::AlterTable is all or none).
#include "memory_alter_internal.h"

#include <algorithm>

#include "arrow/array/util.h"
#include "arrow/compute/cast.h"
#include "arrow/record_batch.h"
#include "arrow/table.h"
#include "arrow/type.h"
#include "names_internal.h"
#include "parley/connector/status.h"

namespace parley::memory {
namespace {

Status Unsupported(const std::string& table, const TableChange& change, const std::string& why) {
  return InvalidError(
      "UNSUPPORTED_FEATURE.TABLE_OPERATION",
      "The memory table " + table + " does not support " + change.ToString() + ": " + why);
}

Status FieldNotFound(const std::string& table, const std::string& column) {
  return InvalidError("FIELD_NOT_FOUND", "No such struct field " + QuoteIdentifier(column) +
                                             " in the table " + table + ".");
}

// The table's columns with the arrays holding every stored row, one per column.
struct ColumnData {
  Column column;
  std::shared_ptr<arrow::ChunkedArray> values;
};

int FindColumn(const std::vector<ColumnData>& columns, const std::string& name) {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (EqualsIgnoreCase(columns[i].column.name, name)) return static_cast<int>(i);
  }
  return -1;
}

Status MoveTo(std::vector<ColumnData>* columns, int index, const ColumnPosition& position,
              const std::string& table) {
  ColumnData moved = std::move((*columns)[index]);
  columns->erase(columns->begin() + index);
  size_t target = 0;
  if (!position.first) {
    int after = FindColumn(*columns, position.after);
    if (after < 0) return FieldNotFound(table, position.after);
    target = static_cast<size_t>(after) + 1;
  }
  columns->insert(columns->begin() + static_cast<std::ptrdiff_t>(target), std::move(moved));
  return Status::OK();
}

Status ApplyChange(const TableChange& change, const std::string& table, int64_t num_rows,
                   std::vector<ColumnData>* columns,
                   std::map<std::string, std::string>* properties) {
  using Kind = TableChange::Kind;
  if (change.kind == Kind::kSetProperty) {
    (*properties)[change.property_key] = change.property_value;
    return Status::OK();
  }
  if (change.kind == Kind::kRemoveProperty) {
    properties->erase(change.property_key);
    return Status::OK();
  }
  if (change.field_names.size() != 1) {
    return Unsupported(table, change, "nested fields are not supported.");
  }
  const std::string& name = change.field_names[0];
  int index = FindColumn(*columns, name);
  if (change.kind == Kind::kAddColumn) {
    if (index >= 0) {
      return InvalidError("FIELD_ALREADY_EXISTS",
                          "Cannot add column, because " + QuoteIdentifier(name) +
                              " already exists in the table " + table + ".");
    }
    if (!change.nullable && num_rows > 0) {
      return Unsupported(table, change, "a NOT NULL column cannot be added to a table with rows.");
    }
    ARROW_ASSIGN_OR_RAISE(auto nulls, arrow::MakeArrayOfNull(change.type, num_rows));
    Column column{name,
                  change.type,
                  change.nullable,
                  change.comment.value_or(""),
                  change.default_value,
                  change.char_varchar};
    columns->push_back({std::move(column), std::make_shared<arrow::ChunkedArray>(nulls)});
    if (change.position) {
      return MoveTo(columns, static_cast<int>(columns->size()) - 1, *change.position, table);
    }
    return Status::OK();
  }
  if (index < 0) {
    if (change.kind == Kind::kDeleteColumn && change.if_exists) return Status::OK();
    return FieldNotFound(table, name);
  }
  ColumnData& target = (*columns)[index];
  switch (change.kind) {
    case Kind::kRenameColumn: {
      int clash = FindColumn(*columns, change.new_name);
      if (clash >= 0 && clash != index) {
        return InvalidError("FIELD_ALREADY_EXISTS",
                            "Cannot rename column, because " + QuoteIdentifier(change.new_name) +
                                " already exists in the table " + table + ".");
      }
      target.column.name = change.new_name;
      return Status::OK();
    }
    case Kind::kUpdateColumnType: {
      arrow::compute::CastOptions options = arrow::compute::CastOptions::Safe(change.type);
      ARROW_ASSIGN_OR_RAISE(auto cast, arrow::compute::Cast(target.values, options));
      target.values = cast.chunked_array();
      target.column.type = change.type;
      return Status::OK();
    }
    case Kind::kUpdateColumnNullability:
      if (!change.nullable && target.values->null_count() > 0) {
        return InvalidError("NOT_NULL_ASSERT_VIOLATION", "Cannot make " + QuoteIdentifier(name) +
                                                             " of the table " + table +
                                                             " NOT NULL: it holds NULL values.");
      }
      target.column.nullable = change.nullable;
      return Status::OK();
    case Kind::kUpdateColumnComment:
      target.column.comment = change.comment.value_or("");
      return Status::OK();
    case Kind::kUpdateColumnDefaultValue:
      if (change.default_value && !change.default_value->empty()) {
        target.column.default_value = change.default_value;
      } else {
        target.column.default_value.reset();
      }
      return Status::OK();
    case Kind::kUpdateColumnPosition:
      if (!change.position) return Unsupported(table, change, "no position given.");
      return MoveTo(columns, index, *change.position, table);
    case Kind::kDeleteColumn:
      if (columns->size() == 1) {
        return Unsupported(table, change, "a table must keep at least one column.");
      }
      columns->erase(columns->begin() + index);
      return Status::OK();
    default: return Unsupported(table, change, "unknown change.");
  }
}

}  // namespace

Result<AlteredTable> AlterMemoryTable(const MemoryTable& table,
                                      const std::vector<TableChange>& changes) {
  const std::string name = table.name();
  ARROW_ASSIGN_OR_RAISE(auto data,
                        arrow::Table::FromRecordBatches(table.schema(), table.batches()));
  std::vector<ColumnData> columns;
  auto table_columns = table.columns();
  for (size_t i = 0; i < table_columns.size(); ++i) {
    columns.push_back({table_columns[i], data->column(static_cast<int>(i))});
  }
  auto properties = table.properties();
  for (const auto& change : changes) {
    ARROW_RETURN_NOT_OK(ApplyChange(change, name, data->num_rows(), &columns, &properties));
  }

  AlteredTable altered;
  altered.info.partitioning = table.partitioning();
  altered.info.properties = std::move(properties);
  arrow::ChunkedArrayVector arrays;
  for (auto& column : columns) {
    altered.info.columns.push_back(column.column);
    arrays.push_back(column.values);
  }
  for (const auto& transform : altered.info.partitioning) {
    for (const auto& reference : transform->References()) {
      const std::string& column = reference->field_names().front();
      if (FindColumn(columns, column) < 0) {
        return InvalidError("UNSUPPORTED_FEATURE.TABLE_OPERATION",
                            "The memory table " + name +
                                " cannot drop or rename the partition "
                                "column " +
                                QuoteIdentifier(column) + ".");
      }
    }
  }
  altered.data = arrow::Table::Make(ColumnsToSchema(altered.info.columns), std::move(arrays),
                                    data->num_rows());
  return altered;
}

}  // namespace parley::memory
