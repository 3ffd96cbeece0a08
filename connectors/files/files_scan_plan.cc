// Pruning and measuring a files scan (see files_scan_plan.h): partitions exactly, files by
// partition values, Parquet row groups by their statistics (raw integer statistics for simple
// conjuncts, Arrow's ParquetFileFragment for the rest), footers read in parallel.
#include "connectors/files/files_scan_plan.h"

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
#include "connectors/files/files_reader.h"
#include "parquet/arrow/reader.h"
#include "parquet/metadata.h"
#include "parquet/schema.h"
#include "parquet/statistics.h"

namespace parley::files {
namespace {

namespace cp = arrow::compute;
namespace ds = arrow::dataset;

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

}  // namespace

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

}  // namespace parley::files
