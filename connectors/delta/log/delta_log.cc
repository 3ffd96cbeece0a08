// Listing `_delta_log`, log replay into a snapshot, and time travel (see delta_log.h).
#include "connectors/delta/log/delta_log.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "arrow/buffer.h"
#include "arrow/filesystem/filesystem.h"
#include "arrow/io/interfaces.h"

#include "connectors/delta/log/checkpoint.h"
#include "connectors/delta/log/protocol.h"
#include "connectors/delta/util.h"
#include "parley/connector/status.h"

namespace parley::delta {
namespace {

bool AllDigits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool IsUuid(std::string_view text) {
  if (text.size() != 36) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? text[i] != '-' : !std::isxdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  return true;
}

// What a `_delta_log` file name is, by exact pattern.
struct LogName {
  enum Kind { kOther, kCommit, kClassicCheckpoint, kPartCheckpoint, kUuidCheckpoint } kind = kOther;
  int64_t version = 0;
  int64_t part = 0;
  int64_t parts = 0;
};

LogName ClassifyLogName(std::string_view name) {
  LogName out;
  if (name.size() < 21 || !AllDigits(name.substr(0, 20)) || name[20] != '.') return out;
  // 20 digits can exceed BIGINT: such a name is no log entry.
  std::optional<int64_t> version = ParseInt64(name.substr(0, 20));
  if (!version) return out;
  out.version = *version;
  std::string_view rest = name.substr(21);
  if (rest == "json") {
    out.kind = LogName::kCommit;
  } else if (rest == "checkpoint.parquet") {
    out.kind = LogName::kClassicCheckpoint;
  } else if (rest.starts_with("checkpoint.")) {
    rest.remove_prefix(11);
    // <o:010>.<p:010>.parquet
    if (rest.size() == 29 && AllDigits(rest.substr(0, 10)) && rest[10] == '.' &&
        AllDigits(rest.substr(11, 10)) && rest.substr(21) == ".parquet") {
      out.part = ParseInt64(rest.substr(0, 10)).value_or(0);
      out.parts = ParseInt64(rest.substr(11, 10)).value_or(0);
      if (out.part >= 1 && out.part <= out.parts) out.kind = LogName::kPartCheckpoint;
    } else if (rest.size() > 37 && IsUuid(rest.substr(0, 36)) &&
               (rest.substr(36) == ".json" || rest.substr(36) == ".parquet")) {
      out.kind = LogName::kUuidCheckpoint;
    }
  }
  return out;
}

Status VersionNotFound(const std::string& table_root, int64_t version, int64_t earliest,
                       int64_t latest) {
  return InvalidError("DELTA_VERSION_NOT_FOUND",
                      "Cannot time travel Delta table " + DisplayPath(table_root) + " to version " +
                          std::to_string(version) + ". Available versions: [" +
                          std::to_string(earliest) + ", " + std::to_string(latest) + "].");
}

// The replay state while commits are applied in order.
struct ReplayState {
  std::optional<Protocol> protocol;
  std::optional<Metadata> metadata;
  std::map<std::string, FileAction> adds;        // by FileAction::Key()
  std::map<std::string, FileAction> tombstones;  // removes, by FileAction::Key()
  std::map<std::string, int64_t> app_versions;
  std::map<std::string, DomainMetadata> domains;

