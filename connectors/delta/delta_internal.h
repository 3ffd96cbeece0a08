// Declarations shared by the Delta connector's translation units (never installed):
//
//   delta_actions.cc     actions from JSON (commit lines, checkpoint rows)
//   delta_checkpoint.cc  Parquet and JSON checkpoints, V2 sidecars
//   delta_log.cc         listing `_delta_log`, log replay, time travel (delta_log.h)
//   delta_features.cc    the reader protocol check
//   delta_schema.cc      Delta schema JSON <-> Arrow, column mapping (delta_schema.h)
//   delta_values.cc      partition values and file statistics as typed Arrow scalars
//   deletion_vector.cc   descriptors, Z85, DV files, RoaringBitmapArray (deletion_vector.h)
//   delta_pruning.cc     predicates: exact partition pruning and statistics skipping
//   delta_scan.cc        the scan builder, the scan and its batch
//   delta_reader.cc      input partitions, the reader factory, readers, their encodings
//   delta_table.cc       the Table and the path TableProvider (delta_table.h)
//   delta_row_tracking.cc  row tracking: high-water mark, fresh row ids, column names
//   delta_metadata_column.cc  the `_metadata` column: its type and values
//   delta_change_feed.cc  the Change Data Feed of a range of versions as a Changelog
//   delta_changelog.cc   the row-tracking changelog of a range of versions (CHANGES)
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arrow/compute/expression.h"
#include "arrow/filesystem/type_fwd.h"
#include "arrow/type_fwd.h"
#include "delta_log.h"
#include "delta_schema.h"
#include "parley/connector/changelog.h"
#include "parley/connector/expressions.h"
#include "parley/connector/read.h"
#include "parley/connector/table.h"

