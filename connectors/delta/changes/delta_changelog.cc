// The changelog of a Delta table with row tracking (what `t CHANGES FROM VERSION a TO VERSION b`
// reads), built from the commits' add and remove actions, as delta-spark's read-time changelog.
//
// Per commit in the range, every `remove` with dataChange=true yields the rows that were live
// under its deletion vector as deletes, and every `add` with dataChange=true yields its live rows
// as inserts; change data files are never read. A copy-on-write rewrite therefore shows its
// unchanged rows as a delete and an insert with the same row id and row commit version (a
// carry-over), an update as a delete and an insert with the same row id, and a deletion vector
// change as the old live rows deleted and the new live rows inserted. So all three flags are true;
// the row identity is `_metadata.row_id` (the stable row id: the materialized column, else
// baseRowId + the physical row index) and the row version `_metadata.row_commit_version`.
//
// Columns: the table's columns at the end version, `_metadata` struct<row_id, row_commit_version>,
// `_change_type`, `_commit_version`, `_commit_timestamp` (the in-commit timestamp when the commit
// has one, else the monotonized file time).
//
// The range, and what the commits in it must hold (row tracking throughout, one schema the end
// version reads), are resolved and checked by changelog_range.h, with their errors.
//
// The scan prunes columns and accepts comparisons of `_commit_version` with a literal, which skip
// whole commits. Input partitions are the commit's files of one change type, split as the table
// scan splits files; they serialize as JSON around the Delta reader's own encodings. When the
// read's deduplication mode is not `none` (so the engine removes carry-overs), a commit that both
// removes and adds files is one partition instead: its reader first reads the row ids and row
// commit versions of both sides, then returns the rows without the carry-over pairs it found (a
// row id once on each side with one row commit version), which the engine would drop anyway;
// its memory holds about 25 bytes per row of the commit.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "arrow/array.h"
#include "arrow/array/util.h"
#include "arrow/builder.h"
#include "arrow/compute/api_vector.h"
#include "arrow/datum.h"
#include "arrow/record_batch.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "connectors/delta/changes/delta_change_scan.h"

#include "connectors/delta/changes/changelog.h"
#include "connectors/delta/changes/changelog_range.h"
#include "connectors/delta/log/row_tracking.h"
#include "connectors/delta/read/metadata_column.h"
#include "connectors/delta/read/read_task.h"
#include "connectors/delta/table_state.h"
#include "parley/connector/changelog.h"

namespace parley::delta {
namespace {

using nlohmann::json;

constexpr char kPartitionKind[] = "parley-delta-changelog-partition";
constexpr char kFactoryKind[] = "parley-delta-changelog-factory";
constexpr char kRowIdField[] = "row_id";
constexpr char kRowCommitVersionField[] = "row_commit_version";

Status NotSerializable(std::string_view what) {
  return InvalidError(
      "CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
      "The Delta changelog cannot rebuild a " + std::string(what) + " from its bytes.");
}

std::shared_ptr<arrow::DataType> TimestampType() {
  return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
}

std::shared_ptr<arrow::DataType> RowTrackingStruct() {
  return arrow::struct_({arrow::field(kRowIdField, arrow::int64(), false),
                         arrow::field(kRowCommitVersionField, arrow::int64(), false)});
}

// The files one commit adds and removes with dataChange=true, and its timestamp.
struct CommitChanges {
  int64_t version = 0;
  int64_t timestamp_ms = 0;
  std::vector<FileAction> removed;
  std::vector<FileAction> added;
};

// The files of one commit a reader reads: its removed files' pieces (read as deletes), its
// added files' pieces (read as inserts), or both, whole files, when carry-overs are dropped
// while reading (a rewrite's copied rows are then paired across the two sides).
class ChangelogPartition : public InputPartition {
 public:
  ChangelogPartition(std::shared_ptr<InputPartition> deletes,
                     std::shared_ptr<InputPartition> inserts, int64_t version, int64_t timestamp_ms)
      : deletes_(std::move(deletes)),
        inserts_(std::move(inserts)),
        version_(version),
        timestamp_ms_(timestamp_ms) {}

