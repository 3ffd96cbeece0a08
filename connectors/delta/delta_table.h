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

}  // namespace parley::delta
