// The executor side of a Delta scan: input partitions, the reader factory, the readers, and
// their byte encodings.
//
// Encodings are JSON objects with no live handle:
//   partition  {"kind":"parley-delta-partition","path","size","partitionValues",
//               "modificationTime","deletionVector":{storageType,pathOrInlineDv,offset,
//               sizeInBytes,cardinality},"baseRowId","defaultRowCommitVersion"}
//   factory    {"kind":"parley-delta-factory","location","schema" (Delta schema JSON with
//               annotations),"mode","partitionColumns","readColumns","rowTracking",
//               "materializedRowId","materializedRowCommitVersion","metadataFields",
//               "rowFilter" (base64 of arrow::compute::Serialize of ReadSpec::row_filter)}
// Rebuilding validates them and fails with CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE
// otherwise; the filesystem is opened again from the location.
//
// A reader reads its one Parquet file with Arrow's Parquet reader: only the top-level columns
// the scan needs, matched by physical name or field id (delta_schema.h) and reshaped into the
// table types; partition columns are parsed from the log's partitionValues; the file's deletion
// vector drops rows by their physical index (rows are counted across row groups in file order).
// The file is opened through a byte-counting wrapper whose total is the task's bytesRead.
// `_metadata`, when read, is computed per batch from the piece and the physical row indexes
// (delta_metadata_column.cc), before the deletion vector drops rows.
// When neither a deletion vector nor `_metadata` counts a piece's rows, the simple conjuncts
// of the scan's row filter over columns the file holds, renamed to the file's columns as the
// read columns are, drop rows while decoding (connectors/common/parquet_filtered_reader.h).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "arrow/array.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/array/util.h"
#include "arrow/compute/api_vector.h"
#include "arrow/compute/expression.h"
#include "arrow/datum.h"
#include "arrow/filesystem/filesystem.h"
#include "arrow/io/interfaces.h"
#include "arrow/record_batch.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "arrow/util/base64.h"
#include "connectors/common/parquet_conjuncts.h"
#include "connectors/common/parquet_dictionary.h"
#include "connectors/common/parquet_filtered_reader.h"
#include "connectors/delta/log/deletion_vector.h"

#include "connectors/delta/log/actions.h"
#include "connectors/delta/log/values.h"
#include "connectors/delta/read/metadata_column.h"
#include "connectors/delta/read/read_task.h"
#include "connectors/delta/util.h"
#include "parley/connector/metrics.h"
#include "parquet/arrow/reader.h"
#include "parquet/arrow/schema.h"
#include "parquet/exception.h"
#include "parquet/file_reader.h"
#include "parquet/metadata.h"

namespace parley::delta {
namespace {

namespace cp = arrow::compute;
using nlohmann::json;

constexpr char kPartitionKind[] = "parley-delta-partition";
constexpr char kFactoryKind[] = "parley-delta-factory";
constexpr char kFilesReadMetric[] = "filesRead";
constexpr char kDeletedRowsMetric[] = "deletedRowsSkipped";
constexpr char kRowsFilteredMetric[] = "rowsFiltered";
constexpr int64_t kBatchRows = 64 * 1024;

Status NotSerializable(std::string_view what, std::string_view detail) {
  return InvalidError("CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
                      "The Delta connector cannot rebuild a " + std::string(what) +
                          " from its bytes: " + std::string(detail) + ".");
}

const char* ModeName(ColumnMappingMode mode) {
  switch (mode) {
    case ColumnMappingMode::kName: return "name";
    case ColumnMappingMode::kId: return "id";
    case ColumnMappingMode::kNone: return "none";
  }
  return "none";
}

// A random-access file that adds every byte read to a counter.
class CountingFile : public arrow::io::RandomAccessFile {
 public:
  CountingFile(std::shared_ptr<arrow::io::RandomAccessFile> base,
               std::shared_ptr<std::atomic<int64_t>> bytes_read)
      : base_(std::move(base)), bytes_read_(std::move(bytes_read)) {}

