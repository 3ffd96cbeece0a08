// The driver side of a Delta write: the WriteBuilder with its modes, the Write and the
// BatchWrite whose Commit turns the tasks' files into one commit of the log.
//
// Modes: append (a blind append), truncate (removes every file), overwrite by predicates on
// partition columns (removes the files whose partition values satisfy all of them; the rows
// written must satisfy them too) and dynamic partition overwrite (removes the files of the
// partitions written). What the commit read is what it removes, so a concurrent commit adding
// files there conflicts. With the options txnAppId and txnVersion a write is idempotent: when
// the table already holds that version (or a later one) for the application, the write commits
// nothing and deletes its files.
#include <algorithm>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "arrow/filesystem/filesystem.h"
#include "arrow/scalar.h"
#include "connectors/delta/log/protocol.h"
#include "connectors/delta/log/row_tracking.h"
#include "connectors/delta/log/transaction.h"
#include "connectors/delta/log/values.h"
#include "connectors/delta/read/pruning.h"
#include "connectors/delta/table_state.h"
#include "connectors/delta/util.h"
#include "connectors/delta/write/data_writer.h"
#include "connectors/delta/write/write.h"

namespace parley::delta {
namespace {

enum class Mode { kAppend, kTruncate, kOverwrite, kDynamic };

std::string PartitionKey(const FileAction& file) {
  std::string key;
  for (const auto& [name, value] : file.partition_values) {
    key += name + (value ? "=" + *value : std::string("\x01")) + "\n";
  }
  return key;
}

class DeltaBatchWrite : public DeltaFilesBatchWrite {
 public:
  DeltaBatchWrite(std::shared_ptr<const TableState> table, LogicalWriteInfo info, Mode mode,
                  std::vector<PredicatePtr> predicates, std::shared_ptr<StagedData> staged)
      : DeltaFilesBatchWrite(std::move(table)),
        info_(std::move(info)),
        mode_(mode),
        predicates_(std::move(predicates)),
        staged_(std::move(staged)) {}

  Status Commit(const std::vector<CommitMessagePtr>& messages) override {
    ARROW_ASSIGN_OR_RAISE(auto adds, AddsOfMessages(messages));
    if (staged_ != nullptr) {
      std::lock_guard<std::mutex> lock(staged_->mutex);
      for (auto& add : adds) staged_->adds.push_back(std::move(add));
      staged_->written = true;
      return Status::OK();
    }
    if (AlreadyApplied()) return DeleteFiles(adds);
    Transaction transaction;
    ARROW_RETURN_NOT_OK(ChooseRemoves(adds, &transaction));
    int64_t rows = 0, bytes = 0;
    for (const auto& add : adds) {
      bytes += add.size;
      rows += ParseStatistics(add.stats, {}).num_records.value_or(0);
    }
    transaction.adds = std::move(adds);
    transaction.operation = "WRITE";
    transaction.operation_parameters = {
        {"mode", mode_ == Mode::kAppend ? "Append" : "Overwrite"},
        {"partitionBy", PartitionByJson(table_->partition_columns)}};
    if (mode_ == Mode::kOverwrite) {
      transaction.operation_parameters["predicate"] = PredicatesText();
    }
    transaction.operation_metrics = {{"numFiles", std::to_string(transaction.adds.size())},
                                     {"numOutputRows", std::to_string(rows)},
                                     {"numOutputBytes", std::to_string(bytes)}};
    if (mode_ != Mode::kAppend) {
      transaction.operation_metrics["numRemovedFiles"] = std::to_string(transaction.removes.size());
    }
    if (txn_) transaction.txn = *txn_;
    transaction.checkpoint_interval =
        CheckpointInterval(table_->snapshot->protocol, table_->snapshot->metadata);
    ARROW_ASSIGN_OR_RAISE(transaction.row_id_high_water_mark,
                          ReadHighWaterMarkFor(table_->snapshot->protocol,
                                               table_->snapshot->metadata, table_->snapshot.get()));
    return CommitTransaction(table_->filesystem, table_->root, table_->name,
                             table_->snapshot->version, std::move(transaction))
        .status();
  }

  /// Set by the builder from the txnAppId / txnVersion options.
  std::optional<SetTransaction> txn_;

 private:
  static std::string PartitionByJson(const std::vector<std::string>& columns) {
    std::string out = "[";
    for (size_t i = 0; i < columns.size(); ++i) out += (i ? ",\"" : "\"") + columns[i] + "\"";
    return out + "]";
  }

  std::string PredicatesText() const {
    std::string out;
    for (const auto& predicate : predicates_) {
      out += (out.empty() ? "" : " AND ") + predicate->ToString();
    }
    return out;
  }

