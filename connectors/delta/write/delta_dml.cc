// DELETE, UPDATE and MERGE on Delta tables, copy-on-write: a group is a data file.
//
// The operation reads the latest snapshot when it is built. Its scan is the ordinary Delta scan
// (partition predicates prune exactly, data predicates skip files by statistics, deletion
// vectors are applied) and records the files it chose; every row of those files reaches the
// engine. The write's commit removes exactly those files and adds the files written, in one
// commit at the snapshot's version (RewriteTransaction). A concurrent commit that added files
// the scan's partition predicates admit, or removed a file read, fails the commit with
// DELTA_CONCURRENT_APPEND / DELTA_CONCURRENT_DELETE_READ / _DELETE_DELETE (delta_txn.cc), and
// the files written are deleted again. With `delta.enableChangeDataFeed=true` the operation
// RequiresChangeRows(): the writers put every deleted, updated (pre- and post-image) and
// inserted row under `_change_data/`, committed as `cdc` actions with the rewrite. A DELETE
// whose predicates are all exact on partition columns removes whole files without reading them
// (DeleteFilesWhere); like delta-spark it writes no change files, since readers take the
// removes of a commit without `cdc` actions as deletes of every row.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "arrow/filesystem/filesystem.h"
#include "arrow/type.h"
#include "connectors/delta/log/protocol.h"
#include "connectors/delta/log/row_tracking.h"
#include "connectors/delta/log/transaction.h"
#include "connectors/delta/log/values.h"
#include "connectors/delta/read/metadata_column.h"
#include "connectors/delta/read/pruning.h"
#include "connectors/delta/read/scan.h"
#include "connectors/delta/table_state.h"
#include "connectors/delta/write/change_data.h"
#include "connectors/delta/write/data_writer.h"
#include "connectors/delta/write/dml.h"
#include "connectors/delta/write/write.h"

namespace parley::delta {
namespace {

int64_t LiveRows(const FileAction& file, bool* known) {
  auto records = ParseStatistics(file.stats, {}).num_records;
  if (!records) {
    *known = false;
    return 0;
  }
  return *records - (file.deletion_vector ? file.deletion_vector->cardinality : 0);
}

std::string PredicatesJson(const std::vector<PredicatePtr>& predicates) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& predicate : predicates) list.push_back(predicate->ToString());
  return list.dump();
}

// Whether a file added concurrently may hold rows the predicates admit (unknown: yes).
std::function<bool(const FileAction&)> PartitionReadPredicate(
    const TableState& table, std::vector<PredicatePtr> predicates) {
  if (predicates.empty()) return nullptr;
  auto state = std::make_shared<TableState>(table);
  return [state, predicates = std::move(predicates)](const FileAction& file) {
    auto values = TypedPartitionValues(*state, file);
    if (!values.ok()) return true;
    for (const auto& predicate : predicates) {
      if (!EvaluateOnPartition(*predicate, *values).value_or(true)) return false;
    }
    return true;
  };
}

class RowLevelBatchWrite : public DeltaFilesBatchWrite {
 public:
  RowLevelBatchWrite(std::shared_ptr<const TableState> table, RowLevelCommand command,
                     std::shared_ptr<RowLevelScanRecord> read)
      : DeltaFilesBatchWrite(std::move(table)), command_(command), read_(std::move(read)) {}

  Result<std::shared_ptr<DataWriterFactory>> CreateBatchWriterFactory(
      const PhysicalWriteInfo& info) override {
    if (!PreservesRowTracking(*table_)) {
      ARROW_ASSIGN_OR_RAISE(auto inner, DeltaFilesBatchWrite::CreateBatchWriterFactory(info));
      return WithChangeRows(std::move(inner));
    }
    WriteSpec spec = WriteSpecFor(*table_);
    const auto& configuration = table_->snapshot->metadata.configuration;
    spec.materialized_row_id = configuration.at(kMaterializedRowIdColumn);
    spec.materialized_row_commit_version = configuration.at(kMaterializedRowCommitVersionColumn);
    ARROW_ASSIGN_OR_RAISE(auto inner, MakeDeltaWriterFactory(std::move(spec)));
    return WithChangeRows(
        MakeRowPreservingWriterFactory(std::move(inner), table_->schema->num_fields()));
  }

