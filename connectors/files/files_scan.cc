// The driver side of a files scan: the scan builder that negotiates pushdown, and the scan
// (its own Batch) that prunes, estimates statistics and plans input partitions.
//
// Pushdown. Each offered predicate is translated to an Arrow expression
// (connectors/common/predicate_conversion.h) and bound to the table's types; untranslatable
// ones are returned.
//   - A predicate over partition columns only is applied exactly: it is evaluated on the
//     partition values of every file and files whose value is not TRUE are never read. It is
//     accepted and not returned.
//   - A predicate over data columns is returned: the engine applies it to the rows. It is
//     also accepted when it can prune: for Parquet always (row groups whose statistics prove
//     it false are skipped: simple comparisons of integer, date and decimal columns on the raw
//     statistics, connectors/common/parquet_conjuncts.h, the rest with Arrow's
//     ParquetFileFragment::SplitByRowGroup; and the Parquet reader drops the rows simple
//     comparisons reject while it decodes, see files_reader.cc), for other formats when it
//     mentions a partition column (files whose partition values make it false are skipped).
//     Predicates on floating-point columns are never used for pruning: Parquet statistics
//     leave NaN out, while Spark orders NaN above every number.
// Column pruning narrows the read to the required columns; a partially pushed LIMIT lets each
// task stop early and, for Parquet, keeps only enough row groups to hold it.
//
// Build() does the pruning: it reads the Parquet footers of the files left after partition
// pruning (in parallel; a corrupt footer fails with FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER)
// and keeps the result, from which statistics, the description and the partitions derive.
//
// Partitioning follows Spark's FilePartition: the split size is
// min(maxPartitionBytes, max(openCostInBytes, totalBytes / minPartitionNum)); a Parquet file
// splits into runs of row groups of about that size, an uncompressed CSV or JSON-lines file
// into byte ranges of that size, other files stay whole; pieces are then packed, largest first,
// into partitions of up to the split size, each piece also costing openCostInBytes. Bytes are
// the compressed size of the read columns for Parquet, the file size otherwise.
#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "arrow/dataset/file_base.h"
#include "arrow/type.h"
#include "connectors/common/predicate_conversion.h"
#include "connectors/files/files_format.h"
#include "connectors/files/files_options.h"
#include "connectors/files/files_reader.h"
#include "connectors/files/files_scan.h"
#include "connectors/files/files_scan_plan.h"
#include "connectors/files/files_table.h"
#include "parley/connector/status.h"

namespace parley::files {
namespace {

namespace cp = arrow::compute;

// Whether `narrow` keeps some of the fields of the struct type `whole` (by name, in order,
// each kept whole or itself narrowed).
bool Narrows(const arrow::DataType& whole, const arrow::DataType& narrow) {
  if (whole.Equals(narrow)) return true;
  if (whole.id() != arrow::Type::STRUCT || narrow.id() != arrow::Type::STRUCT) return false;
  const auto& from = static_cast<const arrow::StructType&>(whole);
  int previous = -1;
  for (const auto& field : narrow.fields()) {
    int index = from.GetFieldIndex(field->name());
    if (index <= previous || !Narrows(*from.field(index)->type(), *field->type())) return false;
    previous = index;
  }
  return true;
}

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& part : parts) {
    if (!out.empty()) out += ", ";
    out += part;
  }
  return out;
}

// How the files connector can use a predicate: exactly (over partition columns only), to prune
// files and Parquet row groups (returned to the engine), or not at all.
enum class Use { kExact, kPrune, kNone };

Use Classify(const TableData& table, const ReadOptions& options, const Predicate& predicate) {
  std::optional<cp::Expression> expression = ToArrowExpression(predicate);
  if (!expression) return Use::kNone;
  bool on_partitions = false, on_data = false, on_floats = false;
  for (const auto& reference : predicate.References()) {
    const auto& names = reference->field_names();
    if (names.size() != 1) return Use::kNone;
    auto field = table.schema->GetFieldByName(names[0]);
    if (field == nullptr) return Use::kNone;
    if (table.partition_schema->GetFieldIndex(names[0]) >= 0) {
      on_partitions = true;
    } else {
      on_data = true;
      on_floats = on_floats || arrow::is_floating(field->type()->id());
    }
  }
  if (!on_data) {
    auto bound = expression->Bind(*table.partition_schema);
    return bound.ok() && bound->type()->id() == arrow::Type::BOOL ? Use::kExact : Use::kNone;
  }
  if (on_floats) return Use::kNone;
  if (options.format != FileFormatKind::kParquet && !on_partitions) return Use::kNone;
  auto bound = expression->Bind(*table.schema);
  return bound.ok() && bound->type()->id() == arrow::Type::BOOL ? Use::kPrune : Use::kNone;
}

