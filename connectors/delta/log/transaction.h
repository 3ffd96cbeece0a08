// Committing: a transaction's actions written as the next commit file, put-if-absent, with
// conflict detection and retries (delta_txn.cc).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arrow/filesystem/type_fwd.h"
#include "arrow/type_fwd.h"
#include "connectors/delta/log/delta_log.h"
#include "parley/connector/status.h"
#include "parley/connector/write.h"

namespace parley::delta {

/// \brief One commit to make: its actions, what it reports in commitInfo, and what it read
/// (for conflict detection, §"Optimistic concurrency" of the protocol digest).
struct Transaction {
  std::optional<Protocol> protocol;
  std::optional<Metadata> metadata;
  std::vector<FileAction> adds;
  /// Files of the read snapshot removed; their deletion timestamp is set at commit.
  std::vector<FileAction> removes;
  /// Change Data Feed files written for this commit (`cdc` actions, WriteChangeData()).
  std::vector<FileAction> change_files;
  std::optional<SetTransaction> txn;
  /// commitInfo: the operation ("WRITE", "CREATE TABLE", ...), its parameters and metrics.
  std::string operation;
  std::map<std::string, std::string> operation_parameters;
  std::map<std::string, std::string> operation_metrics;
  /// commitInfo.tags (e.g. `delta.rowTracking.preserved`); left out when empty.
  std::map<std::string, std::string> tags;
  /// A blind append reads nothing: only metadata and protocol changes conflict with it.
  bool blind_append = false;
  /// Whether a file added by a concurrent commit falls in what this one read; unset means the
  /// whole table was read. Ignored for blind appends.
  std::function<bool(const FileAction&)> read_predicate;
  /// Checkpoint after committing a multiple of this version; 0 never (CheckpointInterval()).
  int64_t checkpoint_interval = 10;
  /// Row tracking (§7), set when the committed table tracks rows: the rowIdHighWaterMark of
  /// the read snapshot (-1 when none). Each add without a baseRowId then gets fresh row ids
  /// above the mark and the commit's version as defaultRowCommitVersion, and the commit carries
  /// the new mark; when a concurrent commit wins the version, the ids move above the winner's
  /// mark and the version to the one tried next.
  std::optional<int64_t> row_id_high_water_mark;
  /// Domain metadata actions to commit besides the high-water mark.
  std::vector<DomainMetadata> domains;
};

/// \brief Write `transaction` as the commit after `read_version` (-1: the table's first
/// commit) with put-if-absent (`link()`): a commit file is never overwritten. When another
/// writer took the version, its commit is checked against this one: a protocol or metadata
/// change fails with DELTA_PROTOCOL_CHANGED / DELTA_METADATA_CHANGED, a file added where this
/// transaction read with DELTA_CONCURRENT_APPEND, a file removed that this one read or removes
/// with DELTA_CONCURRENT_DELETE_READ / DELTA_CONCURRENT_DELETE_DELETE, the same txn appId with
/// DELTA_CONCURRENT_TRANSACTION, and a concurrent creation with DELTA_TABLE_ALREADY_EXISTS;
/// otherwise the commit moves to the next version and tries again. Returns the version
/// committed. After committing, writes a checkpoint when the version is a multiple of the
/// table's `delta.checkpointInterval` (10 by default); a failed checkpoint does not fail the
/// commit. `table` names the table in messages. Local filesystems only.
Result<int64_t> CommitTransaction(const std::shared_ptr<arrow::fs::FileSystem>& filesystem,
                                  const std::string& root, const std::string& table,
                                  int64_t read_version, Transaction transaction);

}  // namespace parley::delta
