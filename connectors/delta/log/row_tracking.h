// Row tracking (protocol §7): the feature's names, whether a table has it, the high-water mark of
// row ids, and fresh row ids for new files (delta_row_tracking.cc).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"
#include "connectors/delta/log/delta_log.h"
#include "parley/connector/status.h"
#include "parley/connector/write.h"

namespace parley::delta {

inline constexpr char kRowTrackingFeature[] = "rowTracking";
inline constexpr char kRowTrackingDomain[] = "delta.rowTracking";
inline constexpr char kEnableRowTracking[] = "delta.enableRowTracking";
inline constexpr char kMaterializedRowIdColumn[] = "delta.rowTracking.materializedRowIdColumnName";
inline constexpr char kMaterializedRowCommitVersionColumn[] =
    "delta.rowTracking.materializedRowCommitVersionColumnName";

/// \brief Whether writers must assign row ids: `rowTracking` is a writer feature and
/// `delta.rowTrackingSuspended` is not true.
bool RowTrackingSupported(const Protocol& protocol, const Metadata& metadata);

/// \brief Whether table property `key` is "true" (any case).
bool ConfigurationIsTrue(const std::map<std::string, std::string>& configuration,
                         const std::string& key);

/// \brief Whether `delta.enableRowTracking` is true: every live file has row ids, so readers
/// may expose them.
bool RowTrackingEnabled(const Metadata& metadata);

/// \brief The rowIdHighWaterMark of the `delta.rowTracking` domain, -1 when there is none.
/// Fails with DELTA_ROW_ID_HIGH_WATER_MARK_INVALID for a domain without one.
Result<int64_t> RowIdHighWaterMark(const std::map<std::string, DomainMetadata>& domains);

/// \brief The rowIdHighWaterMark of one `delta.rowTracking` domain action.
Result<int64_t> ParseHighWaterMark(const DomainMetadata& domain);

/// \brief The `delta.rowTracking` domain action holding `high_water_mark`.
DomainMetadata HighWaterMarkDomain(int64_t high_water_mark);

/// \brief What Transaction::row_id_high_water_mark should be for a commit of a table with
/// `protocol` and `metadata` read at `snapshot` (nullptr: a new table): nullopt when the table
/// does not track rows.
Result<std::optional<int64_t>> ReadHighWaterMarkFor(const Protocol& protocol,
                                                    const Metadata& metadata,
                                                    const Snapshot* snapshot);

/// \brief Name the materialized row id and row commit version columns in the configuration of
/// a table with `delta.enableRowTracking=true` (`_row-id-col-<uuid>`,
/// `_row-commit-version-col-<uuid>`, as delta-spark), keeping names already there.
void NameMaterializedColumns(Metadata* metadata);

/// \brief Give each add at the indexes `fresh` baseRowId = mark + 1 and
/// defaultRowCommitVersion = `version`, advancing the mark by its numRecords. Fails with
/// DELTA_ROW_TRACKING_MISSING_NUM_RECORDS for a file whose statistics lack numRecords.
Status AssignFreshRowIds(std::vector<FileAction>* adds, const std::vector<size_t>& fresh,
                         int64_t* high_water_mark, int64_t version);
/// \brief The writer factory of a copy-on-write rewrite that preserves row tracking. Its
/// writers take rows of the table's `columns` columns, then `_metadata` (MetadataStructType
/// with row tracking; null for inserted rows), then kRowLevelWriteActionColumn, and write
/// through `inner` (whose WriteSpec names the materialized columns) the table's columns with
/// the materialized row id (the stable id read; null for inserted rows) and row commit
/// version (the stable version read for copied rows; null for updated and inserted rows, whose
/// version is then the commit's). Serializes as `inner`.
std::shared_ptr<DataWriterFactory> MakeRowPreservingWriterFactory(
    std::shared_ptr<DataWriterFactory> inner, int columns);

}  // namespace parley::delta
