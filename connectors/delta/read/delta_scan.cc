// The driver side of a Delta scan: pushdown negotiation, file pruning, statistics, planning.
//
// Predicates whose columns are all partition columns and whose form delta_pruning.cc evaluates
// exactly prune files and are not returned to the engine. Every other predicate is returned;
// those on data columns also skip files whose statistics prove no row can match.
//
// Input partitions follow Spark's FilePartition planning: the split size is
// min(maxPartitionBytes, max(openCostInBytes, bytesPerCore)) with bytesPerCore the files'
// bytes plus one open cost per file, over the cores; a file larger than the split size is cut
// into byte ranges of that size (a range reads the row groups whose midpoint it holds), and the
// pieces, largest first, fill partitions of up to the split size, each also costing the open
// cost. Many small files so share a task, and a large file is read by several.
//
// The pushed data predicates also travel to the readers of a query's scan as a row filter
// (ReadSpec::row_filter), by which they drop rows while decoding; a row-level rewrite's scan
// must read every row of its files and has none.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "arrow/scalar.h"
#include "arrow/type.h"
#include "connectors/common/predicate_conversion.h"
#include "connectors/delta/log/row_tracking.h"
#include "connectors/delta/log/values.h"
#include "connectors/delta/read/metadata_column.h"
#include "connectors/delta/read/pruning.h"
#include "connectors/delta/read/read_task.h"
#include "connectors/delta/read/scan.h"
#include "connectors/delta/table_state.h"
#include "connectors/delta/util.h"

namespace parley::delta {
namespace {

std::string JoinPredicates(const std::vector<PredicatePtr>& predicates) {
  std::string out;
  for (const auto& predicate : predicates) {
    out += (out.empty() ? "" : ", ") + predicate->ToString();
  }
  return "[" + out + "]";
}

// The value of an integer or date scalar, as a number to compare bounds by.
std::optional<int64_t> OrderedValue(const arrow::Scalar& scalar) {
  if (!scalar.is_valid) return std::nullopt;
  switch (scalar.type->id()) {
    case arrow::Type::INT8: return static_cast<const arrow::Int8Scalar&>(scalar).value;
    case arrow::Type::INT16: return static_cast<const arrow::Int16Scalar&>(scalar).value;
    case arrow::Type::INT32: return static_cast<const arrow::Int32Scalar&>(scalar).value;
    case arrow::Type::INT64: return static_cast<const arrow::Int64Scalar&>(scalar).value;
    case arrow::Type::DATE32: return static_cast<const arrow::Date32Scalar&>(scalar).value;
    default: return std::nullopt;
  }
}

// The bounds of one integer or date column over the files a scan keeps, known while every file
// has them.
struct ColumnBounds {
  std::shared_ptr<arrow::Scalar> min;
  std::shared_ptr<arrow::Scalar> max;
  bool known = true;