  Result<std::string> Serialize() const override {
    json out = {{"kind", kPartitionKind}, {"version", version_}, {"timestamp", timestamp_ms_}};
    for (const auto& [key, side] : {std::pair{"deletes", deletes_}, {"inserts", inserts_}}) {
      if (side == nullptr) {
        out[key] = nullptr;
      } else {
        ARROW_ASSIGN_OR_RAISE(auto bytes, side->Serialize());
        out[key] = bytes;
      }
    }
    return out.dump();
  }

  /// The removed files' pieces, nullptr when none are read.
  const std::shared_ptr<InputPartition>& deletes() const { return deletes_; }
  /// The added files' pieces, nullptr when none are read.
  const std::shared_ptr<InputPartition>& inserts() const { return inserts_; }
  /// Both sides are read, and their carry-over pairs dropped.
  bool paired() const { return deletes_ != nullptr && inserts_ != nullptr; }
  int64_t version() const { return version_; }
  int64_t timestamp_ms() const { return timestamp_ms_; }

 private:
  std::shared_ptr<InputPartition> deletes_;
  std::shared_ptr<InputPartition> inserts_;
  int64_t version_;
  int64_t timestamp_ms_;
};

// Add `values` into `sums`, by metric name.
void AddMetrics(const std::vector<CustomTaskMetric>& values, std::vector<CustomTaskMetric>* sums) {
  for (const auto& value : values) {
    auto same = std::find_if(sums->begin(), sums->end(),
                             [&](const auto& sum) { return sum.name == value.name; });
    if (same == sums->end()) {
      sums->push_back(value);
    } else {
      same->value += value.value;
    }
  }
}

// One row a Delta reader of `_metadata` alone returns: its row tracking and its position among
// the rows of its partition.
struct TrackedRow {
  int64_t id;
  int64_t version;
  int64_t position;
};

// The rows a Delta reader of `_metadata` (row id, row commit version) returns for `partition`,
// sorted by row id.
Result<std::vector<TrackedRow>> ReadRowTracking(const PartitionReaderFactory& factory,
                                                const InputPartition& partition,
                                                std::vector<CustomTaskMetric>* metrics) {
  ARROW_ASSIGN_OR_RAISE(auto reader, factory.CreateReader(partition));
  std::vector<TrackedRow> rows;
  while (true) {
    ARROW_ASSIGN_OR_RAISE(auto batch, reader->Next());
    if (batch == nullptr) break;
    const auto& metadata = static_cast<const arrow::StructArray&>(*batch->column(0));
    const int64_t* ids = static_cast<const arrow::Int64Array&>(*metadata.field(0)).raw_values();
    const int64_t* versions =
        static_cast<const arrow::Int64Array&>(*metadata.field(1)).raw_values();
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      rows.push_back({ids[i], versions[i], static_cast<int64_t>(rows.size())});
    }
  }
  AddMetrics(reader->CurrentMetricsValues(), metrics);
  auto by_id = [](const TrackedRow& a, const TrackedRow& b) { return a.id < b.id; };
  if (!std::is_sorted(rows.begin(), rows.end(), by_id)) {
    std::sort(rows.begin(), rows.end(), by_id);
  }
  return rows;
}

// Which rows of one commit's removed (`deleted`) and added (`inserted`) files, both sorted by
// row id, are carry-overs: a row id the removed files hold exactly once and the added files
// exactly once, with the same row commit version. Such a pair is a whole (row id, commit
// version) group the carry-over removal pass would drop (cdc.md D.1: one delete, one insert, two
// equal non-NULL row versions), so dropping it early changes nothing. Returns, per side, whether
// to keep each row, by position.
std::array<std::vector<bool>, 2> KeptRows(const std::vector<TrackedRow>& deleted,
                                          const std::vector<TrackedRow>& inserted) {
  std::array<std::vector<bool>, 2> keep = {std::vector<bool>(deleted.size(), true),
                                           std::vector<bool>(inserted.size(), true)};
  // The end of the rows of `side` from `at` with the id of `side[at]`.
  auto run_end = [](const std::vector<TrackedRow>& side, size_t at) {
    size_t end = at + 1;
    while (end < side.size() && side[end].id == side[at].id) ++end;
    return end;
  };
  size_t d = 0, i = 0;
  while (d < deleted.size() && i < inserted.size()) {
    if (deleted[d].id < inserted[i].id) {
      d = run_end(deleted, d);
    } else if (inserted[i].id < deleted[d].id) {
      i = run_end(inserted, i);
    } else {
      size_t d_end = run_end(deleted, d), i_end = run_end(inserted, i);
      if (d_end == d + 1 && i_end == i + 1 && deleted[d].version == inserted[i].version) {
        keep[0][deleted[d].position] = false;
        keep[1][inserted[i].position] = false;
      }
      d = d_end;
      i = i_end;
    }
  }
  return keep;
}

// `keep` as an Arrow boolean array.
Result<std::shared_ptr<arrow::BooleanArray>> ToBooleanArray(const std::vector<bool>& keep) {
  arrow::BooleanBuilder builder;
  ARROW_RETURN_NOT_OK(builder.Reserve(static_cast<int64_t>(keep.size())));
  for (bool value : keep) builder.UnsafeAppend(value);
  ARROW_ASSIGN_OR_RAISE(auto out, builder.Finish());
  return std::static_pointer_cast<arrow::BooleanArray>(out);
}

// Reads a partition's deletes then its inserts through the Delta reader (the data columns read,
// then `_metadata` struct<row_id, row_commit_version> when read) into rows of `schema`, with the
// three metadata columns added as constants. For a paired partition it first reads the row
// tracking of both sides, and drops the carry-over pairs' rows from what it returns.
class ChangelogReader : public PartitionReader {
 public:
  ChangelogReader(std::shared_ptr<PartitionReaderFactory> data,
                  std::shared_ptr<PartitionReaderFactory> row_tracking,
                  std::shared_ptr<arrow::Schema> schema, const ChangelogPartition& partition)
      : data_(std::move(data)),
        row_tracking_(std::move(row_tracking)),
        schema_(std::move(schema)),
        partition_(partition) {}

  Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    while (true) {
      if (current_ == nullptr) {
        if (next_side_ == 2) return nullptr;
        insert_ = next_side_++ == 1;
        const auto& side = insert_ ? partition_.inserts() : partition_.deletes();
        if (side == nullptr) continue;
        if (partition_.paired() && !insert_) {
          ARROW_ASSIGN_OR_RAISE(auto deleted,
                                ReadRowTracking(*row_tracking_, *side, &finished_metrics_));
          ARROW_ASSIGN_OR_RAISE(
              auto inserted,
              ReadRowTracking(*row_tracking_, *partition_.inserts(), &finished_metrics_));
          auto keep = KeptRows(deleted, inserted);
          for (int k = 0; k < 2; ++k) {
            ARROW_ASSIGN_OR_RAISE(keep_[k], ToBooleanArray(keep[k]));
          }
        }
        ARROW_ASSIGN_OR_RAISE(current_, data_->CreateReader(*side));
        position_ = 0;
      }
      ARROW_ASSIGN_OR_RAISE(auto batch, current_->Next());
      if (batch == nullptr) {
        AddMetrics(current_->CurrentMetricsValues(), &finished_metrics_);
        current_.reset();
        continue;
      }
      if (partition_.paired()) {
        ARROW_ASSIGN_OR_RAISE(batch, KeptOf(std::move(batch)));
      }
      if (batch->num_rows() > 0) return Shape(*batch);
    }
  }

