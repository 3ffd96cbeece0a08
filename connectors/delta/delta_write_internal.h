// Declarations shared by the Delta connector's write-side translation units (never installed):
//
//   delta_stats.cc        file statistics and partition values as written (delta_internal.h)
//   delta_data_writer.cc  the writer factory, data writers and commit messages
//   delta_txn.cc          committing: put-if-absent commit files, conflict detection, retries
//   delta_checkpoint_writer.cc  classic Parquet checkpoints and `_last_checkpoint`
//   delta_protocol.cc     table properties, the protocol a table needs, the writer check
//   delta_write.cc        WriteBuilder, Write and BatchWrite of a Delta table
//   delta_row_tracking.cc row ids for new files and the high-water mark (delta_internal.h)
//   delta_dml.cc          DELETE/UPDATE/MERGE: copy-on-write commits and metadata-only deletes
//   delta_change_data.cc  Change Data Feed files of a commit
//   delta_change_rows.cc  the writers of a rewrite that records its change data feed
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "delta_internal.h"
#include "delta_log.h"
#include "parley/connector/catalog.h"
#include "parley/connector/row_level.h"
#include "parley/connector/write.h"

namespace parley::delta {

// ---- Tasks (delta_data_writer.cc)

/// \brief What every writer of one write shares: the writer factory's serialized content.
struct WriteSpec {
  std::string location;
  /// The annotated table schema, as Delta schema JSON; the rows written have its columns.
  std::string schema_json;
  ColumnMappingMode mode = ColumnMappingMode::kNone;
  std::vector<std::string> partition_columns;
  /// `delta.dataSkippingNumIndexedCols`.
  int indexed_columns = 32;
  /// Change data (§6): the rows carry one more STRING column, `_change_type`, written as is;
  /// files go under `_change_data/` named `cdc-...`, and their actions (to commit as `cdc`
  /// actions) have dataChange=false and no statistics.
  bool change_data = false;
  /// Row tracking materialization (§7), when both are set: the rows carry two more BIGINT
  /// columns (after `_change_type` if any), the stable row id and row commit version to keep
  /// (null: the file's fresh value), written under these names.
  std::string materialized_row_id;
  std::string materialized_row_commit_version;
};

/// \brief The writer factory of a write; rebuilds the filesystem from spec.location.
Result<std::shared_ptr<DataWriterFactory>> MakeDeltaWriterFactory(WriteSpec spec);

/// \brief Rebuild a writer factory from DataWriterFactory::Serialize() bytes.
Result<std::shared_ptr<DataWriterFactory>> DeserializeDeltaWriterFactory(std::string_view bytes);

/// \brief Rebuild a commit message from WriterCommitMessage::Serialize() bytes.
Result<CommitMessagePtr> DeserializeDeltaCommitMessage(std::string_view bytes);

/// \brief The add actions a Delta writer's commit message carries.
Result<std::vector<FileAction>> AddsOfMessage(const WriterCommitMessage& message);

/// \brief A Delta writer's commit message carrying `adds`.
CommitMessagePtr MakeDeltaCommitMessage(std::vector<FileAction> adds);

// ---- Change Data Feed files (delta_change_data.cc)

/// \brief Write the change rows of one commit of `table` as Parquet files under
/// `_change_data/` (per partition directory, partition columns left out) and return their
/// `cdc` actions, for Transaction::change_files. `changes` hold the table's columns in table
/// order then `_change_type` (insert, delete, update_preimage or update_postimage). A commit
/// that writes any change file must put every change of the commit in them, inserts too (§6).
/// On failure the files written are deleted. Fails with DELTA_CHANGE_DATA_INVALID_ROWS when
/// the rows do not have that shape or hold another change type.
Result<std::vector<FileAction>> WriteChangeData(
    const TableState& table, const std::vector<std::shared_ptr<arrow::RecordBatch>>& changes);

/// \brief The writer factory of a copy-on-write rewrite of `table` that records its change
/// data feed, for an operation that RequiresChangeRows() (row_level.h). Its writers take the
/// rows such a write receives (the table's columns, the operation's metadata attributes,
/// kRowLevelWriteActionColumn): copied, updated and inserted rows go to `data` as they are;
/// every row but the copied ones also goes, as the table's columns and `_change_type`
/// (kDelete: delete, kUpdatePreimage: update_preimage, kUpdate: update_postimage, kInsert:
/// insert), to a change data writer of `table`. A writer's commit message holds the data
/// files' adds then the change files' (dataChange=false); its Abort deletes both. Serializes
/// as `data`. Fails with DELTA_CHANGE_DATA_INVALID_ROWS on an unknown action.
Result<std::shared_ptr<DataWriterFactory>> MakeChangeRowsWriterFactory(
    std::shared_ptr<DataWriterFactory> data, const TableState& table);

// ---- Writes (delta_write.cc)

/// \brief What every Delta batch write shares: tasks write data files of `table` (WriteSpecFor)
/// and report them in commit messages; Abort deletes the files the messages name. Subclasses
/// decide what Commit publishes.
class DeltaFilesBatchWrite : public BatchWrite {
 public:
  explicit DeltaFilesBatchWrite(std::shared_ptr<const TableState> table)
      : table_(std::move(table)) {}