  Status Close() override { return base_->Close(); }
  bool closed() const override { return base_->closed(); }
  Result<int64_t> Tell() const override { return base_->Tell(); }
  Status Seek(int64_t position) override { return base_->Seek(position); }
  Result<int64_t> GetSize() override { return base_->GetSize(); }
  Result<int64_t> Read(int64_t nbytes, void* out) override {
    ARROW_ASSIGN_OR_RAISE(int64_t read, base_->Read(nbytes, out));
    *bytes_read_ += read;
    return read;
  }
  Result<std::shared_ptr<arrow::Buffer>> Read(int64_t nbytes) override {
    ARROW_ASSIGN_OR_RAISE(auto buffer, base_->Read(nbytes));
    *bytes_read_ += buffer->size();
    return buffer;
  }
  Result<int64_t> ReadAt(int64_t position, int64_t nbytes, void* out) override {
    ARROW_ASSIGN_OR_RAISE(int64_t read, base_->ReadAt(position, nbytes, out));
    *bytes_read_ += read;
    return read;
  }
  Result<std::shared_ptr<arrow::Buffer>> ReadAt(int64_t position, int64_t nbytes) override {
    ARROW_ASSIGN_OR_RAISE(auto buffer, base_->ReadAt(position, nbytes));
    *bytes_read_ += buffer->size();
    return buffer;
  }

 private:
  std::shared_ptr<arrow::io::RandomAccessFile> base_;
  std::shared_ptr<std::atomic<int64_t>> bytes_read_;
};

json DeletionVectorToJson(const DeletionVectorDescriptor& dv) {
  json out = {{"storageType", dv.storage_type},
              {"pathOrInlineDv", dv.path_or_inline_dv},
              {"sizeInBytes", dv.size_in_bytes},
              {"cardinality", dv.cardinality}};
  if (dv.offset) out["offset"] = *dv.offset;
  return out;
}

json PieceToJson(const ReadTask& task) {
  json values = json::object();
  for (const auto& [key, value] : task.partition_values) {
    values[key] = value ? json(*value) : json(nullptr);
  }
  json out = {
      {"path", task.path},   {"size", task.size},     {"partitionValues", std::move(values)},
      {"start", task.start}, {"length", task.length}, {"modificationTime", task.modification_time}};
  if (task.deletion_vector) out["deletionVector"] = DeletionVectorToJson(*task.deletion_vector);
  if (task.base_row_id) out["baseRowId"] = *task.base_row_id;
  if (task.default_row_commit_version) {
    out["defaultRowCommitVersion"] = *task.default_row_commit_version;
  }
  return out;
}

Result<ReadTask> PieceFromJson(const json& in) {
  if (!in.is_object() || !in.contains("path") || !in["path"].is_string() || !in.contains("size") ||
      !in["size"].is_number_integer() || !in.contains("partitionValues") ||
      !in["partitionValues"].is_object() || !in.contains("start") ||
      !in["start"].is_number_integer() || !in.contains("length") ||
      !in["length"].is_number_integer() || !in.contains("modificationTime") ||
      !in["modificationTime"].is_number_integer() ||
      (in.contains("baseRowId") && !in["baseRowId"].is_number_integer()) ||
      (in.contains("defaultRowCommitVersion") &&
       !in["defaultRowCommitVersion"].is_number_integer())) {
    return NotSerializable("partition", "a piece is not a parley-delta piece JSON object");
  }
  ReadTask task;
  task.path = in["path"].get<std::string>();
  task.size = in["size"].get<int64_t>();
  task.start = in["start"].get<int64_t>();
  task.length = in["length"].get<int64_t>();
  task.modification_time = in["modificationTime"].get<int64_t>();
  if (in.contains("baseRowId")) task.base_row_id = in["baseRowId"].get<int64_t>();
  if (in.contains("defaultRowCommitVersion")) {
    task.default_row_commit_version = in["defaultRowCommitVersion"].get<int64_t>();
  }
  for (const auto& [key, value] : in["partitionValues"].items()) {
    if (value.is_null()) {
      task.partition_values[key] = std::nullopt;
    } else if (value.is_string()) {
      task.partition_values[key] = value.get<std::string>();
    } else {
      return NotSerializable("partition", "a partition value is not a string");
    }
  }
  if (in.contains("deletionVector")) {
    auto descriptor = DeletionVectorFromJson(in["deletionVector"]);
    if (!descriptor.ok()) return NotSerializable("partition", descriptor.status().message());
    task.deletion_vector = *std::move(descriptor);
  }
  return task;
}

class DeltaInputPartition : public InputPartition {
 public:
  explicit DeltaInputPartition(std::vector<ReadTask> pieces) : pieces_(std::move(pieces)) {}