  void Apply(CommitActions&& actions) {
    if (actions.protocol) protocol = std::move(actions.protocol);
    if (actions.metadata) metadata = std::move(actions.metadata);
    for (auto& change : actions.file_changes) {
      std::string key = change.file.Key();
      if (change.is_add) {
        tombstones.erase(key);
        adds[key] = std::move(change.file);
      } else {
        adds.erase(key);
        tombstones[key] = std::move(change.file);
      }
    }
    for (const auto& txn : actions.transactions) app_versions[txn.app_id] = txn.version;
    for (auto& domain : actions.domains) {
      if (domain.removed) {
        domains.erase(domain.domain);
      } else {
        domains[domain.domain] = std::move(domain);
      }
    }
  }
};

Status StateRecoverError(const std::string& what, int64_t version, const std::string& table_root) {
  return InvalidError(
      "DELTA_STATE_RECOVER_ERROR",
      "The " + what + " of your Delta table " + DisplayPath(table_root) +
          " could not be recovered while Reconstructing version: " + std::to_string(version) +
          ". Did you manually delete files in the _delta_log directory?");
}

}  // namespace

Result<std::string> ReadTextFile(arrow::fs::FileSystem& filesystem, const std::string& path) {
  ARROW_ASSIGN_OR_RAISE(auto input, filesystem.OpenInputStream(path));
  std::string body;
  while (true) {
    ARROW_ASSIGN_OR_RAISE(auto chunk, input->Read(int64_t{1} << 20));
    if (chunk->size() == 0) break;
    body.append(reinterpret_cast<const char*>(chunk->data()), static_cast<size_t>(chunk->size()));
  }
  return body;
}

Status CorruptLogFile(const std::string& path, const std::string& detail) {
  return InvalidError("FAILED_READ_FILE.NO_HINT",
                      "Encountered error while reading file " + DisplayPath(path) +
                          ": the Delta log file is corrupt: " + detail + ".");
}

std::string DisplayPath(const std::string& path) { return "`" + path + "`"; }

std::optional<int64_t> ParseInt64(std::string_view text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
  return value;
}

std::string PercentDecode(const std::string& text) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2])));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::string ResolveDataPath(const std::string& table_root, const std::string& path) {
  std::string decoded = PercentDecode(path);
  if (decoded.starts_with("file://")) {
    decoded = decoded.substr(7);
  } else if (decoded.starts_with("file:")) {
    decoded = decoded.substr(5);
  }
  if (decoded.starts_with("/") || decoded.find("://") != std::string::npos) return decoded;
  return table_root + "/" + decoded;
}

std::string CommitFileName(int64_t version) {
  std::string digits = std::to_string(version);
  return std::string(20 - std::min<size_t>(20, digits.size()), '0') + digits + ".json";
}

std::string LogDirectory(const std::string& table_root) { return table_root + "/_delta_log"; }

Result<LogListing> ListLog(arrow::fs::FileSystem& filesystem, const std::string& table_root) {
  LogListing listing;
  listing.log_dir = LogDirectory(table_root);
  ARROW_ASSIGN_OR_RAISE(auto info, filesystem.GetFileInfo(listing.log_dir));
  if (info.type() != arrow::fs::FileType::Directory) {
    return InvalidError("DELTA_MISSING_DELTA_TABLE",
                        DisplayPath(table_root) + " is not a Delta table: it has no " +
                            DisplayPath(listing.log_dir) + " directory.");
  }
  arrow::fs::FileSelector selector;
  selector.base_dir = listing.log_dir;
  ARROW_ASSIGN_OR_RAISE(auto entries, filesystem.GetFileInfo(selector));
  // Multi-part checkpoints by (version, part count): the parts found.
  std::map<std::pair<int64_t, int64_t>, std::map<int64_t, std::string>> parts;
  for (const auto& entry : entries) {
    if (entry.type() != arrow::fs::FileType::File) continue;
    LogName name = ClassifyLogName(entry.base_name());
    switch (name.kind) {
      case LogName::kCommit:
        listing.commits.push_back(
            {name.version, entry.path(),
             std::chrono::duration_cast<std::chrono::milliseconds>(entry.mtime().time_since_epoch())
                 .count()});
        break;
      case LogName::kClassicCheckpoint:
      case LogName::kUuidCheckpoint:
        listing.checkpoints.push_back({name.version, {entry.path()}});
        break;
      case LogName::kPartCheckpoint:
        parts[{name.version, name.parts}][name.part] = entry.path();
        break;
      case LogName::kOther: break;
    }
  }
  for (auto& [key, found] : parts) {
    if (static_cast<int64_t>(found.size()) != key.second) continue;  // incomplete: ignored
    CheckpointFiles checkpoint{key.first, {}};
    for (auto& [part, path] : found) checkpoint.paths.push_back(std::move(path));
    listing.checkpoints.push_back(std::move(checkpoint));
  }
  std::sort(listing.commits.begin(), listing.commits.end(),
            [](const CommitFile& a, const CommitFile& b) { return a.version < b.version; });
  // Newest first among equal versions is irrelevant; keep a stable, deterministic order with
  // the single-file (classic or V2) form before multi-part ones.
  std::stable_sort(listing.checkpoints.begin(), listing.checkpoints.end(),
                   [](const CheckpointFiles& a, const CheckpointFiles& b) {
                     if (a.version != b.version) return a.version < b.version;
                     return a.paths.size() < b.paths.size();
                   });
  return listing;
}

