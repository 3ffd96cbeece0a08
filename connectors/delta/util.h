// Small shared pieces of the Delta connector: Arrow's compute registration, log-file errors,
// reading small files, paths and their display, opening a table location, UUIDs and the clock.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "arrow/filesystem/type_fwd.h"
#include "arrow/type_fwd.h"
#include "parley/connector/status.h"

namespace parley::delta {

/// \brief `text` with ASCII letters lower-cased (names and properties match ignoring case).
inline std::string Lower(std::string text) {
  for (auto& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

/// \brief Register Arrow's compute kernels (libarrow_compute) once per process. Every entry
/// point that casts or filters calls it, whether or not the engine has done so.
Status EnsureComputeInitialized();

/// \brief FAILED_READ_FILE.NO_HINT naming a log file (commit, checkpoint, sidecar) that does not
/// parse or has the wrong shape.
Status CorruptLogFile(const std::string& path, const std::string& detail);

/// \brief The whole content of a (small) file.
Result<std::string> ReadTextFile(arrow::fs::FileSystem& filesystem, const std::string& path);

/// \brief The path a table file is shown by in messages.
std::string DisplayPath(const std::string& path);

/// \brief `text` read whole as a decimal integer ([-]digits) that fits 64 bits, or nullopt
/// (for digits from files and options, which may be anything).
std::optional<int64_t> ParseInt64(std::string_view text);

/// \brief The storage path of a file action's path: percent-decoded once, and made absolute
/// against `table_root` unless it already is (a `file:` URI becomes its path).
std::string ResolveDataPath(const std::string& table_root, const std::string& path);

/// \brief Decode %XX escapes once.
std::string PercentDecode(const std::string& text);

/// \brief Open a table location (a local path or a URI) as a filesystem and the root path.
Result<std::pair<std::shared_ptr<arrow::fs::FileSystem>, std::string>> OpenLocation(
    const std::string& location);

/// \brief A random UUID (version 4), lower-case.
std::string RandomUuid();

/// \brief Milliseconds since the epoch, now.
int64_t NowMillis();

}  // namespace parley::delta