  Result<std::shared_ptr<DataWriterFactory>> CreateBatchWriterFactory(
      const PhysicalWriteInfo& info) override;
  Result<std::shared_ptr<DataWriterFactory>> DeserializeWriterFactory(
      std::string_view bytes) const override;
  Result<CommitMessagePtr> DeserializeCommitMessage(std::string_view bytes) const override;
  Status Abort(const std::vector<CommitMessagePtr>& messages) override;

 protected:
  /// \brief The add actions of every (non-null) message, in order.
  static Result<std::vector<FileAction>> AddsOfMessages(
      const std::vector<CommitMessagePtr>& messages);
  /// \brief Delete the data files of `files`; every deletion is tried.
  Status DeleteFiles(const std::vector<FileAction>& files) const;

  std::shared_ptr<const TableState> table_;
};

/// \brief The Write of a DeltaFilesBatchWrite, reporting bytes and files written.
class DeltaFilesWrite : public Write {
 public:
  DeltaFilesWrite(std::shared_ptr<DeltaFilesBatchWrite> batch, std::string description)
      : batch_(std::move(batch)), description_(std::move(description)) {}
  std::string description() const override { return description_; }
  Result<std::shared_ptr<BatchWrite>> ToBatch() override { return batch_; }
  std::vector<std::shared_ptr<CustomMetric>> SupportedCustomMetrics() const override;

