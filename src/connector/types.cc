// Identifiers and columns: rendering, and conversion between columns and Arrow schemas.
#include "parley/connector/types.h"

#include "arrow/type.h"
#include "arrow/util/key_value_metadata.h"
#include "parley/connector/status.h"

namespace parley {

std::string Identifier::ToString() const {
  std::string out;
  for (const auto& part : namespace_path) {
    out += QuoteIdentifier(part);
    out += '.';
  }
  out += QuoteIdentifier(name);
  return out;
}

std::shared_ptr<arrow::Field> Column::ToField() const {
  std::shared_ptr<arrow::KeyValueMetadata> metadata;
  if (!comment.empty() || default_value || !char_varchar.empty()) {
    metadata = std::make_shared<arrow::KeyValueMetadata>();
    if (!comment.empty()) metadata->Append("comment", comment);
    if (default_value) metadata->Append("default", *default_value);
    if (!char_varchar.empty()) metadata->Append(kCharVarcharMetadataKey, char_varchar);
  }
  return arrow::field(name, type, nullable, std::move(metadata));
}

Column Column::FromField(const arrow::Field& field) {
  Column column{field.name(), field.type(), field.nullable(), {}, {}, {}};
  if (const auto& metadata = field.metadata()) {
    if (auto comment = metadata->Get("comment"); comment.ok()) column.comment = *comment;
    if (auto value = metadata->Get("default"); value.ok()) column.default_value = *value;
    if (auto declared = metadata->Get(kCharVarcharMetadataKey); declared.ok()) {
      column.char_varchar = *declared;
    }
  }
  return column;
}

std::shared_ptr<arrow::Schema> ColumnsToSchema(const std::vector<Column>& columns) {
  arrow::FieldVector fields;
  fields.reserve(columns.size());
  for (const auto& column : columns) fields.push_back(column.ToField());
  return arrow::schema(std::move(fields));
}

std::vector<Column> SchemaToColumns(const arrow::Schema& schema) {
  std::vector<Column> columns;
  columns.reserve(schema.num_fields());
  for (const auto& field : schema.fields()) columns.push_back(Column::FromField(*field));
  return columns;
}

}  // namespace parley