  Result<std::shared_ptr<DataWriterFactory>> DeserializeWriterFactory(
      std::string_view bytes) const override {
    ARROW_ASSIGN_OR_RAISE(auto inner, DeltaFilesBatchWrite::DeserializeWriterFactory(bytes));
    if (PreservesRowTracking(*table_)) {
      inner = MakeRowPreservingWriterFactory(std::move(inner), table_->schema->num_fields());
    }
    return WithChangeRows(std::move(inner));
  }

  Status Commit(const std::vector<CommitMessagePtr>& messages) override {
    return CommitRowLevel(messages, RowLevelWriteSummary{});
  }

  Status CommitRowLevel(const std::vector<CommitMessagePtr>& messages,
                        const RowLevelWriteSummary& summary) override {
    ARROW_ASSIGN_OR_RAISE(auto files, AddsOfMessages(messages));
    // Change files are the only adds written with dataChange=false (MakeChangeRowsWriterFactory).
    std::vector<FileAction> adds, change_files;
    for (auto& file : files) (file.data_change ? adds : change_files).push_back(std::move(file));
    ARROW_ASSIGN_OR_RAISE(auto transaction,
                          RewriteTransaction(*table_, command_, *read_, std::move(adds), summary,
                                             PreservesRowTracking(*table_)));
    const std::string change_count = std::to_string(change_files.size());
    transaction.operation_metrics[command_ == RowLevelCommand::kMerge ? "numTargetChangeFilesAdded"
                                                                      : "numAddedChangeFiles"] =
        change_count;
    transaction.change_files = std::move(change_files);
    return CommitTransaction(table_->filesystem, table_->root, table_->name,
                             table_->snapshot->version, std::move(transaction))
        .status();
  }

 private:
  // The writers also record the change data feed when the table has it on.
  Result<std::shared_ptr<DataWriterFactory>> WithChangeRows(
      std::shared_ptr<DataWriterFactory> data) const {
    if (!ChangeDataFeedEnabled(table_->snapshot->metadata)) return data;
    return MakeChangeRowsWriterFactory(std::move(data), *table_);
  }

  RowLevelCommand command_;
  std::shared_ptr<RowLevelScanRecord> read_;
};

class RowLevelWriteBuilder : public WriteBuilder {
 public:
  RowLevelWriteBuilder(std::shared_ptr<const TableState> table, RowLevelCommand command,
                       std::shared_ptr<RowLevelScanRecord> read)
      : table_(std::move(table)), command_(command), read_(std::move(read)) {}

  Result<std::shared_ptr<Write>> Build() override {
    auto batch = std::make_shared<RowLevelBatchWrite>(table_, command_, read_);
    return std::make_shared<DeltaFilesWrite>(
        std::move(batch), std::string("DeltaWrite copy-on-write ") + RowLevelCommandName(command_) +
                              " of " + table_->name);
  }

 private:
  std::shared_ptr<const TableState> table_;
  RowLevelCommand command_;
  std::shared_ptr<RowLevelScanRecord> read_;
};

class DeltaRowLevelOperation : public RowLevelOperation {
 public:
  DeltaRowLevelOperation(std::shared_ptr<const TableState> table, RowLevelCommand command)
      : table_(std::move(table)),
        command_(command),
        read_(std::make_shared<RowLevelScanRecord>()) {}

  RowLevelCommand command() const override { return command_; }
  std::vector<Column> RequiredMetadataAttributes() const override {
    if (!PreservesRowTracking(*table_)) return {};
    return {{kMetadataColumn, MetadataStructType(/*row_tracking=*/true), false, "", std::nullopt}};
  }
  bool RequiresChangeRows() const override {
    return ChangeDataFeedEnabled(table_->snapshot->metadata);
  }
  Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options&) override {
    return MakeDeltaScanBuilder(table_, read_);
  }
  Result<std::unique_ptr<WriteBuilder>> NewWriteBuilder(const LogicalWriteInfo& info) override {
    return std::make_unique<RowLevelWriteBuilder>(table_, command_, read_);
  }

 private:
  std::shared_ptr<const TableState> table_;
  RowLevelCommand command_;
  std::shared_ptr<RowLevelScanRecord> read_;
};

