// Publishing a files-table write so that Parley readers never see it half done.
//
// Tasks stage their files under <table>/_temporary/<query_id>/<task_id>/, which readers skip.
// BatchWrite::Commit builds a manifest naming each staged file the commit messages report with
// its final path, and each old file an overwrite replaces, and writes it to
// <table>/_temporary/<query_id>.commit atomically (a hidden temporary file, then a rename): that
// rename is the commit point. It then renames the staged files into place, deletes the old
// files, removes the query's staging directory and finally the manifest.
//
// A process killed at any point leaves either no manifest (the write never happened: its staged
// files are ignored and the next write removes them) or a manifest, which completes the write
// for whoever finds it. Every step of completing a manifest is idempotent: a rename whose source
// is gone was done already (or the file was since replaced), a delete whose file is gone too.
// So before listing, a reader and every new write "help along": they complete every manifest
// present. A reader then lists, and checks that no publication started or ended meanwhile (the
// set of manifests and the staging directory's modification time are unchanged); otherwise it
// recovers and lists again, a bounded number of times.
//
// Guarantees and limits. The publication is atomic only for Parley readers that follow this
// protocol; a process listing the directory by itself during a commit can see some new files
// without others, or old and new files of an overwrite together. Completing a manifest needs
// write access to the table. The modification-time check relies on the filesystem's timestamp
// resolution (nanoseconds on local Linux filesystems). Nothing is fsynced: the protocol survives
// a killed process, not a lost machine. Concurrent writers to one table are not coordinated
// beyond this: their commits do not conflict, but an overwrite may delete files another write
// just published, and a write removes a concurrent write's staging when it has been idle since
// before the write started.
#include "files_commit.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <set>
#include <string_view>

#include "arrow/buffer.h"
#include "arrow/io/interfaces.h"
#include "parley/connector/fault_injection.h"

