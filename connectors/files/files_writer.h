// The task side of writes: the writer factory, writers and commit messages (files_writer.cc).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "arrow/dataset/type_fwd.h"
#include "arrow/type_fwd.h"
#include "connectors/files/files_options.h"
#include "parley/connector/read.h"
#include "parley/connector/status.h"
#include "parley/connector/types.h"
#include "parley/connector/write.h"

namespace parley::files {

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

}  // namespace parley::files