std::map<int64_t, int64_t> CommitTimestamps(const LogListing& listing) {
  std::map<int64_t, int64_t> out;
  std::optional<int64_t> previous;
  for (const auto& commit : listing.commits) {
    int64_t ts = commit.modification_time_ms;
    if (previous && ts <= *previous) ts = *previous + 1;
    out[commit.version] = ts;
    previous = ts;
  }
  return out;
}

Result<CommitActions> ReadCommit(arrow::fs::FileSystem& filesystem, const std::string& table_root,
                                 int64_t version) {
  std::string path = LogDirectory(table_root) + "/" + CommitFileName(version);
  ARROW_ASSIGN_OR_RAISE(auto info, filesystem.GetFileInfo(path));
  if (info.type() != arrow::fs::FileType::File) {
    return InvalidError("DELTA_FILE_NOT_FOUND",
                        "The Delta commit file " + DisplayPath(path) + " does not exist.");
  }
  ARROW_ASSIGN_OR_RAISE(std::string body, ReadTextFile(filesystem, path));
  return ParseCommit(body, version, path);
}

Result<std::shared_ptr<const Snapshot>> LoadSnapshot(
    const std::shared_ptr<arrow::fs::FileSystem>& filesystem, const std::string& table_root,
    std::optional<int64_t> version) {
  ARROW_ASSIGN_OR_RAISE(LogListing listing, ListLog(*filesystem, table_root));
  if (listing.commits.empty() && listing.checkpoints.empty()) {
    return InvalidError("DELTA_MISSING_DELTA_TABLE",
                        DisplayPath(table_root) + " is not a Delta table: no commit found in " +
                            DisplayPath(listing.log_dir) + ".");
  }
  int64_t latest = -1;
  if (!listing.commits.empty()) latest = listing.commits.back().version;
  if (!listing.checkpoints.empty()) latest = std::max(latest, listing.checkpoints.back().version);
  int64_t target = version.value_or(latest);

  // The newest checkpoint at or below the target.
  const CheckpointFiles* checkpoint = nullptr;
  for (const auto& candidate : listing.checkpoints) {
    if (candidate.version <= target) checkpoint = &candidate;
  }
  int64_t first_commit = checkpoint ? checkpoint->version + 1 : 0;
  // The earliest version listed; versions before the first checkpoint or commit 0 are gone.
  int64_t earliest = latest;
  if (!listing.checkpoints.empty()) earliest = listing.checkpoints.front().version;
  if (!listing.commits.empty()) earliest = std::min(earliest, listing.commits.front().version);
  if (target > latest || target < 0) {
    return VersionNotFound(table_root, target, earliest, latest);
  }

  // The commits to replay: first_commit..target, contiguous.
  std::vector<const CommitFile*> commits;
  for (const auto& commit : listing.commits) {
    if (commit.version >= first_commit && commit.version <= target) commits.push_back(&commit);
  }
  // Without a checkpoint, replay must start at commit 0; if it was cleaned up, the version
  // cannot be reconstructed.
  if (checkpoint == nullptr && (commits.empty() || commits.front()->version != 0)) {
    if (version) return VersionNotFound(table_root, target, earliest, latest);
    return InvalidError("DELTA_VERSION_NOT_FOUND",
                        "Cannot reconstruct the latest version " + std::to_string(target) +
                            " of Delta table " + DisplayPath(table_root) +
                            ": its log has no commit 0 and no complete checkpoint at or before "
                            "that version.");
  }
  std::vector<int64_t> versions;
  for (const auto* commit : commits) versions.push_back(commit->version);
  // The first version missing from first_commit to the target, if any.
  std::optional<int64_t> gap;
  for (size_t i = 0; i < versions.size() && !gap; ++i) {
    int64_t expected = first_commit + static_cast<int64_t>(i);
    if (versions[i] != expected) gap = expected;
  }
  int64_t reached = versions.empty() ? checkpoint->version : versions.back();
  if (!gap && reached != target) gap = reached + 1;
  if (gap) {
    std::string list;
    for (int64_t v : versions) list += (list.empty() ? "" : ", ") + std::to_string(v);
    return InvalidError("DELTA_VERSIONS_NOT_CONTIGUOUS",
                        "Versions (" + list + ") are not contiguous in " +
                            DisplayPath(listing.log_dir) + ": the commit file " +
                            DisplayPath(CommitFileName(*gap)) + " is missing.");
  }

  ReplayState state;
  if (checkpoint != nullptr) {
    ARROW_ASSIGN_OR_RAISE(CommitActions actions,
                          ReadCheckpoint(*filesystem, listing.log_dir, *checkpoint));
    state.Apply(std::move(actions));
  }
  for (const auto* commit : commits) {
    ARROW_ASSIGN_OR_RAISE(std::string body, ReadTextFile(*filesystem, commit->path));
    ARROW_ASSIGN_OR_RAISE(CommitActions actions, ParseCommit(body, commit->version, commit->path));
    // Check each protocol as soon as it appears: nothing after an unreadable one can be trusted.
    if (actions.protocol) ARROW_RETURN_NOT_OK(CheckReadSupported(*actions.protocol, table_root));
    state.Apply(std::move(actions));
  }
  if (!state.protocol) return StateRecoverError("protocol", target, table_root);
  if (!state.metadata) return StateRecoverError("metadata", target, table_root);
  ARROW_RETURN_NOT_OK(CheckReadSupported(*state.protocol, table_root));

  auto snapshot = std::make_shared<Snapshot>();
  snapshot->table_root = table_root;
  snapshot->version = target;
  snapshot->protocol = std::move(*state.protocol);
  snapshot->metadata = std::move(*state.metadata);
  for (auto& [key, file] : state.adds) snapshot->files.push_back(std::move(file));
  std::stable_sort(snapshot->files.begin(), snapshot->files.end(),
                   [](const FileAction& a, const FileAction& b) { return a.path < b.path; });
  for (auto& [key, file] : state.tombstones) snapshot->tombstones.push_back(std::move(file));
  snapshot->app_versions = std::move(state.app_versions);
  snapshot->domains = std::move(state.domains);
  for (const auto& [v, ts] : CommitTimestamps(listing)) {
    if (v <= target) snapshot->commit_timestamps[v] = ts;
  }
  if (checkpoint != nullptr) snapshot->checkpoint_version = checkpoint->version;
  return snapshot;
}

