// What a scan's tasks read: the pieces of its input partitions, the reader factory and its
// metrics (delta_reader.cc).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arrow/compute/expression.h"
#include "arrow/type_fwd.h"
#include "connectors/delta/log/delta_log.h"
#include "connectors/delta/log/delta_schema.h"
#include "connectors/delta/table_state.h"
#include "parley/connector/read.h"
#include "parley/connector/status.h"

namespace parley::delta {

/// \brief One piece of an input partition: (a byte range of) one data file and what the log
/// says about it.
struct ReadTask {
  /// The data file, a path of the filesystem.
  std::string path;
  int64_t size = 0;
  /// partitionValues as in the log (keys are physical names under column mapping).
  std::map<std::string, std::optional<std::string>> partition_values;
  std::optional<DeletionVectorDescriptor> deletion_vector;
  /// What `_metadata` reports of the file: its modification time (epoch ms) and row tracking.
  int64_t modification_time = 0;
  std::optional<int64_t> base_row_id;
  std::optional<int64_t> default_row_commit_version;
  /// The piece reads the row groups whose midpoint lies in [start, start + length) of the
  /// file, as Spark splits a file; length < 0 reads the whole file.
  int64_t start = 0;
  int64_t length = -1;
};

/// \brief A task reading the whole of `file`, a file of `table`'s log.
ReadTask ReadTaskFor(const TableState& table, const FileAction& file);

/// \brief What every task of one scan shares: the reader factory's serialized content.
struct ReadSpec {
  std::string location;
  /// The annotated table schema, as Delta schema JSON.
  std::string schema_json;
  ColumnMappingMode mode = ColumnMappingMode::kNone;
  std::vector<std::string> partition_columns;
  /// The output columns (Scan::ReadSchema()), in table order, then `_metadata` when read.
  std::vector<std::string> read_columns;
  /// Row tracking is enabled: `_metadata` has the row fields, read from these materialized
  /// columns when a file has them (delta.rowTracking.materialized*ColumnName).
  bool row_tracking = false;
  std::string materialized_row_id;
  std::string materialized_row_commit_version;
  /// The fields of `_metadata` read (MetadataStructType's order is kept); empty reads them all.
  std::vector<std::string> metadata_fields;
  /// Rows a reader may drop while decoding (connectors/common/parquet_filtered_reader.h): the
  /// scan's pushed data predicates, which the engine still applies, as an unbound Arrow
  /// expression over the table's column names. literal(true) when every row must be read.
  arrow::compute::Expression row_filter = arrow::compute::literal(true);
};

/// \brief How a scan's files become input partitions, Spark's FilePartition rule (its
/// spark.sql.files.* defaults; see delta_scan.cc).
struct SplitOptions {
  int64_t max_partition_bytes = 128LL << 20;
  int64_t open_cost_in_bytes = 4LL << 20;
  /// The parallelism the split size aims at: the number of cores.
  int64_t cores = 1;
};

/// \brief The default split options on this machine.
SplitOptions DefaultSplitOptions();

/// \brief The input partitions for `files` (whole files, length < 0): each a list of pieces.
std::vector<std::vector<ReadTask>> PlanPieces(const std::vector<ReadTask>& files,
                                              const SplitOptions& options);

/// \brief A serializable partition reading `pieces` one after the other.
std::shared_ptr<InputPartition> MakeDeltaPartition(std::vector<ReadTask> pieces);

/// \brief The reader factory of a scan; rebuilds the filesystem from spec.location.
Result<std::shared_ptr<PartitionReaderFactory>> MakeDeltaReaderFactory(ReadSpec spec);

/// \brief Rebuild a reader factory from PartitionReaderFactory::Serialize() bytes.
Result<std::shared_ptr<PartitionReaderFactory>> DeserializeDeltaReaderFactory(
    std::string_view bytes);

/// \brief The metrics every Delta scan reports: bytesRead, filesRead, deletedRowsSkipped,
/// rowsFiltered.
std::vector<std::shared_ptr<CustomMetric>> DeltaMetrics();

}  // namespace parley::delta