 private:
  std::shared_ptr<DeltaFilesBatchWrite> batch_;
  std::string description_;
};

/// \brief The files a write into a staged table (CTAS, RTAS) produced, kept until the staged
/// table commits them together with its metadata.
struct StagedData {
  std::mutex mutex;
  std::vector<FileAction> adds;
  /// Whether a write committed into the staged table (CTAS/RTAS rather than plain DDL).
  bool written = false;
};

/// \brief The write builder of `table` (append by default; SupportsOverwriteV2 for predicates
/// on partition columns, SupportsDynamicOverwrite). BatchWrite::Commit commits to the log, or,
/// when `staged` is given, hands the files to it. Fails with DELTA_UNSUPPORTED_FEATURES_FOR_WRITE
/// when the table needs a writer feature this writer lacks.
Result<std::unique_ptr<WriteBuilder>> MakeDeltaWriteBuilder(std::shared_ptr<const TableState> table,
                                                            LogicalWriteInfo info,
                                                            std::shared_ptr<StagedData> staged);

/// \brief The write spec of `table`'s data files (neither change data nor materialized
/// columns).
WriteSpec WriteSpecFor(const TableState& table);

/// \brief DELTA_CANNOT_MODIFY_APPEND_ONLY when `table` has delta.appendOnly=true; `operation`
/// names what would remove data.
Status CheckNotAppendOnly(const TableState& table, std::string_view operation);

// ---- Committing (delta_txn.cc)

/// \brief One commit to make: its actions, what it reports in commitInfo, and what it read
/// (for conflict detection, §"Optimistic concurrency" of the protocol digest).
struct Transaction {
  std::optional<Protocol> protocol;
  std::optional<Metadata> metadata;
  std::vector<FileAction> adds;
  /// Files of the read snapshot removed; their deletion timestamp is set at commit.
  std::vector<FileAction> removes;
  /// Change Data Feed files written for this commit (`cdc` actions, WriteChangeData()).
  std::vector<FileAction> change_files;
  std::optional<SetTransaction> txn;
  /// commitInfo: the operation ("WRITE", "CREATE TABLE", ...), its parameters and metrics.
  std::string operation;
  std::map<std::string, std::string> operation_parameters;
  std::map<std::string, std::string> operation_metrics;
  /// commitInfo.tags (e.g. `delta.rowTracking.preserved`); left out when empty.
  std::map<std::string, std::string> tags;
  /// A blind append reads nothing: only metadata and protocol changes conflict with it.
  bool blind_append = false;
  /// Whether a file added by a concurrent commit falls in what this one read; unset means the
  /// whole table was read. Ignored for blind appends.
  std::function<bool(const FileAction&)> read_predicate;
  /// Checkpoint after committing a multiple of this version; 0 never (CheckpointInterval()).
  int64_t checkpoint_interval = 10;
  /// Row tracking (§7), set when the committed table tracks rows: the rowIdHighWaterMark of
  /// the read snapshot (-1 when none). Each add without a baseRowId then gets fresh row ids
  /// above the mark and the commit's version as defaultRowCommitVersion, and the commit carries
  /// the new mark; when a concurrent commit wins the version, the ids move above the winner's
  /// mark and the version to the one tried next.
  std::optional<int64_t> row_id_high_water_mark;
  /// Domain metadata actions to commit besides the high-water mark.
  std::vector<DomainMetadata> domains;
};

/// \brief Write `transaction` as the commit after `read_version` (-1: the table's first
/// commit) with put-if-absent (`link()`): a commit file is never overwritten. When another
/// writer took the version, its commit is checked against this one: a protocol or metadata
/// change fails with DELTA_PROTOCOL_CHANGED / DELTA_METADATA_CHANGED, a file added where this
/// transaction read with DELTA_CONCURRENT_APPEND, a file removed that this one read or removes
/// with DELTA_CONCURRENT_DELETE_READ / DELTA_CONCURRENT_DELETE_DELETE, the same txn appId with
/// DELTA_CONCURRENT_TRANSACTION, and a concurrent creation with DELTA_TABLE_ALREADY_EXISTS;
/// otherwise the commit moves to the next version and tries again. Returns the version
/// committed. After committing, writes a checkpoint when the version is a multiple of the
/// table's `delta.checkpointInterval` (10 by default); a failed checkpoint does not fail the
/// commit. `table` names the table in messages. Local filesystems only.
Result<int64_t> CommitTransaction(const std::shared_ptr<arrow::fs::FileSystem>& filesystem,
                                  const std::string& root, const std::string& table,
                                  int64_t read_version, Transaction transaction);

// ---- Row tracking (delta_row_tracking.cc)

/// \brief The `delta.rowTracking` domain action holding `high_water_mark`.
DomainMetadata HighWaterMarkDomain(int64_t high_water_mark);

/// \brief What Transaction::row_id_high_water_mark should be for a commit of a table with
/// `protocol` and `metadata` read at `snapshot` (nullptr: a new table): nullopt when the table
/// does not track rows.
Result<std::optional<int64_t>> ReadHighWaterMarkFor(const Protocol& protocol,
                                                    const Metadata& metadata,
                                                    const Snapshot* snapshot);

/// \brief Name the materialized row id and row commit version columns in the configuration of
/// a table with `delta.enableRowTracking=true` (`_row-id-col-<uuid>`,
/// `_row-commit-version-col-<uuid>`, as delta-spark), keeping names already there.
void NameMaterializedColumns(Metadata* metadata);

/// \brief Give each add at the indexes `fresh` baseRowId = mark + 1 and
/// defaultRowCommitVersion = `version`, advancing the mark by its numRecords. Fails with
/// DELTA_ROW_TRACKING_MISSING_NUM_RECORDS for a file whose statistics lack numRecords.
Status AssignFreshRowIds(std::vector<FileAction>* adds, const std::vector<size_t>& fresh,
                         int64_t* high_water_mark, int64_t version);
/// \brief The writer factory of a copy-on-write rewrite that preserves row tracking. Its
/// writers take rows of the table's `columns` columns, then `_metadata` (MetadataStructType
/// with row tracking; null for inserted rows), then kRowLevelWriteActionColumn, and write
/// through `inner` (whose WriteSpec names the materialized columns) the table's columns with
/// the materialized row id (the stable id read; null for inserted rows) and row commit
/// version (the stable version read for copied rows; null for updated and inserted rows, whose
/// version is then the commit's). Serializes as `inner`.
std::shared_ptr<DataWriterFactory> MakeRowPreservingWriterFactory(
    std::shared_ptr<DataWriterFactory> inner, int columns);

// ---- Row-level DML (delta_dml.cc)

/// \brief What a row-level operation's scan read: the data files it chose (from the
/// operation's snapshot) and the pushed predicates that chose them. Filled at ScanBuilder::Build.
struct RowLevelScanRecord {
  std::vector<FileAction> files;
  std::vector<PredicatePtr> partition_filters;
  std::vector<PredicatePtr> data_filters;
};

/// \brief The scan builder of a Delta read; when `record` is given, Build() stores there the
/// files it reads and the predicates that chose them.
std::unique_ptr<ScanBuilder> MakeDeltaScanBuilder(std::shared_ptr<const TableState> table,
                                                  std::shared_ptr<RowLevelScanRecord> record);

/// \brief The copy-on-write commit of a DELETE/UPDATE/MERGE, assembled in one place: remove
/// actions for every rewritten file (with its deletion vector, which the rewrite drops), add
/// actions for the replacement files, commitInfo with the command as operation and Spark's
/// operationMetrics names. When the table tracks rows, the adds get fresh row ids at commit
/// and `tags` says whether the rewrite preserved the rows' stable ids (`preserved`: the files
/// materialize them, PreservesRowTracking()).
Result<Transaction> RewriteTransaction(const TableState& table, RowLevelCommand command,
                                       const RowLevelScanRecord& read, std::vector<FileAction> adds,
                                       const RowLevelWriteSummary& summary, bool preserved);

/// \brief Whether a copy-on-write rewrite of `table` preserves row ids and row commit
/// versions: row tracking is enabled, the materialized column names are configured, and no
/// data column hides `_metadata`. The operation then requires `_metadata` and its write
/// materializes the values (§7 of the protocol digest).
bool PreservesRowTracking(const TableState& table);

/// \brief The group-based row-level operation builder of `table` (its latest snapshot).
/// Fails like a write when the writer cannot write the table (features, append-only).
Result<std::unique_ptr<RowLevelOperationBuilder>> MakeDeltaRowLevelOperationBuilder(
    std::shared_ptr<const TableState> table, RowLevelCommand command);

/// \brief Whether a filter delete can drop whole files: every predicate is exactly evaluable
/// on partition columns (none: every file).
bool CanDeleteFilesWhere(const TableState& table, const std::vector<PredicatePtr>& predicates);

/// \brief The metadata-only DELETE: remove the files whose partition values satisfy all
/// predicates, in one commit (none when no file matches). Returns the rows removed, from the
/// files' statistics, or -1 when a file has none.
Result<int64_t> DeleteFilesWhere(std::shared_ptr<const TableState> table,
                                 const std::vector<PredicatePtr>& predicates);

// ---- Checkpoints (delta_checkpoint_writer.cc)

/// \brief Write the classic single-file checkpoint of `snapshot` (protocol, metaData, txn,
/// domainMetadata, adds and the tombstones within the retention) and then `_last_checkpoint`.
/// The checkpoint appears atomically (written aside, then renamed).
Status WriteCheckpoint(arrow::fs::FileSystem& filesystem, const Snapshot& snapshot);

// ---- Creating tables (delta_create.cc)

/// \brief The first metadata and protocol of a table.
struct NewTableMetadata {
  Metadata metadata;
  Protocol protocol;
};

/// \brief OK when every column name in `fields` (nested fields too) may be stored under
/// `mode`: without column mapping a name holds none of ` ,;{}()\n\t=`, else
/// DELTA_INVALID_CHARACTERS_IN_COLUMN_NAMES listing the names at fault.
Status CheckColumnNames(const arrow::FieldVector& fields, ColumnMappingMode mode);

/// \brief The metadata of a table created (or replaced) from CREATE TABLE's `info`: a fresh id,
/// the columns (with column mapping ids and physical names when the properties ask for it),
/// identity partitioning only, the comment as description, the other non-reserved properties
/// as configuration (validated), and RequiredProtocol (never below `current` for a
/// replacement). Fails for another provider than delta, partition transforms, partition
/// columns that are missing or of a type that cannot partition, column defaults, and column
/// names CheckColumnNames refuses.
Result<NewTableMetadata> MetadataForCreate(const TableInfo& info,
                                           const std::optional<Protocol>& current);

// ---- ALTER TABLE (delta_alter.cc)

/// \brief Apply `changes` in order to the table's metadata and commit them at once: table
/// properties (validated; the protocol is raised when one needs it), the comment, added
/// nullable columns, column comments, relaxing NOT NULL, and with column mapping renaming and
/// dropping columns. Anything else fails with UNSUPPORTED_FEATURE.TABLE_OPERATION, a rename or
/// drop without column mapping with DELTA_UNSUPPORTED_RENAME_COLUMN / _DROP_COLUMN.
Status AlterDeltaTable(const TableState& state, const std::vector<TableChange>& changes);

// ---- Protocol and properties (delta_protocol.cc)

/// \brief Check table properties given at CREATE or ALTER: `delta.*` keys must be known
/// (DELTA_UNKNOWN_CONFIGURATION otherwise) with valid values (DELTA_INVALID_TABLE_PROPERTY...).
Status ValidateConfiguration(const std::map<std::string, std::string>& configuration);

/// \brief The lowest protocol that supports a table with `configuration` and `schema`
/// (annotated), never below `current` when given: (1,2) by default; column mapping (2,5);
/// change data feed writer 4; deletion vectors, timestampNtz, column defaults or V2
/// checkpoints as table features (3,7); row tracking as the writer features rowTracking and
/// domainMetadata (writer 7).
Protocol RequiredProtocol(const std::map<std::string, std::string>& configuration,
                          const arrow::Schema& schema, const std::optional<Protocol>& current);

/// \brief Fail with DELTA_UNSUPPORTED_FEATURES_FOR_WRITE (naming the features) or
/// DELTA_INVALID_PROTOCOL_VERSION when this writer cannot write the table safely.
Status CheckWriteSupported(const Protocol& protocol, const Metadata& metadata,
                           const std::string& table);

/// \brief How often a table with `metadata` and `protocol` gets a classic checkpoint:
/// `delta.checkpointInterval` (10 by default); 0 (never) for tables whose checkpoints must
/// be V2 ones, which this writer does not produce.
int64_t CheckpointInterval(const Protocol& protocol, const Metadata& metadata);

/// \brief An integer table property, or `fallback` when unset or malformed.
int64_t IntProperty(const std::map<std::string, std::string>& configuration, const std::string& key,
                    int64_t fallback);

/// \brief A random UUID (version 4), lower-case.
std::string RandomUuid();

/// \brief Milliseconds since the epoch, now.
int64_t NowMillis();

}  // namespace parley::delta