class FilesScan : public Scan,
                  public Batch,
                  public SupportsReportStatistics,
                  public SupportsRuntimeV2Filtering,
                  public std::enable_shared_from_this<FilesScan> {
 public:
  FilesScan(std::shared_ptr<const TableData> table, ScanRequest request, ScanPlan plan)
      : table_(std::move(table)), request_(std::move(request)), plan_(std::move(plan)) {
    arrow::FieldVector fields;
    auto narrowed = arrow::schema(request_.narrowed);
    for (const auto& name : request_.read_columns) {
      auto field = narrowed->GetFieldByName(name);
      fields.push_back(field != nullptr ? field : table_->schema->GetFieldByName(name));
    }
    read_schema_ = arrow::schema(std::move(fields));
  }

  std::shared_ptr<arrow::Schema> ReadSchema() const override { return read_schema_; }

  // The read columns as Description() lists them: a narrowed one with its type.
  std::vector<std::string> ReadColumnTexts() const {
    std::vector<std::string> texts;
    for (const auto& field : read_schema_->fields()) {
      bool narrowed = arrow::schema(request_.narrowed)->GetFieldByName(field->name()) != nullptr;
      texts.push_back(narrowed ? field->ToString() : field->name());
    }
    return texts;
  }

  std::string Description() const override {
    std::vector<std::string> partition_filters, pushed;
    for (const auto& filter : request_.partition_filters) {
      partition_filters.push_back(filter.predicate->ToString());
    }
    for (const auto& filter : request_.data_filters) pushed.push_back(filter.predicate->ToString());
    std::string out = std::string("format=") + FormatName(request_.options.format) +
                      ", location=" + request_.options.path + ", partitionFilters=[" +
                      Join(partition_filters) + "], pushedPredicates=[" + Join(pushed) +
                      "], readSchema=[" + Join(ReadColumnTexts()) +
                      "], files=" + std::to_string(plan_.files.size()) + "/" +
                      std::to_string(table_->files.size());
    if (request_.options.format == FileFormatKind::kParquet) {
      int64_t row_groups = 0;
      for (const auto& file : plan_.files) {
        row_groups += static_cast<int64_t>(file.row_groups.size());
      }
      out += ", rowGroups=" + std::to_string(row_groups) + "/" +
             std::to_string(plan_.candidate_row_groups);
    }
    if (request_.limit >= 0) out += ", limit=" + std::to_string(request_.limit);
    if (!runtime_filters_.empty()) {
      std::vector<std::string> runtime;
      for (const auto& filter : runtime_filters_) runtime.push_back(filter.predicate->ToString());
      out += ", runtimeFilters=[" + Join(runtime) + "]";
    }
    return out;
  }

  // Runtime filters prune like pushed predicates: partition columns exactly, Parquet data
  // columns (not floating point) by row-group statistics.
  std::vector<std::shared_ptr<NamedReference>> FilterAttributes() const override {
    std::vector<std::shared_ptr<NamedReference>> out;
    for (const auto& name : request_.read_columns) {
      const bool partition = table_->partition_schema->GetFieldIndex(name) >= 0;
      const bool floating = arrow::is_floating(table_->schema->GetFieldByName(name)->type()->id());
      if (partition || (request_.options.format == FileFormatKind::kParquet && !floating)) {
        out.push_back(FieldReference(name));
      }
    }
    return out;
  }

  Status Filter(const std::vector<PredicatePtr>& predicates) override {
    ScanRequest planning = request_;
    for (const auto& filter : runtime_filters_) {
      auto& target = Classify(*table_, request_.options, *filter.predicate) == Use::kExact
                         ? planning.partition_filters
                         : planning.data_filters;
      target.push_back(filter);
    }
    for (const auto& predicate : predicates) {
      const Use use = Classify(*table_, request_.options, *predicate);
      if (use == Use::kNone) continue;
      AcceptedPredicate accepted{predicate, *ToArrowExpression(*predicate)};
      (use == Use::kExact ? planning.partition_filters : planning.data_filters).push_back(accepted);
      runtime_filters_.push_back(std::move(accepted));
    }
    ARROW_ASSIGN_OR_RAISE(plan_, PlanScan(*table_, planning));
    return Status::OK();
  }

  Result<std::shared_ptr<Batch>> ToBatch() override { return shared_from_this(); }

  std::vector<std::shared_ptr<CustomMetric>> SupportedCustomMetrics() const override {
    return FilesMetrics();
  }

  Result<Statistics> EstimateStatistics() const override { return plan_.statistics; }

  Result<std::vector<std::shared_ptr<InputPartition>>> PlanInputPartitions() override {
    const ReadOptions& options = request_.options;
    const int64_t open_cost = options.open_cost_in_bytes;
    int64_t total = 0;
    for (const auto& file : plan_.files) total += file.bytes + open_cost;
    const int64_t split =
        std::max<int64_t>(1, std::min(options.max_partition_bytes,
                                      std::max(open_cost, total / options.min_partition_num)));

    struct Weighed {
      FilePiece piece;
      int64_t bytes;
    };
    std::vector<Weighed> pieces;
    for (const auto& planned : plan_.files) {
      FilePiece base;
      base.path = planned.file->path;
      base.file_size = planned.file->size;
      base.partition = planned.file->fragment->partition_expression();
      if (options.format == FileFormatKind::kParquet) {
        Weighed run{base, 0};
        for (size_t k = 0; k < planned.row_groups.size(); ++k) {
          if (!run.piece.row_groups.empty() && run.bytes + planned.row_group_bytes[k] > split) {
            pieces.push_back(run);
            run = Weighed{base, 0};
          }
          run.piece.row_groups.push_back(planned.row_groups[k]);
          run.bytes += planned.row_group_bytes[k];
        }
        pieces.push_back(std::move(run));
      } else if (IsSplittable(options, base.path)) {
        for (int64_t offset = 0; offset < base.file_size; offset += split) {
          Weighed range{base, std::min(split, base.file_size - offset)};
          range.piece.offset = offset;
          range.piece.length = range.bytes;
          pieces.push_back(std::move(range));
        }
      } else {
        pieces.push_back(Weighed{base, base.file_size});
      }
    }
    std::stable_sort(pieces.begin(), pieces.end(),
                     [](const Weighed& a, const Weighed& b) { return a.bytes > b.bytes; });

    std::vector<std::shared_ptr<InputPartition>> partitions;
    std::vector<FilePiece> current;
    int64_t current_bytes = 0;
    for (auto& weighed : pieces) {
      if (!current.empty() && current_bytes + weighed.bytes > split) {
        partitions.push_back(MakeInputPartition(std::move(current)));
        current.clear();
        current_bytes = 0;
      }
      current_bytes += weighed.bytes + open_cost;
      current.push_back(std::move(weighed.piece));
    }
    if (!current.empty()) partitions.push_back(MakeInputPartition(std::move(current)));
    return partitions;
  }

  Result<std::shared_ptr<PartitionReaderFactory>> CreateReaderFactory() override {
    TaskSpec spec;
    spec.options = request_.options;
    spec.filesystem_uri = table_->filesystem_uri;
    spec.table_schema = table_->schema;
    spec.partition_columns = table_->partition_schema->field_names();
    spec.read_columns = request_.read_columns;
    spec.narrowed = arrow::schema(request_.narrowed);
    spec.limit = request_.limit;
    std::vector<cp::Expression> row_filters;
    for (const auto* filters : {&request_.data_filters, &runtime_filters_}) {
      for (const auto& filter : *filters) row_filters.push_back(filter.expression);
    }
    if (!row_filters.empty()) spec.row_filter = cp::and_(std::move(row_filters));
    return MakeReaderFactory(std::move(spec));
  }

  Result<std::shared_ptr<PartitionReaderFactory>> DeserializeReaderFactory(
      std::string_view bytes) const override {
    return files::DeserializeReaderFactory(bytes);
  }

 private:
  std::shared_ptr<const TableData> table_;
  ScanRequest request_;
  // The runtime filters applied so far (Filter()); plan_ reflects them.
  std::vector<AcceptedPredicate> runtime_filters_;
  ScanPlan plan_;
  std::shared_ptr<arrow::Schema> read_schema_;
};

