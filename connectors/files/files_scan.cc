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
#include <atomic>
#include <exception>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "arrow/array/array_primitive.h"
#include "arrow/array/builder_base.h"
#include "arrow/compute/api_aggregate.h"
#include "arrow/compute/cast.h"
#include "arrow/compute/exec.h"
#include "arrow/dataset/file_parquet.h"
#include "arrow/record_batch.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "connectors/common/parquet_conjuncts.h"
#include "connectors/common/predicate_conversion.h"
#include "connectors/files/files_format.h"
#include "connectors/files/files_listing.h"
#include "connectors/files/files_options.h"
#include "connectors/files/files_reader.h"
#include "connectors/files/files_scan.h"
#include "connectors/files/files_table.h"
#include "parley/connector/status.h"
#include "parquet/arrow/reader.h"
#include "parquet/metadata.h"
#include "parquet/schema.h"
#include "parquet/statistics.h"

namespace parley::files {
namespace {

namespace cp = arrow::compute;
namespace ds = arrow::dataset;

// A predicate the builder accepted, with its (unbound) Arrow form.
struct AcceptedPredicate {
  PredicatePtr predicate;
  cp::Expression expression;
};

// What the builder hands to the scan.
struct ScanRequest {
  ReadOptions options;
  std::vector<AcceptedPredicate> partition_filters;  // exact
  std::vector<AcceptedPredicate> data_filters;       // pruning only; also returned
  std::vector<std::string> read_columns;             // table order
  // Parquet: struct read columns narrowed to some of their fields (nested schema pruning).
  arrow::FieldVector narrowed;
  int64_t limit = -1;
};

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

// A file kept by pruning, with what will be read of it.
struct PlannedFile {
  const DataFile* file = nullptr;
  std::vector<int> row_groups;           // Parquet: the kept row groups
  std::vector<int64_t> row_group_bytes;  // Parquet: compressed bytes of the read columns
  std::vector<int64_t> row_group_rows;   // Parquet
  int64_t bytes = 0;                     // what the planner weighs: the bytes to read
};

struct ScanPlan {
  std::vector<PlannedFile> files;
  int64_t candidate_row_groups = 0;  // Parquet: row groups in the files partition pruning kept
  Statistics statistics;
};

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& part : parts) {
    if (!out.empty()) out += ", ";
    out += part;
  }
  return out;
}

// The conjunction of `filters`, bound to `schema`; literal(true) when there is none.
Result<cp::Expression> BindConjunction(const std::vector<AcceptedPredicate>& filters,
                                       const arrow::Schema& schema) {
  std::vector<cp::Expression> terms;
  for (const auto& filter : filters) terms.push_back(filter.expression);
  return (terms.empty() ? cp::literal(true) : cp::and_(terms)).Bind(schema);
}

// Run fn(0..n-1) on up to 8 threads; return the first failure in index order.
Status ParallelFor(size_t n, const std::function<Status(size_t)>& fn) {
  const size_t workers = std::min<size_t>(n, 8);
  std::vector<Status> statuses(n);
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < n; i = next++) statuses[i] = fn(i);
  };
  std::vector<std::thread> threads;
  for (size_t w = 1; w < workers; ++w) threads.emplace_back(work);
  work();
  for (auto& thread : threads) thread.join();
  for (const auto& status : statuses) ARROW_RETURN_NOT_OK(status);
  return Status::OK();
}

