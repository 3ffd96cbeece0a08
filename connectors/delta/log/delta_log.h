// The Delta transaction log: its actions, the listing of `_delta_log`, and log replay into a
// snapshot (Delta PROTOCOL.md; digest in shared/specs/delta-protocol.md §1-4).
//
// This is the connector's foundation for both directions. The read path builds a Snapshot and
// scans its active files; the write path (commits, conflict detection) reads the snapshot it
// starts from with LoadSnapshot and the commits that won a race with ReadCommit.
//
// Contract:
//   - Paths are paths of the given arrow::fs::FileSystem; `table_root` is the table directory
//     (the one holding `_delta_log`).
//   - LoadSnapshot lists `_delta_log` once, matching exact names (commits `<v:020>.json`,
//     classic `<v>.checkpoint.parquet`, multi-part `<v>.checkpoint.<o:010>.<p:010>.parquet`, V2
//     `<v>.checkpoint.<uuid>.json|parquet`); it ignores everything else (`.crc` files, temp files,
//     compacted logs, `_staged_commits/`, `_last_checkpoint`: the full listing makes that hint
//     unnecessary, so a stale or corrupt one cannot mislead). It starts from the newest complete
//     checkpoint at or below the version (a V2 checkpoint with its sidecars), then replays the
//     following commits, which must be contiguous.
//   - Reconciliation follows §3: the last protocol and metaData win, txn keeps the last version
//     per appId, domainMetadata the last per domain (removed ones dropped), file actions are
//     keyed by (path as written, deletion vector unique id) and the newest action per key wins.
//   - Errors carry delta-spark's conditions and name the file at fault:
//     DELTA_MISSING_DELTA_TABLE (no `_delta_log` or no commit), DELTA_VERSIONS_NOT_CONTIGUOUS,
//     DELTA_VERSION_NOT_FOUND (time travel outside the reconstructable range),
//     DELTA_STATE_RECOVER_ERROR (no protocol or metaData), DELTA_INVALID_PROTOCOL_VERSION,
//     DELTA_TIMESTAMP_GREATER_THAN_COMMIT / DELTA_TIMESTAMP_EARLIER_THAN_COMMIT_RETENTION, and
//     FAILED_READ_FILE.NO_HINT for a commit or checkpoint that does not parse or has the wrong
//     shape.
//   - Everything returned is a plain value, safe to share between threads once built.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arrow/filesystem/type_fwd.h"
#include "parley/connector/status.h"

namespace parley::delta {

/// \brief The `protocol` action.
struct Protocol {
  int32_t min_reader_version = 1;
  int32_t min_writer_version = 1;
  /// Present iff the reader version is 3 (resp. the writer version 7).
  std::optional<std::vector<std::string>> reader_features;
  std::optional<std::vector<std::string>> writer_features;
};

/// \brief The `metaData` action; `schema_string` is the Delta schema JSON (see delta_schema.h).
struct Metadata {
  std::string id;
  std::optional<std::string> name;
  std::optional<std::string> description;
  std::string format_provider = "parquet";
  std::map<std::string, std::string> format_options;
  std::string schema_string;
  std::vector<std::string> partition_columns;
  std::map<std::string, std::string> configuration;
  std::optional<int64_t> created_time;
};

/// \brief A deletion vector descriptor (§8).
struct DeletionVectorDescriptor {
  std::string storage_type;  // "u", "i" or "p"
  std::string path_or_inline_dv;
  std::optional<int32_t> offset;
  int32_t size_in_bytes = 0;
  int64_t cardinality = 0;

  /// \brief storageType + pathOrInlineDv [+ "@" + offset]: the DV's identity in reconciliation.
  std::string UniqueId() const;
};

/// \brief An `add` or a `remove`: a logical file (data file + optional deletion vector).
/// Fields a remove lacks stay unset.
struct FileAction {
  /// The path exactly as written in the log (URI-encoded, relative or absolute).
  std::string path;
  /// Partition column (physical name) -> serialized value; nullopt for a JSON null.
  std::map<std::string, std::optional<std::string>> partition_values;
  int64_t size = 0;
  int64_t modification_time = 0;
  bool data_change = false;
  /// The statistics JSON string (§5), empty when absent.
  std::string stats;
  std::map<std::string, std::string> tags;
  std::optional<DeletionVectorDescriptor> deletion_vector;
  std::optional<int64_t> base_row_id;
  std::optional<int64_t> default_row_commit_version;
  /// Removes only.
  std::optional<int64_t> deletion_timestamp;