Result<int64_t> VersionAtTimestamp(arrow::fs::FileSystem& filesystem, const std::string& table_root,
                                   int64_t timestamp_ms) {
  ARROW_ASSIGN_OR_RAISE(LogListing listing, ListLog(filesystem, table_root));
  auto timestamps = CommitTimestamps(listing);
  if (timestamps.empty()) {
    return InvalidError("DELTA_MISSING_DELTA_TABLE",
                        DisplayPath(table_root) + " is not a Delta table: no commit found in " +
                            DisplayPath(listing.log_dir) + ".");
  }
  if (timestamp_ms < timestamps.begin()->second) {
    return InvalidError("DELTA_TIMESTAMP_EARLIER_THAN_COMMIT_RETENTION",
                        "The provided timestamp (" + std::to_string(timestamp_ms) +
                            " ms) is before the earliest version available to the table " +
                            DisplayPath(table_root) + " (" +
                            std::to_string(timestamps.begin()->second) + " ms).");
  }
  if (timestamp_ms > timestamps.rbegin()->second) {
    return InvalidError("DELTA_TIMESTAMP_GREATER_THAN_COMMIT",
                        "The provided timestamp (" + std::to_string(timestamp_ms) +
                            " ms) is after the latest version available to the table " +
                            DisplayPath(table_root) + ". Please use a timestamp before or at " +
                            std::to_string(timestamps.rbegin()->second) + " ms.");
  }
  int64_t found = timestamps.begin()->first;
  for (const auto& [v, ts] : timestamps) {
    if (ts <= timestamp_ms) found = v;
  }
  return found;
}

}  // namespace parley::delta