  std::vector<CustomTaskMetric> CurrentMetricsValues() const override {
    std::vector<CustomTaskMetric> metrics = finished_metrics_;
    if (current_ != nullptr) AddMetrics(current_->CurrentMetricsValues(), &metrics);
    return metrics;
  }

 private:
  // The rows of `batch`, the current side's next ones, that are not carry-overs.
  Result<std::shared_ptr<arrow::RecordBatch>> KeptOf(std::shared_ptr<arrow::RecordBatch> batch) {
    const auto& keep = keep_[insert_];
    const int64_t rows = batch->num_rows();
    if (position_ + rows > keep->length()) {
      return InvalidError("INTERNAL_ERROR",
                          "The Delta changelog read more rows of a commit than their row ids.");
    }
    std::shared_ptr<arrow::Array> mask = keep->Slice(position_, rows);
    position_ += rows;
    if (static_cast<const arrow::BooleanArray&>(*mask).true_count() == rows) return batch;
    ARROW_ASSIGN_OR_RAISE(auto kept,
                          arrow::compute::Filter(arrow::Datum(batch), arrow::Datum(mask)));
    return kept.record_batch();
  }

  Result<std::shared_ptr<arrow::RecordBatch>> Shape(const arrow::RecordBatch& batch) const {
    const int64_t rows = batch.num_rows();
    arrow::ArrayVector columns;
    int next = 0;
    for (const auto& field : schema_->fields()) {
      const std::string& name = field->name();
      if (name == kChangeTypeColumn) {
        ARROW_ASSIGN_OR_RAISE(
            auto column, arrow::MakeArrayFromScalar(
                             arrow::StringScalar(insert_ ? kChangeInsert : kChangeDelete), rows));
        columns.push_back(std::move(column));
      } else if (name == kCommitVersionColumn) {
        ARROW_ASSIGN_OR_RAISE(auto column, arrow::MakeArrayFromScalar(
                                               arrow::Int64Scalar(partition_.version()), rows));
        columns.push_back(std::move(column));
      } else if (name == kCommitTimestampColumn) {
        ARROW_ASSIGN_OR_RAISE(
            auto column,
            arrow::MakeArrayFromScalar(
                arrow::TimestampScalar(partition_.timestamp_ms() * 1000, TimestampType()), rows));
        columns.push_back(std::move(column));
      } else {
        columns.push_back(batch.column(next++));
      }
    }
    return arrow::RecordBatch::Make(schema_, rows, std::move(columns));
  }

