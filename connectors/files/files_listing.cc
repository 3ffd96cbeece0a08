// Resolving a files-connector path into data files. A path is a local path (made absolute) or
// a URI (s3://, gs://, file:...), and is split at its first segment holding a glob character:
// the literal part before it makes the Arrow filesystem, the rest is matched one segment at a
// time against directory listings (Hadoop glob syntax: `*`, `?`, `[a-z]`, `[!a]`, `{a,b}`,
// `\` escapes; in a URI `?` starts the query, which configures the filesystem). A directory, named
// or matched, is read recursively. As in Spark, names starting with '.' or '_' (except
// `_key=value` directories) and `*._COPYING_` files are skipped, and empty files carry no
// rows and are left out. A path naming one directory is a table: pending commits are completed
// before it is listed (files_commit.h).
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arrow/filesystem/filesystem.h"
#include "arrow/util/io_util.h"
#include "connectors/files/files_listing.h"
#include "connectors/files/files_options.h"
#include "files_commit.h"
#include "parley/connector/filesystem.h"
#include "parley/connector/status.h"

namespace parley::files {
namespace {

namespace afs = arrow::fs;

bool IsHiddenName(std::string_view name) {
  return (name.starts_with("_") && name.find('=') == std::string_view::npos) ||
         name.starts_with(".") || name.ends_with("._COPYING_");
}

// Whether any segment of `relative` (a '/'-separated path) is hidden.
bool HasGlob(std::string_view segment, bool is_uri) {
  std::string_view specials = is_uri ? "*[{" : "*?[{";
  return segment.find_first_of(specials) != std::string_view::npos;
}

// Matches one character of `name` against the pattern element at `*p` (a literal, `?`, an
// escape or a bracket class); on success advances `*p` past the element.
bool MatchElement(std::string_view pattern, size_t* p, char c) {
  char head = pattern[*p];
  if (head == '?') {
    ++*p;
    return true;
  }
  if (head == '\\' && *p + 1 < pattern.size()) {
    if (pattern[*p + 1] != c) return false;
    *p += 2;
    return true;
  }
  if (head == '[') {
    size_t i = *p + 1;
    bool negate = i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^');
    if (negate) ++i;
    bool matched = false;
    bool first = true;
    for (; i < pattern.size() && (first || pattern[i] != ']'); ++i, first = false) {
      char low = pattern[i];
      char high = low;
      if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
        high = pattern[i + 2];
        i += 2;
      }
      if (low <= c && c <= high) matched = true;
    }
    if (i >= pattern.size()) {  // no closing bracket: a literal '['
      if (c != '[') return false;
      ++*p;
      return true;
    }
    if (matched == negate) return false;
    *p = i + 1;
    return true;
  }
  if (head != c) return false;
  ++*p;
  return true;
}

// Wildcard match of one name against a brace-free pattern, backtracking on the last `*`.
bool MatchNoBraces(std::string_view pattern, std::string_view name) {
  size_t p = 0, n = 0;
  size_t star = std::string_view::npos, star_n = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = ++p;
      star_n = n;
      continue;
    }
    if (p < pattern.size() && MatchElement(pattern, &p, name[n])) {
      ++n;
      continue;
    }
    if (star == std::string_view::npos) return false;
    p = star;
    n = ++star_n;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

// Expand the first {a,b,...} group (groups may nest) into alternatives, recursively.
std::vector<std::string> ExpandBraces(const std::string& pattern) {
  size_t open = std::string::npos;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') {
      ++i;
    } else if (pattern[i] == '{') {
      open = i;
      break;
    }
  }
  if (open == std::string::npos) return {pattern};
  int depth = 0;
  std::vector<std::string> alternatives;
  size_t start = open + 1;
  for (size_t i = open; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '\\') {
      ++i;
    } else if (c == '{') {
      ++depth;
    } else if (c == ',' && depth == 1) {
      alternatives.push_back(pattern.substr(start, i - start));
      start = i + 1;
    } else if (c == '}' && --depth == 0) {
      alternatives.push_back(pattern.substr(start, i - start));
      std::vector<std::string> out;
      for (const auto& alternative : alternatives) {
        for (auto& expanded :
             ExpandBraces(pattern.substr(0, open) + alternative + pattern.substr(i + 1))) {
          out.push_back(std::move(expanded));
        }
      }
      return out;
    }
  }
  return {pattern};  // unbalanced: braces are literal
}

bool GlobMatch(const std::vector<std::string>& alternatives, std::string_view name) {
  return std::any_of(alternatives.begin(), alternatives.end(),
                     [&](const std::string& pattern) { return MatchNoBraces(pattern, name); });
}

std::string JoinPath(const std::string& dir, std::string_view name) {
  if (dir.empty() || dir.back() == '/') return dir + std::string(name);
  return dir + "/" + std::string(name);
}

