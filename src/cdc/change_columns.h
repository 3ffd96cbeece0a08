// Column access shared by the change-data passes: nested column paths, change-type codes and the
// rewritten `_change_type` column.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/status.h"

namespace parley {

/// \brief The codes ChangeTypeCodes gives each change type; other values (and NULL) get NULL.
enum ChangeCode : int32_t {
  kCodeDelete = 0,
  kCodeInsert = 1,
  kCodeUpdatePreimage = 2,
  kCodeUpdatePostimage = 3,
};

/// \brief The values of `path` in `batch`: a top-level column, or a field inside struct columns
/// (a row whose enclosing struct is NULL reads NULL). KeyError when the path does not exist.
Result<std::shared_ptr<arrow::Array>> ColumnAtPath(const arrow::RecordBatch& batch,
                                                   const std::vector<std::string>& path);

/// \brief Per row, the ChangeCode of a `_change_type` value (exact, case-sensitive match).
Result<std::shared_ptr<arrow::Int32Array>> ChangeTypeCodes(const arrow::Array& change_type);

/// \brief `batch` with its `_change_type` column replaced by `labels` (STRING values, cast to
/// the column's type).
Result<std::shared_ptr<arrow::RecordBatch>> WithChangeTypes(
    const std::shared_ptr<arrow::RecordBatch>& batch, const std::shared_ptr<arrow::Array>& labels);

/// \brief The record batches of `table`, in order (chunks as stored).
Result<std::vector<std::shared_ptr<arrow::RecordBatch>>> TableBatches(
    const std::shared_ptr<arrow::Table>& table);

}  // namespace parley
