// An in-memory filesystem for fuzz targets that read files: each input becomes a few files
// without touching the disk.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "arrow/filesystem/mockfs.h"
#include "arrow/io/interfaces.h"

namespace parley::fuzz {

/// \brief An empty in-memory filesystem.
inline std::shared_ptr<arrow::fs::FileSystem> MakeMemoryFileSystem() {
  return std::make_shared<arrow::fs::internal::MockFileSystem>(arrow::fs::TimePoint{});
}

/// \brief Write `contents` to `path` of `filesystem`, creating its directory; false on failure.
inline bool WriteMemoryFile(arrow::fs::FileSystem& filesystem, const std::string& path,
                            std::string_view contents) {
  auto slash = path.rfind('/');
  if (slash != std::string::npos && !filesystem.CreateDir(path.substr(0, slash)).ok()) {
    return false;
  }
  auto stream = filesystem.OpenOutputStream(path);
  if (!stream.ok()) return false;
  return (*stream)->Write(contents.data(), static_cast<int64_t>(contents.size())).ok() &&
         (*stream)->Close().ok();
}

}  // namespace parley::fuzz
