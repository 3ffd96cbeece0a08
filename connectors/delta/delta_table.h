// The Delta Lake connector: path tables reached as delta.`/path/to/table`, read through the
// Delta transaction log (delta_log.h).
//
// A table is one snapshot of the log: the latest version, or an earlier one chosen by time
// travel, written as delta-spark's path suffixes `delta.`/path@v<version>`` and
// `delta.`/path@<yyyyMMddHHmmssSSS>`` (UTC), or given as the read options `versionAsOf` /
// `timestampAsOf` (`yyyy-MM-dd[ HH:mm:ss[.SSS]]`, UTC). Its columns are the Delta schema's
// (logical names under column mapping), its partitioning identity(column) per partition
// column; it declares BATCH_READ and implements SupportsRead. Scans push predicates
// (SupportsPushDownV2Filters: exact on partition columns, statistics-based file skipping on
// data columns, which are returned), prune columns, report statistics, read one input
// partition per data file and apply deletion vectors.
//
// Readable tables: reader versions 1-3 with the reader features columnMapping (name and id),
// deletionVectors (inline and file-based), timestampNtz, v2Checkpoint, vacuumProtocolCheck and
// typeWidening; every other reader feature fails with DELTA_UNSUPPORTED_FEATURES_FOR_READ
// naming it. Other errors are those of delta_log.h, plus FAILED_READ_FILE.* naming a data file
// that is missing or unreadable.
//
// Thread-safety: the provider and its tables are immutable and safe to share; scans follow
// parley/connector/read.h.
#pragma once

#include <memory>
#include <optional>

#include "arrow/type_fwd.h"
#include "parley/connector/catalog.h"

namespace parley::delta {

/// \brief The TableProvider of path-based Delta tables. The engine calls InferSchema(options)
/// and then GetTable(schema, options); both load the snapshot that options["path"] names.
/// SupportsExternalMetadata() is false: the schema always comes from the log.
std::shared_ptr<TableProvider> MakeDeltaTableProvider();

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