  void Add(const std::shared_ptr<arrow::Scalar>& file_min,
           const std::shared_ptr<arrow::Scalar>& file_max) {
    if (!known) return;
    auto low = file_min ? OrderedValue(*file_min) : std::nullopt;
    auto high = file_max ? OrderedValue(*file_max) : std::nullopt;
    if (!low || !high) {
      known = false;
      return;
    }
    if (!min || *low < *OrderedValue(*min)) min = file_min;
    if (!max || *high > *OrderedValue(*max)) max = file_max;
  }
};

bool HasOrderedBounds(const arrow::DataType& type) {
  return arrow::is_integer(type.id()) || type.id() == arrow::Type::DATE32;
}

// The conjunction of the predicates that translate to Arrow expressions; literal(true) if none.
arrow::compute::Expression RowFilter(const std::vector<PredicatePtr>& predicates) {
  std::vector<arrow::compute::Expression> translated;
  for (const auto& predicate : predicates) {
    if (auto expression = ToArrowExpression(*predicate)) translated.push_back(*expression);
  }
  if (translated.empty()) return arrow::compute::literal(true);
  return arrow::compute::and_(std::move(translated));
}

}  // namespace

SplitOptions DefaultSplitOptions() {
  SplitOptions options;
  options.cores = std::max(1u, std::thread::hardware_concurrency());
  return options;
}

std::vector<std::vector<ReadTask>> PlanPieces(const std::vector<ReadTask>& files,
                                              const SplitOptions& options) {
  const int64_t open_cost = options.open_cost_in_bytes;
  int64_t total = 0;
  for (const auto& file : files) total += file.size + open_cost;
  const int64_t split = std::min(options.max_partition_bytes,
                                 std::max(open_cost, total / std::max<int64_t>(1, options.cores)));
  std::vector<ReadTask> pieces;
  for (const auto& file : files) {
    if (file.size <= split) {
      pieces.push_back(file);
      continue;
    }
    for (int64_t start = 0; start < file.size; start += split) {
      ReadTask piece = file;
      piece.start = start;
      piece.length = std::min(split, file.size - start);
      pieces.push_back(std::move(piece));
    }
  }
  auto bytes = [](const ReadTask& piece) { return piece.length < 0 ? piece.size : piece.length; };
  std::stable_sort(pieces.begin(), pieces.end(),
                   [&](const ReadTask& a, const ReadTask& b) { return bytes(a) > bytes(b); });
  std::vector<std::vector<ReadTask>> partitions;
  std::vector<ReadTask> current;
  int64_t current_bytes = 0;
  for (auto& piece : pieces) {
    if (!current.empty() && current_bytes + bytes(piece) > split) {
      partitions.push_back(std::move(current));
      current.clear();
      current_bytes = 0;
    }
    current_bytes += bytes(piece) + open_cost;
    current.push_back(std::move(piece));
  }
  if (!current.empty()) partitions.push_back(std::move(current));
  return partitions;
}

namespace {

class DeltaBatch : public Batch {
 public:
  DeltaBatch(ReadSpec spec, std::vector<ReadTask> tasks)
      : spec_(std::move(spec)), tasks_(std::move(tasks)) {}

  Result<std::vector<std::shared_ptr<InputPartition>>> PlanInputPartitions() override {
    std::vector<std::shared_ptr<InputPartition>> partitions;
    for (auto& pieces : PlanPieces(tasks_, DefaultSplitOptions())) {
      partitions.push_back(MakeDeltaPartition(std::move(pieces)));
    }
    return partitions;
  }
  Result<std::shared_ptr<PartitionReaderFactory>> CreateReaderFactory() override {
    return MakeDeltaReaderFactory(spec_);
  }
  Result<std::shared_ptr<PartitionReaderFactory>> DeserializeReaderFactory(
      std::string_view bytes) const override {
    return DeserializeDeltaReaderFactory(bytes);
  }

