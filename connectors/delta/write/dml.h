// DELETE, UPDATE and MERGE: copy-on-write rewrites and metadata-only deletes (delta_dml.cc).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "arrow/type_fwd.h"
#include "connectors/delta/log/delta_log.h"
#include "connectors/delta/log/transaction.h"
#include "connectors/delta/read/scan.h"
#include "connectors/delta/table_state.h"
#include "parley/connector/expressions.h"
#include "parley/connector/read.h"
#include "parley/connector/row_level.h"
#include "parley/connector/status.h"

namespace parley::delta {

/// \brief The copy-on-write commit of a DELETE/UPDATE/MERGE, assembled in one place: remove
/// actions for every rewritten file (with its deletion vector, which the rewrite drops), add
/// actions for the replacement files, commitInfo with the command as operation and Spark's
/// operationMetrics names. When the table tracks rows, the adds get fresh row ids at commit
/// and `tags` says whether the rewrite preserved the rows' stable ids (`preserved`: the files
/// materialize them, PreservesRowTracking()).
Result<Transaction> RewriteTransaction(const TableState& table, RowLevelCommand command,
                                       const RowLevelScanRecord& read, std::vector<FileAction> adds,
                                       const RowLevelWriteSummary& summary, bool preserved);

/// \brief Whether a copy-on-write rewrite of `table` preserves row ids and row commit
/// versions: row tracking is enabled, the materialized column names are configured, and no
/// data column hides `_metadata`. The operation then requires `_metadata` and its write
/// materializes the values (§7 of the protocol digest).
bool PreservesRowTracking(const TableState& table);

/// \brief The group-based row-level operation builder of `table` (its latest snapshot).
/// Fails like a write when the writer cannot write the table (features, append-only).
Result<std::unique_ptr<RowLevelOperationBuilder>> MakeDeltaRowLevelOperationBuilder(
    std::shared_ptr<const TableState> table, RowLevelCommand command);

/// \brief Whether a filter delete can drop whole files: every predicate is exactly evaluable
/// on partition columns (none: every file).
bool CanDeleteFilesWhere(const TableState& table, const std::vector<PredicatePtr>& predicates);

/// \brief The metadata-only DELETE: remove the files whose partition values satisfy all
/// predicates, in one commit (none when no file matches). Returns the rows removed, from the
/// files' statistics, or -1 when a file has none.
Result<int64_t> DeleteFilesWhere(std::shared_ptr<const TableState> table,
                                 const std::vector<PredicatePtr>& predicates);

}  // namespace parley::delta