  std::shared_ptr<PartitionReaderFactory> data_;
  std::shared_ptr<PartitionReaderFactory> row_tracking_;
  std::shared_ptr<arrow::Schema> schema_;
  const ChangelogPartition& partition_;
  int next_side_ = 0;
  bool insert_ = false;
  std::unique_ptr<PartitionReader> current_;
  // For a paired partition: per side, whether to keep each row the data reader returns.
  std::shared_ptr<arrow::BooleanArray> keep_[2];
  int64_t position_ = 0;  // of the current side's next row
  std::vector<CustomTaskMetric> finished_metrics_;
};

class ChangelogReaderFactory : public PartitionReaderFactory {
 public:
  ChangelogReaderFactory(std::shared_ptr<PartitionReaderFactory> data,
                         std::shared_ptr<PartitionReaderFactory> row_tracking,
                         std::shared_ptr<arrow::Schema> schema)
      : data_(std::move(data)),
        row_tracking_(std::move(row_tracking)),
        schema_(std::move(schema)) {}

  Result<std::unique_ptr<PartitionReader>> CreateReader(
      const InputPartition& partition) const override {
    auto* change = dynamic_cast<const ChangelogPartition*>(&partition);
    if (change == nullptr) {
      return InvalidError("INTERNAL_ERROR",
                          "The Delta changelog was given a partition of another reader.");
    }
    return std::make_unique<ChangelogReader>(data_, row_tracking_, schema_, *change);
  }