  Result<std::string> Serialize() const override {
    json pieces = json::array();
    for (const auto& piece : pieces_) pieces.push_back(PieceToJson(piece));
    return json{{"kind", kPartitionKind}, {"pieces", std::move(pieces)}}.dump();
  }

  const std::vector<ReadTask>& pieces() const { return pieces_; }

 private:
  std::vector<ReadTask> pieces_;
};

Result<std::shared_ptr<InputPartition>> DecodePartition(std::string_view bytes) {
  json in = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (in.is_discarded() || !in.is_object() || in.value("kind", "") != kPartitionKind ||
      !in.contains("pieces") || !in["pieces"].is_array()) {
    return NotSerializable("partition", "expected a parley-delta-partition JSON object");
  }
  std::vector<ReadTask> pieces;
  for (const auto& piece : in["pieces"]) {
    ARROW_ASSIGN_OR_RAISE(auto task, PieceFromJson(piece));
    pieces.push_back(std::move(task));
  }
  return std::make_shared<DeltaInputPartition>(std::move(pieces));
}

// What every reader of one scan shares.
struct ReaderContext {
  ReadSpec spec;
  std::shared_ptr<arrow::fs::FileSystem> filesystem;
  std::string root;
  std::shared_ptr<arrow::Schema> annotated_schema;
  std::shared_ptr<arrow::Schema> read_schema;  // plain
  /// Per output column: the annotated table field and whether it is a partition column.
  std::vector<std::shared_ptr<arrow::Field>> read_fields;
  std::vector<bool> is_partition;
  /// Whether `_metadata` is read (the last output column), and its type.
  bool with_metadata = false;
  std::shared_ptr<arrow::DataType> metadata_type;
};

Result<std::shared_ptr<const ReaderContext>> MakeContext(ReadSpec spec) {
  ARROW_RETURN_NOT_OK(EnsureComputeInitialized());
  auto context = std::make_shared<ReaderContext>();
  ARROW_ASSIGN_OR_RAISE(context->annotated_schema, SchemaFromDeltaJson(spec.schema_json));
  arrow::FieldVector plain;
  auto plain_schema = PlainSchema(*context->annotated_schema);
  for (const auto& name : spec.read_columns) {
    int index = context->annotated_schema->GetFieldIndex(name);
    if (index < 0 && name == kMetadataColumn) {
      context->with_metadata = true;
      continue;
    }
    if (index < 0)
      return Status::Invalid("read column ", QuoteIdentifier(name), " is not in the table");
    context->read_fields.push_back(context->annotated_schema->field(index));
    context->is_partition.push_back(std::find(spec.partition_columns.begin(),
                                              spec.partition_columns.end(),
                                              name) != spec.partition_columns.end());
    plain.push_back(plain_schema->field(index));
  }
  if (context->with_metadata) {
    ARROW_ASSIGN_OR_RAISE(context->metadata_type,
                          MetadataStructType(spec.row_tracking, spec.metadata_fields));
    plain.push_back(arrow::field(kMetadataColumn, context->metadata_type, false));
  }
  context->read_schema = arrow::schema(std::move(plain));
  ARROW_ASSIGN_OR_RAISE(auto opened, OpenLocation(spec.location));
  context->filesystem = std::move(opened.first);
  context->root = std::move(opened.second);
  context->spec = std::move(spec);
  return context;
}

// The leaf column indexes of a schema field, for a projected Parquet read.
void CollectLeaves(const parquet::arrow::SchemaField& field, std::vector<int>* out) {
  if (field.children.empty()) {
    if (field.column_index >= 0) out->push_back(field.column_index);
    return;
  }
  for (const auto& child : field.children) CollectLeaves(child, out);
}

// What the pieces of one partition add up to, for its task metrics.
struct PieceCounters {
  std::shared_ptr<std::atomic<int64_t>> bytes_read = std::make_shared<std::atomic<int64_t>>(0);
  int64_t files_read = 0;
  int64_t deleted_rows = 0;
  std::atomic<int64_t> rows_filtered = 0;  // by the filtered Parquet reader
};

// Reads one piece: the selected row groups of one data file, shaped to the read schema, with
// its deletion vector applied.
class PieceReader {
 public:
  PieceReader(std::shared_ptr<const ReaderContext> context, ReadTask task, PieceCounters* counters)
      : context_(std::move(context)),
        task_(std::move(task)),
        counters_(counters),
        bytes_read_(counters->bytes_read) {}