  bool AlreadyApplied() const {
    if (!txn_) return false;
    auto it = table_->snapshot->app_versions.find(txn_->app_id);
    return it != table_->snapshot->app_versions.end() && it->second >= txn_->version;
  }

  Result<bool> MatchesPredicates(const FileAction& file) const {
    ARROW_ASSIGN_OR_RAISE(auto values, TypedPartitionValues(*table_, file));
    for (const auto& predicate : predicates_) {
      if (!EvaluateOnPartition(*predicate, values).value_or(false)) return false;
    }
    return true;
  }

  Status ChooseRemoves(const std::vector<FileAction>& adds, Transaction* transaction) {
    const auto& files = table_->snapshot->files;
    switch (mode_) {
      case Mode::kAppend: transaction->blind_append = true; return Status::OK();
      case Mode::kTruncate: transaction->removes = files; return Status::OK();
      case Mode::kOverwrite: {
        for (const auto& add : adds) {
          ARROW_ASSIGN_OR_RAISE(bool matches, MatchesPredicates(add));
          if (!matches) {
            return InvalidError("DELTA_REPLACE_WHERE_MISMATCH",
                                "Written data does not conform to the partial table overwrite "
                                "condition " +
                                    PredicatesText() + " of " + table_->name +
                                    ": a row falls in the partition " +
                                    PercentDecode(add.path.substr(0, add.path.rfind('/'))) + ".");
          }
        }
        for (const auto& file : files) {
          ARROW_ASSIGN_OR_RAISE(bool matches, MatchesPredicates(file));
          if (matches) transaction->removes.push_back(file);
        }
        auto state = table_;
        auto predicates = predicates_;
        transaction->read_predicate = [state, predicates](const FileAction& file) {
          auto values = TypedPartitionValues(*state, file);
          if (!values.ok()) return true;
          for (const auto& predicate : predicates) {
            if (!EvaluateOnPartition(*predicate, *values).value_or(false)) return false;
          }
          return true;
        };
        return Status::OK();
      }
      case Mode::kDynamic: {
        std::set<std::string> written;
        for (const auto& add : adds) written.insert(PartitionKey(add));
        for (const auto& file : files) {
          if (written.contains(PartitionKey(file))) transaction->removes.push_back(file);
        }
        transaction->read_predicate = [written](const FileAction& file) {
          return written.contains(PartitionKey(file));
        };
        return Status::OK();
      }
    }
    return Status::OK();
  }

