// Storage wrappers: a byte-counting filesystem and line ranges of a file (files_io.cc).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "arrow/filesystem/filesystem.h"
#include "arrow/type_fwd.h"
#include "parley/connector/status.h"

namespace parley::files {

/// \brief A filesystem that forwards every call to `base` and adds each byte read through the
/// files and streams it opens to `*bytes_read`. Safe for concurrent use.
std::shared_ptr<arrow::fs::FileSystem> MakeCountingFileSystem(
    std::shared_ptr<arrow::fs::FileSystem> base, std::shared_ptr<std::atomic<int64_t>> bytes_read);

/// \brief A view of the lines of `file` (`file_size` bytes) that start inside
/// [offset, offset + length): the view begins at the first line start at or after `offset` and
/// ends at the first line start at or after `offset + length`, so consecutive ranges cover each
/// line exactly once. With `skip_first_line`, a range starting at 0 skips the file's first line
/// (a CSV header). Finding the boundaries reads a little past each end.
Result<std::shared_ptr<arrow::io::RandomAccessFile>> OpenLineRange(
    std::shared_ptr<arrow::io::RandomAccessFile> file, int64_t file_size, int64_t offset,
    int64_t length, bool skip_first_line);

}  // namespace parley::files