  // The next batch, nullptr at the end of the piece.
  Result<std::shared_ptr<arrow::RecordBatch>> Next() {
    auto next = NextBatch();
    if (!next.ok()) return Failed(next.status());
    return next;
  }

 private:
  // Whether the row group lies in this piece's byte range (by its midpoint, as Spark decides).
  bool InRange(const parquet::RowGroupMetaData& group) const {
    if (task_.length < 0) return true;
    auto first = group.ColumnChunk(0);
    int64_t begin = first->data_page_offset();
    if (first->has_dictionary_page() && first->dictionary_page_offset() > 0) {
      begin = std::min(begin, first->dictionary_page_offset());
    }
    int64_t middle = begin + group.total_compressed_size() / 2;
    return middle >= task_.start && middle < task_.start + task_.length;
  }

  Status Failed(const Status& status) const {
    std::string file = DisplayPath(task_.path);
    std::string condition = ErrorCondition(status);
    if (condition.empty()) {
      return InvalidError("FAILED_READ_FILE.NO_HINT", "Encountered error while reading file " +
                                                          file + ": " + status.message() + ".");
    }
    if (status.message().find(task_.path) != std::string::npos) return status;
    std::string message = status.message();
    std::string prefix = "[" + condition + "] ";
    if (message.starts_with(prefix)) message = message.substr(prefix.size());
    return MakeError(status.code(), condition, message + " (reading file " + file + ")");
  }

  Status Open() {
    opened_ = true;
    ARROW_ASSIGN_OR_RAISE(auto info, context_->filesystem->GetFileInfo(task_.path));
    if (info.type() != arrow::fs::FileType::File) {
      return InvalidError("FAILED_READ_FILE.FILE_NOT_EXIST",
                          "File " + DisplayPath(task_.path) +
                              " does not exist. It is possible the underlying files have been "
                              "updated or vacuumed; the Delta log still references it.");
    }
    if (task_.deletion_vector) {
      ARROW_ASSIGN_OR_RAISE(deleted_, LoadDeletionVector(*context_->filesystem, context_->root,
                                                         *task_.deletion_vector));
    }
    ++counters_->files_read;
    ARROW_ASSIGN_OR_RAISE(auto base, context_->filesystem->OpenInputFile(info));
    auto file = std::make_shared<CountingFile>(std::move(base), bytes_read_);
    parquet::ArrowReaderProperties properties;
    properties.set_coerce_int96_timestamp_unit(arrow::TimeUnit::MICRO);
    properties.set_batch_size(kBatchRows);
    parquet::arrow::FileReaderBuilder builder;
    ARROW_RETURN_NOT_OK(builder.Open(std::move(file)));
    ReadDictionaryEncodedStrings(*builder.raw_reader()->metadata(), &properties);
    builder.properties(properties);
    ARROW_ASSIGN_OR_RAISE(reader_, builder.Build());
    std::shared_ptr<arrow::Schema> file_schema;
    ARROW_RETURN_NOT_OK(reader_->GetSchema(&file_schema));

    std::vector<int> leaves;
    file_columns_.assign(context_->read_fields.size(), "");
    for (size_t i = 0; i < context_->read_fields.size(); ++i) {
      if (context_->is_partition[i]) {
        const auto& field = *context_->read_fields[i];
        auto raw = task_.partition_values.find(PhysicalName(field, context_->spec.mode));
        std::optional<std::string> value;
        if (raw != task_.partition_values.end()) value = raw->second;
        ARROW_ASSIGN_OR_RAISE(auto scalar,
                              ParsePartitionValue(value, PlainType(field.type()), field.name()));
        partition_values_[i] = std::move(scalar);
        continue;
      }
      int index =
          FindFileField(file_schema->fields(), *context_->read_fields[i], context_->spec.mode);
      if (index < 0) continue;  // a column the file lacks reads as null
      file_columns_[i] = file_schema->field(index)->name();
      CollectLeaves(reader_->manifest().schema_fields[index], &leaves);
    }
    if (context_->with_metadata && context_->spec.row_tracking) {
      for (const auto* name :
           {&context_->spec.materialized_row_id, &context_->spec.materialized_row_commit_version}) {
        int index = file_schema->GetFieldIndex(*name);
        if (index < 0) continue;  // absent: every row has its fresh value
        materialized_.push_back(*name);
        CollectLeaves(reader_->manifest().schema_fields[index], &leaves);
      }
    }
    // The piece's row groups are consecutive; the rows before them count for row indexes.
    auto metadata = reader_->parquet_reader()->metadata();
    std::vector<int> row_groups;
    int64_t rows = 0;
    for (int i = 0; i < metadata->num_row_groups(); ++i) {
      auto group = metadata->RowGroup(i);
      if (InRange(*group)) {
        row_groups.push_back(i);
        rows += group->num_rows();
      } else if (row_groups.empty()) {
        next_row_ += group->num_rows();
      }
    }
    if (leaves.empty() || row_groups.empty()) {
      rows_without_columns_ = row_groups.empty() ? 0 : rows;
    } else {
      std::sort(leaves.begin(), leaves.end());
      ARROW_ASSIGN_OR_RAISE(batches_, OpenBatches(std::move(row_groups), leaves));
    }
    return Status::OK();
  }