  LogicalWriteInfo info_;
  Mode mode_;
  std::vector<PredicatePtr> predicates_;
  std::shared_ptr<StagedData> staged_;
};

class DeltaWriteBuilder : public WriteBuilder,
                          public SupportsOverwriteV2,
                          public SupportsDynamicOverwrite {
 public:
  DeltaWriteBuilder(std::shared_ptr<const TableState> table, LogicalWriteInfo info,
                    std::shared_ptr<StagedData> staged)
      : table_(std::move(table)), info_(std::move(info)), staged_(std::move(staged)) {}

  bool CanOverwrite(const std::vector<PredicatePtr>& predicates) const override {
    auto partitions = PartitionSchema(*table_);
    for (const auto& predicate : predicates) {
      if (!IsExactlyEvaluable(*predicate, *partitions)) return false;
    }
    return true;
  }

  Status Overwrite(std::vector<PredicatePtr> predicates) override {
    ARROW_RETURN_NOT_OK(CheckNotAppendOnly(*table_, "an overwrite"));
    bool everything = true;
    for (const auto& predicate : predicates) {
      everything = everything && predicate->name() == "ALWAYS_TRUE";
    }
    mode_ = everything ? Mode::kTruncate : Mode::kOverwrite;
    predicates_ = std::move(predicates);
    return Status::OK();
  }

  Status OverwriteDynamicPartitions() override {
    ARROW_RETURN_NOT_OK(CheckNotAppendOnly(*table_, "an overwrite"));
    mode_ = table_->partition_columns.empty() ? Mode::kTruncate : Mode::kDynamic;
    return Status::OK();
  }

  Result<std::shared_ptr<Write>> Build() override {
    auto batch = std::make_shared<DeltaBatchWrite>(table_, info_, mode_, predicates_, staged_);
    auto app = info_.options.find("txnappid");
    auto version = info_.options.find("txnversion");
    if ((app == info_.options.end()) != (version == info_.options.end())) {
      return InvalidError("DELTA_INVALID_IDEMPOTENT_WRITES_OPTIONS",
                          "Invalid options for idempotent Dataframe writes: both txnAppId and "
                          "txnVersion must be given.");
    }
    if (app != info_.options.end()) {
      const std::string& text = version->second;
      std::optional<int64_t> txn_version = ParseInt64(text);
      if (!txn_version || !std::all_of(text.begin(), text.end(), ::isdigit)) {
        return InvalidError("DELTA_INVALID_IDEMPOTENT_WRITES_OPTIONS",
                            "Invalid options for idempotent Dataframe writes: txnVersion '" + text +
                                "' is not a non-negative integer.");
      }
      batch->txn_ = SetTransaction{app->second, *txn_version, std::nullopt};
    }
    static const char* kModes[] = {"append", "truncate", "overwrite by partition predicate",
                                   "dynamic partition overwrite"};
    return std::make_shared<DeltaFilesWrite>(
        std::move(batch),
        std::string("DeltaWrite ") + kModes[static_cast<int>(mode_)] + " to " + table_->name);
  }

 private:
  std::shared_ptr<const TableState> table_;
  LogicalWriteInfo info_;
  std::shared_ptr<StagedData> staged_;
  Mode mode_ = Mode::kAppend;
  std::vector<PredicatePtr> predicates_;
};

}  // namespace

std::vector<std::shared_ptr<CustomMetric>> DeltaFilesWrite::SupportedCustomMetrics() const {
  return {std::make_shared<CustomSumMetric>(kBytesWrittenMetric, "bytes written"),
          std::make_shared<CustomSumMetric>(kFilesWrittenMetric, "files written")};
}

Result<std::shared_ptr<DataWriterFactory>> DeltaFilesBatchWrite::CreateBatchWriterFactory(
    const PhysicalWriteInfo&) {
  return MakeDeltaWriterFactory(WriteSpecFor(*table_));
}

Result<std::shared_ptr<DataWriterFactory>> DeltaFilesBatchWrite::DeserializeWriterFactory(
    std::string_view bytes) const {
  return DeserializeDeltaWriterFactory(bytes);
}

Result<CommitMessagePtr> DeltaFilesBatchWrite::DeserializeCommitMessage(
    std::string_view bytes) const {
  return DeserializeDeltaCommitMessage(bytes);
}

Status DeltaFilesBatchWrite::Abort(const std::vector<CommitMessagePtr>& messages) {
  Status status;
  for (const auto& message : messages) {
    if (message == nullptr) continue;
    auto files = AddsOfMessage(*message);
    if (files.ok()) status &= DeleteFiles(*files);
  }
  return status;
}

Result<std::vector<FileAction>> DeltaFilesBatchWrite::AddsOfMessages(
    const std::vector<CommitMessagePtr>& messages) {
  std::vector<FileAction> adds;
  for (const auto& message : messages) {
    if (message == nullptr) continue;
    ARROW_ASSIGN_OR_RAISE(auto files, AddsOfMessage(*message));
    for (auto& file : files) adds.push_back(std::move(file));
  }
  return adds;
}

Status DeltaFilesBatchWrite::DeleteFiles(const std::vector<FileAction>& files) const {
  Status status;
  for (const auto& file : files) {
    status &= table_->filesystem->DeleteFile(ResolveDataPath(table_->root, file.path));
  }
  return status;
}

WriteSpec WriteSpecFor(const TableState& table) {
  WriteSpec spec;
  spec.location = table.location;
  spec.schema_json = table.snapshot->metadata.schema_string;
  spec.mode = table.mode;
  spec.partition_columns = table.partition_columns;
  spec.indexed_columns = static_cast<int>(
      IntProperty(table.snapshot->metadata.configuration, "delta.dataSkippingNumIndexedCols", 32));
  if (spec.indexed_columns < 0) spec.indexed_columns = 1 << 20;
  return spec;
}

Status CheckNotAppendOnly(const TableState& table, std::string_view operation) {
  auto it = table.snapshot->metadata.configuration.find("delta.appendOnly");
  if (it == table.snapshot->metadata.configuration.end() || it->second != "true") {
    return Status::OK();
  }
  return InvalidError("DELTA_CANNOT_MODIFY_APPEND_ONLY",
                      "This table is configured to only allow appends: " + table.name +
                          " has delta.appendOnly=true, so " + std::string(operation) +
                          " cannot remove its data.");
}

Result<std::unique_ptr<WriteBuilder>> MakeDeltaWriteBuilder(std::shared_ptr<const TableState> table,
                                                            LogicalWriteInfo info,
                                                            std::shared_ptr<StagedData> staged) {
  if (staged == nullptr) {
    ARROW_RETURN_NOT_OK(
        CheckWriteSupported(table->snapshot->protocol, table->snapshot->metadata, table->name));
  }
  return std::make_unique<DeltaWriteBuilder>(std::move(table), std::move(info), std::move(staged));
}

}  // namespace parley::delta
