// Checkpoints: reading every action of one (classic, multi-part, V2 with sidecars;
// delta_checkpoint.cc) and writing classic Parquet ones (delta_checkpoint_writer.cc).
#pragma once

#include <string>

#include "arrow/filesystem/type_fwd.h"
#include "arrow/type_fwd.h"
#include "connectors/delta/log/delta_log.h"
#include "parley/connector/status.h"
#include "parley/connector/write.h"

namespace parley::delta {

/// \brief Read every action of a checkpoint (all parts, and for a V2 checkpoint the sidecars it
/// references under `<log_dir>/_sidecars/`).
Result<CommitActions> ReadCheckpoint(arrow::fs::FileSystem& filesystem, const std::string& log_dir,
                                     const CheckpointFiles& checkpoint);

/// \brief Write the classic single-file checkpoint of `snapshot` (protocol, metaData, txn,
/// domainMetadata, adds and the tombstones within the retention) and then `_last_checkpoint`.
/// The checkpoint appears atomically (written aside, then renamed).
Status WriteCheckpoint(arrow::fs::FileSystem& filesystem, const Snapshot& snapshot);

}  // namespace parley::delta