  // The batches of `row_groups`, columns `leaves`: without the rows that fail the file's row
  // filter when no row index is needed (no deletion vector, no `_metadata`), else all rows.
  Result<std::shared_ptr<arrow::RecordBatchReader>> OpenBatches(std::vector<int> row_groups,
                                                                const std::vector<int>& leaves) {
    if (!task_.deletion_vector && !context_->with_metadata) {
      ARROW_ASSIGN_OR_RAISE(auto filtered,
                            MakeFilteredParquetReader(reader_, row_groups, leaves, FileRowFilter(),
                                                      kBatchRows, &counters_->rows_filtered));
      if (filtered != nullptr) return filtered;
    }
    return reader_->GetRecordBatchReader(row_groups, leaves);
  }

  // The simple conjuncts (parquet_conjuncts.h) of the scan's row filter over the data columns
  // this file holds, on the file's names for them; literal(true) when there are none.
  cp::Expression FileRowFilter() const {
    std::vector<ColumnConjunct> simple;
    std::vector<cp::Expression> rest;
    SplitConjuncts(context_->spec.row_filter, &simple, &rest);
    std::vector<cp::Expression> conjuncts;
    for (const auto& conjunct : simple) {
      for (size_t i = 0; i < context_->read_fields.size(); ++i) {
        if (file_columns_[i].empty() || context_->read_fields[i]->name() != conjunct.column) {
          continue;
        }
        conjuncts.push_back(ConjunctOn(conjunct, file_columns_[i]));
        break;
      }
    }
    return conjuncts.empty() ? cp::literal(true) : cp::and_(std::move(conjuncts));
  }

  // `conjunct` as an Arrow expression over the column named `column`.
  static cp::Expression ConjunctOn(const ColumnConjunct& conjunct, const std::string& column) {
    cp::Expression ref = cp::field_ref(column);
    switch (conjunct.op) {
      case RawOp::kIsNull: return cp::call("is_null", {std::move(ref)});
      case RawOp::kIsValid: return cp::call("is_valid", {std::move(ref)});
      case RawOp::kEqual: return cp::equal(std::move(ref), cp::literal(conjunct.literal));
      case RawOp::kNotEqual: return cp::not_equal(std::move(ref), cp::literal(conjunct.literal));
      case RawOp::kLess: return cp::less(std::move(ref), cp::literal(conjunct.literal));
      case RawOp::kLessEqual: return cp::less_equal(std::move(ref), cp::literal(conjunct.literal));
      case RawOp::kGreater: return cp::greater(std::move(ref), cp::literal(conjunct.literal));
      case RawOp::kGreaterEqual:
        return cp::greater_equal(std::move(ref), cp::literal(conjunct.literal));
    }
    return cp::literal(true);
  }