namespace parley::delta {

// ---- Arrow

/// \brief Register Arrow's compute kernels (libarrow_compute) once per process. Every entry
/// point that casts or filters calls it, whether or not the engine has done so.
Status EnsureComputeInitialized();

// ---- Row tracking (§7; delta_row_tracking.cc)

inline constexpr char kRowTrackingFeature[] = "rowTracking";
inline constexpr char kRowTrackingDomain[] = "delta.rowTracking";
inline constexpr char kEnableRowTracking[] = "delta.enableRowTracking";
inline constexpr char kMaterializedRowIdColumn[] = "delta.rowTracking.materializedRowIdColumnName";
inline constexpr char kMaterializedRowCommitVersionColumn[] =
    "delta.rowTracking.materializedRowCommitVersionColumnName";

/// \brief Whether writers must assign row ids: `rowTracking` is a writer feature and
/// `delta.rowTrackingSuspended` is not true.
bool RowTrackingSupported(const Protocol& protocol, const Metadata& metadata);

/// \brief Whether table property `key` is "true" (any case).
bool ConfigurationIsTrue(const std::map<std::string, std::string>& configuration,
                         const std::string& key);

/// \brief Whether `delta.enableRowTracking` is true: every live file has row ids, so readers
/// may expose them.
bool RowTrackingEnabled(const Metadata& metadata);

/// \brief The rowIdHighWaterMark of the `delta.rowTracking` domain, -1 when there is none.
/// Fails with DELTA_ROW_ID_HIGH_WATER_MARK_INVALID for a domain without one.
Result<int64_t> RowIdHighWaterMark(const std::map<std::string, DomainMetadata>& domains);

/// \brief The rowIdHighWaterMark of one `delta.rowTracking` domain action.
Result<int64_t> ParseHighWaterMark(const DomainMetadata& domain);

// ---- Change Data Feed (delta_change_data.cc, delta_change_feed.cc)

/// \brief Whether the table's change data feed is on (`delta.enableChangeDataFeed=true`).
bool ChangeDataFeedEnabled(const Metadata& metadata);

// ---- Errors

/// \brief FAILED_READ_FILE.NO_HINT naming a log file (commit, checkpoint, sidecar) that does not
/// parse or has the wrong shape.
Status CorruptLogFile(const std::string& path, const std::string& detail);

/// \brief The whole content of a (small) file.
Result<std::string> ReadTextFile(arrow::fs::FileSystem& filesystem, const std::string& path);

/// \brief The path a table file is shown by in messages.
std::string DisplayPath(const std::string& path);

/// \brief `text` read whole as a decimal integer ([-]digits) that fits 64 bits, or nullopt
/// (for digits from files and options, which may be anything).
std::optional<int64_t> ParseInt64(std::string_view text);

// ---- Actions (delta_actions.cc)

/// \brief Add the action `name` with JSON body `body` to `actions` (null bodies are skipped,
/// unknown names ignored). Fails with a plain Invalid status describing the defect.
Status AddAction(const std::string& name, const nlohmann::json& body, CommitActions* actions);

/// \brief A deletion vector descriptor from its JSON object (as in an add action).
Result<DeletionVectorDescriptor> DeletionVectorFromJson(const nlohmann::json& descriptor);

/// \brief Each action as a commit line object: {"protocol": {...}} and so on. Optional fields
/// that are unset are left out; a remove carries `deletionTimestamp` and
/// `extendedFileMetadata: true` (its partition values and size are always known here).
nlohmann::json ProtocolToJson(const Protocol& protocol);
nlohmann::json MetadataToJson(const Metadata& metadata);
nlohmann::json FileActionToJson(const FileAction& file, bool is_add);
nlohmann::json TransactionToJson(const SetTransaction& txn);
/// \brief A `cdc` action: path, partitionValues, size, dataChange false (and tags).
nlohmann::json ChangeFileToJson(const FileAction& file);
nlohmann::json DomainToJson(const DomainMetadata& domain);

// ---- Checkpoints (delta_checkpoint.cc)

/// \brief Read every action of a checkpoint (all parts, and for a V2 checkpoint the sidecars it
/// references under `<log_dir>/_sidecars/`).
Result<CommitActions> ReadCheckpoint(arrow::fs::FileSystem& filesystem, const std::string& log_dir,
                                     const CheckpointFiles& checkpoint);

// ---- Protocol (delta_features.cc)

/// \brief Fail with DELTA_INVALID_PROTOCOL_VERSION or DELTA_UNSUPPORTED_FEATURES_FOR_READ when
/// the protocol needs something this reader does not implement. `table` names the table.
Status CheckReadSupported(const Protocol& protocol, const std::string& table);

// ---- Paths

/// \brief The storage path of a file action's path: percent-decoded once, and made absolute
/// against `table_root` unless it already is (a `file:` URI becomes its path).
std::string ResolveDataPath(const std::string& table_root, const std::string& path);

/// \brief Decode %XX escapes once.
std::string PercentDecode(const std::string& text);

// ---- Values (delta_values.cc)

/// \brief Parse a serialized partition value (§5) into a scalar of `type`. nullopt and "" are
/// NULL. Fails with DELTA_FAILED_CAST_PARTITION_VALUE naming the column.
Result<std::shared_ptr<arrow::Scalar>> ParsePartitionValue(
    const std::optional<std::string>& value, const std::shared_ptr<arrow::DataType>& type,
    const std::string& column);

/// \brief The statistics of one file (§5) for the top-level columns, by physical name.
struct FileStatistics {
  std::optional<int64_t> num_records;
  bool tight_bounds = true;
  std::map<std::string, std::shared_ptr<arrow::Scalar>> min_values;
  std::map<std::string, std::shared_ptr<arrow::Scalar>> max_values;
  std::map<std::string, int64_t> null_counts;
};

/// \brief Parse `stats` for the given top-level columns (physical name -> table type). Values
/// that do not convert are left out (unknown); a malformed JSON gives empty statistics.
FileStatistics ParseStatistics(
    const std::string& stats,
    const std::map<std::string, std::shared_ptr<arrow::DataType>>& columns);

// ---- Writing values (delta_stats.cc)

/// \brief Collects the statistics of one data file while its batches are written: numRecords,
/// and per column (nested struct fields included, by the names of `schema`) nullCount and,
/// for numbers, decimals up to precision 15, strings, dates and timestamps, minValues and
/// maxValues. Strings keep a 32-character prefix (a longer maximum is left out); timestamps
/// are truncated to milliseconds; a float column holding NaN gets no bounds. Only the first
/// `indexed_columns` columns are collected (`delta.dataSkippingNumIndexedCols`).
class StatisticsCollector {
 public:
  StatisticsCollector(const arrow::Schema& schema, int indexed_columns);
  ~StatisticsCollector();
  /// \brief Add a batch with the collector's schema.
  Status Update(const arrow::RecordBatch& batch);
  /// \brief The statistics JSON string of everything added.
  std::string ToJson() const;

