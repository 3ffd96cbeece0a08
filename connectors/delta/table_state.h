// A table as the connector holds it: one snapshot and how to reach its files, loaded from a
// location, and the Table made of it (delta_table.cc).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arrow/filesystem/type_fwd.h"
#include "arrow/type_fwd.h"
#include "connectors/delta/log/delta_log.h"
#include "connectors/delta/log/delta_schema.h"
#include "parley/connector/status.h"
#include "parley/connector/table.h"

namespace parley::delta {

/// \brief Everything a table knows: one snapshot and how to reach its files. Immutable.
struct TableState {
  /// `delta.`<location>``, with the version when time travelling.
  std::string name;
  /// The table location as given; executors rebuild the filesystem from it.
  std::string location;
  std::shared_ptr<arrow::fs::FileSystem> filesystem;
  /// The table root as a path of `filesystem`.
  std::string root;
  std::shared_ptr<const Snapshot> snapshot;
  /// The table schema with Delta annotations (delta_schema.h), and without.
  std::shared_ptr<arrow::Schema> annotated_schema;
  std::shared_ptr<arrow::Schema> schema;
  ColumnMappingMode mode = ColumnMappingMode::kNone;
  /// The partition columns (logical names), in table order.
  std::vector<std::string> partition_columns;
  /// Whether an earlier version was asked for (the table is then read-only).
  bool time_travel = false;
};

/// \brief Load the table at `location` (latest version, or the one given, or the one current
/// at `timestamp_ms`), named `name` in messages.
Result<std::shared_ptr<const TableState>> LoadTableState(const std::string& location,
                                                         const std::string& name,
                                                         std::optional<int64_t> version,
                                                         std::optional<int64_t> timestamp_ms);

/// \brief Fill the schema, column mapping mode and partition columns of a state whose
/// location, filesystem, root, name and snapshot are set. Fails for non-Parquet tables and
/// partition columns missing from the schema.
Result<std::shared_ptr<const TableState>> CompleteTableState(std::shared_ptr<TableState> state);

/// \brief The Table of a state: readable always; writable (append, overwrite, truncate) unless
/// time travelled.
std::shared_ptr<Table> MakeDeltaTable(std::shared_ptr<const TableState> state);

/// \brief identity(column) for each partition column: a Delta table's partitioning.
std::vector<std::shared_ptr<Transform>> IdentityPartitioning(
    const std::vector<std::string>& columns);

/// \brief The state of a table made by MakeDeltaTable, or nullptr for any other table.
const TableState* StateOf(const Table& table);

}  // namespace parley::delta