 private:
  ReadSpec spec_;
  std::vector<ReadTask> tasks_;
};

// What a Delta scan reads: the builder's agreement plus the runtime filters offered since.
struct DeltaScanInputs {
  std::vector<std::string> read_columns;
  std::vector<PredicatePtr> partition_filters;  // exact
  std::vector<PredicatePtr> data_filters;       // pruning by statistics, also returned
  std::vector<PredicatePtr> runtime_filters;    // SupportsRuntimeV2Filtering, pruning only
};

// The files a scan reads, their statistics and how the scan describes itself.
struct DeltaScanPlan {
  ReadSpec spec;
  std::vector<ReadTask> tasks;
  Statistics statistics;
  std::string description;
};

// Prune the snapshot's files by `inputs`; with a `record`, note the agreement and the files.
Result<DeltaScanPlan> PlanDeltaScan(const TableState& table, const DeltaScanInputs& inputs,
                                    RowLevelScanRecord* record) {
  const Snapshot& snapshot = *table.snapshot;
  // Statistics columns: the top-level data columns, by physical name.
  std::map<std::string, std::shared_ptr<arrow::DataType>> stat_columns;
  std::map<std::string, std::string> logical_of;
  for (const auto& field : table.annotated_schema->fields()) {
    std::string physical = PhysicalName(*field, table.mode);
    logical_of[physical] = field->name();
    stat_columns[physical] = PlainType(field->type());
  }
  // Bounds reported for the integer and date columns read (join planning estimates their
  // distinct values from them).
  std::map<std::string, ColumnBounds> bounds;
  std::map<std::string, std::shared_ptr<arrow::DataType>> bound_columns;
  for (const auto& field : table.annotated_schema->fields()) {
    bool read = std::find(inputs.read_columns.begin(), inputs.read_columns.end(), field->name()) !=
                inputs.read_columns.end();
    if (!read || !HasOrderedBounds(*field->type())) continue;
    bounds[field->name()];
    bound_columns[PhysicalName(*field, table.mode)] = PlainType(field->type());
  }
  DeltaScanPlan plan;
  std::vector<ReadTask>& tasks = plan.tasks;
  Statistics& statistics = plan.statistics;
  if (record != nullptr) *record = {{}, inputs.partition_filters, inputs.data_filters};
  // Runtime filters prune like pushed ones: exactly on partition values, else by statistics.
  std::vector<PredicatePtr> partition_filters = inputs.partition_filters;
  std::vector<PredicatePtr> data_filters = inputs.data_filters;
  const auto partition_schema = PartitionSchema(table);
  for (const auto& predicate : inputs.runtime_filters) {
    (IsExactlyEvaluable(*predicate, *partition_schema) ? partition_filters : data_filters)
        .push_back(predicate);
  }
  int64_t bytes = 0, rows = 0;
  bool rows_known = true;
  for (const FileAction& file : snapshot.files) {
    FileFacts facts;
    ARROW_ASSIGN_OR_RAISE(facts.partition_values, TypedPartitionValues(table, file));
    bool keep = true;
    for (const auto& predicate : partition_filters) {
      auto result = EvaluateOnPartition(*predicate, facts.partition_values);
      if (!result.value_or(false)) keep = false;
    }
    if (!keep) continue;
    FileStatistics physical =
        ParseStatistics(file.stats, data_filters.empty() ? bound_columns : stat_columns);
    facts.stats.num_records = physical.num_records;
    facts.stats.tight_bounds = physical.tight_bounds;
    for (auto& [name, value] : physical.min_values)
      facts.stats.min_values[logical_of[name]] = value;
    for (auto& [name, value] : physical.max_values)
      facts.stats.max_values[logical_of[name]] = value;
    for (auto& [name, count] : physical.null_counts)
      facts.stats.null_counts[logical_of[name]] = count;
    for (const auto& [name, value] : facts.partition_values) {
      // A partition column is constant in its file: its value bounds every row.
      if (value->is_valid) {
        facts.stats.min_values[name] = value;
        facts.stats.max_values[name] = value;
        facts.stats.null_counts[name] = 0;
      } else if (facts.stats.num_records) {
        facts.stats.null_counts[name] = *facts.stats.num_records;
      }
    }
    for (const auto& predicate : data_filters) {
      if (StatisticsExcludeFile(*predicate, facts)) keep = false;
    }
    if (!keep) continue;
    for (auto& [name, column] : bounds) {
      auto low = facts.stats.min_values.find(name);
      auto high = facts.stats.max_values.find(name);
      column.Add(low == facts.stats.min_values.end() ? nullptr : low->second,
                 high == facts.stats.max_values.end() ? nullptr : high->second);
    }
    bytes += file.size;
    if (facts.stats.num_records) {
      rows +=
          *facts.stats.num_records - (file.deletion_vector ? file.deletion_vector->cardinality : 0);
    } else {
      rows_known = false;
    }
    if (record != nullptr) record->files.push_back(file);
    tasks.push_back(ReadTaskFor(table, file));
  }
  statistics.size_in_bytes = bytes;
  if (rows_known) statistics.num_rows = rows;
  for (auto& [name, column] : bounds) {
    if (column.known && column.min) {
      statistics.column_stats[name].min = column.min;
      statistics.column_stats[name].max = column.max;
    }
  }

  ReadSpec& spec = plan.spec;
  spec.location = table.location;
  ARROW_ASSIGN_OR_RAISE(spec.schema_json, SchemaToDeltaJson(*table.annotated_schema));
  spec.mode = table.mode;
  spec.partition_columns = table.partition_columns;
  spec.read_columns = inputs.read_columns;
  if (record == nullptr) spec.row_filter = RowFilter(inputs.data_filters);
  const auto& configuration = snapshot.metadata.configuration;
  spec.row_tracking = RowTrackingEnabled(snapshot.metadata);
  if (spec.row_tracking) {
    auto name = [&](const char* key) {
      auto it = configuration.find(key);
      return it == configuration.end() ? std::string() : it->second;
    };
    spec.materialized_row_id = name(kMaterializedRowIdColumn);
    spec.materialized_row_commit_version = name(kMaterializedRowCommitVersionColumn);
  }
  std::string& description = plan.description;
  description = "version " + std::to_string(snapshot.version) + ", files " +
                std::to_string(tasks.size()) + " of " + std::to_string(snapshot.files.size()) +
                ", partition filters " + JoinPredicates(inputs.partition_filters) +
                ", data filters " + JoinPredicates(inputs.data_filters);
  if (!inputs.runtime_filters.empty()) {
    description += ", runtime filters " + JoinPredicates(inputs.runtime_filters);
  }
  return plan;
}

class DeltaScan : public Scan, public SupportsReportStatistics {
 public:
  DeltaScan(std::shared_ptr<const TableState> table, DeltaScanInputs inputs, DeltaScanPlan plan)
      : table_(std::move(table)), inputs_(std::move(inputs)), plan_(std::move(plan)) {}

