// The Change Data Feed of a Delta table as a Changelog (§6 of the protocol digest): the raw
// change rows of a range of commits, what `table_changes` returns.
//
// Per version in the range: a commit with `cdc` actions yields the rows of its change files
// (their `_change_type` column as written); any other commit yields its `add`s with
// dataChange=true as inserts (the file minus its deletion vector) and its `remove`s with
// dataChange=true as deletes (the rows live under the removed deletion vector). A path both
// removed and added by one such commit (a deletion vector change without change files, as a
// RESTORE writes) fails with DELTA_CHANGE_DATA_UNSUPPORTED_COMMIT. Rows carry
// `_commit_version` and `_commit_timestamp` (the in-commit timestamp when the commit has one,
// else the monotonized file time).
//
// Range errors follow delta-spark: DELTA_INVALID_CDC_RANGE (end before start),
// DELTA_CDC_START_VERSION_AFTER_LATEST, DELTA_MISSING_CHANGE_DATA (the feed is not enabled at
// the start, or a commit in the range turns it off). An end past the latest version reads to
// the latest.
//
// Each input partition is one file of one version; it reads through the Delta reader
// (delta_reader.cc) and adds the three metadata columns. Partitions and the factory serialize
// as JSON around the Delta reader's own encodings.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "arrow/array/util.h"
#include "arrow/record_batch.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "connectors/delta/changes/delta_change_scan.h"

#include "connectors/delta/changes/changelog.h"
#include "connectors/delta/read/read_task.h"
#include "connectors/delta/table_state.h"
#include "connectors/delta/util.h"
#include "connectors/delta/write/change_data.h"
#include "parley/connector/changelog.h"

namespace parley::delta {
namespace {

using nlohmann::json;

constexpr char kChangePartitionKind[] = "parley-delta-change-partition";
constexpr char kChangeFactoryKind[] = "parley-delta-change-factory";

Status NotSerializable(std::string_view what) {
  return InvalidError(
      "CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
      "The Delta change feed cannot rebuild a " + std::string(what) + " from its bytes.");
}

std::shared_ptr<arrow::DataType> TimestampType() {
  return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
}

// One file of one version: read by the data reader (change_type set) or the change file
// reader (change_type empty: the file's `_change_type` column).
class ChangePartition : public InputPartition {
 public:
  ChangePartition(std::shared_ptr<InputPartition> inner, std::string change_type, int64_t version,
                  int64_t timestamp_ms)
      : inner_(std::move(inner)),
        change_type_(std::move(change_type)),
        version_(version),
        timestamp_ms_(timestamp_ms) {}

  Result<std::string> Serialize() const override {
    ARROW_ASSIGN_OR_RAISE(auto inner, inner_->Serialize());
    return json{{"kind", kChangePartitionKind},
                {"inner", inner},
                {"changeType", change_type_},
                {"version", version_},
                {"timestamp", timestamp_ms_}}
        .dump();
  }

  const std::shared_ptr<InputPartition>& inner() const { return inner_; }
  const std::string& change_type() const { return change_type_; }
  int64_t version() const { return version_; }
  int64_t timestamp_ms() const { return timestamp_ms_; }

 private:
  std::shared_ptr<InputPartition> inner_;
  std::string change_type_;
  int64_t version_;
  int64_t timestamp_ms_;
};

// Adds `_change_type` (unless the file has it), `_commit_version` and `_commit_timestamp`.
class ChangeReader : public PartitionReader {
 public:
  ChangeReader(std::unique_ptr<PartitionReader> inner, std::shared_ptr<arrow::Schema> schema,
               const ChangePartition& partition)
      : inner_(std::move(inner)),
        schema_(std::move(schema)),
        change_type_(partition.change_type()),
        version_(partition.version()),
        timestamp_ms_(partition.timestamp_ms()) {}

  Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    ARROW_ASSIGN_OR_RAISE(auto batch, inner_->Next());
    if (batch == nullptr) return nullptr;
    const int64_t rows = batch->num_rows();
    arrow::ArrayVector columns = batch->columns();
    if (!change_type_.empty()) {
      ARROW_ASSIGN_OR_RAISE(auto kinds,
                            arrow::MakeArrayFromScalar(arrow::StringScalar(change_type_), rows));
      columns.push_back(std::move(kinds));
    }
    ARROW_ASSIGN_OR_RAISE(auto version,
                          arrow::MakeArrayFromScalar(arrow::Int64Scalar(version_), rows));
    ARROW_ASSIGN_OR_RAISE(auto timestamp,
                          arrow::MakeArrayFromScalar(
                              arrow::TimestampScalar(timestamp_ms_ * 1000, TimestampType()), rows));
    columns.push_back(std::move(version));
    columns.push_back(std::move(timestamp));
    return arrow::RecordBatch::Make(schema_, rows, std::move(columns));
  }

