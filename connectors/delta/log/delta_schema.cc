// Delta schema JSON <-> Arrow, column mapping, and reshaping file columns (see delta_schema.h).
#include "connectors/delta/log/delta_schema.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "arrow/array.h"
#include "arrow/array/util.h"
#include "arrow/compute/cast.h"
#include "arrow/type.h"
#include "arrow/util/bitmap_ops.h"
#include "arrow/util/key_value_metadata.h"
#include "connectors/common/dictionary_strings.h"
#include "connectors/delta/util.h"
#include "parley/connector/types.h"

namespace parley::delta {
namespace {

using nlohmann::json;

Status UnsupportedType(const std::string& column, const std::string& type) {
  return InvalidError("DELTA_UNSUPPORTED_DATA_TYPES",
                      "Found columns using unsupported data types: " + column + " (" + type + ").");
}

Status BadSchema(const std::string& detail) {
  return InvalidError("DELTA_INVALID_SCHEMA_STRING",
                      "The Delta table schema is not valid: " + detail + ".");
}

Result<std::shared_ptr<arrow::Field>> ParseField(const json& field, const std::string& path);

Result<std::shared_ptr<arrow::DataType>> ParseType(const json& type, const std::string& column) {
  if (type.is_string()) {
    const std::string& name = type.get_ref<const std::string&>();
    static const std::map<std::string, std::shared_ptr<arrow::DataType>> kPrimitives = {
        {"byte", arrow::int8()},
        {"short", arrow::int16()},
        {"integer", arrow::int32()},
        {"long", arrow::int64()},
        {"float", arrow::float32()},
        {"double", arrow::float64()},
        {"boolean", arrow::boolean()},
        {"string", arrow::utf8()},
        {"binary", arrow::binary()},
        {"date", arrow::date32()},
        {"timestamp", arrow::timestamp(arrow::TimeUnit::MICRO, "UTC")},
        {"timestamp_ntz", arrow::timestamp(arrow::TimeUnit::MICRO)},
    };
    auto found = kPrimitives.find(name);
    if (found != kPrimitives.end()) return found->second;
    static const std::regex kDecimal(R"(decimal\(\s*(\d+)\s*,\s*(-?\d+)\s*\))");
    std::smatch match;
    if (std::regex_match(name, match, kDecimal)) {
      const int64_t precision = ParseInt64(match[1].str()).value_or(0);
      const int64_t scale = ParseInt64(match[2].str()).value_or(precision + 1);
      if (precision < 1 || precision > 38 || scale > precision) {
        return UnsupportedType(column, name);
      }
      return arrow::decimal128(static_cast<int32_t>(precision), static_cast<int32_t>(scale));
    }
    if (name == "decimal") return arrow::decimal128(10, 0);
    return UnsupportedType(column, name);
  }
  if (!type.is_object() || !type.contains("type") || !type["type"].is_string()) {
    return BadSchema("the type of " + column + " is neither a name nor an object with a 'type'");
  }
  const std::string& kind = type["type"].get_ref<const std::string&>();
  if (kind == "struct") {
    if (!type.contains("fields") || !type["fields"].is_array()) {
      return BadSchema("the struct " + column + " has no 'fields' array");
    }
    arrow::FieldVector fields;
    for (const auto& child : type["fields"]) {
      ARROW_ASSIGN_OR_RAISE(auto field, ParseField(child, column));
      fields.push_back(std::move(field));
    }
    return arrow::struct_(std::move(fields));
  }
  if (kind == "array") {
    if (!type.contains("elementType"))
      return BadSchema("the array " + column + " has no elementType");
    ARROW_ASSIGN_OR_RAISE(auto element, ParseType(type["elementType"], column + ".element"));
    bool contains_null = !type.contains("containsNull") || type["containsNull"] != false;
    return arrow::list(arrow::field("element", std::move(element), contains_null));
  }
  if (kind == "map") {
    if (!type.contains("keyType") || !type.contains("valueType")) {
      return BadSchema("the map " + column + " has no keyType or valueType");
    }
    ARROW_ASSIGN_OR_RAISE(auto key, ParseType(type["keyType"], column + ".key"));
    ARROW_ASSIGN_OR_RAISE(auto value, ParseType(type["valueType"], column + ".value"));
    bool value_null = !type.contains("valueContainsNull") || type["valueContainsNull"] != false;
    return std::make_shared<arrow::MapType>(arrow::field("key", std::move(key), false),
                                            arrow::field("value", std::move(value), value_null));
  }
  return UnsupportedType(column, kind);
}

Result<std::shared_ptr<arrow::Field>> ParseField(const json& field, const std::string& path) {
  if (!field.is_object() || !field.contains("name") || !field["name"].is_string() ||
      !field.contains("type")) {
    return BadSchema("a field of " + (path.empty() ? std::string("the table") : path) +
                     " has no name or type");
  }
  std::string name = field["name"].get<std::string>();
  std::string column = path.empty() ? name : path + "." + name;
  ARROW_ASSIGN_OR_RAISE(auto type, ParseType(field["type"], column));
  bool nullable = !field.contains("nullable") || field["nullable"] != false;
  std::shared_ptr<arrow::KeyValueMetadata> metadata;
  if (field.contains("metadata") && field["metadata"].is_object() && !field["metadata"].empty()) {
    metadata = std::make_shared<arrow::KeyValueMetadata>();
    for (const auto& [key, value] : field["metadata"].items()) {
      metadata->Append(key, value.is_string() ? value.get<std::string>() : value.dump());
    }
  }
  return arrow::field(std::move(name), std::move(type), nullable, std::move(metadata));
}

Result<json> TypeToJson(const arrow::DataType& type, const std::string& column);

Result<json> FieldToJson(const arrow::Field& field, const std::string& path) {
  std::string column = path.empty() ? field.name() : path + "." + field.name();
  ARROW_ASSIGN_OR_RAISE(json type, TypeToJson(*field.type(), column));
  json metadata = json::object();
  if (field.metadata() != nullptr) {
    for (int64_t i = 0; i < field.metadata()->size(); ++i) {
      const std::string& key = field.metadata()->key(i);
      const std::string& value = field.metadata()->value(i);
      if (key == kParquetFieldIdKey) continue;
      json parsed =
          key == "comment" ? json(json::value_t::discarded) : json::parse(value, nullptr, false);
      metadata[key] = parsed.is_discarded() || parsed.is_string() ? json(value) : parsed;
    }
  }
  return json{{"name", field.name()},
              {"type", std::move(type)},
              {"nullable", field.nullable()},
              {"metadata", std::move(metadata)}};
}

Result<json> TypeToJson(const arrow::DataType& type, const std::string& column) {
  switch (type.id()) {
    case arrow::Type::INT8: return json("byte");
    case arrow::Type::INT16: return json("short");
    case arrow::Type::INT32: return json("integer");
    case arrow::Type::INT64: return json("long");
    case arrow::Type::FLOAT: return json("float");
    case arrow::Type::DOUBLE: return json("double");
    case arrow::Type::BOOL: return json("boolean");
    case arrow::Type::STRING:
    case arrow::Type::LARGE_STRING: return json("string");
    case arrow::Type::BINARY:
    case arrow::Type::LARGE_BINARY: return json("binary");
    case arrow::Type::DATE32: return json("date");
    case arrow::Type::TIMESTAMP:
      return json(static_cast<const arrow::TimestampType&>(type).timezone().empty()
                      ? "timestamp_ntz"
                      : "timestamp");
    case arrow::Type::DECIMAL128: {
      const auto& decimal = static_cast<const arrow::Decimal128Type&>(type);
      return json("decimal(" + std::to_string(decimal.precision()) + "," +
                  std::to_string(decimal.scale()) + ")");
    }
    case arrow::Type::LIST: {
      const auto& list = static_cast<const arrow::ListType&>(type);
      ARROW_ASSIGN_OR_RAISE(json element, TypeToJson(*list.value_type(), column + ".element"));
      return json{{"type", "array"},
                  {"elementType", std::move(element)},
                  {"containsNull", list.value_field()->nullable()}};
    }
    case arrow::Type::MAP: {
      const auto& map = static_cast<const arrow::MapType&>(type);
      ARROW_ASSIGN_OR_RAISE(json key, TypeToJson(*map.key_type(), column + ".key"));
      ARROW_ASSIGN_OR_RAISE(json value, TypeToJson(*map.item_type(), column + ".value"));
      return json{{"type", "map"},
                  {"keyType", std::move(key)},
                  {"valueType", std::move(value)},
                  {"valueContainsNull", map.item_field()->nullable()}};
    }
    case arrow::Type::STRUCT: {
      json fields = json::array();
      for (const auto& child : type.fields()) {
        ARROW_ASSIGN_OR_RAISE(json field, FieldToJson(*child, column));
        fields.push_back(std::move(field));
      }
      return json{{"type", "struct"}, {"fields", std::move(fields)}};
    }
    default: return UnsupportedType(column, type.ToString());
  }
}

std::optional<std::string> MetadataValue(const arrow::Field& field, const std::string& key) {
  if (field.metadata() == nullptr) return std::nullopt;
  int index = field.metadata()->FindKey(key);
  if (index < 0) return std::nullopt;
  return field.metadata()->value(index);
}

std::shared_ptr<arrow::Field> PlainField(const arrow::Field& field) {
  return arrow::field(field.name(), PlainType(field.type()), field.nullable());
}

std::shared_ptr<arrow::Field> PhysicalField(const arrow::Field& field, ColumnMappingMode mode);

std::shared_ptr<arrow::DataType> PhysicalType(const std::shared_ptr<arrow::DataType>& type,
                                              ColumnMappingMode mode) {
  switch (type->id()) {
    case arrow::Type::STRUCT: {
      arrow::FieldVector fields;
      for (const auto& child : type->fields()) fields.push_back(PhysicalField(*child, mode));
      return arrow::struct_(std::move(fields));
    }
    case arrow::Type::LIST: {
      const auto& list = static_cast<const arrow::ListType&>(*type);
      return arrow::list(arrow::field("element", PhysicalType(list.value_type(), mode),
                                      list.value_field()->nullable()));
    }
    case arrow::Type::MAP: {
      const auto& map = static_cast<const arrow::MapType&>(*type);
      return std::make_shared<arrow::MapType>(
          arrow::field("key", PhysicalType(map.key_type(), mode), false),
          arrow::field("value", PhysicalType(map.item_type(), mode), map.item_field()->nullable()));
    }
    default: return type;
  }
}

std::shared_ptr<arrow::Field> PhysicalField(const arrow::Field& field, ColumnMappingMode mode) {
  std::shared_ptr<arrow::KeyValueMetadata> metadata;
  if (mode == ColumnMappingMode::kId) {
    if (auto id = MetadataValue(field, kColumnIdKey)) {
      metadata = arrow::key_value_metadata({kParquetFieldIdKey}, {*id});
    }
  }
  return arrow::field(PhysicalName(field, mode), PhysicalType(field.type(), mode), field.nullable(),
                      std::move(metadata));
}

bool EqualsIgnoreCase(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::shared_ptr<arrow::Buffer> ValidityOf(const arrow::ArrayData& data) {
  if (data.buffers.empty() || data.buffers[0] == nullptr || data.offset == 0) {
    return data.buffers.empty() ? nullptr : data.buffers[0];
  }
  auto copied = arrow::internal::CopyBitmap(arrow::default_memory_pool(), data.buffers[0]->data(),
                                            data.offset, data.length);
  return copied.ok() ? *copied : nullptr;
}

}  // namespace

Result<ColumnMappingMode> ColumnMappingModeOf(
    const std::map<std::string, std::string>& configuration) {
  auto it = configuration.find("delta.columnMapping.mode");
  if (it == configuration.end() || it->second == "none") return ColumnMappingMode::kNone;
  if (it->second == "name") return ColumnMappingMode::kName;
  if (it->second == "id") return ColumnMappingMode::kId;
  return InvalidError(
      "DELTA_MODE_NOT_SUPPORTED",
      "Specified mode '" + it->second + "' is not supported. Supported modes are: none, name, id");
}

Result<std::shared_ptr<arrow::Schema>> SchemaFromDeltaJson(const std::string& schema_string) {
  json parsed = json::parse(schema_string, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return BadSchema("the schemaString is not JSON");
  if (!parsed.is_object() || parsed.value("type", "") != "struct" || !parsed.contains("fields") ||
      !parsed["fields"].is_array()) {
    return BadSchema("the schemaString is not a struct with fields");
  }
  arrow::FieldVector fields;
  for (const auto& field : parsed["fields"]) {
    ARROW_ASSIGN_OR_RAISE(auto parsed_field, ParseField(field, ""));
    fields.push_back(std::move(parsed_field));
  }
  return arrow::schema(std::move(fields));
}

Result<std::string> SchemaToDeltaJson(const arrow::Schema& schema) {
  json fields = json::array();
  for (const auto& field : schema.fields()) {
    ARROW_ASSIGN_OR_RAISE(json rendered, FieldToJson(*field, ""));
    fields.push_back(std::move(rendered));
  }
  return json{{"type", "struct"}, {"fields", std::move(fields)}}.dump();
}

std::shared_ptr<arrow::DataType> PlainType(const std::shared_ptr<arrow::DataType>& type) {
  switch (type->id()) {
    case arrow::Type::STRUCT: {
      arrow::FieldVector fields;
      for (const auto& child : type->fields()) fields.push_back(PlainField(*child));
      return arrow::struct_(std::move(fields));
    }
    case arrow::Type::LIST: {
      const auto& list = static_cast<const arrow::ListType&>(*type);
      return arrow::list(PlainField(*list.value_field()));
    }
    case arrow::Type::MAP: {
      const auto& map = static_cast<const arrow::MapType&>(*type);
      return std::make_shared<arrow::MapType>(PlainField(*map.key_field()),
                                              PlainField(*map.item_field()));
    }
    default: return type;
  }
}

std::shared_ptr<arrow::Schema> PlainSchema(const arrow::Schema& schema) {
  arrow::FieldVector fields;
  for (const auto& field : schema.fields()) {
    auto plain = PlainField(*field);
    // What the engine reads of a column's metadata: its comment and CHAR/VARCHAR declaration.
    std::vector<std::string> keys, values;
    for (const char* key : {"comment", kCharVarcharMetadataKey}) {
      if (auto value = MetadataValue(*field, key)) {
        keys.emplace_back(key);
        values.push_back(*value);
      }
    }
    if (!keys.empty()) {
      plain = plain->WithMetadata(arrow::key_value_metadata(std::move(keys), std::move(values)));
    }
    fields.push_back(std::move(plain));
  }
  return arrow::schema(std::move(fields));
}

std::string PhysicalName(const arrow::Field& field, ColumnMappingMode mode) {
  if (mode == ColumnMappingMode::kNone) return field.name();
  return MetadataValue(field, kPhysicalNameKey).value_or(field.name());
}

std::shared_ptr<arrow::Schema> PhysicalSchema(const arrow::Schema& schema, ColumnMappingMode mode) {
  arrow::FieldVector fields;
  for (const auto& field : schema.fields()) fields.push_back(PhysicalField(*field, mode));
  return arrow::schema(std::move(fields));
}

int FindFileField(const std::vector<std::shared_ptr<arrow::Field>>& file_fields,
                  const arrow::Field& table_field, ColumnMappingMode mode) {
  if (mode == ColumnMappingMode::kId) {
    if (auto id = MetadataValue(table_field, kColumnIdKey)) {
      for (size_t i = 0; i < file_fields.size(); ++i) {
        if (MetadataValue(*file_fields[i], kParquetFieldIdKey) == *id) return static_cast<int>(i);
      }
    }
  }
  std::string name = PhysicalName(table_field, mode);
  for (size_t i = 0; i < file_fields.size(); ++i) {
    if (file_fields[i]->name() == name) return static_cast<int>(i);
  }
  for (size_t i = 0; i < file_fields.size(); ++i) {
    if (EqualsIgnoreCase(file_fields[i]->name(), name)) return static_cast<int>(i);
  }
  return -1;
}

Result<std::shared_ptr<arrow::Array>> ConformColumn(const std::shared_ptr<arrow::Array>& column,
                                                    const arrow::Field& table_field,
                                                    ColumnMappingMode mode) {
  const auto& table_type = table_field.type();
  auto plain = PlainType(table_type);
  if (column->type()->Equals(*plain)) return column;
  const arrow::ArrayData& data = *column->data();
  switch (table_type->id()) {
    case arrow::Type::STRUCT: {
      if (column->type_id() != arrow::Type::STRUCT) break;
      const auto& file_struct = static_cast<const arrow::StructArray&>(*column);
      std::vector<std::shared_ptr<arrow::ArrayData>> children;
      for (const auto& child : table_type->fields()) {
        int index = FindFileField(column->type()->fields(), *child, mode);
        std::shared_ptr<arrow::Array> conformed;
        if (index < 0) {
          ARROW_ASSIGN_OR_RAISE(conformed,
                                arrow::MakeArrayOfNull(PlainType(child->type()), column->length()));
        } else {
          ARROW_ASSIGN_OR_RAISE(conformed, ConformColumn(file_struct.field(index), *child, mode));
        }
        children.push_back(conformed->data());
      }
      auto out = arrow::ArrayData::Make(plain, data.length, {ValidityOf(data)}, data.null_count, 0);
      out->child_data = std::move(children);
      return arrow::MakeArray(out);
    }
    case arrow::Type::LIST: {
      if (column->type_id() != arrow::Type::LIST) break;
      const auto& list = static_cast<const arrow::ListArray&>(*column);
      const auto& element = *static_cast<const arrow::ListType&>(*table_type).value_field();
      ARROW_ASSIGN_OR_RAISE(auto values, ConformColumn(list.values(), element, mode));
      auto out =
          arrow::ArrayData::Make(plain, data.length, data.buffers, data.null_count, data.offset);
      out->child_data = {values->data()};
      return arrow::MakeArray(out);
    }
    case arrow::Type::MAP: {
      if (column->type_id() != arrow::Type::MAP) break;
      const auto& map = static_cast<const arrow::MapArray&>(*column);
      const auto& map_type = static_cast<const arrow::MapType&>(*table_type);
      ARROW_ASSIGN_OR_RAISE(auto keys, ConformColumn(map.keys(), *map_type.key_field(), mode));
      ARROW_ASSIGN_OR_RAISE(auto items, ConformColumn(map.items(), *map_type.item_field(), mode));
      const auto& plain_map = static_cast<const arrow::MapType&>(*plain);
      auto entries = arrow::ArrayData::Make(plain_map.value_type(), keys->length(), {nullptr}, 0);
      entries->child_data = {keys->data(), items->data()};
      auto out =
          arrow::ArrayData::Make(plain, data.length, data.buffers, data.null_count, data.offset);
      out->child_data = {entries};
      return arrow::MakeArray(out);
    }
    default: {
      ARROW_ASSIGN_OR_RAISE(auto expanded, ExpandDictionaryStrings(*column, plain));
      if (expanded != nullptr) return expanded;
      ARROW_RETURN_NOT_OK(EnsureComputeInitialized());
      arrow::compute::CastOptions options = arrow::compute::CastOptions::Safe(plain);
      ARROW_ASSIGN_OR_RAISE(auto cast, arrow::compute::Cast(*column, plain, options));
      return cast;
    }
  }
  return InvalidError("FAILED_READ_FILE.PARQUET_COLUMN_DATA_TYPE_MISMATCH",
                      "The data file column for " + QuoteIdentifier(table_field.name()) +
                          " has type " + column->type()->ToString() + ", which cannot be read as " +
                          plain->ToString() + ".");
}

}  // namespace parley::delta