class DeltaRowLevelOperationBuilder : public RowLevelOperationBuilder {
 public:
  DeltaRowLevelOperationBuilder(std::shared_ptr<const TableState> table, RowLevelCommand command)
      : table_(std::move(table)), command_(command) {}
  Result<std::shared_ptr<RowLevelOperation>> Build() override {
    return std::make_shared<DeltaRowLevelOperation>(table_, command_);
  }

 private:
  std::shared_ptr<const TableState> table_;
  RowLevelCommand command_;
};

}  // namespace

bool PreservesRowTracking(const TableState& table) {
  const Metadata& metadata = table.snapshot->metadata;
  return RowTrackingSupported(table.snapshot->protocol, metadata) && RowTrackingEnabled(metadata) &&
         metadata.configuration.contains(kMaterializedRowIdColumn) &&
         metadata.configuration.contains(kMaterializedRowCommitVersionColumn) &&
         table.schema->GetFieldByName(kMetadataColumn) == nullptr;
}

Result<Transaction> RewriteTransaction(const TableState& table, RowLevelCommand command,
                                       const RowLevelScanRecord& read, std::vector<FileAction> adds,
                                       const RowLevelWriteSummary& summary, bool preserved) {
  Transaction transaction;
  int64_t removed_bytes = 0, added_bytes = 0, output_rows = 0, removed_dvs = 0;
  for (const auto& file : read.files) {
    removed_bytes += file.size;
    if (file.deletion_vector) ++removed_dvs;
    transaction.removes.push_back(file);
  }
  for (const auto& add : adds) {
    added_bytes += add.size;
    output_rows += ParseStatistics(add.stats, {}).num_records.value_or(0);
  }
  const std::string files_added = std::to_string(adds.size());
  const std::string files_removed = std::to_string(transaction.removes.size());
  transaction.adds = std::move(adds);
  transaction.operation = RowLevelCommandName(command);
  std::vector<PredicatePtr> predicates = read.partition_filters;
  predicates.insert(predicates.end(), read.data_filters.begin(), read.data_filters.end());
  auto count = [](int64_t value) { return std::to_string(std::max<int64_t>(value, 0)); };
  switch (command) {
    case RowLevelCommand::kDelete:
    case RowLevelCommand::kUpdate:
      transaction.operation_parameters = {{"predicate", PredicatesJson(predicates)}};
      transaction.operation_metrics = {{"numRemovedFiles", files_removed},
                                       {"numAddedFiles", files_added},
                                       {"numCopiedRows", count(summary.copied)},
                                       {"numAddedChangeFiles", "0"},
                                       {"numRemovedBytes", std::to_string(removed_bytes)},
                                       {"numAddedBytes", std::to_string(added_bytes)},
                                       {"numDeletionVectorsAdded", "0"},
                                       {"numDeletionVectorsRemoved", std::to_string(removed_dvs)}};
      if (command == RowLevelCommand::kDelete) {
        transaction.operation_metrics["numDeletedRows"] = count(summary.deleted);
      } else {
        transaction.operation_metrics["numUpdatedRows"] = count(summary.updated);
      }
      break;
    case RowLevelCommand::kMerge:
      transaction.operation_parameters = {{"predicate", PredicatesJson(predicates)}};
      transaction.operation_metrics = {
          {"numTargetRowsInserted", count(summary.inserted)},
          {"numTargetRowsUpdated", count(summary.updated)},
          {"numTargetRowsDeleted", count(summary.deleted)},
          {"numTargetRowsCopied", count(summary.copied)},
          {"numOutputRows", std::to_string(output_rows)},
          {"numTargetFilesAdded", files_added},
          {"numTargetFilesRemoved", files_removed},
          {"numTargetChangeFilesAdded", "0"},
          {"numTargetBytesAdded", std::to_string(added_bytes)},
          {"numTargetBytesRemoved", std::to_string(removed_bytes)},
          {"numTargetDeletionVectorsAdded", "0"},
          {"numTargetDeletionVectorsRemoved", std::to_string(removed_dvs)}};
      break;
  }
  transaction.read_predicate = PartitionReadPredicate(table, read.partition_filters);
  transaction.checkpoint_interval =
      CheckpointInterval(table.snapshot->protocol, table.snapshot->metadata);
  ARROW_ASSIGN_OR_RAISE(transaction.row_id_high_water_mark,
                        ReadHighWaterMarkFor(table.snapshot->protocol, table.snapshot->metadata,
                                             table.snapshot.get()));
  if (transaction.row_id_high_water_mark) {
    transaction.tags["delta.rowTracking.preserved"] = preserved ? "true" : "false";
  }
  return transaction;
}