  Result<std::string> Serialize() const override {
    ARROW_ASSIGN_OR_RAISE(auto data, data_->Serialize());
    ARROW_ASSIGN_OR_RAISE(auto row_tracking, row_tracking_->Serialize());
    ARROW_ASSIGN_OR_RAISE(auto schema, SchemaToDeltaJson(*schema_));
    return json{
        {"kind", kFactoryKind}, {"data", data}, {"rowTracking", row_tracking}, {"schema", schema}}
        .dump();
  }

  Result<std::shared_ptr<InputPartition>> DeserializePartition(
      std::string_view bytes) const override {
    json in = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
    auto side_ok = [&](const char* key) {
      return in.contains(key) && (in[key].is_null() || in[key].is_string());
    };
    if (!in.is_object() || in.value("kind", "") != kPartitionKind || !side_ok("deletes") ||
        !side_ok("inserts") || !in.contains("version") || !in["version"].is_number_integer() ||
        !in.contains("timestamp") || !in["timestamp"].is_number_integer()) {
      return NotSerializable("partition");
    }
    std::shared_ptr<InputPartition> sides[2];
    for (int i = 0; i < 2; ++i) {
      const json& side = in[i == 0 ? "deletes" : "inserts"];
      if (side.is_null()) continue;
      ARROW_ASSIGN_OR_RAISE(sides[i], data_->DeserializePartition(side.get<std::string>()));
    }
    return std::make_shared<ChangelogPartition>(std::move(sides[0]), std::move(sides[1]),
                                                in["version"].get<int64_t>(),
                                                in["timestamp"].get<int64_t>());
  }

 private:
  std::shared_ptr<PartitionReaderFactory> data_;
  std::shared_ptr<PartitionReaderFactory> row_tracking_;
  std::shared_ptr<arrow::Schema> schema_;
};

// What the Delta reader reads for `schema`: its data columns, then `_metadata` (row id and row
// commit version) when `schema` has it.
ReadSpec DataSpec(const TableState& table, const arrow::Schema& schema) {
  ReadSpec spec;
  spec.location = table.location;
  spec.schema_json = table.snapshot->metadata.schema_string;
  spec.mode = table.mode;
  spec.partition_columns = table.partition_columns;
  bool metadata = false;
  for (const auto& field : schema.fields()) {
    if (field->name() == kMetadataColumn) {
      metadata = true;
    } else if (table.schema->GetFieldIndex(field->name()) >= 0) {
      spec.read_columns.push_back(field->name());
    }
  }
  if (metadata) {
    spec.read_columns.push_back(kMetadataColumn);
    spec.metadata_fields = {kRowIdField, kRowCommitVersionField};
    const auto& configuration = table.snapshot->metadata.configuration;
    spec.row_tracking = true;
    auto id = configuration.find(kMaterializedRowIdColumn);
    if (id != configuration.end()) spec.materialized_row_id = id->second;
    auto version = configuration.find(kMaterializedRowCommitVersionColumn);
    if (version != configuration.end()) spec.materialized_row_commit_version = version->second;
  }
  return spec;
}

// What the Delta reader reads to pair carry-overs: `_metadata` with the row tracking fields.
ReadSpec RowTrackingSpec(const TableState& table) {
  return DataSpec(table, arrow::Schema({arrow::field(kMetadataColumn, RowTrackingStruct())}));
}

class ChangelogBatch : public Batch {
 public:
  ChangelogBatch(std::shared_ptr<const TableState> table,
                 std::vector<std::shared_ptr<InputPartition>> partitions,
                 std::shared_ptr<arrow::Schema> schema)
      : table_(std::move(table)), partitions_(std::move(partitions)), schema_(std::move(schema)) {}

