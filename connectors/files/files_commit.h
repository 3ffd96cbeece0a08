// The commit protocol of files tables (files_commit.cc): how staged output is published, and how
// readers and writers complete a publication that a killed process left half done. Internal to
// the files connector. Every path here is relative to the table's root directory and
// '/'-separated; functions take the filesystem and the root separately.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "arrow/filesystem/filesystem.h"
#include "parley/connector/status.h"

namespace parley::files {

/// The directory, below a table's root, holding staged output and commit manifests. Readers
/// skip it because its name starts with '_'.
inline constexpr char kStagingDirName[] = "_temporary";

/// \brief `_temporary/<query_id>`: everything one write's tasks stage.
std::string QueryStagingDir(const std::string& query_id);

/// \brief `_temporary/<query_id>/<task_id>`: what one task attempt stages.
std::string TaskStagingDir(const std::string& query_id, int64_t task_id);

/// \brief A publication: the staged files to move into place and the old files to delete. Once
/// its manifest is on storage the write is committed: whoever finds it completes it.
struct CommitManifest {
  std::string query_id;
  /// (staged path, final path) pairs.
  std::vector<std::pair<std::string, std::string>> renames;
  /// Files an overwrite replaces.
  std::vector<std::string> deletes;
};

/// \brief Write `manifest` to `_temporary/<query_id>.commit` atomically: the commit point.
Status WriteManifest(arrow::fs::FileSystem& filesystem, const std::string& root,
                     const CommitManifest& manifest);

/// \brief WriteManifest, then perform the manifest and remove it along with the query's
/// staging directory. Fails only when the manifest was not written: once it is, the write is
/// committed and a later step that fails is left for the next reader or writer to complete.
Status PublishCommit(arrow::fs::FileSystem& filesystem, const std::string& root,
                     const CommitManifest& manifest);

/// \brief Complete the manifest of `query_id` if one is on storage; returns whether there was
/// one. BatchWrite::Abort calls it: a write whose manifest exists is committed and rolls
/// forward.
Result<bool> CompleteCommitIfPending(arrow::fs::FileSystem& filesystem, const std::string& root,
                                     const std::string& query_id);

/// \brief Complete every manifest under `root`'s staging directory, tolerating steps that
/// someone else already did.
Status RecoverPendingCommits(arrow::fs::FileSystem& filesystem, const std::string& root);

/// \brief Remove the staging directories (and unfinished manifest temporaries) of other writes
/// that have no manifest and whose newest entry is older than `write_start`: leftovers of
/// writes that were killed.
Status RemoveAbandonedStaging(arrow::fs::FileSystem& filesystem, const std::string& root,
                              const std::string& own_query_id,
                              std::chrono::system_clock::time_point write_start);

/// \brief Run `list` over the table at `root` so that it sees no publication half done:
/// recover pending manifests, list, and list again (a bounded number of times) when a
/// publication started or finished meanwhile.
Status ListWithoutPartialCommits(arrow::fs::FileSystem& filesystem, const std::string& root,
                                 const std::function<Status()>& list);

}  // namespace parley::files
