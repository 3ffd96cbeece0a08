// The metadata and protocol of a table being created or replaced, from CREATE TABLE's TableInfo.
#include <string>
#include <utility>

#include "arrow/type.h"
#include "arrow/util/key_value_metadata.h"

#include "connectors/delta/log/protocol.h"
#include "connectors/delta/log/row_tracking.h"
#include "connectors/delta/util.h"
#include "connectors/delta/write/create.h"
#include "parley/connector/catalog.h"

namespace parley::delta {
namespace {

bool IsReservedProperty(const std::string& key) {
  return key == kPropProvider || key == kPropLocation || key == kPropComment || key == kPropOwner ||
         key == kPropExternal || key.starts_with(kOptionPrefix);
}

// Give every field (nested ones too) a column mapping id and physical name.
std::shared_ptr<arrow::Field> AssignColumnMapping(const std::shared_ptr<arrow::Field>& field,
                                                  int64_t* next_id);

std::shared_ptr<arrow::DataType> MapType(const std::shared_ptr<arrow::DataType>& type,
                                         int64_t* next_id) {
  switch (type->id()) {
    case arrow::Type::STRUCT: {
      arrow::FieldVector fields;
      for (const auto& child : type->fields())
        fields.push_back(AssignColumnMapping(child, next_id));
      return arrow::struct_(std::move(fields));
    }
    case arrow::Type::LIST: {
      const auto& list = static_cast<const arrow::ListType&>(*type);
      return arrow::list(list.value_field()->WithType(MapType(list.value_type(), next_id)));
    }
    case arrow::Type::MAP: {
      const auto& map = static_cast<const arrow::MapType&>(*type);
      return std::make_shared<arrow::MapType>(
          map.key_field()->WithType(MapType(map.key_type(), next_id)),
          map.item_field()->WithType(MapType(map.item_type(), next_id)));
    }
    default: return type;
  }
}

std::shared_ptr<arrow::Field> AssignColumnMapping(const std::shared_ptr<arrow::Field>& field,
                                                  int64_t* next_id) {
  auto metadata =
      field->metadata() ? field->metadata()->Copy() : std::make_shared<arrow::KeyValueMetadata>();
  int64_t id = (*next_id)++;
  ARROW_UNUSED(metadata->Set(kColumnIdKey, std::to_string(id)));
  ARROW_UNUSED(metadata->Set(kPhysicalNameKey, "col-" + RandomUuid()));
  return field->WithType(MapType(field->type(), next_id))->WithMetadata(metadata);
}

bool CanPartitionBy(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::BINARY:
    case arrow::Type::STRUCT:
    case arrow::Type::LIST:
    case arrow::Type::MAP: return false;
    default: return true;
  }
}

// Appends the names of `field` and its nested fields that hold a character Delta cannot store
// without column mapping.
void CollectInvalidNames(const arrow::Field& field, std::vector<std::string>* invalid) {
  if (field.name().find_first_of(" ,;{}()\n\t=") != std::string::npos) {
    invalid->push_back(field.name());
  }
  for (const auto& child : field.type()->fields()) CollectInvalidNames(*child, invalid);
}

}  // namespace

Status CheckColumnNames(const arrow::FieldVector& fields, ColumnMappingMode mode) {
  if (mode != ColumnMappingMode::kNone) return Status::OK();
  std::vector<std::string> invalid;
  for (const auto& field : fields) CollectInvalidNames(*field, &invalid);
  if (invalid.empty()) return Status::OK();
  std::string names;
  for (const auto& name : invalid) names += (names.empty() ? "" : ", ") + name;
  return InvalidError("DELTA_INVALID_CHARACTERS_IN_COLUMN_NAMES",
                      "Found invalid character(s) among ' ,;{}()\\n\\t=' in the column names "
                      "of your schema. Invalid column names: " +
                          names +
                          ". Rename them (an alias in the query), or create the table with "
                          "column mapping ('delta.columnMapping.mode' = 'name').");
}