  Result<std::vector<std::shared_ptr<InputPartition>>> PlanInputPartitions() override {
    return partitions_;
  }

  Result<std::shared_ptr<PartitionReaderFactory>> CreateReaderFactory() override {
    ARROW_ASSIGN_OR_RAISE(auto data, MakeDeltaReaderFactory(DataSpec(*table_, *schema_)));
    ARROW_ASSIGN_OR_RAISE(auto row_tracking, MakeDeltaReaderFactory(RowTrackingSpec(*table_)));
    return std::make_shared<ChangelogReaderFactory>(std::move(data), std::move(row_tracking),
                                                    schema_);
  }

  Result<std::shared_ptr<PartitionReaderFactory>> DeserializeReaderFactory(
      std::string_view bytes) const override {
    json in = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
    if (!in.is_object() || in.value("kind", "") != kFactoryKind || !in.contains("data") ||
        !in["data"].is_string() || !in.contains("rowTracking") || !in["rowTracking"].is_string() ||
        !in.contains("schema") || !in["schema"].is_string()) {
      return NotSerializable("reader factory");
    }
    ARROW_ASSIGN_OR_RAISE(auto data, DeserializeDeltaReaderFactory(in["data"].get<std::string>()));
    ARROW_ASSIGN_OR_RAISE(auto row_tracking,
                          DeserializeDeltaReaderFactory(in["rowTracking"].get<std::string>()));
    ARROW_ASSIGN_OR_RAISE(auto schema, SchemaFromDeltaJson(in["schema"].get<std::string>()));
    return std::make_shared<ChangelogReaderFactory>(std::move(data), std::move(row_tracking),
                                                    PlainSchema(*schema));
  }

 private:
  std::shared_ptr<const TableState> table_;
  std::vector<std::shared_ptr<InputPartition>> partitions_;
  std::shared_ptr<arrow::Schema> schema_;
};

using ChangelogScan = PlannedChangeScan<ChangelogBatch>;

// `_commit_version <op> <integer literal>` (either side), as a test on a version; nullopt for
// any other predicate.
std::optional<std::function<bool(int64_t)>> VersionTest(const Predicate& predicate) {
  static const std::map<std::string, std::string> kFlipped = {
      {"=", "="}, {"<", ">"}, {"<=", ">="}, {">", "<"}, {">=", "<="}};
  auto children = predicate.children();
  if (children.size() != 2 || !kFlipped.contains(predicate.name())) return std::nullopt;
  std::string op = predicate.name();
  auto* column = dynamic_cast<const NamedReference*>(children[0].get());
  auto* literal = dynamic_cast<const Literal*>(children[1].get());
  if (column == nullptr) {
    column = dynamic_cast<const NamedReference*>(children[1].get());
    literal = dynamic_cast<const Literal*>(children[0].get());
    op = kFlipped.at(op);
  }
  if (column == nullptr || literal == nullptr || literal->value() == nullptr ||
      !literal->value()->is_valid ||
      column->field_names() != std::vector<std::string>{kCommitVersionColumn}) {
    return std::nullopt;
  }
  auto cast = literal->value()->CastTo(arrow::int64());
  if (!cast.ok() || !arrow::is_integer(literal->value()->type->id())) return std::nullopt;
  const int64_t value = static_cast<const arrow::Int64Scalar&>(**cast).value;
  return [op, value](int64_t version) {
    if (op == "=") return version == value;
    if (op == "<") return version < value;
    if (op == "<=") return version <= value;
    if (op == ">") return version > value;
    return version >= value;
  };
}

