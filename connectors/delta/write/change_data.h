// Change Data Feed files: whether a table records them, and writing the change files of a commit
// (delta_change_data.cc, delta_change_rows.cc).
#pragma once

#include <memory>
#include <vector>

#include "arrow/type_fwd.h"
#include "connectors/delta/log/delta_log.h"
#include "connectors/delta/table_state.h"
#include "parley/connector/status.h"
#include "parley/connector/write.h"

namespace parley::delta {

/// \brief Whether the table's change data feed is on (`delta.enableChangeDataFeed=true`).
bool ChangeDataFeedEnabled(const Metadata& metadata);

/// \brief Write the change rows of one commit of `table` as Parquet files under
/// `_change_data/` (per partition directory, partition columns left out) and return their
/// `cdc` actions, for Transaction::change_files. `changes` hold the table's columns in table
/// order then `_change_type` (insert, delete, update_preimage or update_postimage). A commit
/// that writes any change file must put every change of the commit in them, inserts too (§6).
/// On failure the files written are deleted. Fails with DELTA_CHANGE_DATA_INVALID_ROWS when
/// the rows do not have that shape or hold another change type.
Result<std::vector<FileAction>> WriteChangeData(
    const TableState& table, const std::vector<std::shared_ptr<arrow::RecordBatch>>& changes);

/// \brief The writer factory of a copy-on-write rewrite of `table` that records its change
/// data feed, for an operation that RequiresChangeRows() (row_level.h). Its writers take the
/// rows such a write receives (the table's columns, the operation's metadata attributes,
/// kRowLevelWriteActionColumn): copied, updated and inserted rows go to `data` as they are;
/// every row but the copied ones also goes, as the table's columns and `_change_type`
/// (kDelete: delete, kUpdatePreimage: update_preimage, kUpdate: update_postimage, kInsert:
/// insert), to a change data writer of `table`. A writer's commit message holds the data
/// files' adds then the change files' (dataChange=false); its Abort deletes both. Serializes
/// as `data`. Fails with DELTA_CHANGE_DATA_INVALID_ROWS on an unknown action.
Result<std::shared_ptr<DataWriterFactory>> MakeChangeRowsWriterFactory(
    std::shared_ptr<DataWriterFactory> data, const TableState& table);

}  // namespace parley::delta