  // The next file batch (nullptr at the end): real columns, or a column-less count of rows.
  Result<std::shared_ptr<arrow::RecordBatch>> NextFileBatch() {
    if (batches_ != nullptr) {
      std::shared_ptr<arrow::RecordBatch> batch;
      ARROW_RETURN_NOT_OK(batches_->ReadNext(&batch));
      return batch;
    }
    if (rows_without_columns_ == 0) return nullptr;
    int64_t rows = std::min(rows_without_columns_, kBatchRows);
    rows_without_columns_ -= rows;
    return arrow::RecordBatch::Make(arrow::schema({}), rows, arrow::ArrayVector{});
  }

  Result<std::shared_ptr<arrow::RecordBatch>> NextBatch() {
    if (!opened_) {
      auto opened = [&]() -> Status {
        try {
          return Open();
        } catch (const parquet::ParquetException& error) {
          return Status::IOError(error.what());
        }
      }();
      ARROW_RETURN_NOT_OK(opened);
    }
    while (true) {
      std::shared_ptr<arrow::RecordBatch> batch;
      try {
        ARROW_ASSIGN_OR_RAISE(batch, NextFileBatch());
      } catch (const parquet::ParquetException& error) {
        return Status::IOError(error.what());
      }
      if (batch == nullptr) return nullptr;
      int64_t first_row = next_row_;
      next_row_ += batch->num_rows();
      ARROW_ASSIGN_OR_RAISE(auto shaped, Shape(*batch, first_row));
      ARROW_ASSIGN_OR_RAISE(shaped, ApplyDeletionVector(std::move(shaped), first_row));
      if (shaped->num_rows() > 0) return shaped;
    }
  }

  Result<std::shared_ptr<arrow::RecordBatch>> Shape(const arrow::RecordBatch& batch,
                                                    int64_t first_row) const {
    const int64_t rows = batch.num_rows();
    arrow::ArrayVector columns;
    for (size_t i = 0; i < context_->read_fields.size(); ++i) {
      const auto& field = *context_->read_fields[i];
      std::shared_ptr<arrow::Array> column;
      if (context_->is_partition[i]) {
        ARROW_ASSIGN_OR_RAISE(column, arrow::MakeArrayFromScalar(*partition_values_.at(i), rows));
      } else if (file_columns_[i].empty() || batch.GetColumnByName(file_columns_[i]) == nullptr) {
        ARROW_ASSIGN_OR_RAISE(column, arrow::MakeArrayOfNull(PlainType(field.type()), rows));
      } else {
        ARROW_ASSIGN_OR_RAISE(column, ConformColumn(batch.GetColumnByName(file_columns_[i]), field,
                                                    context_->spec.mode));
      }
      columns.push_back(std::move(column));
    }
    if (context_->with_metadata) {
      auto stored = [&](const std::string& name) -> std::shared_ptr<arrow::Array> {
        bool present =
            std::find(materialized_.begin(), materialized_.end(), name) != materialized_.end();
        return present ? batch.GetColumnByName(name) : nullptr;
      };
      ARROW_ASSIGN_OR_RAISE(
          auto metadata,
          MetadataColumnValues(task_, context_->metadata_type, first_row, rows,
                               stored(context_->spec.materialized_row_id),
                               stored(context_->spec.materialized_row_commit_version)));
      columns.push_back(std::move(metadata));
    }
    return arrow::RecordBatch::Make(context_->read_schema, rows, std::move(columns));
  }

