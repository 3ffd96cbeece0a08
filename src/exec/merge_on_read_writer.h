// The task side of a delta-based (merge-on-read) row-level write: the rows the runner hands a
// write task, each with its action, become DeltaWriter calls (parley/connector/row_level.h).
#pragma once

#include <memory>
#include <string>

#include "arrow/type_fwd.h"
#include "parley/connector/row_level.h"

namespace parley {

/// \brief What a delta-based write's tasks receive and hand on. Immutable once built; shared by
/// every task attempt.
struct MergeOnReadRowLayout {
  /// The table's columns (DeltaWriter's `rows`).
  std::shared_ptr<arrow::Schema> rows;
  /// RequiredMetadataAttributes() (`metadata`) and SupportsDelta::RowId() (`row_ids`).
  std::shared_ptr<arrow::Schema> metadata;
  std::shared_ptr<arrow::Schema> row_ids;
  /// SupportsDelta::RepresentUpdateAsDeleteAndInsert().
  bool update_as_delete_and_insert = false;
  /// The target, for messages.
  std::string table_name;
};

/// \brief The schema of a task's rows: `layout.rows`' columns, then the metadata columns, then
/// the row id columns (named `__row_id_<name>`), then kRowLevelWriteActionColumn (INT32, each
/// row's RowLevelWriteAction: kUpdate, kDelete or kInsert).
std::shared_ptr<arrow::Schema> MergeOnReadTaskSchema(const MergeOnReadRowLayout& layout);

/// \brief Wrap the writer a delta-based write's factory created for one task attempt. Each
/// Write(batch) of task rows (MergeOnReadTaskSchema) calls, on the DeltaWriter, Delete for the
/// deleted rows, Update (or Delete, then Insert, when `update_as_delete_and_insert`) for the
/// updated ones and Insert for the inserted ones, each at most once per batch; Commit, Abort,
/// Close and the metrics pass through. Errors: CONNECTOR_CONTRACT_VIOLATION.NOT_A_DELTA_WRITER
/// naming the table when `writer` is not a DeltaWriter (it is then aborted and closed).
Result<std::unique_ptr<DataWriter>> MakeMergeOnReadRowWriter(
    std::unique_ptr<DataWriter> writer, std::shared_ptr<const MergeOnReadRowLayout> layout);

}  // namespace parley
