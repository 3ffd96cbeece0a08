// Delta table schemas (the `schemaString` JSON of a metaData action) as Arrow schemas, column
// mapping, and the reshaping of data-file columns into table columns.
//
// Types: byte/short/integer/long -> int8/16/32/64, float, double, boolean, string -> utf8,
// binary, date -> date32, timestamp -> timestamp(us, "UTC"), timestamp_ntz -> timestamp(us),
// decimal(p,s) -> decimal128(p,s), array -> list<element>, map -> map<key, value>, struct ->
// struct; `nullable`, `containsNull` and `valueContainsNull` become Arrow nullability. Any other
// type fails with DELTA_UNSUPPORTED_DATA_TYPES naming the column.
//
// An *annotated* schema keeps each field's Delta metadata as Arrow field metadata: string values
// as they are, other JSON values (numbers, booleans, objects) as JSON text; converting back
// restores them (a value under "comment" is always a string). So `comment` is what
// parley::Column::FromField reads, and `delta.columnMapping.physicalName` / `.id` drive column
// mapping. PlainType/PlainSchema drop the annotations for what the engine sees.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "arrow/type_fwd.h"
#include "parley/connector/status.h"

namespace parley::delta {

/// \brief `delta.columnMapping.mode`.
enum class ColumnMappingMode { kNone, kName, kId };

inline constexpr char kPhysicalNameKey[] = "delta.columnMapping.physicalName";
inline constexpr char kColumnIdKey[] = "delta.columnMapping.id";
/// The Arrow field metadata key Parquet's field_id travels under.
inline constexpr char kParquetFieldIdKey[] = "PARQUET:field_id";

/// \brief The table's column mapping mode from its configuration; an unknown mode fails with
/// DELTA_MODE_NOT_SUPPORTED.
Result<ColumnMappingMode> ColumnMappingModeOf(
    const std::map<std::string, std::string>& configuration);

/// \brief Parse a Delta schema JSON string into an annotated Arrow schema.
Result<std::shared_ptr<arrow::Schema>> SchemaFromDeltaJson(const std::string& schema_string);

/// \brief Render an (annotated or plain) Arrow schema as Delta schema JSON.
Result<std::string> SchemaToDeltaJson(const arrow::Schema& schema);

/// \brief The type without field annotations.
std::shared_ptr<arrow::DataType> PlainType(const std::shared_ptr<arrow::DataType>& type);

/// \brief The schema without annotations, keeping only each top-level field's "comment" and
/// CHAR/VARCHAR declaration (kCharVarcharMetadataKey).
std::shared_ptr<arrow::Schema> PlainSchema(const arrow::Schema& schema);

/// \brief The name of `field` in data files, partition values and statistics under `mode`.
std::string PhysicalName(const arrow::Field& field, ColumnMappingMode mode);

/// \brief The schema data files are written with: physical names, and in `id` mode each field's
/// id as its Parquet field_id. Annotations are dropped otherwise.
std::shared_ptr<arrow::Schema> PhysicalSchema(const arrow::Schema& schema, ColumnMappingMode mode);

/// \brief The index in `file_fields` of the data-file field holding the annotated
/// `table_field`, or -1: by field_id in `id` mode (falling back to the physical name), by
/// physical name in `name` mode, by name (exact, then case-insensitive) otherwise.
int FindFileField(const std::vector<std::shared_ptr<arrow::Field>>& file_fields,
                  const arrow::Field& table_field, ColumnMappingMode mode);

/// \brief Reshape a column read from a data file into PlainType(table_field.type()): nested
/// fields are matched with FindFileField and missing ones read as null; other type differences
/// (type widening, timestamp units and zones) are cast.
Result<std::shared_ptr<arrow::Array>> ConformColumn(const std::shared_ptr<arrow::Array>& column,
                                                    const arrow::Field& table_field,
                                                    ColumnMappingMode mode);

}  // namespace parley::delta
