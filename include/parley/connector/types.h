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
struct Column {
  std::string name;
  std::shared_ptr<arrow::DataType> type;
  bool nullable = true;
  std::string comment;
  /// SQL text of the default value, when the column has one.
  std::optional<std::string> default_value;

  /// \brief Build an Arrow field carrying the comment as field metadata ("comment").
  std::shared_ptr<arrow::Field> ToField() const;
  /// \brief Build a column from an Arrow field, reading the "comment" metadata if present.
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