namespace parley::files {
namespace {

namespace afs = arrow::fs;
using nlohmann::json;

constexpr char kManifestSuffix[] = ".commit";
// Listings retried when publications keep starting or ending during them.
constexpr int kMaxListingAttempts = 8;

std::string Join(const std::string& root, const std::string& relative) {
  if (root.empty() || root.back() == '/') return root + relative;
  return root + "/" + relative;
}

std::string ManifestPath(const std::string& query_id) {
  return std::string(kStagingDirName) + "/" + query_id + kManifestSuffix;
}

std::string ParentOf(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

Result<bool> Exists(afs::FileSystem& filesystem, const std::string& path) {
  ARROW_ASSIGN_OR_RAISE(auto info, filesystem.GetFileInfo(path));
  return info.type() != afs::FileType::NotFound;
}

// Run `step`; a failure is tolerated when `path` no longer exists (someone else did the step).
Status TolerateGone(afs::FileSystem& filesystem, const std::string& path, const Status& step) {
  if (step.ok()) return step;
  ARROW_ASSIGN_OR_RAISE(bool exists, Exists(filesystem, path));
  return exists ? step : Status::OK();
}

// Delete a directory that another reader or writer may be deleting at the same time. A
// recursive delete fails when an entry vanishes under it, so the directory is first renamed to a
// name only this call knows (a hidden sibling); the one that wins the rename deletes it.
Status DeleteDirConcurrently(afs::FileSystem& filesystem, const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  const std::string private_name =
      ParentOf(path) + "/.deleting-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  Status moved = TolerateGone(filesystem, path, filesystem.Move(path, private_name));
  if (!moved.ok()) return moved;
  return TolerateGone(filesystem, private_name, filesystem.DeleteDir(private_name));
}

Status CommitFailed(const std::string& root, const std::string& detail) {
  return MakeError(arrow::StatusCode::IOError, "FILES_COMMIT_FAILED",
                   "Could not complete the commit of the table at " + root + ": " + detail);
}

std::string EncodeManifest(const CommitManifest& manifest) {
  json renames = json::array();
  for (const auto& [from, to] : manifest.renames) renames.push_back({{"from", from}, {"to", to}});
  json document = {{"query_id", manifest.query_id},
                   {"renames", std::move(renames)},
                   {"deletes", manifest.deletes}};
  return document.dump();
}

// A relative path a manifest may name: no empty, '.' or '..' segment, not absolute.
bool IsSafeRelativePath(std::string_view path) {
  if (path.empty() || path.front() == '/') return false;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = std::min(path.find('/', start), path.size());
    std::string_view segment = path.substr(start, end - start);
    if (segment.empty() || segment == "." || segment == "..") return false;
    start = end + 1;
  }
  return true;
}

Result<CommitManifest> DecodeManifest(const std::string& root, const std::string& path,
                                      std::string_view text) {
  json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
  CommitManifest manifest;
  bool valid = document.is_object() && document.contains("query_id") &&
               document["query_id"].is_string() && document.contains("renames") &&
               document["renames"].is_array() && document.contains("deletes") &&
               document["deletes"].is_array();
  if (valid) {
    manifest.query_id = document["query_id"].get<std::string>();
    for (const auto& rename : document["renames"]) {
      if (!rename.is_object() || !rename.contains("from") || !rename["from"].is_string() ||
          !rename.contains("to") || !rename["to"].is_string()) {
        valid = false;
        break;
      }
      manifest.renames.emplace_back(rename["from"].get<std::string>(),
                                    rename["to"].get<std::string>());
    }
    for (const auto& file : document["deletes"]) {
      if (!file.is_string()) {
        valid = false;
        break;
      }
      manifest.deletes.push_back(file.get<std::string>());
    }
  }
  for (const auto& [from, to] : manifest.renames) {
    valid = valid && IsSafeRelativePath(from) && IsSafeRelativePath(to);
  }
  for (const auto& file : manifest.deletes) valid = valid && IsSafeRelativePath(file);
  if (!valid) return CommitFailed(root, "the commit manifest " + path + " is not valid");
  return manifest;
}

Result<CommitManifest> ReadManifest(afs::FileSystem& filesystem, const std::string& root,
                                    const std::string& relative) {
  const std::string path = Join(root, relative);
  ARROW_ASSIGN_OR_RAISE(auto input, filesystem.OpenInputStream(path));
  std::string text;
  while (true) {
    ARROW_ASSIGN_OR_RAISE(auto chunk, input->Read(int64_t{1} << 20));
    if (chunk->size() == 0) break;
    text.append(chunk->ToString());
  }
  ARROW_RETURN_NOT_OK(input->Close());
  return DecodeManifest(root, path, text);
}

Status WriteFileAtomically(afs::FileSystem& filesystem, const std::string& root,
                           const std::string& relative, const std::string& content) {
  std::random_device random;
  const std::string directory = ParentOf(relative);
  const std::string name = relative.substr(directory.size() + 1);
  const std::string temporary = directory + "/." + name + "." + std::to_string(random()) + ".tmp";
  ARROW_RETURN_NOT_OK(filesystem.CreateDir(Join(root, directory), /*recursive=*/true));
  ARROW_ASSIGN_OR_RAISE(auto output, filesystem.OpenOutputStream(Join(root, temporary)));
  ARROW_RETURN_NOT_OK(output->Write(content));
  ARROW_RETURN_NOT_OK(output->Close());
  return filesystem.Move(Join(root, temporary), Join(root, relative));
}

// Perform a manifest's remaining steps, then remove the query's staging and the manifest. The
// committing driver passes `in_commit`, which arms the inside-commit fault point after the first
// rename: the state a crash mid-publication leaves behind.
Status CompleteManifest(afs::FileSystem& filesystem, const std::string& root,
                        const CommitManifest& manifest, bool in_commit = false) {
  bool renamed = false;
  for (const auto& [from, to] : manifest.renames) {
    if (in_commit && renamed) ARROW_RETURN_NOT_OK(InjectFault(kFaultDriverInsideCommit));
    const std::string source = Join(root, from);
    ARROW_ASSIGN_OR_RAISE(bool staged, Exists(filesystem, source));
    if (!staged) continue;
    const std::string target = Join(root, to);
    ARROW_RETURN_NOT_OK(filesystem.CreateDir(ParentOf(target), /*recursive=*/true));
    ARROW_RETURN_NOT_OK(TolerateGone(filesystem, source, filesystem.Move(source, target)));
    renamed = true;
  }
  if (in_commit) ARROW_RETURN_NOT_OK(InjectFault(kFaultDriverInsideCommit));
  for (const auto& file : manifest.deletes) {
    const std::string path = Join(root, file);
    ARROW_RETURN_NOT_OK(TolerateGone(filesystem, path, filesystem.DeleteFile(path)));
  }
  const std::string staging = Join(root, QueryStagingDir(manifest.query_id));
  ARROW_RETURN_NOT_OK(DeleteDirConcurrently(filesystem, staging));
  const std::string manifest_path = Join(root, ManifestPath(manifest.query_id));
  return TolerateGone(filesystem, manifest_path, filesystem.DeleteFile(manifest_path));
}

// What readers compare before and after listing to notice a publication.
struct StagingState {
  std::set<std::string> manifests;
  afs::TimePoint modified;
  bool operator==(const StagingState&) const = default;
};

Result<StagingState> ReadStagingState(afs::FileSystem& filesystem, const std::string& root) {
  StagingState state;
  const std::string staging = Join(root, kStagingDirName);
  ARROW_ASSIGN_OR_RAISE(auto info, filesystem.GetFileInfo(staging));
  if (!info.IsDirectory()) return state;
  state.modified = info.mtime();
  afs::FileSelector selector;
  selector.base_dir = staging;
  selector.allow_not_found = true;
  ARROW_ASSIGN_OR_RAISE(auto entries, filesystem.GetFileInfo(selector));
  for (const auto& entry : entries) {
    const std::string name = entry.base_name();
    if (entry.IsFile() && !name.starts_with(".") && name.ends_with(kManifestSuffix)) {
      state.manifests.insert(name);
    }
  }
  return state;
}

// The newest modification time of `info` and, for a directory, of everything below it.
Result<afs::TimePoint> NewestModification(afs::FileSystem& filesystem, const afs::FileInfo& info) {
  afs::TimePoint newest = info.mtime();
  if (!info.IsDirectory()) return newest;
  afs::FileSelector selector;
  selector.base_dir = info.path();
  selector.recursive = true;
  selector.allow_not_found = true;
  ARROW_ASSIGN_OR_RAISE(auto entries, filesystem.GetFileInfo(selector));
  for (const auto& entry : entries) newest = std::max(newest, entry.mtime());
  return newest;
}

}  // namespace

std::string QueryStagingDir(const std::string& query_id) {
  return std::string(kStagingDirName) + "/" + query_id;
}

std::string TaskStagingDir(const std::string& query_id, int64_t task_id) {
  return QueryStagingDir(query_id) + "/" + std::to_string(task_id);
}

Status WriteManifest(afs::FileSystem& filesystem, const std::string& root,
                     const CommitManifest& manifest) {
  return WriteFileAtomically(filesystem, root, ManifestPath(manifest.query_id),
                             EncodeManifest(manifest));
}

Status PublishCommit(afs::FileSystem& filesystem, const std::string& root,
                     const CommitManifest& manifest) {
  ARROW_RETURN_NOT_OK(WriteManifest(filesystem, root, manifest));
  // Committed: whoever lists the table next completes the manifest, so a step that fails here
  // must not report the write as failed (a retry would add its rows twice).
  (void)CompleteManifest(filesystem, root, manifest, /*in_commit=*/true);
  return Status::OK();
}

Result<bool> CompleteCommitIfPending(afs::FileSystem& filesystem, const std::string& root,
                                     const std::string& query_id) {
  const std::string relative = ManifestPath(query_id);
  ARROW_ASSIGN_OR_RAISE(bool pending, Exists(filesystem, Join(root, relative)));
  if (!pending) return false;
  ARROW_ASSIGN_OR_RAISE(auto manifest, ReadManifest(filesystem, root, relative));
  ARROW_RETURN_NOT_OK(CompleteManifest(filesystem, root, manifest));
  return true;
}

Status RecoverPendingCommits(afs::FileSystem& filesystem, const std::string& root) {
  ARROW_ASSIGN_OR_RAISE(auto state, ReadStagingState(filesystem, root));
  for (const auto& name : state.manifests) {
    const std::string relative = std::string(kStagingDirName) + "/" + name;
    auto manifest = ReadManifest(filesystem, root, relative);
    if (!manifest.ok()) {
      // Completed and removed by someone else since the directory was listed.
      ARROW_ASSIGN_OR_RAISE(bool exists, Exists(filesystem, Join(root, relative)));
      if (!exists) continue;
      return manifest.status();
    }
    ARROW_RETURN_NOT_OK(CompleteManifest(filesystem, root, *manifest));
  }
  return Status::OK();
}

Status RemoveAbandonedStaging(afs::FileSystem& filesystem, const std::string& root,
                              const std::string& own_query_id,
                              std::chrono::system_clock::time_point write_start) {
  ARROW_ASSIGN_OR_RAISE(auto state, ReadStagingState(filesystem, root));
  afs::FileSelector selector;
  selector.base_dir = Join(root, kStagingDirName);
  selector.allow_not_found = true;
  ARROW_ASSIGN_OR_RAISE(auto entries, filesystem.GetFileInfo(selector));
  for (const auto& entry : entries) {
    const std::string name = entry.base_name();
    // Hidden directories are private to a DeleteDirConcurrently call in progress.
    const bool staging_dir = entry.IsDirectory() && name != own_query_id &&
                             !name.starts_with(".") &&
                             state.manifests.count(name + kManifestSuffix) == 0;
    const bool unfinished_manifest = entry.IsFile() && name.starts_with(".");
    if (!staging_dir && !unfinished_manifest) continue;
    ARROW_ASSIGN_OR_RAISE(auto newest, NewestModification(filesystem, entry));
    if (newest >= write_start) continue;
    Status removed =
        staging_dir ? filesystem.DeleteDir(entry.path()) : filesystem.DeleteFile(entry.path());
    ARROW_RETURN_NOT_OK(TolerateGone(filesystem, entry.path(), removed));
  }
  return Status::OK();
}

Status ListWithoutPartialCommits(afs::FileSystem& filesystem, const std::string& root,
                                 const std::function<Status()>& list) {
  for (int attempt = 0; attempt < kMaxListingAttempts; ++attempt) {
    ARROW_RETURN_NOT_OK(RecoverPendingCommits(filesystem, root));
    ARROW_ASSIGN_OR_RAISE(auto before, ReadStagingState(filesystem, root));
    ARROW_RETURN_NOT_OK(list());
    ARROW_ASSIGN_OR_RAISE(auto after, ReadStagingState(filesystem, root));
    if (before.manifests.empty() && before == after) return Status::OK();
  }
  return MakeError(arrow::StatusCode::IOError, "FILES_TABLE_CHANGED_DURING_LISTING",
                   "The table at " + root + " kept changing while it was listed: " +
                       std::to_string(kMaxListingAttempts) +
                       " listings each overlapped a commit. Retry the query.");
}

}  // namespace parley::files