 private:
  struct Column;
  int64_t num_records_ = 0;
  std::vector<Column> columns_;
};

/// \brief A partition value as the log stores it (§5): nullopt for NULL (and for the empty
/// string, as Spark does); dates `yyyy-MM-dd`; timestamps `yyyy-MM-ddTHH:mm:ss.ffffffZ` with a
/// time zone and `yyyy-MM-dd HH:mm:ss.ffffff` without. Types that cannot partition fail with
/// DELTA_INVALID_PARTITION_COLUMN_TYPE.
Result<std::optional<std::string>> FormatPartitionValue(const arrow::Scalar& value);

// ---- Pruning (delta_pruning.cc)

/// \brief What the pruner knows of one file: typed partition values by logical column name
/// (nullptr for NULL) and the file's statistics by logical column name.
struct FileFacts {
  std::map<std::string, std::shared_ptr<arrow::Scalar>> partition_values;
  FileStatistics stats;
};

/// \brief Whether `predicate` only reads the columns of `columns` and has a form the pruner
/// evaluates exactly: comparisons (=, <>, <, <=, >, >=, <=>) and IN between a column and
/// literals that convert to the column's type, IS [NOT] NULL, AND, OR, NOT, ALWAYS_TRUE/FALSE.
bool IsExactlyEvaluable(const Predicate& predicate, const arrow::Schema& columns);

/// \brief Evaluate an exactly-evaluable predicate over partition values: true, false or NULL.
std::optional<bool> EvaluateOnPartition(
    const Predicate& predicate,
    const std::map<std::string, std::shared_ptr<arrow::Scalar>>& values);

/// \brief Whether the statistics prove that no row of the file satisfies `predicate`.
/// Unknown forms and missing statistics never skip.
bool StatisticsExcludeFile(const Predicate& predicate, const FileFacts& facts);

// ---- Tables (delta_table.cc)

/// \brief Everything a table knows: one snapshot and how to reach its files. Immutable.
struct TableState {
  /// `delta.`<location>``, with the version when time travelling.
  std::string name;
  /// The table location as given; executors rebuild the filesystem from it.
  std::string location;
  std::shared_ptr<arrow::fs::FileSystem> filesystem;
  /// The table root as a path of `filesystem`.
  std::string root;
  std::shared_ptr<const Snapshot> snapshot;
  /// The table schema with Delta annotations (delta_schema.h), and without.
  std::shared_ptr<arrow::Schema> annotated_schema;
  std::shared_ptr<arrow::Schema> schema;
  ColumnMappingMode mode = ColumnMappingMode::kNone;
  /// The partition columns (logical names), in table order.
  std::vector<std::string> partition_columns;
  /// Whether an earlier version was asked for (the table is then read-only).
  bool time_travel = false;
};

/// \brief Load the table at `location` (latest version, or the one given, or the one current
/// at `timestamp_ms`), named `name` in messages.
Result<std::shared_ptr<const TableState>> LoadTableState(const std::string& location,
                                                         const std::string& name,
                                                         std::optional<int64_t> version,
                                                         std::optional<int64_t> timestamp_ms);

/// \brief Fill the schema, column mapping mode and partition columns of a state whose
/// location, filesystem, root, name and snapshot are set. Fails for non-Parquet tables and
/// partition columns missing from the schema.
Result<std::shared_ptr<const TableState>> CompleteTableState(std::shared_ptr<TableState> state);

/// \brief The Table of a state: readable always; writable (append, overwrite, truncate) unless
/// time travelled.
std::shared_ptr<Table> MakeDeltaTable(std::shared_ptr<const TableState> state);

/// \brief identity(column) for each partition column: a Delta table's partitioning.
std::vector<std::shared_ptr<Transform>> IdentityPartitioning(
    const std::vector<std::string>& columns);

/// \brief The state of a table made by MakeDeltaTable, or nullptr for any other table.
const TableState* StateOf(const Table& table);

// ---- Partitions of a table (delta_pruning.cc)

/// \brief The partition columns of `table` (plain types), in table order.
std::shared_ptr<arrow::Schema> PartitionSchema(const TableState& table);

/// \brief A file's partition values as typed scalars by logical column name (null scalars for
/// NULL). Fails with DELTA_FAILED_CAST_PARTITION_VALUE.
Result<std::map<std::string, std::shared_ptr<arrow::Scalar>>> TypedPartitionValues(
    const TableState& table, const FileAction& file);

// ---- Scans (delta_scan.cc)

/// \brief The scan builder of one read of `table`.
std::unique_ptr<ScanBuilder> MakeDeltaScanBuilder(std::shared_ptr<const TableState> table);

// ---- Change Data Feed reads (delta_change_feed.cc)

/// \brief The change data feed of `table` (its latest state) over info.range, as a Changelog
/// whose rows are what `table_changes` returns. See delta_change_feed.cc for the errors.
Result<std::shared_ptr<Changelog>> MakeDeltaChangeFeed(std::shared_ptr<const TableState> table,
                                                       const ChangelogInfo& info);

// ---- Changelog reads (delta_changelog.cc)

/// \brief The changelog of `table` (its latest state) over info.range, built from the commits'
/// adds and removes and the rows' row ids, as `t CHANGES FROM ...` reads it. The table must have
/// row tracking enabled through the range; see delta_changelog.cc for the errors.
Result<std::shared_ptr<Changelog>> MakeDeltaChangelog(std::shared_ptr<const TableState> table,
                                                      const ChangelogInfo& info);

// ---- Tasks (delta_reader.cc)

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

// ---- The `_metadata` column (delta_metadata_column.cc)

inline constexpr char kMetadataColumn[] = "_metadata";

/// \brief The type of `_metadata`: struct<file_path, file_name, file_size,
/// file_modification_time, row_index> and, when row tracking is enabled, row_id,
/// row_commit_version, base_row_id and default_row_commit_version (§7).
std::shared_ptr<arrow::DataType> MetadataStructType(bool row_tracking);

/// \brief MetadataStructType(row_tracking) narrowed to the fields named in `fields` (kept in
/// its order); all of them when `fields` is empty. Fails when a name is not one of its fields.
Result<std::shared_ptr<arrow::DataType>> MetadataStructType(bool row_tracking,
                                                            const std::vector<std::string>& fields);

/// \brief The `_metadata` values of `rows` rows of the file of `task`, the first at physical
/// index `first_row` (rows counted before deletion vectors apply). row_id is the materialized
/// value when non-null, else baseRowId + row index; row_commit_version the materialized value,
/// else defaultRowCommitVersion. `materialized_*` are the file's materialized columns for those
/// rows, nullptr when the file lacks them. Fails with DELTA_ROW_TRACKING_MISSING_BASE_ROW_ID
/// when a row needs a baseRowId or defaultRowCommitVersion the file's add does not have.
/// Only the fields of `type` (a MetadataStructType) are computed.
Result<std::shared_ptr<arrow::Array>> MetadataColumnValues(
    const ReadTask& task, const std::shared_ptr<arrow::DataType>& type, int64_t first_row,
    int64_t rows, const std::shared_ptr<arrow::Array>& materialized_row_id,
    const std::shared_ptr<arrow::Array>& materialized_row_commit_version);

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

/// \brief Open a table location (a local path or a URI) as a filesystem and the root path.
Result<std::pair<std::shared_ptr<arrow::fs::FileSystem>, std::string>> OpenLocation(
    const std::string& location);

}  // namespace parley::delta
