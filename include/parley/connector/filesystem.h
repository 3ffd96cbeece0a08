// The filesystems connectors use, and faults injected into them for tests (as LevelDB's
// fault-injecting Env): every filesystem a connector touches comes from OpenFileSystem or
// WrapFileSystem, so that a test can make any one of its operations fail.
//
// An operation is one call: a status or listing (GetFileInfo), a change to directories or files
// (CreateDir, DeleteDir, DeleteDirContents, DeleteFile, Move, CopyFile), an open (for reading,
// writing or appending), and, on an opened output stream, each Write, Flush and Close.
// Operations are counted process-wide from the last ArmFileSystemFault or
// ResetFileSystemFaults; the armed one (1-based) does its fault:
//   kFail        the operation does nothing and returns an INJECTED_FAULT IOError
//   kShortWrite  a Write writes the first half of its bytes, then fails; others fail as kFail
//   kStop        the operation and every later one fail until reset, as when the process dies
//                there: nothing after it reaches storage
//   kKill        SIGKILL the process before the operation
// Code that writes storage without arrow::fs (the Delta commit's put-if-absent) counts its
// steps with CountFileSystemOperation. The environment variable PARLEY_FILESYSTEM_FAULT=<n>:
// <fail|short|stop|kill> arms a process at start. Thread-safe; with nothing armed an operation
// costs one atomic increment.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "arrow/filesystem/type_fwd.h"
#include "parley/connector/status.h"

namespace parley {

/// \brief What the armed filesystem operation does (see above).
enum class FileSystemFault { kFail, kShortWrite, kStop, kKill };

/// \brief Restart the count and arm operation `operation` (1-based) with `fault`.
void ArmFileSystemFault(int64_t operation, FileSystemFault fault);

/// \brief Restart the count with nothing armed (and end a kStop).
void ResetFileSystemFaults();

/// \brief The operations counted since the last Arm or Reset.
int64_t FileSystemOperationCount();

/// \brief Count one operation `what` on `path` and apply the fault when it is the armed one.
/// For a write, `*write_size` is its byte count on entry and, on an error, the bytes that must
/// still be written (half for a short write, else 0).
Status CountFileSystemOperation(std::string_view what, const std::string& path,
                                int64_t* write_size = nullptr);

/// \brief `filesystem` with every operation counted (and faults applied).
std::shared_ptr<arrow::fs::FileSystem> WrapFileSystem(
    std::shared_ptr<arrow::fs::FileSystem> filesystem);

/// \brief The filesystem of a URI or local path (arrow::fs::FileSystemFromUriOrPath), wrapped;
/// `*path` (when given) receives the path within it.
Result<std::shared_ptr<arrow::fs::FileSystem>> OpenFileSystem(const std::string& uri_or_path,
                                                              std::string* path = nullptr);

}  // namespace parley
