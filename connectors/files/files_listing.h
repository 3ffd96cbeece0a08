// Resolving a path, URI or glob to a sorted list of data files (files_listing.cc).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "arrow/filesystem/filesystem.h"
#include "arrow/type_fwd.h"
#include "connectors/files/files_options.h"
#include "parley/connector/status.h"

namespace parley::files {

/// \brief The data files a path names.
struct Listing {
  std::shared_ptr<arrow::fs::FileSystem> filesystem;
  /// The URI or local path `filesystem` was made from; executors rebuild it from this.
  std::string filesystem_uri;
  /// Where Hive partition discovery starts (a path of `filesystem`).
  std::string partition_base_dir;
  /// The table directory when the path names one directory, existing or not (a path of
  /// `filesystem`); empty for a file or a glob. Only such tables can be written.
  std::string root_dir;
  /// Non-empty data files, sorted by path, hidden names skipped.
  std::vector<arrow::fs::FileInfo> files;
};

/// \brief Resolve options.path (file, directory or glob) into its data files. Fails with
/// PATH_NOT_FOUND when nothing matches, unless `allow_missing` and the path is a missing
/// directory; an existing empty directory gives no files. A directory's pending commits are
/// completed first and no commit is seen half done (files_commit.h).
Result<Listing> ListFiles(const ReadOptions& options, bool allow_missing = false);

/// \brief Append every non-hidden file under `dir` (recursively) to `out`; empty files only
/// with `include_empty`.
Status ListDirectory(arrow::fs::FileSystem& filesystem, const std::string& dir, bool include_empty,
                     std::vector<arrow::fs::FileInfo>* out);

/// \brief How a path of `filesystem` is shown in messages: the local path, or a URI.
std::string DisplayPath(const arrow::fs::FileSystem& filesystem, const std::string& path);

/// \brief FAILED_READ_FILE.NO_HINT naming the file, with the cause's message.
Status FileReadError(const std::string& display_path, const Status& cause);

/// \brief FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER naming the file, with the cause's message.
Status FooterReadError(const std::string& display_path, const Status& cause);

}  // namespace parley::files
