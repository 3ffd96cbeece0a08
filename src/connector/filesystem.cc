// Counted filesystems and injected filesystem faults (parley/connector/filesystem.h).
#include "parley/connector/filesystem.h"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <cstdlib>
#include <utility>

#include "arrow/filesystem/filesystem.h"
#include "arrow/io/interfaces.h"
#include "parley/connector/forwarding_filesystem.h"

namespace parley {
namespace {

namespace afs = arrow::fs;
namespace aio = arrow::io;

struct FaultState {
  std::atomic<int64_t> count{0};
  std::atomic<int64_t> armed{0};  // 0: nothing armed
  std::atomic<int> fault{static_cast<int>(FileSystemFault::kFail)};
  std::atomic<bool> stopped{false};
};

// PARLEY_FILESYSTEM_FAULT=<n>:<fail|short|stop|kill>; a malformed value arms nothing.
void ArmFromEnvironment(FaultState* state) {
  const char* env = std::getenv("PARLEY_FILESYSTEM_FAULT");
  if (env == nullptr) return;
  std::string_view text(env);
  size_t colon = text.find(':');
  int64_t operation = 0;
  auto [end, error] =
      std::from_chars(text.data(), text.data() + std::min(colon, text.size()), operation);
  if (error != std::errc() || operation <= 0 || colon == std::string_view::npos) return;
  std::string_view name = text.substr(colon + 1);
  FileSystemFault fault;
  if (name == "fail") {
    fault = FileSystemFault::kFail;
  } else if (name == "short") {
    fault = FileSystemFault::kShortWrite;
  } else if (name == "stop") {
    fault = FileSystemFault::kStop;
  } else if (name == "kill") {
    fault = FileSystemFault::kKill;
  } else {
    return;
  }
  state->fault = static_cast<int>(fault);
  state->armed = operation;
}

FaultState& State() {
  static FaultState* state = [] {
    auto* created = new FaultState();
    ArmFromEnvironment(created);
    return created;
  }();
  return *state;
}

Status Injected(std::string_view what, const std::string& path, int64_t operation) {
  return MakeError(
      arrow::StatusCode::IOError, "INJECTED_FAULT",
      fmt::format("Injected filesystem fault at operation {} ({} {}).", operation, what, path));
}

// An output stream whose writes, flushes and close are counted operations.
class CountedOutputStream : public aio::OutputStream {
 public:
  CountedOutputStream(std::shared_ptr<aio::OutputStream> stream, std::string path)
      : stream_(std::move(stream)), path_(std::move(path)) {}

  using aio::OutputStream::Write;

  Status Write(const void* data, int64_t nbytes) override {
    int64_t allowed = nbytes;
    Status fault = CountFileSystemOperation("write", path_, &allowed);
    if (fault.ok()) return stream_->Write(data, nbytes);
    if (allowed > 0) ARROW_RETURN_NOT_OK(stream_->Write(data, allowed));
    return fault;
  }
  Status Flush() override {
    ARROW_RETURN_NOT_OK(CountFileSystemOperation("flush", path_));
    return stream_->Flush();
  }
  Status Close() override {
    ARROW_RETURN_NOT_OK(CountFileSystemOperation("close", path_));
    return stream_->Close();
  }
  Status Abort() override { return stream_->Abort(); }
  bool closed() const override { return stream_->closed(); }
  Result<int64_t> Tell() const override { return stream_->Tell(); }

 private:
  std::shared_ptr<aio::OutputStream> stream_;
  std::string path_;
};

class CountedFileSystem : public ForwardingFileSystem {
 public:
  using ForwardingFileSystem::ForwardingFileSystem;
  using ForwardingFileSystem::GetFileInfo;
  using ForwardingFileSystem::OpenInputFile;
  using ForwardingFileSystem::OpenInputStream;

