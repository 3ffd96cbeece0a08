// The `_metadata` column: its type and its values for the rows of a file
// (delta_metadata_column.cc).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"
#include "connectors/delta/read/read_task.h"
#include "parley/connector/status.h"

namespace parley::delta {

inline constexpr char kMetadataColumn[] = "_metadata";

/// \brief The type of `_metadata`: struct<file_path, file_name, file_size,
/// file_modification_time, row_index> and, when row tracking is enabled, row_id,
/// row_commit_version, base_row_id and default_row_commit_version (§7).
std::shared_ptr<arrow::DataType> MetadataStructType(bool row_tracking);

/// \brief MetadataStructType(row_tracking) narrowed to the fields named in `fields` (kept in
/// its order); all of them when `fields` is empty. Fails when a name is not one of its fields.
Result<std::shared_ptr<arrow::DataType>> MetadataStructType(bool row_tracking,
                                                            const std::vector<std::string>& fields);

/// \brief The `_metadata` values of `rows` rows of the file of `task`, the first at physical
/// index `first_row` (rows counted before deletion vectors apply). row_id is the materialized
/// value when non-null, else baseRowId + row index; row_commit_version the materialized value,
/// else defaultRowCommitVersion. `materialized_*` are the file's materialized columns for those
/// rows, nullptr when the file lacks them. Fails with DELTA_ROW_TRACKING_MISSING_BASE_ROW_ID
/// when a row needs a baseRowId or defaultRowCommitVersion the file's add does not have.
/// Only the fields of `type` (a MetadataStructType) are computed.
Result<std::shared_ptr<arrow::Array>> MetadataColumnValues(
    const ReadTask& task, const std::shared_ptr<arrow::DataType>& type, int64_t first_row,
    int64_t rows, const std::shared_ptr<arrow::Array>& materialized_row_id,
    const std::shared_ptr<arrow::Array>& materialized_row_commit_version);

}  // namespace parley::delta