Result<std::unique_ptr<RowLevelOperationBuilder>> MakeDeltaRowLevelOperationBuilder(
    std::shared_ptr<const TableState> table, RowLevelCommand command) {
  ARROW_RETURN_NOT_OK(
      CheckWriteSupported(table->snapshot->protocol, table->snapshot->metadata, table->name));
  ARROW_RETURN_NOT_OK(CheckNotAppendOnly(*table, RowLevelCommandName(command)));
  return std::make_unique<DeltaRowLevelOperationBuilder>(std::move(table), command);
}

bool CanDeleteFilesWhere(const TableState& table, const std::vector<PredicatePtr>& predicates) {
  auto partitions = PartitionSchema(table);
  for (const auto& predicate : predicates) {
    if (!IsExactlyEvaluable(*predicate, *partitions)) return false;
  }
  return true;
}

Result<int64_t> DeleteFilesWhere(std::shared_ptr<const TableState> table,
                                 const std::vector<PredicatePtr>& predicates) {
  const Snapshot& snapshot = *table->snapshot;
  ARROW_RETURN_NOT_OK(CheckWriteSupported(snapshot.protocol, snapshot.metadata, table->name));
  ARROW_RETURN_NOT_OK(CheckNotAppendOnly(*table, "DELETE"));
  Transaction transaction;
  int64_t rows = 0, bytes = 0, dvs = 0;
  bool rows_known = true;
  for (const auto& file : snapshot.files) {
    ARROW_ASSIGN_OR_RAISE(auto values, TypedPartitionValues(*table, file));
    bool matches = true;
    for (const auto& predicate : predicates) {
      matches = matches && EvaluateOnPartition(*predicate, values).value_or(false);
    }
    if (!matches) continue;
    rows += LiveRows(file, &rows_known);
    bytes += file.size;
    if (file.deletion_vector) ++dvs;
    transaction.removes.push_back(file);
  }
  if (transaction.removes.empty()) return 0;
  transaction.operation = "DELETE";
  transaction.operation_parameters = {{"predicate", PredicatesJson(predicates)}};
  transaction.operation_metrics = {{"numRemovedFiles", std::to_string(transaction.removes.size())},
                                   {"numAddedFiles", "0"},
                                   {"numCopiedRows", "0"},
                                   {"numAddedChangeFiles", "0"},
                                   {"numRemovedBytes", std::to_string(bytes)},
                                   {"numAddedBytes", "0"},
                                   {"numDeletionVectorsAdded", "0"},
                                   {"numDeletionVectorsRemoved", std::to_string(dvs)}};
  if (rows_known) transaction.operation_metrics["numDeletedRows"] = std::to_string(rows);
  transaction.read_predicate = PartitionReadPredicate(*table, predicates);
  transaction.checkpoint_interval = CheckpointInterval(snapshot.protocol, snapshot.metadata);
  ARROW_RETURN_NOT_OK(CommitTransaction(table->filesystem, table->root, table->name,
                                        snapshot.version, std::move(transaction))
                          .status());
  return rows_known ? rows : -1;
}

}  // namespace parley::delta
