// Fuzz targets: Delta log replay (commits, a Parquet checkpoint) and deletion vectors.
//
// delta_log's input is one or more files of `_delta_log`: text up to the first line that starts
// with "==== " is commit 0; each such line names the next file (`==== 00000000000000000001.json`,
// `==== _last_checkpoint`, ...) and the text up to the next one is its body.
#include <string>
#include <string_view>

#include "connectors/delta/log/deletion_vector.h"
#include "connectors/delta/log/delta_log.h"
#include "fuzz_targets.h"
#include "mock_filesystem.h"

namespace parley::fuzz {
namespace {

constexpr char kTableRoot[] = "t";

std::string LogPath(std::string_view name) {
  return std::string(kTableRoot) + "/_delta_log/" + std::string(name);
}

// Replay the table at `t` at its latest version and at version 0, and load the deletion vector
// of every active file.
void ReplayTable(const std::shared_ptr<arrow::fs::FileSystem>& filesystem) {
  auto snapshot = delta::LoadSnapshot(filesystem, kTableRoot);
  (void)delta::LoadSnapshot(filesystem, kTableRoot, 0);
  (void)delta::VersionAtTimestamp(*filesystem, kTableRoot, 0);
  if (!snapshot.ok()) return;
  for (const delta::FileAction& file : (*snapshot)->files) {
    if (file.deletion_vector) {
      (void)delta::LoadDeletionVector(*filesystem, kTableRoot, *file.deletion_vector);
    }
  }
}

}  // namespace

void FuzzDeltaLog(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto filesystem = MakeMemoryFileSystem();
  std::string name = delta::CommitFileName(0);
  constexpr std::string_view kHeader = "==== ";
  while (true) {
    size_t header = input.starts_with(kHeader) ? 0 : input.find("\n" + std::string(kHeader));
    std::string_view body = input.substr(0, header);
    if (!body.empty() || header != 0) {
      if (!WriteMemoryFile(*filesystem, LogPath(name), body)) return;
    }
    if (header == std::string_view::npos) break;
    input.remove_prefix(header + (input[header] == '\n' ? 1 : 0) + kHeader.size());
    size_t end = input.find('\n');
    name = std::string(input.substr(0, end));
    if (name.empty() || name.find('/') != std::string::npos) return;
    input.remove_prefix(end == std::string_view::npos ? input.size() : end + 1);
  }
  ReplayTable(filesystem);
}

void FuzzDeltaCheckpoint(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto filesystem = MakeMemoryFileSystem();
  if (!WriteMemoryFile(*filesystem, LogPath("00000000000000000010.checkpoint.parquet"), input) ||
      !WriteMemoryFile(*filesystem, LogPath("_last_checkpoint"), R"({"version":10,"size":1})")) {
    return;
  }
  ReplayTable(filesystem);
}

void FuzzDeletionVector(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  (void)delta::DecodeZ85(input);
  (void)delta::DecodeRoaringBitmapArray(input, "fuzz");
  // As a DV file: the first two bytes are the descriptor's offset (mod 8) and its size (signed).
  if (input.size() < 2) return;
  auto filesystem = MakeMemoryFileSystem();
  if (!WriteMemoryFile(*filesystem, "t/dv.bin", input.substr(2))) return;
  delta::DeletionVectorDescriptor descriptor;
  descriptor.storage_type = "p";
  descriptor.path_or_inline_dv = "dv.bin";
  descriptor.offset = static_cast<uint8_t>(input[0]) % 8;
  descriptor.size_in_bytes = static_cast<int8_t>(input[1]);
  (void)delta::LoadDeletionVector(*filesystem, kTableRoot, descriptor);
  descriptor.storage_type = "i";
  descriptor.path_or_inline_dv = std::string(input.substr(2));
  (void)delta::LoadDeletionVector(*filesystem, kTableRoot, descriptor);
}

}  // namespace parley::fuzz