  std::shared_ptr<arrow::Schema> ReadSchema() const override {
    arrow::FieldVector fields;
    for (const auto& name : plan_.spec.read_columns) {
      auto field = table_->schema->GetFieldByName(name);
      if (field == nullptr && name == kMetadataColumn) {
        fields.push_back(
            arrow::field(kMetadataColumn, MetadataStructType(plan_.spec.row_tracking), false));
      } else {
        fields.push_back(std::move(field));
      }
    }
    return arrow::schema(std::move(fields));
  }
  std::string Description() const override { return plan_.description; }
  Result<std::shared_ptr<Batch>> ToBatch() override {
    return std::make_shared<DeltaBatch>(plan_.spec, plan_.tasks);
  }
  std::vector<std::shared_ptr<CustomMetric>> SupportedCustomMetrics() const override {
    return DeltaMetrics();
  }
  Result<Statistics> EstimateStatistics() const override { return plan_.statistics; }

 protected:
  std::shared_ptr<const TableState> table_;
  DeltaScanInputs inputs_;
  DeltaScanPlan plan_;
};

// The scan of a query (not of a row-level rewrite, which must read whole files): runtime
// filters prune its files by partition values and statistics.
class RuntimeFilteringDeltaScan : public DeltaScan, public SupportsRuntimeV2Filtering {
 public:
  using DeltaScan::DeltaScan;

  std::vector<std::shared_ptr<NamedReference>> FilterAttributes() const override {
    std::vector<std::shared_ptr<NamedReference>> out;
    for (const auto& name : inputs_.read_columns) {
      if (table_->schema->GetFieldByName(name) != nullptr) out.push_back(FieldReference(name));
    }
    return out;
  }

