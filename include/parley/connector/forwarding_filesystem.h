// A filesystem that forwards every call to another one: the base of wrappers that watch or
// alter a few calls (bytes counted per task, injected faults) and leave the rest alone.
#pragma once

#include <memory>
#include <string>

#include "arrow/filesystem/filesystem.h"

namespace parley {

/// \brief Forwards every arrow::fs::FileSystem call to `base()`; type_name() is the base's, so
/// code that checks for a local filesystem still sees one. Equal only to itself.
class ForwardingFileSystem : public arrow::fs::FileSystem {
 public:
  explicit ForwardingFileSystem(std::shared_ptr<arrow::fs::FileSystem> base);

  using arrow::fs::FileSystem::GetFileInfo;
  using arrow::fs::FileSystem::OpenAppendStream;
  using arrow::fs::FileSystem::OpenInputFile;
  using arrow::fs::FileSystem::OpenInputStream;
  using arrow::fs::FileSystem::OpenOutputStream;

  const std::shared_ptr<arrow::fs::FileSystem>& base() const { return base_; }

  std::string type_name() const override;
  bool Equals(const arrow::fs::FileSystem& other) const override;
  arrow::Result<std::string> NormalizePath(std::string path) override;
  arrow::Result<std::string> PathFromUri(const std::string& uri) const override;
  arrow::Result<std::string> MakeUri(std::string path) const override;

  arrow::Result<arrow::fs::FileInfo> GetFileInfo(const std::string& path) override;
  arrow::Result<arrow::fs::FileInfoVector> GetFileInfo(
      const arrow::fs::FileSelector& selector) override;
  arrow::Status CreateDir(const std::string& path, bool recursive) override;
  arrow::Status DeleteDir(const std::string& path) override;
  arrow::Status DeleteDirContents(const std::string& path, bool missing_dir_ok) override;
  arrow::Status DeleteRootDirContents() override;
  arrow::Status DeleteFile(const std::string& path) override;
  arrow::Status Move(const std::string& from, const std::string& to) override;
  arrow::Status CopyFile(const std::string& from, const std::string& to) override;

  arrow::Result<std::shared_ptr<arrow::io::InputStream>> OpenInputStream(
      const std::string& path) override;
  arrow::Result<std::shared_ptr<arrow::io::InputStream>> OpenInputStream(
      const arrow::fs::FileInfo& info) override;
  arrow::Result<std::shared_ptr<arrow::io::RandomAccessFile>> OpenInputFile(
      const std::string& path) override;
  arrow::Result<std::shared_ptr<arrow::io::RandomAccessFile>> OpenInputFile(
      const arrow::fs::FileInfo& info) override;
  arrow::Result<std::shared_ptr<arrow::io::OutputStream>> OpenOutputStream(
      const std::string& path,
      const std::shared_ptr<const arrow::KeyValueMetadata>& metadata) override;
  arrow::Result<std::shared_ptr<arrow::io::OutputStream>> OpenAppendStream(
      const std::string& path,
      const std::shared_ptr<const arrow::KeyValueMetadata>& metadata) override;

 private:
  std::shared_ptr<arrow::fs::FileSystem> base_;
};

}  // namespace parley