  /// \brief The reconciliation key: path + "\n" + deletion vector unique id (or nothing).
  std::string Key() const;
};

/// \brief A `txn` action.
struct SetTransaction {
  std::string app_id;
  int64_t version = 0;
  std::optional<int64_t> last_updated;
};

/// \brief A `domainMetadata` action.
struct DomainMetadata {
  std::string domain;
  std::string configuration;
  bool removed = false;
};

/// \brief The actions of one commit file (or of a checkpoint), in file order per kind.
struct CommitActions {
  int64_t version = -1;
  std::optional<Protocol> protocol;
  std::optional<Metadata> metadata;
  /// `add` (is_add) and `remove` actions, in the order they appear.
  struct FileChange {
    bool is_add = true;
    FileAction file;
  };
  std::vector<FileChange> file_changes;
  /// `cdc` actions (Change Data Feed files): path, partitionValues, size and tags set.
  std::vector<FileAction> change_files;
  std::vector<SetTransaction> transactions;
  std::vector<DomainMetadata> domains;
  /// The `commitInfo` action as JSON text, empty when absent.
  std::string commit_info;
  /// commitInfo.inCommitTimestamp, when present.
  std::optional<int64_t> in_commit_timestamp;
};

/// \brief One commit file found by listing.
struct CommitFile {
  int64_t version = 0;
  std::string path;
  /// File modification time, epoch milliseconds.
  int64_t modification_time_ms = 0;
};

/// \brief One complete checkpoint found by listing: a single file, the parts of a multi-part
/// checkpoint in part order, or a V2 (UUID-named) checkpoint file.
struct CheckpointFiles {
  int64_t version = 0;
  std::vector<std::string> paths;
};

/// \brief What `_delta_log` holds, sorted by version.
struct LogListing {
  std::string log_dir;
  std::vector<CommitFile> commits;
  std::vector<CheckpointFiles> checkpoints;
};

/// \brief A table state at one version.
struct Snapshot {
  std::string table_root;
  int64_t version = -1;
  Protocol protocol;
  Metadata metadata;
  /// The active files (surviving adds), sorted by path.
  std::vector<FileAction> files;
  /// The removes not superseded by a later add (what VACUUM keeps until they expire and what a
  /// checkpoint carries), in key order.
  std::vector<FileAction> tombstones;
  /// The latest txn version per appId.
  std::map<std::string, int64_t> app_versions;
  /// Live domains by name.
  std::map<std::string, DomainMetadata> domains;
  /// The commit timestamp (epoch ms; file mtime monotonized, §3) of every commit file listed
  /// at or below `version`, by version.
  std::map<int64_t, int64_t> commit_timestamps;
  /// The checkpoint the replay started from, if any.
  std::optional<int64_t> checkpoint_version;
};

/// \brief `_delta_log/<version:020>.json`, relative to the log directory.
std::string CommitFileName(int64_t version);

/// \brief The log directory of a table root.
std::string LogDirectory(const std::string& table_root);

/// \brief List and classify `_delta_log`. Fails with DELTA_MISSING_DELTA_TABLE when there is
/// no such directory.
Result<LogListing> ListLog(arrow::fs::FileSystem& filesystem, const std::string& table_root);

/// \brief Parse the newline-delimited JSON actions of a commit (or V2 JSON checkpoint) body.
/// `display_path` names the file in errors. Blank lines are skipped; unknown actions ignored.
Result<CommitActions> ParseCommit(std::string_view body, int64_t version,
                                  const std::string& display_path);

/// \brief Read the actions of commit `version` of the table.
Result<CommitActions> ReadCommit(arrow::fs::FileSystem& filesystem, const std::string& table_root,
                                 int64_t version);

/// \brief Build the snapshot at `version`, or at the latest version when nullopt.
Result<std::shared_ptr<const Snapshot>> LoadSnapshot(
    const std::shared_ptr<arrow::fs::FileSystem>& filesystem, const std::string& table_root,
    std::optional<int64_t> version = std::nullopt);

/// \brief The latest version whose commit timestamp is <= `timestamp_ms` (§3): the commit
/// file's modification time, monotonized (in-commit timestamps are not consulted yet). Fails with
/// DELTA_TIMESTAMP_GREATER_THAN_COMMIT past the latest commit and with
/// DELTA_TIMESTAMP_EARLIER_THAN_COMMIT_RETENTION before the earliest one.
Result<int64_t> VersionAtTimestamp(arrow::fs::FileSystem& filesystem, const std::string& table_root,
                                   int64_t timestamp_ms);

/// \brief Monotonized commit timestamps of a listing: a commit whose mtime is not after its
/// predecessor's takes the predecessor's + 1 ms.
std::map<int64_t, int64_t> CommitTimestamps(const LogListing& listing);

}  // namespace parley::delta