class ChangelogScanBuilder : public ScanBuilder,
                             public SupportsPushDownV2Filters,
                             public SupportsPushDownRequiredColumns {
 public:
  ChangelogScanBuilder(std::shared_ptr<const TableState> table,
                       std::shared_ptr<const std::vector<CommitChanges>> commits,
                       std::shared_ptr<arrow::Schema> schema, bool drop_carryovers)
      : table_(std::move(table)),
        commits_(std::move(commits)),
        schema_(std::move(schema)),
        drop_carryovers_(drop_carryovers) {}

  Result<std::vector<PredicatePtr>> PushPredicates(std::vector<PredicatePtr> predicates) override {
    std::vector<PredicatePtr> residual;
    for (auto& predicate : predicates) {
      auto test = VersionTest(*predicate);
      if (test) {
        accepted_.push_back(predicate);
        version_tests_.push_back(std::move(*test));
      } else {
        residual.push_back(predicate);
      }
    }
    return residual;
  }

  std::vector<PredicatePtr> PushedPredicates() const override { return accepted_; }

  Status PruneColumns(const std::shared_ptr<arrow::Schema>& required_schema) override {
    arrow::FieldVector fields;
    for (const auto& field : schema_->fields()) {
      if (required_schema->GetFieldIndex(field->name()) >= 0) fields.push_back(field);
    }
    schema_ = arrow::schema(std::move(fields));
    return Status::OK();
  }

  Result<std::shared_ptr<Scan>> Build() override {
    const TableState& table = *table_;
    const SplitOptions split = DefaultSplitOptions();
    std::vector<std::shared_ptr<InputPartition>> partitions;
    int64_t files = 0, commits = 0;
    for (const CommitChanges& commit : *commits_) {
      bool kept = std::all_of(version_tests_.begin(), version_tests_.end(),
                              [&](const auto& test) { return test(commit.version); });
      if (!kept) continue;
      ++commits;
      std::vector<ReadTask> tasks[2];  // removed, added
      for (bool insert : {false, true}) {
        for (const FileAction& file : insert ? commit.added : commit.removed) {
          tasks[insert].push_back(ReadTaskFor(table, file));
        }
        files += static_cast<int64_t>(tasks[insert].size());
      }
      if (drop_carryovers_ && !tasks[0].empty() && !tasks[1].empty()) {
        partitions.push_back(std::make_shared<ChangelogPartition>(
            MakeDeltaPartition(std::move(tasks[0])), MakeDeltaPartition(std::move(tasks[1])),
            commit.version, commit.timestamp_ms));
        continue;
      }
      for (bool insert : {false, true}) {
        for (auto& pieces : PlanPieces(tasks[insert], split)) {
          auto side = MakeDeltaPartition(std::move(pieces));
          partitions.push_back(
              std::make_shared<ChangelogPartition>(insert ? nullptr : side, insert ? side : nullptr,
                                                   commit.version, commit.timestamp_ms));
        }
      }
    }
    std::string description =
        "changelog of " + table.name + ", versions [" + std::to_string(commits_->front().version) +
        ", " + std::to_string(commits_->back().version) + "], " + std::to_string(commits) +
        " commits read, " + std::to_string(files) + " files" +
        (drop_carryovers_ ? ", carry-over pairs dropped while reading" : "");
    return std::make_shared<ChangelogScan>(table_, std::move(partitions), schema_,
                                           std::move(description));
  }

 private:
  std::shared_ptr<const TableState> table_;
  std::shared_ptr<const std::vector<CommitChanges>> commits_;
  std::shared_ptr<arrow::Schema> schema_;
  bool drop_carryovers_;
  std::vector<PredicatePtr> accepted_;
  std::vector<std::function<bool(int64_t)>> version_tests_;
};