// Evaluate the partition filters on every file's partition values (NULL where a file has
// none) and keep the files where they are TRUE.
Result<std::vector<const DataFile*>> PrunePartitions(const TableData& table,
                                                     const ScanRequest& request) {
  std::vector<const DataFile*> kept;
  for (const auto& file : table.files) kept.push_back(&file);
  if (request.partition_filters.empty()) return kept;

  const auto& schema = table.partition_schema;
  arrow::ArrayVector columns;
  for (const auto& field : schema->fields()) {
    ARROW_ASSIGN_OR_RAISE(auto builder, arrow::MakeBuilder(field->type()));
    for (const auto& file : table.files) {
      auto values = PartitionValues(file.fragment->partition_expression());
      auto it = values.find(field->name());
      if (it == values.end() || it->second == nullptr) {
        ARROW_RETURN_NOT_OK(builder->AppendNull());
        continue;
      }
      auto value = it->second;
      if (!value->type->Equals(*field->type())) {
        ARROW_ASSIGN_OR_RAISE(value, value->CastTo(field->type()));
      }
      ARROW_RETURN_NOT_OK(builder->AppendScalar(*value));
    }
    ARROW_ASSIGN_OR_RAISE(auto column, builder->Finish());
    columns.push_back(std::move(column));
  }
  auto values = arrow::RecordBatch::Make(schema, static_cast<int64_t>(table.files.size()),
                                         std::move(columns));
  ARROW_ASSIGN_OR_RAISE(auto filter, BindConjunction(request.partition_filters, *schema));
  ARROW_ASSIGN_OR_RAISE(auto result, cp::ExecuteScalarExpression(filter, cp::ExecBatch(*values)));
  // A filter without column references evaluates to one scalar for every file.
  if (result.is_scalar()) {
    const auto& scalar = static_cast<const arrow::BooleanScalar&>(*result.scalar());
    if (!scalar.is_valid || !scalar.value) kept.clear();
    return kept;
  }
  auto array = std::static_pointer_cast<arrow::BooleanArray>(result.make_array());
  kept.clear();
  for (int64_t i = 0; i < array->length(); ++i) {
    if (array->IsValid(i) && array->Value(i)) kept.push_back(&table.files[i]);
  }
  return kept;
}

// Min and max over `values` (scalars of `type`), skipping nulls.
Result<std::pair<std::shared_ptr<arrow::Scalar>, std::shared_ptr<arrow::Scalar>>> MinMax(
    const std::shared_ptr<arrow::DataType>& type,
    const std::vector<std::shared_ptr<arrow::Scalar>>& values) {
  ARROW_ASSIGN_OR_RAISE(auto builder, arrow::MakeBuilder(type));
  for (const auto& value : values) ARROW_RETURN_NOT_OK(builder->AppendScalar(*value));
  ARROW_ASSIGN_OR_RAISE(auto array, builder->Finish());
  ARROW_ASSIGN_OR_RAISE(auto result, cp::MinMax(array));
  const auto& pair = static_cast<const arrow::StructScalar&>(*result.scalar());
  return std::make_pair(pair.value[0], pair.value[1]);
}

// A statistics value as the column's type. Arrow's scalar cast does not cast a decimal even
// to its own type; the compute cast does.
Result<std::shared_ptr<arrow::Scalar>> ConformScalar(const std::shared_ptr<arrow::Scalar>& value,
                                                     const std::shared_ptr<arrow::DataType>& type) {
  if (value->type->Equals(*type)) return value;
  auto cast = value->CastTo(type);
  if (cast.ok()) return cast;
  ARROW_ASSIGN_OR_RAISE(auto computed, cp::Cast(arrow::Datum(value), type));
  return computed.scalar();
}

