// Identifiers, columns and table metadata exchanged between the engine and connectors.
//
// These are plain values: copyable, immutable once built, and safe to share between threads.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"

namespace parley {

/// \brief A case-insensitive-by-convention options map, as Spark's CaseInsensitiveStringMap.
/// Keys are stored lower-cased by the engine before they reach a connector.
using Options = std::map<std::string, std::string>;

/// \brief Identifies a table or view inside a catalog: a namespace path plus a name.
struct Identifier {
  std::vector<std::string> namespace_path;
  std::string name;

  /// \brief Render as `ns1`.`ns2`.`name` with Spark's quoting.
  std::string ToString() const;
  bool operator==(const Identifier& other) const = default;
};

/// \brief A column of a table: name, Arrow type, nullability, comment and default value.
/// The Arrow field metadata key (Spark's) holding a STRING column's CHAR(n) / VARCHAR(n).
inline constexpr const char* kCharVarcharMetadataKey = "__CHAR_VARCHAR_TYPE_STRING";

struct Column {
  std::string name;
  std::shared_ptr<arrow::DataType> type;
  bool nullable = true;
  std::string comment;
  /// SQL text of the default value, when the column has one.
  std::optional<std::string> default_value;
  /// For a STRING column declared CHAR(n) or VARCHAR(n): that declaration, lower case
  /// ("char(3)", "varchar(10)"); empty otherwise. Kept as the field metadata
  /// kCharVarcharMetadataKey, as Spark keeps it; writes check values against it.
  std::string char_varchar = {};

  /// \brief Build an Arrow field carrying the comment ("comment"), the default ("default") and
  /// the CHAR/VARCHAR declaration (kCharVarcharMetadataKey) as field metadata.
  std::shared_ptr<arrow::Field> ToField() const;
  /// \brief Build a column from an Arrow field, reading the metadata ToField writes.
  static Column FromField(const arrow::Field& field);
};

/// \brief Build an Arrow schema from columns.
std::shared_ptr<arrow::Schema> ColumnsToSchema(const std::vector<Column>& columns);
/// \brief Build columns from an Arrow schema.
std::vector<Column> SchemaToColumns(const arrow::Schema& schema);

class Transform;

/// \brief Everything CREATE TABLE passes to TableCatalog::CreateTable.
struct TableInfo {
  std::vector<Column> columns;
  std::vector<std::shared_ptr<Transform>> partitioning;
  std::map<std::string, std::string> properties;
};

}  // namespace parley
