// Delta's maintenance commands on a loaded table: the work behind the Delta catalog's
// procedures (delta_procedures.h) and so behind DESCRIBE HISTORY, DESCRIBE DETAIL and VACUUM.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "arrow/type_fwd.h"
#include "parley/connector/table.h"

namespace parley::delta {

// Delta's own commands on a table loaded from the Delta catalog or provider; on any other table
// they fail with DELTA_ONLY_OPERATION.

/// \brief DESCRIBE HISTORY: one row per commit up to the table's version, newest first, at most
/// `limit`: version, timestamp, operation, operationParameters, readVersion, isolationLevel,
/// isBlindAppend, operationMetrics, engineInfo (from each commit's commitInfo).
Result<std::shared_ptr<arrow::Table>> DescribeHistory(const Table& table,
                                                      std::optional<int64_t> limit);

/// \brief DESCRIBE DETAIL: one row: format, id, name, description, location, createdAt,
/// lastModified, partitionColumns, numFiles, sizeInBytes, properties, minReaderVersion,
/// minWriterVersion, tableFeatures, version.
Result<std::shared_ptr<arrow::Table>> DescribeDetail(const Table& table);

/// \brief What VACUUM keeps.
struct VacuumOptions {
  /// Files unreferenced for less than this many hours are kept (default 168, one week).
  std::optional<double> retain_hours;
  /// List the files that would be deleted without deleting them.
  bool dry_run = false;
  /// Refuse a retention under 168 hours (DELTA_VACUUM_RETENTION_PERIOD_TOO_SHORT), as
  /// spark.databricks.delta.retentionDurationCheck.enabled does.
  bool check_retention = true;
};

/// \brief VACUUM: delete the data files (and deletion vector files) under the table directory
/// that the current version does not reference, that no remove younger than the retention
/// references, and that are older than the retention; the log and hidden paths (a component
/// starting with '_' or '.') are never touched. Returns the paths deleted (or that would be).
Result<std::shared_ptr<arrow::Table>> Vacuum(const Table& table, const VacuumOptions& options);

}  // namespace parley::delta