// Per-column statistics of the planned Parquet row groups, for the read data columns that
// are top-level primitive columns: null counts and min/max when every row group records them.
Result<std::map<std::string, ColumnStatistics>> ParquetColumnStatistics(
    const std::vector<PlannedFile>& files, const arrow::Schema& read_data_schema) {
  std::map<std::string, ColumnStatistics> out;
  for (const auto& field : read_data_schema.fields()) {
    const arrow::Type::type id = field->type()->id();
    if (!arrow::is_primitive(id) && !arrow::is_base_binary_like(id) && !arrow::is_decimal(id)) {
      continue;
    }
    int64_t nulls = 0;
    bool nulls_known = true, min_max_known = true;
    std::vector<std::shared_ptr<arrow::Scalar>> mins, maxes;
    for (const auto& planned : files) {
      auto& fragment = static_cast<ds::ParquetFileFragment&>(*planned.file->fragment);
      auto metadata = fragment.metadata();
      const int leaf = metadata->schema()->ColumnIndex(field->name());
      for (size_t k = 0; k < planned.row_groups.size(); ++k) {
        if (leaf < 0) {  // a file without the column: all its rows are NULL there
          nulls += planned.row_group_rows[k];
          continue;
        }
        auto chunk = metadata->RowGroup(planned.row_groups[k])->ColumnChunk(leaf);
        auto stats = chunk->is_stats_set() ? chunk->statistics() : nullptr;
        if (stats == nullptr || !stats->HasNullCount()) {
          nulls_known = false;
        } else {
          nulls += stats->null_count();
        }
        if (stats == nullptr || !stats->HasMinMax()) {
          // A row group of NULLs only has no min/max and does not need one.
          if (stats == nullptr || !stats->HasNullCount() ||
              stats->null_count() != planned.row_group_rows[k]) {
            min_max_known = false;
          }
          continue;
        }
        std::shared_ptr<arrow::Scalar> min, max;
        if (!parquet::arrow::StatisticsAsScalars(*stats, &min, &max).ok()) {
          min_max_known = false;
          continue;
        }
        auto cast_min = ConformScalar(min, field->type());
        auto cast_max = ConformScalar(max, field->type());
        if (!cast_min.ok() || !cast_max.ok()) {
          min_max_known = false;
          continue;
        }
        mins.push_back(*cast_min);
        maxes.push_back(*cast_max);
      }
    }
    ColumnStatistics column;
    if (nulls_known) column.null_count = nulls;
    if (min_max_known && !mins.empty()) {
      ARROW_ASSIGN_OR_RAISE(auto low, MinMax(field->type(), mins));
      ARROW_ASSIGN_OR_RAISE(auto high, MinMax(field->type(), maxes));
      column.min = low.first;
      column.max = high.second;
    }
    if (column.null_count || column.min) out[field->name()] = std::move(column);
  }
  return out;
}

// Keep the row groups of a Parquet file whose statistics do not rule `filter` out (all of them
// when not filtering) and measure them: rows, and compressed bytes of the read data columns.
// The data filters split for row-group pruning: the simple conjuncts decided here on raw
// integer statistics (connectors/common/parquet_conjuncts.h), and the others, bound, left to
// Arrow's ParquetFileFragment (whose general expression simplification costs milliseconds
// per file).
struct RowGroupFilter {
  std::vector<ColumnConjunct> simple;
  std::optional<cp::Expression> rest;
};

Result<RowGroupFilter> MakeRowGroupFilter(const std::vector<AcceptedPredicate>& filters,
                                          const arrow::Schema& schema) {
  RowGroupFilter out;
  std::vector<cp::Expression> rest;
  for (const auto& filter : filters) SplitConjuncts(filter.expression, &out.simple, &rest);
  if (!rest.empty()) {
    ARROW_ASSIGN_OR_RAISE(out.rest, cp::and_(std::move(rest)).Bind(schema));
  }
  return out;
}

// Whether the statistics of `chunk` (a flat INT32 or INT64 column of `rows` rows) leave some
// row able to pass `op literal`.
bool ChunkMayPass(const parquet::ColumnChunkMetaData& chunk, int64_t rows, RawOp op,
                  int64_t literal) {
  if (!chunk.is_stats_set()) return true;
  std::shared_ptr<parquet::Statistics> stats = chunk.statistics();
  if (stats == nullptr) return true;
  const bool no_nulls = stats->HasNullCount() && stats->null_count() == 0;
  const bool all_nulls = stats->HasNullCount() && stats->null_count() == rows;
  if (op == RawOp::kIsNull) return !no_nulls;
  if (all_nulls) return false;  // no comparison with NULL is TRUE; no value is valid
  if (op == RawOp::kIsValid || !stats->HasMinMax()) return true;
  if (chunk.type() == parquet::Type::INT32) {
    const auto& typed = static_cast<const parquet::Int32Statistics&>(*stats);
    return RangeMayPass(op, literal, typed.min(), typed.max());
  }
  const auto& typed = static_cast<const parquet::Int64Statistics&>(*stats);
  return RangeMayPass(op, literal, typed.min(), typed.max());
}

