// Storage wrappers used by the files connector's readers.
//
// CountingFileSystem measures the bytes a task really reads from storage: it forwards every
// call to the wrapped Arrow filesystem and wraps each file it opens in a CountingFile, which
// adds the size of every read (positional, sequential and asynchronous, including the coalesced
// ranges Parquet pre-buffers) to a counter shared by one task. Footers, column chunks and line
// boundary probes all count, since all of them are I/O; pruned row groups and columns are never
// requested and so never count.
//
// LineRangeFile is a window over whole lines of a text file, so a large CSV or JSON-lines file
// can be split into byte ranges read by separate tasks, as Hadoop's line record reader does:
// each range owns the lines that start inside it.
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "arrow/buffer.h"
#include "arrow/filesystem/filesystem.h"
#include "arrow/io/interfaces.h"
#include "arrow/util/future.h"
#include "connectors/files/files_io.h"
#include "parley/connector/forwarding_filesystem.h"

namespace parley::files {
namespace {

namespace afs = arrow::fs;
namespace aio = arrow::io;
using Counter = std::shared_ptr<std::atomic<int64_t>>;

class CountingFile : public aio::RandomAccessFile {
 public:
  CountingFile(std::shared_ptr<aio::RandomAccessFile> file, Counter counter)
      : file_(std::move(file)), counter_(std::move(counter)) {}

  using aio::RandomAccessFile::ReadAsync;
  using aio::RandomAccessFile::ReadManyAsync;

  Status Close() override { return file_->Close(); }
  bool closed() const override { return file_->closed(); }
  Result<int64_t> Tell() const override { return file_->Tell(); }
  Status Seek(int64_t position) override { return file_->Seek(position); }
  Result<int64_t> GetSize() override { return file_->GetSize(); }
  bool supports_zero_copy() const override { return file_->supports_zero_copy(); }
  const aio::IOContext& io_context() const override { return file_->io_context(); }
  Status WillNeed(const std::vector<aio::ReadRange>& ranges) override {
    return file_->WillNeed(ranges);
  }

  Result<int64_t> Read(int64_t nbytes, void* out) override {
    return Count(file_->Read(nbytes, out));
  }
  Result<std::shared_ptr<arrow::Buffer>> Read(int64_t nbytes) override {
    return Count(file_->Read(nbytes));
  }
  Result<int64_t> ReadAt(int64_t position, int64_t nbytes, bool allow_short_read,
                         void* out) override {
    return Count(file_->ReadAt(position, nbytes, allow_short_read, out));
  }
  Result<int64_t> ReadAt(int64_t position, int64_t nbytes, void* out) override {
    return Count(file_->ReadAt(position, nbytes, out));
  }
  Result<std::shared_ptr<arrow::Buffer>> ReadAt(int64_t position, int64_t nbytes,
                                                bool allow_short_read) override {
    return Count(file_->ReadAt(position, nbytes, allow_short_read));
  }
  Result<std::shared_ptr<arrow::Buffer>> ReadAt(int64_t position, int64_t nbytes) override {
    return Count(file_->ReadAt(position, nbytes));
  }
  arrow::Future<std::shared_ptr<arrow::Buffer>> ReadAsync(const aio::IOContext& context,
                                                          int64_t position, int64_t nbytes,
                                                          bool allow_short_read) override {
    return CountLater(file_->ReadAsync(context, position, nbytes, allow_short_read));
  }
  arrow::Future<std::shared_ptr<arrow::Buffer>> ReadAsync(const aio::IOContext& context,
                                                          int64_t position,
                                                          int64_t nbytes) override {
    return CountLater(file_->ReadAsync(context, position, nbytes));
  }
  std::vector<arrow::Future<std::shared_ptr<arrow::Buffer>>> ReadManyAsync(
      const aio::IOContext& context, const std::vector<aio::ReadRange>& ranges) override {
    auto futures = file_->ReadManyAsync(context, ranges);
    for (auto& future : futures) future = CountLater(std::move(future));
    return futures;
  }

 private:
  Result<int64_t> Count(Result<int64_t> bytes) const {
    if (bytes.ok()) counter_->fetch_add(*bytes);
    return bytes;
  }
  Result<std::shared_ptr<arrow::Buffer>> Count(
      Result<std::shared_ptr<arrow::Buffer>> buffer) const {
    if (buffer.ok()) counter_->fetch_add((*buffer)->size());
    return buffer;
  }
  arrow::Future<std::shared_ptr<arrow::Buffer>> CountLater(
      arrow::Future<std::shared_ptr<arrow::Buffer>> future) const {
    return future.Then([counter = counter_](const std::shared_ptr<arrow::Buffer>& buffer) {
      counter->fetch_add(buffer->size());
      return buffer;
    });
  }

  std::shared_ptr<aio::RandomAccessFile> file_;
  Counter counter_;
};

class CountingFileSystem : public ForwardingFileSystem {
 public:
  CountingFileSystem(std::shared_ptr<afs::FileSystem> base, Counter counter)
      : ForwardingFileSystem(std::move(base)), counter_(std::move(counter)) {}