  std::vector<CustomTaskMetric> CurrentMetricsValues() const override {
    return inner_->CurrentMetricsValues();
  }

 private:
  std::unique_ptr<PartitionReader> inner_;
  std::shared_ptr<arrow::Schema> schema_;
  std::string change_type_;
  int64_t version_;
  int64_t timestamp_ms_;
};

class ChangeReaderFactory : public PartitionReaderFactory {
 public:
  ChangeReaderFactory(std::shared_ptr<PartitionReaderFactory> data,
                      std::shared_ptr<PartitionReaderFactory> changes,
                      std::shared_ptr<arrow::Schema> schema)
      : data_(std::move(data)), changes_(std::move(changes)), schema_(std::move(schema)) {}

  Result<std::unique_ptr<PartitionReader>> CreateReader(
      const InputPartition& partition) const override {
    auto* change = dynamic_cast<const ChangePartition*>(&partition);
    if (change == nullptr) {
      return InvalidError("INTERNAL_ERROR",
                          "The Delta change feed was given a partition of another reader.");
    }
    const auto& factory = change->change_type().empty() ? changes_ : data_;
    ARROW_ASSIGN_OR_RAISE(auto inner, factory->CreateReader(*change->inner()));
    return std::make_unique<ChangeReader>(std::move(inner), schema_, *change);
  }

  Result<std::string> Serialize() const override {
    ARROW_ASSIGN_OR_RAISE(auto data, data_->Serialize());
    ARROW_ASSIGN_OR_RAISE(auto changes, changes_->Serialize());
    ARROW_ASSIGN_OR_RAISE(auto schema, SchemaToDeltaJson(*schema_));
    return json{
        {"kind", kChangeFactoryKind}, {"data", data}, {"changes", changes}, {"schema", schema}}
        .dump();
  }

  Result<std::shared_ptr<InputPartition>> DeserializePartition(
      std::string_view bytes) const override {
    json in = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
    if (!in.is_object() || in.value("kind", "") != kChangePartitionKind || !in.contains("inner") ||
        !in["inner"].is_string() || !in.contains("changeType") || !in["changeType"].is_string() ||
        !in.contains("version") || !in["version"].is_number_integer() ||
        !in.contains("timestamp") || !in["timestamp"].is_number_integer()) {
      return NotSerializable("partition");
    }
    ARROW_ASSIGN_OR_RAISE(auto inner, data_->DeserializePartition(in["inner"].get<std::string>()));
    return std::make_shared<ChangePartition>(std::move(inner), in["changeType"].get<std::string>(),
                                             in["version"].get<int64_t>(),
                                             in["timestamp"].get<int64_t>());
  }

 private:
  std::shared_ptr<PartitionReaderFactory> data_;
  std::shared_ptr<PartitionReaderFactory> changes_;
  std::shared_ptr<arrow::Schema> schema_;
};

// The read specs of data files (the table's columns) and change files (plus `_change_type`).
ReadSpec DataSpec(const TableState& table) {
  ReadSpec spec;
  spec.location = table.location;
  spec.schema_json = table.snapshot->metadata.schema_string;
  spec.mode = table.mode;
  spec.partition_columns = table.partition_columns;
  for (const auto& field : table.schema->fields()) spec.read_columns.push_back(field->name());
  return spec;
}

Result<ReadSpec> ChangeFileSpec(const TableState& table) {
  ReadSpec spec = DataSpec(table);
  arrow::FieldVector fields = table.annotated_schema->fields();
  fields.push_back(arrow::field(kChangeTypeColumn, arrow::utf8()));
  ARROW_ASSIGN_OR_RAISE(spec.schema_json, SchemaToDeltaJson(arrow::Schema(fields)));
  spec.read_columns.push_back(kChangeTypeColumn);
  return spec;
}

class ChangeBatch : public Batch {
 public:
  ChangeBatch(std::shared_ptr<const TableState> table,
              std::vector<std::shared_ptr<InputPartition>> partitions,
              std::shared_ptr<arrow::Schema> schema)
      : table_(std::move(table)), partitions_(std::move(partitions)), schema_(std::move(schema)) {}

  Result<std::vector<std::shared_ptr<InputPartition>>> PlanInputPartitions() override {
    return partitions_;
  }

  Result<std::shared_ptr<PartitionReaderFactory>> CreateReaderFactory() override {
    ARROW_ASSIGN_OR_RAISE(auto data, MakeDeltaReaderFactory(DataSpec(*table_)));
    ARROW_ASSIGN_OR_RAISE(auto spec, ChangeFileSpec(*table_));
    ARROW_ASSIGN_OR_RAISE(auto changes, MakeDeltaReaderFactory(std::move(spec)));
    return std::make_shared<ChangeReaderFactory>(std::move(data), std::move(changes), schema_);
  }