  // Drop the rows whose physical index (first_row + position) is in the deletion vector.
  Result<std::shared_ptr<arrow::RecordBatch>> ApplyDeletionVector(
      std::shared_ptr<arrow::RecordBatch> batch, int64_t first_row) {
    auto begin =
        std::lower_bound(deleted_.begin(), deleted_.end(), static_cast<uint64_t>(first_row));
    auto end = std::lower_bound(deleted_.begin(), deleted_.end(),
                                static_cast<uint64_t>(first_row + batch->num_rows()));
    if (begin == end) return batch;
    arrow::BooleanBuilder keep;
    ARROW_RETURN_NOT_OK(keep.Reserve(batch->num_rows()));
    auto next_deleted = begin;
    for (int64_t row = 0; row < batch->num_rows(); ++row) {
      bool deleted = next_deleted != end && *next_deleted == static_cast<uint64_t>(first_row + row);
      if (deleted) ++next_deleted;
      keep.UnsafeAppend(!deleted);
    }
    counters_->deleted_rows += end - begin;
    ARROW_ASSIGN_OR_RAISE(auto mask, keep.Finish());
    ARROW_ASSIGN_OR_RAISE(auto filtered, arrow::compute::Filter(arrow::Datum(batch), mask));
    return filtered.record_batch();
  }

  std::shared_ptr<const ReaderContext> context_;
  ReadTask task_;
  PieceCounters* counters_;
  std::shared_ptr<std::atomic<int64_t>> bytes_read_;
  bool opened_ = false;
  std::shared_ptr<parquet::arrow::FileReader> reader_;
  std::shared_ptr<arrow::RecordBatchReader> batches_;
  int64_t rows_without_columns_ = 0;
  int64_t next_row_ = 0;
  std::vector<uint64_t> deleted_;
  /// Per output column: the file column name ("" when absent or a partition column).
  std::vector<std::string> file_columns_;
  /// The materialized row tracking columns this file has (read for `_metadata`).
  std::vector<std::string> materialized_;
  std::map<size_t, std::shared_ptr<arrow::Scalar>> partition_values_;
};

// Reads the pieces of one partition, one after the other.
class DeltaPartitionReader : public PartitionReader {
 public:
  DeltaPartitionReader(std::shared_ptr<const ReaderContext> context, std::vector<ReadTask> pieces)
      : context_(std::move(context)), pieces_(std::move(pieces)) {}

  Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    while (!done_) {
      if (current_ == nullptr) {
        if (next_piece_ == pieces_.size()) {
          done_ = true;
          break;
        }
        current_ = std::make_unique<PieceReader>(context_, pieces_[next_piece_++], &counters_);
      }
      auto next = current_->Next();
      if (!next.ok()) {
        done_ = true;
        return next.status();
      }
      if (*next != nullptr) return next;
      current_.reset();
    }
    return nullptr;
  }

  std::vector<CustomTaskMetric> CurrentMetricsValues() const override {
    return {{kBytesReadMetric, counters_.bytes_read->load()},
            {kFilesReadMetric, counters_.files_read},
            {kDeletedRowsMetric, counters_.deleted_rows},
            {kRowsFilteredMetric, counters_.rows_filtered.load()}};
  }

 private:
  std::shared_ptr<const ReaderContext> context_;
  std::vector<ReadTask> pieces_;
  PieceCounters counters_;
  size_t next_piece_ = 0;
  std::unique_ptr<PieceReader> current_;
  bool done_ = false;
};

class DeltaReaderFactory : public PartitionReaderFactory {
 public:
  explicit DeltaReaderFactory(std::shared_ptr<const ReaderContext> context)
      : context_(std::move(context)) {}

  Result<std::unique_ptr<PartitionReader>> CreateReader(
      const InputPartition& partition) const override {
    auto* delta = dynamic_cast<const DeltaInputPartition*>(&partition);
    if (delta == nullptr) {
      return InvalidError("INTERNAL_ERROR",
                          "The Delta connector was given a partition of another connector.");
    }
    return std::make_unique<DeltaPartitionReader>(context_, delta->pieces());
  }

  Result<std::string> Serialize() const override {
    const ReadSpec& spec = context_->spec;
    ARROW_ASSIGN_OR_RAISE(auto row_filter, cp::Serialize(spec.row_filter));
    return json{{"kind", kFactoryKind},
                {"location", spec.location},
                {"schema", spec.schema_json},
                {"mode", ModeName(spec.mode)},
                {"partitionColumns", spec.partition_columns},
                {"readColumns", spec.read_columns},
                {"rowTracking", spec.row_tracking},
                {"materializedRowId", spec.materialized_row_id},
                {"materializedRowCommitVersion", spec.materialized_row_commit_version},
                {"metadataFields", spec.metadata_fields},
                {"rowFilter", arrow::util::base64_encode(row_filter->ToString())}}
        .dump();
  }

