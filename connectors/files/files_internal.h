// Declarations shared by the files connector's translation units (never installed):
//
//   files_format.cc    read options with Spark's names, the Arrow file formats they configure,
//                      and schema inference (Spark's naming and typing rules on top of Arrow's)
//   files_listing.cc   path, URI and glob resolution to a sorted list of data files
//   files_provider.cc  the TableProvider and Table: partition discovery with Arrow Dataset
//   files_scan.cc      the scan builder (pushdown), the scan (pruning, statistics, planning)
//   files_reader.cc    input partitions, the reader factory and readers, their byte encodings
//   files_io.cc        storage wrappers: a byte-counting filesystem, line ranges of a file
//   files_write.cc     the driver side of writes: builder, write, batch write (what to delete)
//   files_writer.cc    the task side of writes: writer factory, writers, commit messages
//   files_commit.h/cc  the commit protocol: manifests, recovery, staging cleanup
//
// Everything here is a plain value or immutable after construction, so a TableData may be
// shared by several scans on several threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "arrow/compute/expression.h"
#include "arrow/dataset/type_fwd.h"
#include "arrow/filesystem/filesystem.h"
#include "parley/connector/read.h"
#include "parley/connector/types.h"
#include "parley/connector/write.h"

namespace parley::files {

// ---- Options (files_format.cc)

enum class FileFormatKind { kParquet, kCsv, kJson, kOrc };

/// The directory name Hive partitioning uses for a NULL partition value.
inline constexpr char kHiveNullFallback[] = "__HIVE_DEFAULT_PARTITION__";

/// \brief The format's name as in SQL: "parquet", "csv", "json", "orc".
const char* FormatName(FileFormatKind format);

/// \brief Read options parsed from the lower-cased options map (see files_provider.h for the
/// meaning and defaults of each). `raw` keeps the map itself, which is what crosses to
/// executors; they parse it again.
struct ReadOptions {
  FileFormatKind format = FileFormatKind::kParquet;
  Options raw;
  std::string path;
  std::string base_path;
  bool merge_schema = false;
  int64_t max_partition_bytes = int64_t{128} << 20;
  int64_t open_cost_in_bytes = int64_t{4} << 20;
  int64_t min_partition_num = 1;
  // CSV.
  bool header = false;
  bool infer_schema = false;
  char delimiter = ',';
  bool quoting = true;
  char quote = '"';
  bool escaping = false;
  char escape = '\\';
  std::string null_value;
  // CSV and JSON: records may span lines.
  bool multi_line = false;
};

/// \brief Parse and validate `options` for `format`.
Result<ReadOptions> ParseReadOptions(FileFormatKind format, const Options& options);

// ---- Listing (files_listing.cc)

/// \brief The data files a path names.
struct Listing {
  std::shared_ptr<arrow::fs::FileSystem> filesystem;
  /// The URI or local path `filesystem` was made from; executors rebuild it from this.
  std::string filesystem_uri;
  /// Where Hive partition discovery starts (a path of `filesystem`).
  std::string partition_base_dir;
  /// The table directory when the path names one directory, existing or not (a path of
  /// `filesystem`); empty for a file or a glob. Only such tables can be written.
  std::string root_dir;
  /// Non-empty data files, sorted by path, hidden names skipped.
  std::vector<arrow::fs::FileInfo> files;
};

/// \brief Resolve options.path (file, directory or glob) into its data files. Fails with
/// PATH_NOT_FOUND when nothing matches, unless `allow_missing` and the path is a missing
/// directory; an existing empty directory gives no files. A directory's pending commits are
/// completed first and no commit is seen half done (files_commit.h).
Result<Listing> ListFiles(const ReadOptions& options, bool allow_missing = false);

/// \brief Append every non-hidden file under `dir` (recursively) to `out`; empty files only
/// with `include_empty`.
Status ListDirectory(arrow::fs::FileSystem& filesystem, const std::string& dir, bool include_empty,
                     std::vector<arrow::fs::FileInfo>* out);

/// \brief How a path of `filesystem` is shown in messages: the local path, or a URI.
std::string DisplayPath(const arrow::fs::FileSystem& filesystem, const std::string& path);

/// \brief FAILED_READ_FILE.NO_HINT naming the file, with the cause's message.
Status FileReadError(const std::string& display_path, const Status& cause);

/// \brief FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER naming the file, with the cause's message.
Status FooterReadError(const std::string& display_path, const Status& cause);

// ---- Formats and schema inference (files_format.cc)

/// \brief The Arrow Dataset file format configured by `options`.
Result<std::shared_ptr<arrow::dataset::FileFormat>> MakeArrowFormat(const ReadOptions& options);

/// \brief The CSV fragment scan options of one read: the data columns named by position and
/// the number of leading lines to skip (1 to skip a header line, else 0).
std::shared_ptr<arrow::dataset::FragmentScanOptions> MakeCsvScanOptions(
    const ReadOptions& options, const arrow::Schema& data_schema, int skip_rows);

/// \brief Whether a file can be read in line ranges: uncompressed CSV, or JSON lines.
bool IsSplittable(const ReadOptions& options, const std::string& path);

/// \brief Infer the data (non-partition) columns of `listing`'s files with Spark's rules.
/// REQUIRES: listing.files is not empty.
Result<std::shared_ptr<arrow::Schema>> InferDataSchema(const ReadOptions& options,
                                                       const Listing& listing);

// ---- Tables (files_provider.cc)

/// \brief Register Arrow's compute kernels (libarrow_compute) once per process; every entry
/// point that may evaluate expressions or scan (the provider, reader factories) calls it, so
/// the connector works whether or not the engine has done so.
Status EnsureArrowComputeInitialized();

/// \brief One data file of a table and its Arrow fragment (which carries the file's Hive
/// partition expression and, for Parquet, caches the footer once read).
struct DataFile {
  std::shared_ptr<arrow::dataset::FileFragment> fragment;
  std::string path;
  int64_t size = 0;
};

/// \brief Everything a table knows: immutable once built.
struct TableData {
  ReadOptions options;
  std::string name;
  std::shared_ptr<arrow::fs::FileSystem> filesystem;
  std::string filesystem_uri;
  /// Listing::root_dir: the directory writes go to, empty when the table cannot be written.
  std::string root_dir;
  std::shared_ptr<arrow::dataset::FileFormat> format;
  /// The table's columns: data columns and partition columns.
  std::shared_ptr<arrow::Schema> schema;
  /// The partition columns, in table order.
  std::shared_ptr<arrow::Schema> partition_schema;
  std::vector<DataFile> files;
};

// ---- Scans (files_scan.cc)

/// \brief The scan builder of one read of `table`. Of the scan's `options`, only the planning
/// ones (maxpartitionbytes, opencostinbytes, minpartitionnum) override the table's.
Result<std::unique_ptr<ScanBuilder>> MakeFilesScanBuilder(std::shared_ptr<const TableData> table,
                                                          const Options& options);

// ---- Storage wrappers (files_io.cc)

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

// ---- Tasks (files_reader.cc)

/// \brief One contiguous read of one file: a whole file, some Parquet row groups, or a line
/// range of a text file.
struct FilePiece {
  std::string path;
  int64_t file_size = 0;
  /// A byte range [offset, offset + length) of a text file, extended to whole lines when read;
  /// length -1 means the whole file.
  int64_t offset = 0;
  int64_t length = -1;
  /// Parquet: the row groups to read, ascending. Empty for other formats.
  std::vector<int> row_groups;
  /// The file's Hive partition expression, e.g. (year == 2024); literal(true) when none.
  arrow::compute::Expression partition = arrow::compute::literal(true);
};

/// \brief What every task of one scan shares, and the reader factory's serialized content.
struct TaskSpec {
  ReadOptions options;
  std::string filesystem_uri;
  std::shared_ptr<arrow::Schema> table_schema;
  std::vector<std::string> partition_columns;
  /// The output columns (Scan::ReadSchema()), in table order.
  std::vector<std::string> read_columns;
  /// Parquet: the read columns narrowed to some of their struct fields, with those types.
  std::shared_ptr<arrow::Schema> narrowed = arrow::schema(arrow::FieldVector{});
  /// Rows each task may stop after (a partially pushed LIMIT); -1 for no limit.
  int64_t limit = -1;
  /// Parquet: the conjunction of the pushed data predicates and runtime filters (unbound,
  /// over the table's column names). The engine applies them above the scan; a reader may
  /// drop rows they reject earlier (connectors/common/parquet_filtered_reader.h).
  arrow::compute::Expression row_filter = arrow::compute::literal(true);
};

/// \brief The column values a Hive partition expression fixes, by column name: a scalar, or
/// nullptr for NULL (a __HIVE_DEFAULT_PARTITION__ directory). Columns it does not mention (a
/// file outside that key's directories) are absent.
std::map<std::string, std::shared_ptr<arrow::Scalar>> PartitionValues(
    const arrow::compute::Expression& partition);

/// \brief A serializable partition reading `pieces` in order.
std::shared_ptr<InputPartition> MakeInputPartition(std::vector<FilePiece> pieces);

/// \brief The reader factory of a scan. Rebuilds the filesystem from spec.filesystem_uri.
Result<std::shared_ptr<PartitionReaderFactory>> MakeReaderFactory(TaskSpec spec);

/// \brief Rebuild a reader factory from PartitionReaderFactory::Serialize() bytes.
Result<std::shared_ptr<PartitionReaderFactory>> DeserializeReaderFactory(std::string_view bytes);

/// \brief The metrics every files scan reports: bytesRead, filesRead, rowGroupsRead,
/// rowsFiltered (Parquet rows dropped while reading, parquet_filtered_reader.h).
std::vector<std::shared_ptr<CustomMetric>> FilesMetrics();

// ---- Writes, the task side (files_writer.cc)

/// \brief What every task of one write shares: the writer factory's serialized content.
struct WriteSpec {
  FileFormatKind format = FileFormatKind::kParquet;
  /// The table's options (their `header`, `delimiter`, ... shape the written files).
  Options options;
  std::string table_name;
  std::string filesystem_uri;
  std::string root_dir;
  std::string query_id;
  /// The rows the writers receive (LogicalWriteInfo::schema).
  std::shared_ptr<arrow::Schema> schema;
  /// The Hive partition columns, outermost directory first.
  std::vector<std::string> partition_columns;
};

/// \brief One file a task attempt staged. Paths are relative to the table's root directory.
struct StagedFile {
  /// `_temporary/<query_id>/<task_id>/<partition_dir>/<name>`.
  std::string staged_path;
  /// The Hive directory the file belongs in, e.g. "year=2024/month=1"; empty when unpartitioned.
  std::string partition_dir;
  std::string name;
  int64_t bytes = 0;
  int64_t rows = 0;