  Result<std::shared_ptr<PartitionReaderFactory>> DeserializeReaderFactory(
      std::string_view bytes) const override {
    json in = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
    if (!in.is_object() || in.value("kind", "") != kChangeFactoryKind || !in.contains("data") ||
        !in["data"].is_string() || !in.contains("changes") || !in["changes"].is_string() ||
        !in.contains("schema") || !in["schema"].is_string()) {
      return NotSerializable("reader factory");
    }
    ARROW_ASSIGN_OR_RAISE(auto data, DeserializeDeltaReaderFactory(in["data"].get<std::string>()));
    ARROW_ASSIGN_OR_RAISE(auto changes,
                          DeserializeDeltaReaderFactory(in["changes"].get<std::string>()));
    ARROW_ASSIGN_OR_RAISE(auto schema, SchemaFromDeltaJson(in["schema"].get<std::string>()));
    return std::make_shared<ChangeReaderFactory>(std::move(data), std::move(changes),
                                                 std::move(schema));
  }

 private:
  std::shared_ptr<const TableState> table_;
  std::vector<std::shared_ptr<InputPartition>> partitions_;
  std::shared_ptr<arrow::Schema> schema_;
};

using ChangeScan = PlannedChangeScan<ChangeBatch>;

class ChangeScanBuilder : public ScanBuilder {
 public:
  ChangeScanBuilder(std::shared_ptr<const TableState> table, int64_t start, int64_t end,
                    std::shared_ptr<arrow::Schema> schema)
      : table_(std::move(table)), start_(start), end_(end), schema_(std::move(schema)) {}

  Result<std::shared_ptr<Scan>> Build() override {
    const TableState& table = *table_;
    std::vector<std::shared_ptr<InputPartition>> partitions;
    for (int64_t version = start_; version <= end_; ++version) {
      ARROW_ASSIGN_OR_RAISE(CommitActions commit,
                            ReadCommit(*table.filesystem, table.root, version));
      int64_t timestamp =
          commit.in_commit_timestamp.value_or(table.snapshot->commit_timestamps.count(version)
                                                  ? table.snapshot->commit_timestamps.at(version)
                                                  : 0);
      auto add = [&](const FileAction& file, std::string change_type) {
        partitions.push_back(
            std::make_shared<ChangePartition>(MakeDeltaPartition({ReadTaskFor(table, file)}),
                                              std::move(change_type), version, timestamp));
      };
      if (!commit.change_files.empty()) {
        for (const auto& file : commit.change_files) add(file, "");
        continue;
      }
      std::set<std::string> added, removed;
      for (const auto& change : commit.file_changes) {
        if (!change.file.data_change) continue;
        (change.is_add ? added : removed).insert(change.file.path);
      }
      for (const auto& path : added) {
        if (removed.contains(path)) {
          return InvalidError("DELTA_CHANGE_DATA_UNSUPPORTED_COMMIT",
                              "Version " + std::to_string(version) + " of " + table.name +
                                  " changes the deletion vector of " + PercentDecode(path) +
                                  " without change data files; Parley cannot read its "
                                  "changes.");
        }
      }
      for (const auto& change : commit.file_changes) {
        if (!change.file.data_change) continue;
        add(change.file, change.is_add ? kChangeInsert : kChangeDelete);
      }
    }
    std::string description = "change data feed of " + table.name + ", versions [" +
                              std::to_string(start_) + ", " + std::to_string(end_) + "], " +
                              std::to_string(partitions.size()) + " files";
    return std::make_shared<ChangeScan>(table_, std::move(partitions), schema_,
                                        std::move(description));
  }

 private:
  std::shared_ptr<const TableState> table_;
  int64_t start_;
  int64_t end_;
  std::shared_ptr<arrow::Schema> schema_;
};

class DeltaChangeFeed : public Changelog {
 public:
  DeltaChangeFeed(std::shared_ptr<const TableState> table, int64_t start, int64_t end)
      : table_(std::move(table)), start_(start), end_(end) {
    arrow::FieldVector fields = table_->schema->fields();
    fields.push_back(arrow::field(kChangeTypeColumn, arrow::utf8(), false));
    fields.push_back(arrow::field(kCommitVersionColumn, arrow::int64(), false));
    fields.push_back(arrow::field(kCommitTimestampColumn, TimestampType(), false));
    schema_ = arrow::schema(std::move(fields));
  }

  std::string name() const override { return table_->name + " change data feed"; }
  std::vector<Column> columns() const override { return SchemaToColumns(*schema_); }
  // Change files hold no copy-on-write carry-overs and show updates as pre/post images; a row
  // may change in several commits of the range.
  bool ContainsCarryoverRows() const override { return false; }
  bool ContainsIntermediateChanges() const override { return true; }
  bool RepresentsUpdateAsDeleteAndInsert() const override { return false; }
  Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options&) override {
    return std::make_unique<ChangeScanBuilder>(table_, start_, end_, schema_);
  }