  Status Filter(const std::vector<PredicatePtr>& predicates) override {
    DeltaScanInputs inputs = inputs_;
    inputs.runtime_filters.insert(inputs.runtime_filters.end(), predicates.begin(),
                                  predicates.end());
    ARROW_ASSIGN_OR_RAISE(plan_, PlanDeltaScan(*table_, inputs, nullptr));
    inputs_ = std::move(inputs);
    return Status::OK();
  }
};

class DeltaScanBuilder : public ScanBuilder,
                         public SupportsPushDownV2Filters,
                         public SupportsPushDownRequiredColumns {
 public:
  DeltaScanBuilder(std::shared_ptr<const TableState> table,
                   std::shared_ptr<RowLevelScanRecord> record)
      : table_(std::move(table)), record_(std::move(record)) {
    for (const auto& field : table_->schema->fields()) read_columns_.push_back(field->name());
    partition_schema_ = PartitionSchema(*table_);
  }

  Result<std::vector<PredicatePtr>> PushPredicates(std::vector<PredicatePtr> predicates) override {
    std::vector<PredicatePtr> remaining;
    partition_filters_.clear();
    data_filters_.clear();
    for (auto& predicate : predicates) {
      if (IsExactlyEvaluable(*predicate, *partition_schema_)) {
        partition_filters_.push_back(std::move(predicate));
      } else {
        data_filters_.push_back(predicate);
        remaining.push_back(std::move(predicate));
      }
    }
    return remaining;
  }

  std::vector<PredicatePtr> PushedPredicates() const override {
    std::vector<PredicatePtr> pushed = partition_filters_;
    pushed.insert(pushed.end(), data_filters_.begin(), data_filters_.end());
    return pushed;
  }

  Status PruneColumns(const std::shared_ptr<arrow::Schema>& required_schema) override {
    std::set<std::string> required;
    for (const auto& field : required_schema->fields()) required.insert(field->name());
    read_columns_.clear();
    for (const auto& field : table_->schema->fields()) {
      if (required.contains(field->name())) read_columns_.push_back(field->name());
    }
    if (required.contains(kMetadataColumn) && !table_->schema->GetFieldByName(kMetadataColumn)) {
      read_columns_.push_back(kMetadataColumn);
    }
    return Status::OK();
  }

  Result<std::shared_ptr<Scan>> Build() override {
    DeltaScanInputs inputs{read_columns_, partition_filters_, data_filters_, {}};
    ARROW_ASSIGN_OR_RAISE(auto plan, PlanDeltaScan(*table_, inputs, record_.get()));
    if (record_) return std::make_shared<DeltaScan>(table_, std::move(inputs), std::move(plan));
    return std::make_shared<RuntimeFilteringDeltaScan>(table_, std::move(inputs), std::move(plan));
  }

  std::shared_ptr<const TableState> table_;
  std::shared_ptr<RowLevelScanRecord> record_;
  std::shared_ptr<arrow::Schema> partition_schema_;
  std::vector<std::string> read_columns_;
  std::vector<PredicatePtr> partition_filters_;
  std::vector<PredicatePtr> data_filters_;
};

}  // namespace

std::unique_ptr<ScanBuilder> MakeDeltaScanBuilder(std::shared_ptr<const TableState> table) {
  return std::make_unique<DeltaScanBuilder>(std::move(table), nullptr);
}

std::unique_ptr<ScanBuilder> MakeDeltaScanBuilder(std::shared_ptr<const TableState> table,
                                                  std::shared_ptr<RowLevelScanRecord> record) {
  return std::make_unique<DeltaScanBuilder>(std::move(table), std::move(record));
}

ReadTask ReadTaskFor(const TableState& table, const FileAction& file) {
  ReadTask task;
  task.path = ResolveDataPath(table.root, file.path);
  task.size = file.size;
  task.partition_values = file.partition_values;
  task.deletion_vector = file.deletion_vector;
  task.modification_time = file.modification_time;
  task.base_row_id = file.base_row_id;
  task.default_row_commit_version = file.default_row_commit_version;
  return task;
}

}  // namespace parley::delta