Result<NewTableMetadata> MetadataForCreate(const TableInfo& info,
                                           const std::optional<Protocol>& current) {
  NewTableMetadata out;
  Metadata& metadata = out.metadata;
  metadata.id = RandomUuid();
  metadata.created_time = NowMillis();
  for (const auto& [key, value] : info.properties) {
    if (!IsReservedProperty(key)) metadata.configuration[key] = value;
  }
  auto provider = info.properties.find(kPropProvider);
  if (provider != info.properties.end() && !provider->second.empty()) {
    std::string name = provider->second;
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name != "delta") {
      return InvalidError("UNSUPPORTED_FEATURE.TABLE_OPERATION",
                          "The Delta catalog creates Delta tables only, not USING " +
                              provider->second + "; read other formats by path, e.g. " + name +
                              ".`/path`.");
    }
  }
  auto comment = info.properties.find(kPropComment);
  if (comment != info.properties.end()) metadata.description = comment->second;
  ARROW_RETURN_NOT_OK(ValidateConfiguration(metadata.configuration));
  NameMaterializedColumns(&metadata);

  arrow::FieldVector fields;
  for (const auto& column : info.columns) {
    if (column.default_value) {
      return InvalidError("UNSUPPORTED_FEATURE.TABLE_OPERATION",
                          "Column " + QuoteIdentifier(column.name) +
                              " has a DEFAULT value; Delta tables written by Parley do not "
                              "support column defaults yet.");
    }
    fields.push_back(column.ToField());
  }
  auto schema = arrow::schema(fields);
  ARROW_ASSIGN_OR_RAISE(auto mode, ColumnMappingModeOf(metadata.configuration));
  ARROW_RETURN_NOT_OK(CheckColumnNames(fields, mode));
  if (mode != ColumnMappingMode::kNone) {
    int64_t next_id = 1;
    arrow::FieldVector mapped;
    for (const auto& field : fields) mapped.push_back(AssignColumnMapping(field, &next_id));
    schema = arrow::schema(mapped);
    metadata.configuration["delta.columnMapping.maxColumnId"] = std::to_string(next_id - 1);
  }
  for (const auto& transform : info.partitioning) {
    const auto* reference =
        transform->arguments().size() == 1
            ? dynamic_cast<const NamedReference*>(transform->arguments()[0].get())
            : nullptr;
    if (transform->name() != "identity" || reference == nullptr ||
        reference->field_names().size() != 1) {
      return InvalidError("UNSUPPORTED_FEATURE.TABLE_OPERATION",
                          "Delta tables are partitioned by columns; the transform " +
                              transform->ToString() + " is not supported.");
    }
    const std::string& name = reference->field_names()[0];
    auto field = schema->GetFieldByName(name);
    if (field == nullptr) {
      return InvalidError(
          "DELTA_PARTITION_COLUMN_NOT_FOUND",
          "Partition column " + QuoteIdentifier(name) + " not found in the table's columns.");
    }
    if (!CanPartitionBy(*field->type())) {
      return InvalidError("DELTA_INVALID_PARTITION_COLUMN_TYPE",
                          "Using column " + QuoteIdentifier(name) + " of type " +
                              field->type()->ToString() +
                              " as a partition column is not "
                              "supported.");
    }
    metadata.partition_columns.push_back(name);
  }
  if (!metadata.partition_columns.empty() &&
      metadata.partition_columns.size() == static_cast<size_t>(schema->num_fields())) {
    return InvalidError("DELTA_CANNOT_USE_ALL_COLUMNS_FOR_PARTITION",
                        "Cannot use all columns for partition columns.");
  }
  ARROW_ASSIGN_OR_RAISE(metadata.schema_string, SchemaToDeltaJson(*schema));
  out.protocol = RequiredProtocol(metadata.configuration, *schema, current);
  return out;
}

}  // namespace parley::delta