  Result<std::shared_ptr<InputPartition>> DeserializePartition(
      std::string_view bytes) const override {
    return DecodePartition(bytes);
  }

 private:
  std::shared_ptr<const ReaderContext> context_;
};

}  // namespace

std::shared_ptr<InputPartition> MakeDeltaPartition(std::vector<ReadTask> pieces) {
  return std::make_shared<DeltaInputPartition>(std::move(pieces));
}

Result<std::shared_ptr<PartitionReaderFactory>> MakeDeltaReaderFactory(ReadSpec spec) {
  ARROW_ASSIGN_OR_RAISE(auto context, MakeContext(std::move(spec)));
  return std::make_shared<DeltaReaderFactory>(std::move(context));
}

Result<std::shared_ptr<PartitionReaderFactory>> DeserializeDeltaReaderFactory(
    std::string_view bytes) {
  json in = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  auto strings = [&](const char* key, std::vector<std::string>* out) {
    if (!in.contains(key) || !in[key].is_array()) return false;
    for (const auto& item : in[key]) {
      if (!item.is_string()) return false;
      out->push_back(item.get<std::string>());
    }
    return true;
  };
  ReadSpec spec;
  if (in.is_discarded() || !in.is_object() || in.value("kind", "") != kFactoryKind ||
      !in.contains("location") || !in["location"].is_string() || !in.contains("schema") ||
      !in["schema"].is_string() || !in.contains("mode") || !in["mode"].is_string() ||
      !strings("partitionColumns", &spec.partition_columns) ||
      !strings("readColumns", &spec.read_columns) || !in.contains("rowTracking") ||
      !in["rowTracking"].is_boolean() || !in.contains("materializedRowId") ||
      !in["materializedRowId"].is_string() || !in.contains("materializedRowCommitVersion") ||
      !in["materializedRowCommitVersion"].is_string() ||
      !strings("metadataFields", &spec.metadata_fields) || !in.contains("rowFilter") ||
      !in["rowFilter"].is_string()) {
    return NotSerializable("reader factory", "expected a parley-delta-factory JSON object");
  }
  auto row_filter_bytes = arrow::util::base64_decode(in["rowFilter"].get<std::string>());
  if (!row_filter_bytes.ok()) {
    return NotSerializable("reader factory", row_filter_bytes.status().message());
  }
  auto row_filter = cp::Deserialize(arrow::Buffer::FromString(*std::move(row_filter_bytes)));
  if (!row_filter.ok()) return NotSerializable("reader factory", row_filter.status().message());
  spec.row_filter = *std::move(row_filter);
  spec.row_tracking = in["rowTracking"].get<bool>();
  spec.materialized_row_id = in["materializedRowId"].get<std::string>();
  spec.materialized_row_commit_version = in["materializedRowCommitVersion"].get<std::string>();
  spec.location = in["location"].get<std::string>();
  spec.schema_json = in["schema"].get<std::string>();
  auto mode = ColumnMappingModeOf({{"delta.columnMapping.mode", in["mode"].get<std::string>()}});
  if (!mode.ok()) return NotSerializable("reader factory", mode.status().message());
  spec.mode = *mode;
  auto factory = MakeDeltaReaderFactory(std::move(spec));
  if (!factory.ok()) return NotSerializable("reader factory", factory.status().message());
  return factory;
}

std::vector<std::shared_ptr<CustomMetric>> DeltaMetrics() {
  return {std::make_shared<CustomSumMetric>(kBytesReadMetric, "bytes read from data files"),
          std::make_shared<CustomSumMetric>(kFilesReadMetric, "data files read"),
          std::make_shared<CustomSumMetric>(kDeletedRowsMetric, "rows dropped by deletion vectors"),
          std::make_shared<CustomSumMetric>(kRowsFilteredMetric,
                                            "rows dropped by pushed predicates while decoding")};
}

}  // namespace parley::delta