class DeltaChangelog : public Changelog {
 public:
  // `drop_carryovers`: the read drops carry-over pairs it can prove (see CarryoverRowIds), which
  // only a read whose post-processing removes carry-overs may do.
  DeltaChangelog(std::shared_ptr<const TableState> table,
                 std::shared_ptr<const std::vector<CommitChanges>> commits, bool drop_carryovers)
      : table_(std::move(table)), commits_(std::move(commits)), drop_carryovers_(drop_carryovers) {
    arrow::FieldVector fields = table_->schema->fields();
    fields.push_back(arrow::field(kMetadataColumn, RowTrackingStruct(), false));
    fields.push_back(arrow::field(kChangeTypeColumn, arrow::utf8(), false));
    fields.push_back(arrow::field(kCommitVersionColumn, arrow::int64(), false));
    fields.push_back(arrow::field(kCommitTimestampColumn, TimestampType(), false));
    schema_ = arrow::schema(std::move(fields));
  }

  std::string name() const override { return table_->name; }
  std::vector<Column> columns() const override { return SchemaToColumns(*schema_); }
  // Copy-on-write rewrites re-add unchanged rows, updates are a remove and an add, and a row
  // may change in several commits of the range.
  bool ContainsCarryoverRows() const override { return true; }
  bool ContainsIntermediateChanges() const override { return true; }
  bool RepresentsUpdateAsDeleteAndInsert() const override { return true; }
  Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options&) override {
    return std::make_unique<ChangelogScanBuilder>(table_, commits_, schema_, drop_carryovers_);
  }
  Result<std::vector<std::shared_ptr<NamedReference>>> RowId() const override {
    return std::vector<std::shared_ptr<NamedReference>>{
        std::make_shared<NamedReference>(std::vector<std::string>{kMetadataColumn, kRowIdField})};
  }
  Result<std::shared_ptr<NamedReference>> RowVersion() const override {
    return std::make_shared<NamedReference>(
        std::vector<std::string>{kMetadataColumn, kRowCommitVersionField});
  }

 private:
  std::shared_ptr<const TableState> table_;
  std::shared_ptr<const std::vector<CommitChanges>> commits_;
  std::shared_ptr<arrow::Schema> schema_;
  bool drop_carryovers_;
};

}  // namespace

Result<std::shared_ptr<Changelog>> MakeDeltaChangelog(std::shared_ptr<const TableState> table,
                                                      const ChangelogInfo& info) {
  ARROW_ASSIGN_OR_RAISE(auto bounds, ResolveChangelogRange(*table, info.range));
  const auto [start, end] = bounds;
  if (end != table->snapshot->version) {
    ARROW_ASSIGN_OR_RAISE(table, LoadTableState(table->location, table->name, end, std::nullopt));
  }
  ARROW_RETURN_NOT_OK(CheckChangelogEnd(*table));
  ARROW_ASSIGN_OR_RAISE(auto at_start, LoadSnapshot(table->filesystem, table->root, start));
  ARROW_RETURN_NOT_OK(CheckChangelogMetadata(at_start->metadata, *table, start));
  auto commits = std::make_shared<std::vector<CommitChanges>>();
  for (int64_t version = start; version <= end; ++version) {
    ARROW_ASSIGN_OR_RAISE(CommitActions actions,
                          ReadCommit(*table->filesystem, table->root, version));
    if (actions.metadata) {
      ARROW_RETURN_NOT_OK(CheckChangelogMetadata(*actions.metadata, *table, version));
    }
    CommitChanges commit;
    commit.version = version;
    auto mtime = table->snapshot->commit_timestamps.find(version);
    commit.timestamp_ms = actions.in_commit_timestamp.value_or(
        mtime == table->snapshot->commit_timestamps.end() ? 0 : mtime->second);
    for (auto& change : actions.file_changes) {
      if (!change.file.data_change) continue;
      (change.is_add ? commit.added : commit.removed).push_back(std::move(change.file));
    }
    commits->push_back(std::move(commit));
  }
  // The engine removes carry-overs under any deduplication mode but none (the flag is set).
  const bool drop_carryovers = info.deduplication_mode != DeduplicationMode::kNone;
  return std::make_shared<DeltaChangelog>(std::move(table), std::move(commits), drop_carryovers);
}

}  // namespace parley::delta