std::string ParentOf(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return "";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The user's path in the form the rest of the listing works on: local paths absolute and
// normalised, URIs as given.
struct SplitPath {
  bool is_uri = false;
  std::string prefix;                 // literal part, a URI or local path for Arrow
  std::vector<std::string> patterns;  // the segments from the first glob on
};

bool LooksLikeUri(const std::string& path) {
  size_t colon = path.find(':');
  if (colon == std::string::npos || colon < 2) return false;  // "C:" is not a scheme
  return std::all_of(path.begin(), path.begin() + colon, [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
  });
}

SplitPath Split(const std::string& raw) {
  SplitPath out;
  out.is_uri = LooksLikeUri(raw);
  std::string path = raw;
  std::string query;
  size_t path_start = 0;
  if (out.is_uri) {
    size_t question = path.find('?');
    if (question != std::string::npos) {
      query = path.substr(question);
      path.resize(question);
    }
    size_t colon = path.find(':');
    path_start = colon + 1;
    if (path.compare(path_start, 2, "//") == 0) {
      path_start = path.find('/', path_start + 2);
      if (path_start == std::string::npos) path_start = path.size();
    }
  } else {
    std::error_code error;  // on failure the path stays relative and will not be found
    auto absolute = std::filesystem::absolute(path, error);
    if (!error) path = absolute.lexically_normal().string();
  }
  while (path.size() > path_start + 1 && path.back() == '/') path.pop_back();

  // Walk the path's segments until the first one with a glob character.
  size_t segment_start = path_start;
  while (segment_start < path.size()) {
    if (path[segment_start] == '/') {
      ++segment_start;
      continue;
    }
    size_t end = path.find('/', segment_start);
    if (end == std::string::npos) end = path.size();
    if (HasGlob(std::string_view(path).substr(segment_start, end - segment_start), out.is_uri)) {
      std::string rest = path.substr(segment_start);
      size_t start = 0;
      while (start <= rest.size()) {
        size_t slash = rest.find('/', start);
        if (slash == std::string::npos) slash = rest.size();
        if (slash > start) out.patterns.push_back(rest.substr(start, slash - start));
        start = slash + 1;
      }
      path.resize(segment_start);
      while (path.size() > path_start + 1 && path.back() == '/') path.pop_back();
      break;
    }
    segment_start = end;
  }
  out.prefix = path + query;
  return out;
}

Status PathNotFound(const std::string& path) {
  return InvalidError("PATH_NOT_FOUND", "Path does not exist: " + path + ".");
}

}  // namespace

Status ListDirectory(afs::FileSystem& filesystem, const std::string& dir, bool include_empty,
                     std::vector<afs::FileInfo>* out) {
  // Walk level by level so hidden directories (`_temporary`, `.x`) are never entered: writers
  // create and remove entries there while readers list.
  const size_t first_new = out->size();
  std::vector<std::string> pending = {dir};
  while (!pending.empty()) {
    afs::FileSelector selector;
    selector.base_dir = pending.back();
    selector.allow_not_found = selector.base_dir != dir;
    pending.pop_back();
    ARROW_ASSIGN_OR_RAISE(auto entries, filesystem.GetFileInfo(selector));
    for (auto& entry : entries) {
      if (IsHiddenName(entry.base_name())) continue;
      if (entry.IsDirectory()) {
        pending.push_back(entry.path());
      } else if (entry.IsFile() && (entry.size() != 0 || include_empty)) {
        out->push_back(std::move(entry));
      }
    }
  }
  std::sort(out->begin() + static_cast<std::ptrdiff_t>(first_new), out->end(),
            [](const afs::FileInfo& a, const afs::FileInfo& b) { return a.path() < b.path(); });
  return Status::OK();
}

namespace {

// Add what `info` names: the file itself, or the files under a directory.
Status AddMatch(afs::FileSystem& filesystem, afs::FileInfo info, std::vector<afs::FileInfo>* out) {
  if (info.IsDirectory()) {
    return ListDirectory(filesystem, info.path(), /*include_empty=*/false, out);
  }
  if (info.IsFile() && info.size() != 0) out->push_back(std::move(info));
  return Status::OK();
}

// Expand the glob segments below `prefix` into the entries they match.
Result<std::vector<afs::FileInfo>> ExpandGlob(afs::FileSystem& filesystem,
                                              const std::string& prefix,
                                              const std::vector<std::string>& patterns,
                                              bool is_uri) {
  std::vector<std::string> candidates = {prefix};
  std::vector<afs::FileInfo> matched;
  for (size_t k = 0; k < patterns.size(); ++k) {
    const bool last = k + 1 == patterns.size();
    std::vector<std::string> next;
    if (!HasGlob(patterns[k], is_uri)) {
      for (const auto& candidate : candidates) next.push_back(JoinPath(candidate, patterns[k]));
    } else {
      const auto alternatives = ExpandBraces(patterns[k]);
      const bool may_match_hidden = IsHiddenName(patterns[k]);
      for (const auto& candidate : candidates) {
        afs::FileSelector selector;
        selector.base_dir = candidate;
        selector.allow_not_found = true;
        auto entries = filesystem.GetFileInfo(selector);
        if (!entries.ok()) continue;  // a file, not a directory: nothing below it matches
        for (auto& entry : *entries) {
          std::string name = entry.base_name();
          if (!GlobMatch(alternatives, name)) continue;
          if (IsHiddenName(name) && !may_match_hidden) continue;
          if (last) {
            matched.push_back(std::move(entry));
          } else if (entry.IsDirectory()) {
            next.push_back(entry.path());
          }
        }
      }
    }
    candidates = std::move(next);
  }
  // A literal last segment: look each candidate up.
  if (!patterns.empty() && !HasGlob(patterns.back(), is_uri)) {
    ARROW_ASSIGN_OR_RAISE(auto infos, filesystem.GetFileInfo(candidates));
    for (auto& info : infos) {
      if (info.type() != afs::FileType::NotFound) matched.push_back(std::move(info));
    }
  }
  return matched;
}

}  // namespace