class FilesScanBuilder : public ScanBuilder,
                         public SupportsPushDownV2Filters,
                         public SupportsPushDownRequiredColumns,
                         public SupportsPushDownLimit {
 public:
  FilesScanBuilder(std::shared_ptr<const TableData> table, ReadOptions options)
      : table_(std::move(table)) {
    request_.options = std::move(options);
    request_.read_columns = table_->schema->field_names();
  }

  Result<std::vector<PredicatePtr>> PushPredicates(std::vector<PredicatePtr> predicates) override {
    request_.partition_filters.clear();
    request_.data_filters.clear();
    pushed_.clear();
    std::vector<PredicatePtr> residual;
    for (auto& predicate : predicates) {
      switch (Classify(*table_, request_.options, *predicate)) {
        case Use::kExact:
          request_.partition_filters.push_back({predicate, *ToArrowExpression(*predicate)});
          pushed_.push_back(predicate);
          break;
        case Use::kPrune:
          request_.data_filters.push_back({predicate, *ToArrowExpression(*predicate)});
          pushed_.push_back(predicate);
          residual.push_back(std::move(predicate));
          break;
        case Use::kNone: residual.push_back(std::move(predicate)); break;
      }
    }
    return residual;
  }

  std::vector<PredicatePtr> PushedPredicates() const override { return pushed_; }

  Status PruneColumns(const std::shared_ptr<arrow::Schema>& required_schema) override {
    std::set<std::string> required;
    request_.narrowed.clear();
    for (const auto& field : required_schema->fields()) {
      auto table_field = table_->schema->GetFieldByName(field->name());
      if (table_field == nullptr) {
        return InvalidError("INTERNAL_ERROR",
                            "Column pruning asked " + table_->name + " for the column " +
                                QuoteIdentifier(field->name()) + ", which it does not have.");
      }
      required.insert(field->name());
      // Parquet reads only the leaf columns of the fields kept; other formats read it whole.
      if (request_.options.format == FileFormatKind::kParquet &&
          !table_field->type()->Equals(*field->type()) &&
          Narrows(*table_field->type(), *field->type()) &&
          table_->partition_schema->GetFieldIndex(field->name()) < 0) {
        request_.narrowed.push_back(table_field->WithType(field->type()));
      }
    }
    request_.read_columns.clear();
    for (const auto& name : table_->schema->field_names()) {
      if (required.contains(name)) request_.read_columns.push_back(name);
    }
    return Status::OK();
  }

  bool PushLimit(int64_t limit) override {
    request_.limit = limit;
    return true;
  }

  Result<std::shared_ptr<Scan>> Build() override {
    ARROW_ASSIGN_OR_RAISE(auto plan, PlanScan(*table_, request_));
    return std::make_shared<FilesScan>(table_, request_, std::move(plan));
  }

 private:
  std::shared_ptr<const TableData> table_;
  ScanRequest request_;
  std::vector<PredicatePtr> pushed_;
};

}  // namespace

Result<std::unique_ptr<ScanBuilder>> MakeFilesScanBuilder(std::shared_ptr<const TableData> table,
                                                          const Options& options) {
  // The table's options define the data; a scan may only retune planning.
  Options merged = table->options.raw;
  for (const char* key : {"maxpartitionbytes", "opencostinbytes", "minpartitionnum"}) {
    if (auto it = options.find(key); it != options.end()) merged[key] = it->second;
  }
  ARROW_ASSIGN_OR_RAISE(auto read, ParseReadOptions(table->options.format, merged));
  return std::make_unique<FilesScanBuilder>(std::move(table), std::move(read));
}

}  // namespace parley::files