// The row groups of `fragment` whose statistics do not rule out every simple conjunct of
// `filter`: conjuncts on a column the file stores as a flat INT32 or INT64 with exactly the
// table's type.
Result<std::vector<int>> RowGroupsPassingStatistics(ds::ParquetFileFragment& fragment,
                                                    const arrow::Schema& table_schema,
                                                    const RowGroupFilter& filter) {
  auto metadata = fragment.metadata();
  ARROW_ASSIGN_OR_RAISE(auto file_schema, fragment.ReadPhysicalSchema());
  struct Check {
    int leaf;
    RawOp op;
    int64_t literal;
  };
  std::vector<Check> checks;
  for (const auto& conjunct : filter.simple) {
    auto table_field = table_schema.GetFieldByName(conjunct.column);
    auto file_field = file_schema->GetFieldByName(conjunct.column);
    const int leaf = metadata->schema()->ColumnIndex(conjunct.column);
    if (table_field == nullptr || file_field == nullptr || leaf < 0 ||
        !file_field->type()->Equals(*table_field->type())) {
      continue;
    }
    const parquet::ColumnDescriptor& descriptor = *metadata->schema()->Column(leaf);
    const parquet::Type::type physical = descriptor.physical_type();
    if (descriptor.path()->ToDotVector().size() != 1 || descriptor.max_repetition_level() != 0 ||
        (physical != parquet::Type::INT32 && physical != parquet::Type::INT64)) {
      continue;
    }
    if (conjunct.literal == nullptr) {
      checks.push_back({leaf, conjunct.op, 0});
    } else if (auto raw = RawIntegerLiteral(*conjunct.literal, *table_field->type(), physical)) {
      checks.push_back({leaf, conjunct.op, *raw});
    }
  }
  std::vector<int> kept;
  for (int k = 0; k < metadata->num_row_groups(); ++k) {
    auto row_group = metadata->RowGroup(k);
    bool may_pass = true;
    for (const auto& check : checks) {
      may_pass = may_pass && ChunkMayPass(*row_group->ColumnChunk(check.leaf),
                                          row_group->num_rows(), check.op, check.literal);
    }
    if (may_pass) kept.push_back(k);
  }
  return kept;
}

Status MeasureRowGroups(ds::ParquetFileFragment& fragment, const RowGroupFilter* filter,
                        const arrow::Schema& table_schema, const std::set<std::string>& read_data,
                        const std::string& display, PlannedFile* out, int64_t* row_groups) {
  auto metadata = fragment.metadata();
  *row_groups = metadata->num_row_groups();
  if (filter != nullptr) {
    auto kept = RowGroupsPassingStatistics(fragment, table_schema, *filter);
    if (!kept.ok()) return FileReadError(display, kept.status());
    std::set<int> also_kept(kept->begin(), kept->end());
    if (filter->rest) {
      auto split = fragment.SplitByRowGroup(*filter->rest);
      if (!split.ok()) return FileReadError(display, split.status());
      also_kept.clear();
      for (const auto& piece : *split) {
        also_kept.insert(static_cast<const ds::ParquetFileFragment&>(*piece).row_groups().front());
      }
    }
    for (int k : *kept) {
      if (also_kept.contains(k)) out->row_groups.push_back(k);
    }
  } else {
    for (int k = 0; k < metadata->num_row_groups(); ++k) out->row_groups.push_back(k);
  }
  std::vector<int> leaves;
  for (int leaf = 0; leaf < metadata->num_columns(); ++leaf) {
    if (read_data.contains(metadata->schema()->GetColumnRoot(leaf)->name())) {
      leaves.push_back(leaf);
    }
  }
  for (int id : out->row_groups) {
    auto row_group = metadata->RowGroup(id);
    int64_t bytes = 0;
    for (int leaf : leaves) bytes += row_group->ColumnChunk(leaf)->total_compressed_size();
    out->row_group_bytes.push_back(bytes);
    out->row_group_rows.push_back(row_group->num_rows());
    out->bytes += bytes;
  }
  return Status::OK();
}