  // Streams are served by counted random-access files, which are also input streams.
  Result<std::shared_ptr<aio::InputStream>> OpenInputStream(const std::string& path) override {
    return OpenInputFile(path);
  }
  Result<std::shared_ptr<aio::InputStream>> OpenInputStream(const afs::FileInfo& info) override {
    return OpenInputFile(info);
  }
  Result<std::shared_ptr<aio::RandomAccessFile>> OpenInputFile(const std::string& path) override {
    ARROW_ASSIGN_OR_RAISE(auto file, base()->OpenInputFile(path));
    return std::make_shared<CountingFile>(std::move(file), counter_);
  }
  Result<std::shared_ptr<aio::RandomAccessFile>> OpenInputFile(const afs::FileInfo& info) override {
    ARROW_ASSIGN_OR_RAISE(auto file, base()->OpenInputFile(info));
    return std::make_shared<CountingFile>(std::move(file), counter_);
  }

 private:
  Counter counter_;
};

// A read-only window [begin, end) of another file. Positional reads are thread-safe (they go
// to the wrapped file's ReadAt); the sequential position belongs to one reader.
class LineRangeFile : public aio::RandomAccessFile {
 public:
  LineRangeFile(std::shared_ptr<aio::RandomAccessFile> file, int64_t begin, int64_t end)
      : file_(std::move(file)), begin_(begin), size_(end - begin) {}

  using aio::RandomAccessFile::ReadAt;

  Status Close() override {
    closed_ = true;
    return file_->Close();
  }
  bool closed() const override { return closed_; }
  Result<int64_t> Tell() const override { return position_; }
  Status Seek(int64_t position) override {
    if (position < 0 || position > size_) return Status::IOError("seek out of range");
    position_ = position;
    return Status::OK();
  }
  Result<int64_t> GetSize() override { return size_; }

  Result<int64_t> Read(int64_t nbytes, void* out) override {
    ARROW_ASSIGN_OR_RAISE(int64_t read, ReadAt(position_, nbytes, out));
    position_ += read;
    return read;
  }
  Result<std::shared_ptr<arrow::Buffer>> Read(int64_t nbytes) override {
    ARROW_ASSIGN_OR_RAISE(auto buffer, ReadAt(position_, nbytes));
    position_ += buffer->size();
    return buffer;
  }
  Result<int64_t> ReadAt(int64_t position, int64_t nbytes, void* out) override {
    return file_->ReadAt(begin_ + position, Clamp(position, nbytes), out);
  }
  Result<std::shared_ptr<arrow::Buffer>> ReadAt(int64_t position, int64_t nbytes) override {
    return file_->ReadAt(begin_ + position, Clamp(position, nbytes));
  }

 private:
  int64_t Clamp(int64_t position, int64_t nbytes) const {
    return std::max<int64_t>(0, std::min(nbytes, size_ - position));
  }

  std::shared_ptr<aio::RandomAccessFile> file_;
  int64_t begin_;
  int64_t size_;
  int64_t position_ = 0;
  bool closed_ = false;
};

// The first line start at or after `position`: 0, the end of the file, or one past the first
// '\n' at or after position - 1. Probes start small (lines are usually short, and every probed
// byte is read from storage) and double up to 1 MiB.
Result<int64_t> LineStartAtOrAfter(aio::RandomAccessFile& file, int64_t file_size,
                                   int64_t position) {
  if (position <= 0) return 0;
  int64_t probe = 1 << 10;
  int64_t at = position - 1;
  while (at < file_size) {
    ARROW_ASSIGN_OR_RAISE(auto chunk, file.ReadAt(at, std::min(probe, file_size - at)));
    probe = std::min<int64_t>(probe * 2, 1 << 20);
    if (chunk->size() == 0) break;
    const void* newline = std::memchr(chunk->data(), '\n', static_cast<size_t>(chunk->size()));
    if (newline != nullptr) {
      return at + (static_cast<const uint8_t*>(newline) - chunk->data()) + 1;
    }
    at += chunk->size();
  }
  return file_size;
}

}  // namespace

std::shared_ptr<afs::FileSystem> MakeCountingFileSystem(std::shared_ptr<afs::FileSystem> base,
                                                        Counter bytes_read) {
  return std::make_shared<CountingFileSystem>(std::move(base), std::move(bytes_read));
}

Result<std::shared_ptr<aio::RandomAccessFile>> OpenLineRange(
    std::shared_ptr<aio::RandomAccessFile> file, int64_t file_size, int64_t offset, int64_t length,
    bool skip_first_line) {
  int64_t first = offset == 0 && skip_first_line ? 1 : offset;
  ARROW_ASSIGN_OR_RAISE(int64_t begin, LineStartAtOrAfter(*file, file_size, first));
  int64_t last = std::min(file_size, offset + length);
  ARROW_ASSIGN_OR_RAISE(int64_t end, last >= file_size
                                         ? Result<int64_t>(file_size)
                                         : LineStartAtOrAfter(*file, file_size, last));
  return std::make_shared<LineRangeFile>(std::move(file), begin, std::max(begin, end));
}

}  // namespace parley::files
