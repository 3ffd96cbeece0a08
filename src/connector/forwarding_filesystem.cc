// ForwardingFileSystem (parley/connector/forwarding_filesystem.h): every call goes to the base.
#include "parley/connector/forwarding_filesystem.h"

#include <utility>

namespace parley {

namespace afs = arrow::fs;
namespace aio = arrow::io;

ForwardingFileSystem::ForwardingFileSystem(std::shared_ptr<afs::FileSystem> base)
    : afs::FileSystem(base->io_context()), base_(std::move(base)) {}

std::string ForwardingFileSystem::type_name() const { return base_->type_name(); }

bool ForwardingFileSystem::Equals(const afs::FileSystem& other) const { return this == &other; }

arrow::Result<std::string> ForwardingFileSystem::NormalizePath(std::string path) {
  return base_->NormalizePath(std::move(path));
}

arrow::Result<std::string> ForwardingFileSystem::PathFromUri(const std::string& uri) const {
  return base_->PathFromUri(uri);
}

arrow::Result<std::string> ForwardingFileSystem::MakeUri(std::string path) const {
  return base_->MakeUri(std::move(path));
}

arrow::Result<afs::FileInfo> ForwardingFileSystem::GetFileInfo(const std::string& path) {
  return base_->GetFileInfo(path);
}

arrow::Result<afs::FileInfoVector> ForwardingFileSystem::GetFileInfo(
    const afs::FileSelector& selector) {
  return base_->GetFileInfo(selector);
}

arrow::Status ForwardingFileSystem::CreateDir(const std::string& path, bool recursive) {
  return base_->CreateDir(path, recursive);
}

arrow::Status ForwardingFileSystem::DeleteDir(const std::string& path) {
  return base_->DeleteDir(path);
}

arrow::Status ForwardingFileSystem::DeleteDirContents(const std::string& path,
                                                      bool missing_dir_ok) {
  return base_->DeleteDirContents(path, missing_dir_ok);
}

arrow::Status ForwardingFileSystem::DeleteRootDirContents() {
  return base_->DeleteRootDirContents();
}

arrow::Status ForwardingFileSystem::DeleteFile(const std::string& path) {
  return base_->DeleteFile(path);
}

arrow::Status ForwardingFileSystem::Move(const std::string& from, const std::string& to) {
  return base_->Move(from, to);
}

arrow::Status ForwardingFileSystem::CopyFile(const std::string& from, const std::string& to) {
  return base_->CopyFile(from, to);
}

arrow::Result<std::shared_ptr<aio::InputStream>> ForwardingFileSystem::OpenInputStream(
    const std::string& path) {
  return base_->OpenInputStream(path);
}

arrow::Result<std::shared_ptr<aio::InputStream>> ForwardingFileSystem::OpenInputStream(
    const afs::FileInfo& info) {
  return base_->OpenInputStream(info);
}

arrow::Result<std::shared_ptr<aio::RandomAccessFile>> ForwardingFileSystem::OpenInputFile(
    const std::string& path) {
  return base_->OpenInputFile(path);
}

arrow::Result<std::shared_ptr<aio::RandomAccessFile>> ForwardingFileSystem::OpenInputFile(
    const afs::FileInfo& info) {
  return base_->OpenInputFile(info);
}

arrow::Result<std::shared_ptr<aio::OutputStream>> ForwardingFileSystem::OpenOutputStream(
    const std::string& path, const std::shared_ptr<const arrow::KeyValueMetadata>& metadata) {
  return base_->OpenOutputStream(path, metadata);
}

arrow::Result<std::shared_ptr<aio::OutputStream>> ForwardingFileSystem::OpenAppendStream(
    const std::string& path, const std::shared_ptr<const arrow::KeyValueMetadata>& metadata) {
  return base_->OpenAppendStream(path, metadata);
}

}  // namespace parley
