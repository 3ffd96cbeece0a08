// Input partitions, the reader factory and readers, and their byte encodings (files_reader.cc).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "arrow/compute/expression.h"
#include "arrow/type_fwd.h"
#include "connectors/files/files_options.h"
#include "parley/connector/expressions.h"
#include "parley/connector/read.h"
#include "parley/connector/status.h"

namespace parley::files {

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

}  // namespace parley::files