// Prune and measure: partitions exactly, then files by partition values, then Parquet row
// groups by statistics.
Result<ScanPlan> PlanScan(const TableData& table, const ScanRequest& request) {
  ScanPlan plan;
  ARROW_ASSIGN_OR_RAISE(auto candidates, PrunePartitions(table, request));
  ARROW_ASSIGN_OR_RAISE(auto data_filter, BindConjunction(request.data_filters, *table.schema));
  const bool filtering = !request.data_filters.empty();

  std::vector<const DataFile*> files;
  for (const DataFile* file : candidates) {
    if (filtering && file->fragment->partition_expression() != cp::literal(true)) {
      ARROW_ASSIGN_OR_RAISE(
          auto simplified,
          cp::SimplifyWithGuarantee(data_filter, file->fragment->partition_expression()));
      if (!simplified.IsSatisfiable()) continue;
    }
    files.push_back(file);
  }

  std::set<std::string> read_data;
  for (const auto& name : request.read_columns) {
    if (table.partition_schema->GetFieldIndex(name) < 0) read_data.insert(name);
  }
  std::vector<PlannedFile> planned(files.size());
  for (size_t i = 0; i < files.size(); ++i) planned[i].file = files[i];
  if (request.options.format == FileFormatKind::kParquet) {
    ARROW_ASSIGN_OR_RAISE(auto row_group_filter,
                          MakeRowGroupFilter(request.data_filters, *table.schema));
    std::vector<int64_t> row_group_counts(files.size());
    ARROW_RETURN_NOT_OK(ParallelFor(files.size(), [&](size_t i) -> Status {
      const std::string display = DisplayPath(*table.filesystem, files[i]->path);
      auto& fragment = static_cast<ds::ParquetFileFragment&>(*files[i]->fragment);
      Status loaded = fragment.EnsureCompleteMetadata();
      if (!loaded.ok()) return FooterReadError(display, loaded);
      // Parquet's metadata accessors throw on malformed metadata.
      try {
        return MeasureRowGroups(fragment, filtering ? &row_group_filter : nullptr, *table.schema,
                                read_data, display, &planned[i], &row_group_counts[i]);
      } catch (const std::exception& error) {
        return FooterReadError(display, Status::IOError(error.what()));
      }
    }));
    for (int64_t count : row_group_counts) plan.candidate_row_groups += count;
    // A limit (offered only when nothing is left to filter) needs only its first rows.
    if (request.limit >= 0 && !filtering) {
      int64_t rows = 0;
      for (auto& file : planned) {
        size_t keep = 0;
        while (keep < file.row_groups.size() && rows < request.limit) {
          rows += file.row_group_rows[keep++];
        }
        file.row_groups.resize(keep);
        file.row_group_rows.resize(keep);
        file.row_group_bytes.resize(keep);
        file.bytes = 0;
        for (int64_t bytes : file.row_group_bytes) file.bytes += bytes;
      }
    }
    std::erase_if(planned, [](const PlannedFile& file) { return file.row_groups.empty(); });
  } else {
    for (auto& file : planned) file.bytes = file.file->size;
  }

  Statistics& statistics = plan.statistics;
  int64_t bytes = 0;
  for (const auto& file : planned) bytes += file.bytes;
  statistics.size_in_bytes = bytes;
  if (request.options.format == FileFormatKind::kParquet) {
    int64_t rows = 0;
    for (const auto& file : planned) {
      for (int64_t count : file.row_group_rows) rows += count;
    }
    statistics.num_rows = request.limit >= 0 ? std::min(rows, request.limit) : rows;
    arrow::FieldVector read_data_fields;
    for (const auto& name : request.read_columns) {
      if (read_data.contains(name)) read_data_fields.push_back(table.schema->GetFieldByName(name));
    }
    if (request.limit < 0) {
      // Column statistics are an estimate: metadata too malformed to give them gives none.
      try {
        ARROW_ASSIGN_OR_RAISE(statistics.column_stats,
                              ParquetColumnStatistics(planned, arrow::Schema(read_data_fields)));
      } catch (const std::exception&) {
        statistics.column_stats.clear();
      }
    }
  }
  plan.files = std::move(planned);
  return plan;
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