 private:
  std::shared_ptr<const TableState> table_;
  int64_t start_;
  int64_t end_;
  std::shared_ptr<arrow::Schema> schema_;
};

Result<int64_t> ParseVersion(const std::string& text, const std::string& table) {
  bool digits =
      !text.empty() && std::all_of(text.begin(), text.end(), ::isdigit) && text.size() < 19;
  if (!digits) {
    return InvalidError("DELTA_INVALID_CDC_RANGE", "The change data range of " + table +
                                                       " names the version '" + text +
                                                       "', which is not a non-negative integer.");
  }
  return std::stoll(text);
}

Status MissingChangeData(const TableState& table, int64_t start, int64_t end, int64_t version) {
  return InvalidError("DELTA_MISSING_CHANGE_DATA",
                      "Error getting change data for range [" + std::to_string(start) + " , " +
                          std::to_string(end) + "] of " + table.name +
                          " as change data was not recorded for version [" +
                          std::to_string(version) +
                          "]. If you've enabled change data feed on this table, use `DESCRIBE "
                          "HISTORY` to see when it was first enabled. Otherwise, to start "
                          "recording change data, use `ALTER TABLE table_name SET TBLPROPERTIES "
                          "(delta.enableChangeDataFeed=true)`.");
}

}  // namespace

Result<std::shared_ptr<Changelog>> MakeDeltaChangeFeed(std::shared_ptr<const TableState> table,
                                                       const ChangelogInfo& info) {
  const ChangelogRange& range = info.range;
  const Snapshot& latest = *table->snapshot;
  const auto& timestamps = latest.commit_timestamps;
  int64_t start = 0, end = latest.version;
  switch (range.kind) {
    case ChangelogRange::Kind::kUnbounded: break;
    case ChangelogRange::Kind::kVersion: {
      ARROW_ASSIGN_OR_RAISE(start, ParseVersion(range.starting_version, table->name));
      if (!range.starting_bound_inclusive) ++start;
      if (range.ending_version) {
        ARROW_ASSIGN_OR_RAISE(end, ParseVersion(*range.ending_version, table->name));
        if (!range.ending_bound_inclusive) --end;
      }
      break;
    }
    case ChangelogRange::Kind::kTimestamp: {
      // The first commit at or after the start, the last at or before the end.
      const int64_t from_ms = range.starting_timestamp / 1000;
      start = latest.version + 1;
      for (const auto& [version, ms] : timestamps) {
        if (ms > from_ms || (ms == from_ms && range.starting_bound_inclusive)) {
          start = version;
          break;
        }
      }
      if (range.ending_timestamp) {
        const int64_t to_ms = *range.ending_timestamp / 1000;
        end = -1;
        for (const auto& [version, ms] : timestamps) {
          if (ms < to_ms || (ms == to_ms && range.ending_bound_inclusive)) end = version;
        }
      }
      break;
    }
  }
  if (start > latest.version) {
    return MakeErrorWithParameters(
        arrow::StatusCode::Invalid, "DELTA_CDC_START_VERSION_AFTER_LATEST",
        {{"start", std::to_string(start)}, {"latest", std::to_string(latest.version)}},
        "Provided start version (" + std::to_string(start) + ") for reading change data of " +
            table->name +
            " is invalid. Start version cannot be greater than the latest version "
            "of the table (" +
            std::to_string(latest.version) + ").");
  }
  if (end < start) {
    return MakeErrorWithParameters(arrow::StatusCode::Invalid, "DELTA_INVALID_CDC_RANGE",
                                   {{"start", std::to_string(start)}, {"end", std::to_string(end)}},
                                   "CDC range from start " + std::to_string(start) + " to end " +
                                       std::to_string(end) +
                                       " was invalid. End cannot be before start.");
  }
  end = std::min(end, latest.version);
  // The feed must be on at the start and stay on through the range.
  ARROW_ASSIGN_OR_RAISE(auto at_start, LoadSnapshot(table->filesystem, table->root, start));
  if (!ChangeDataFeedEnabled(at_start->metadata)) {
    return MissingChangeData(*table, start, end, start);
  }
  for (int64_t version = start + 1; version <= end; ++version) {
    ARROW_ASSIGN_OR_RAISE(auto commit, ReadCommit(*table->filesystem, table->root, version));
    if (commit.metadata && !ChangeDataFeedEnabled(*commit.metadata)) {
      return MissingChangeData(*table, start, end, version);
    }
  }
  return std::make_shared<DeltaChangeFeed>(std::move(table), start, end);
}

}  // namespace parley::delta