  /// \brief Where the file goes when the write commits.
  std::string FinalPath() const;
};

/// \brief The commit message of one task attempt: exactly the files it staged.
class FilesCommitMessage : public WriterCommitMessage {
 public:
  std::string query_id;
  int partition_id = 0;
  int64_t task_id = 0;
  std::vector<StagedFile> files;

  Result<std::string> Serialize() const override;
};

/// \brief INCOMPATIBLE_DATA_FOR_TABLE.* naming the first column where `actual` (rows to write)
/// differs from `expected` in name (case-insensitively) or type, or is missing or extra.
Status CheckWriteSchema(const std::string& table_name, const arrow::Schema& expected,
                        const arrow::Schema& actual);

/// \brief The Hive partitioning of `partition_schema`, as the read side parses directories.
std::shared_ptr<arrow::dataset::HivePartitioning> MakeHivePartitioning(
    std::shared_ptr<arrow::Schema> partition_schema);

/// \brief The factory of a write's writers. Rebuilds the filesystem from spec.filesystem_uri.
Result<std::shared_ptr<DataWriterFactory>> MakeWriterFactory(WriteSpec spec);

/// \brief Rebuild a writer factory from DataWriterFactory::Serialize() bytes.
Result<std::shared_ptr<DataWriterFactory>> DeserializeWriterFactory(std::string_view bytes);

/// \brief Rebuild a commit message from WriterCommitMessage::Serialize() bytes.
Result<std::shared_ptr<FilesCommitMessage>> DeserializeCommitMessage(std::string_view bytes);

/// \brief The metrics every files writer reports: bytesWritten, filesWritten, rowsWritten.
std::vector<std::shared_ptr<CustomMetric>> WriteMetrics();

// ---- Writes, the driver side (files_write.cc)

/// \brief The write builder of one write to `table` (which must have a root_dir).
Result<std::unique_ptr<WriteBuilder>> MakeFilesWriteBuilder(std::shared_ptr<const TableData> table,
                                                            const LogicalWriteInfo& info);

/// \brief TRUNCATE TABLE: delete every data file in one commit.
Result<bool> TruncateFilesTable(const TableData& table);

}  // namespace parley::files