std::string DisplayPath(const afs::FileSystem& filesystem, const std::string& path) {
  if (filesystem.type_name() == "local") return path;
  auto uri = filesystem.MakeUri(path);
  return uri.ok() ? *uri : filesystem.type_name() + "://" + path;
}

// A file listed for the scan and gone when read: an overwrite committed meanwhile.
Status FileVanished(const std::string& display_path) {
  return MakeError(arrow::StatusCode::IOError, "FAILED_READ_FILE.FILE_NOT_EXIST",
                   "Encountered error while reading file " + display_path +
                       ". File does not "
                       "exist. It is possible the underlying files have been updated: an overwrite "
                       "committed while this query read the table. Run the query again.");
}

Status FileReadError(const std::string& display_path, const Status& cause) {
  if (arrow::internal::ErrnoFromStatus(cause) == ENOENT) return FileVanished(display_path);
  return MakeError(arrow::StatusCode::IOError, "FAILED_READ_FILE.NO_HINT",
                   "Encountered error while reading file " + display_path + ". " + cause.message());
}

Status FooterReadError(const std::string& display_path, const Status& cause) {
  if (arrow::internal::ErrnoFromStatus(cause) == ENOENT) return FileVanished(display_path);
  return MakeError(arrow::StatusCode::IOError, "FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER",
                   "Could not read footer for file: " + display_path + ". " + cause.message());
}

Result<Listing> ListFiles(const ReadOptions& options, bool allow_missing) {
  if (options.path.empty()) return PathNotFound("(no path given)");
  SplitPath split = Split(options.path);
  Listing listing;
  std::string prefix_path;
  auto filesystem = OpenFileSystem(split.prefix, &prefix_path);
  if (!filesystem.ok()) {
    return InvalidError("PATH_NOT_FOUND", "Path does not exist: " + options.path + ". " +
                                              filesystem.status().message());
  }
  listing.filesystem = *filesystem;
  listing.filesystem_uri = split.prefix;

  if (split.patterns.empty()) {
    ARROW_ASSIGN_OR_RAISE(auto info, listing.filesystem->GetFileInfo(prefix_path));
    if (info.type() == afs::FileType::NotFound) {
      if (!allow_missing) return PathNotFound(options.path);
      listing.root_dir = listing.partition_base_dir = prefix_path;
    } else if (info.IsDirectory()) {
      listing.root_dir = listing.partition_base_dir = prefix_path;
      // A table directory: complete any commit left half done, and list no commit half done.
      ARROW_RETURN_NOT_OK(ListWithoutPartialCommits(*listing.filesystem, prefix_path, [&] {
        listing.files.clear();
        return ListDirectory(*listing.filesystem, prefix_path, /*include_empty=*/false,
                             &listing.files);
      }));
    } else {
      listing.partition_base_dir = ParentOf(prefix_path);
      ARROW_RETURN_NOT_OK(AddMatch(*listing.filesystem, std::move(info), &listing.files));
    }
  } else {
    ARROW_ASSIGN_OR_RAISE(
        auto matched, ExpandGlob(*listing.filesystem, prefix_path, split.patterns, split.is_uri));
    if (matched.empty()) return PathNotFound(options.path);
    listing.partition_base_dir = prefix_path;
    for (auto& info : matched) {
      ARROW_RETURN_NOT_OK(AddMatch(*listing.filesystem, std::move(info), &listing.files));
    }
  }
  if (!options.base_path.empty()) {
    SplitPath base = Split(options.base_path);
    if (base.is_uri) {
      ARROW_ASSIGN_OR_RAISE(listing.partition_base_dir,
                            listing.filesystem->PathFromUri(base.prefix));
    } else {
      listing.partition_base_dir = base.prefix;
    }
  }
  std::sort(listing.files.begin(), listing.files.end(),
            [](const afs::FileInfo& a, const afs::FileInfo& b) { return a.path() < b.path(); });
  listing.files.erase(std::unique(listing.files.begin(), listing.files.end(),
                                  [](const afs::FileInfo& a, const afs::FileInfo& b) {
                                    return a.path() == b.path();
                                  }),
                      listing.files.end());
  return listing;
}

}  // namespace parley::files
