// ALTER TABLE: the metadata changes of a table, committed (delta_alter.cc).
#pragma once

#include <vector>

#include "arrow/type_fwd.h"
#include "connectors/delta/table_state.h"
#include "parley/connector/catalog.h"
#include "parley/connector/status.h"

namespace parley::delta {

/// \brief Apply `changes` in order to the table's metadata and commit them at once: table
/// properties (validated; the protocol is raised when one needs it), the comment, added
/// nullable columns, column comments, relaxing NOT NULL, and with column mapping renaming and
/// dropping columns. Anything else fails with UNSUPPORTED_FEATURE.TABLE_OPERATION, a rename or
/// drop without column mapping with DELTA_UNSUPPORTED_RENAME_COLUMN / _DROP_COLUMN.
Status AlterDeltaTable(const TableState& state, const std::vector<TableChange>& changes);

}  // namespace parley::delta