  Result<afs::FileInfo> GetFileInfo(const std::string& path) override {
    ARROW_RETURN_NOT_OK(CountFileSystemOperation("stat", path));
    return base()->GetFileInfo(path);
  }
  Result<afs::FileInfoVector> GetFileInfo(const afs::FileSelector& selector) override {
    ARROW_RETURN_NOT_OK(CountFileSystemOperation("list", selector.base_dir));
    return base()->GetFileInfo(selector);
  }
  Status CreateDir(const std::string& path, bool recursive) override {
    ARROW_RETURN_NOT_OK(CountFileSystemOperation("mkdir", path));
    return base()->CreateDir(path, recursive);
  }
  Status DeleteDir(const std::string& path) override {
    ARROW_RETURN_NOT_OK(CountFileSystemOperation("rmdir", path));
    return base()->DeleteDir(path);
  }
  Status DeleteDirContents(const std::string& path, bool missing_dir_ok) override {
    ARROW_RETURN_NOT_OK(CountFileSystemOperation("empty", path));
    return base()->DeleteDirContents(path, missing_dir_ok);
  }
  Status DeleteRootDirContents() override {
    ARROW_RETURN_NOT_OK(CountFileSystemOperation("empty", "/"));
    return base()->DeleteRootDirContents();
  }
  Status DeleteFile(const std::string& path) override {
    ARROW_RETURN_NOT_OK(CountFileSystemOperation("delete", path));
    return base()->DeleteFile(path);
  }
  Status Move(const std::string& from, const std::string& to) override {
    ARROW_RETURN_NOT_OK(CountFileSystemOperation("move", from + " -> " + to));
    return base()->Move(from, to);
  }
  Status CopyFile(const std::string& from, const std::string& to) override {
    ARROW_RETURN_NOT_OK(CountFileSystemOperation("copy", from + " -> " + to));
    return base()->CopyFile(from, to);
  }
  Result<std::shared_ptr<aio::InputStream>> OpenInputStream(const std::string& path) override {
    ARROW_RETURN_NOT_OK(CountFileSystemOperation("open", path));
    return base()->OpenInputStream(path);
  }
  Result<std::shared_ptr<aio::RandomAccessFile>> OpenInputFile(const std::string& path) override {
    ARROW_RETURN_NOT_OK(CountFileSystemOperation("open", path));
    return base()->OpenInputFile(path);
  }
  Result<std::shared_ptr<aio::InputStream>> OpenInputStream(const afs::FileInfo& info) override {
    ARROW_RETURN_NOT_OK(CountFileSystemOperation("open", info.path()));
    return base()->OpenInputStream(info);
  }
  Result<std::shared_ptr<aio::RandomAccessFile>> OpenInputFile(const afs::FileInfo& info) override {
    ARROW_RETURN_NOT_OK(CountFileSystemOperation("open", info.path()));
    return base()->OpenInputFile(info);
  }
  Result<std::shared_ptr<aio::OutputStream>> OpenOutputStream(
      const std::string& path,
      const std::shared_ptr<const arrow::KeyValueMetadata>& metadata) override {
    ARROW_RETURN_NOT_OK(CountFileSystemOperation("create", path));
    ARROW_ASSIGN_OR_RAISE(auto stream, base()->OpenOutputStream(path, metadata));
    return std::make_shared<CountedOutputStream>(std::move(stream), path);
  }
  Result<std::shared_ptr<aio::OutputStream>> OpenAppendStream(
      const std::string& path,
      const std::shared_ptr<const arrow::KeyValueMetadata>& metadata) override {
    ARROW_RETURN_NOT_OK(CountFileSystemOperation("append", path));
    ARROW_ASSIGN_OR_RAISE(auto stream, base()->OpenAppendStream(path, metadata));
    return std::make_shared<CountedOutputStream>(std::move(stream), path);
  }
};

}  // namespace

void ArmFileSystemFault(int64_t operation, FileSystemFault fault) {
  FaultState& state = State();
  state.armed = 0;
  state.stopped = false;
  state.count = 0;
  state.fault = static_cast<int>(fault);
  state.armed = operation;
}

void ResetFileSystemFaults() {
  FaultState& state = State();
  state.armed = 0;
  state.stopped = false;
  state.count = 0;
}

int64_t FileSystemOperationCount() { return State().count.load(); }

Status CountFileSystemOperation(std::string_view what, const std::string& path,
                                int64_t* write_size) {
  FaultState& state = State();
  const int64_t operation = state.count.fetch_add(1) + 1;
  const bool stopped = state.stopped.load();
  if (!stopped && operation != state.armed.load()) return Status::OK();
  const auto fault = static_cast<FileSystemFault>(state.fault.load());
  if (!stopped) {
    if (fault == FileSystemFault::kKill) ::kill(::getpid(), SIGKILL);
    if (fault == FileSystemFault::kStop) state.stopped = true;
  }
  if (write_size != nullptr) {
    *write_size = !stopped && fault == FileSystemFault::kShortWrite ? *write_size / 2 : 0;
  }
  return Injected(what, path, operation);
}

std::shared_ptr<afs::FileSystem> WrapFileSystem(std::shared_ptr<afs::FileSystem> filesystem) {
  return std::make_shared<CountedFileSystem>(std::move(filesystem));
}

Result<std::shared_ptr<afs::FileSystem>> OpenFileSystem(const std::string& uri_or_path,
                                                        std::string* path) {
  ARROW_ASSIGN_OR_RAISE(auto filesystem, afs::FileSystemFromUriOrPath(uri_or_path, path));
  return WrapFileSystem(std::move(filesystem));
}

}  // namespace parley
