// The read path of MemoryTable, shared between memory_table.cc and memory_scan.cc.
//
// How in-memory data crosses the "executor boundary": InputPartition and
// PartitionReaderFactory must serialize to bytes with no live handle inside (see
// parley/connector/read.h), but the rows of a memory table exist only in this process. So
// ScanBuilder::Build() freezes the table's current batches into an immutable snapshot and
// records it in a process-wide registry under a fresh numeric id. The bytes then carry a
// reference, not data:
//   partition  "memory-partition:<process token>:<snapshot id>:<batch index>"
//   factory    "memory-factory:<process token>:<snapshot id>:<column index>,<column index>..."
//              (indices past the data columns are the metadata columns, in order)
// and rebuilding resolves the id in the registry. The process token is a random number drawn
// once per process, so bytes carried to another process fail with a clear error instead of
// naming an unrelated snapshot. The registry holds snapshots weakly: a snapshot lives as long
// as the Scan/Batch that planned it or any reader factory built from it, and is dropped from
// the registry when the last of those goes away. Rebuilding after that fails with
// CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE, as does any malformed or foreign input.
#pragma once

#include <memory>
#include <vector>

#include "memory_table.h"
#include "parley/connector/read.h"

namespace parley::memory {

/// \brief The metadata columns of every memory table (SupportsMetadataColumns), in this order
/// after the data columns of a read schema: `_batch` (BIGINT NOT NULL), the index of the row's
/// stored batch in the scan's snapshot, and `_pos` (BIGINT NOT NULL), the row's position in
/// that batch. A data column of the same name shadows one.
inline constexpr char kBatchColumn[] = "_batch";
inline constexpr char kPositionColumn[] = "_pos";
std::vector<Column> MemoryMetadataColumns();

/// \brief Return the scan builder of one read of `table`. The builder implements
/// SupportsPushDownRequiredColumns (data and metadata columns); Build() takes the snapshot
/// (see file comment) and, when
/// `snapshot_batches` is given, stores the snapshot's batches there (a row-level operation
/// replaces exactly those).
std::unique_ptr<ScanBuilder> MakeMemoryScanBuilder(
    std::shared_ptr<const MemoryTable> table,
    std::shared_ptr<std::vector<std::shared_ptr<arrow::RecordBatch>>> snapshot_batches = nullptr);

}  // namespace parley::memory
