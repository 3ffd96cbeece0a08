// The executor side of a files scan: input partitions, the reader factory, the readers, and
// the byte encodings through which partitions and factories cross to executors.
//
// Encodings are sequences of length-prefixed fields (`<decimal length>:<bytes>`), so paths and
// binary values need no escaping:
//   partition  "parley-files-partition", piece count, then per piece: path, file size, range
//              offset, range length (-1: whole file), row groups ("0,3,4"), and the partition
//              expression serialized with arrow::compute::Serialize
//   factory    "parley-files-factory", format, filesystem URI, option count and key/value
//              pairs, the table schema as an Arrow IPC schema message, partition column names,
//              read column names, limit, the narrowed read columns (nested schema pruning)
//              as an IPC schema message, and the row filter serialized with
//              arrow::compute::Serialize
// Rebuilding validates every field and fails with
// CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE otherwise; no live handle is encoded, the
// filesystem is made again from its URI.
//
// A reader reads its pieces in order. Parquet pieces whose read columns are all flat and of
// fixed width, under a row filter with a simple conjunct, go through the filtered reader
// (connectors/common/parquet_filtered_reader.h), which drops rejected rows while decoding.
// Other Parquet pieces use Parquet's Arrow reader directly: the planned row groups, only the
// leaf columns of the read columns, string columns stored as dictionary indexes decoded as
// dictionaries (connectors/common/parquet_dictionary.h). Shape() then names, casts and
// completes the columns. ORC and CSV pieces go through Arrow Dataset: a
// fragment of the format (a CSV fragment over a line range) scanned with a projection of the
// read columns. JSON pieces use Arrow's JSON reader directly with the table's data columns as its
// explicit schema: Arrow's JSON fragment derives that schema from each file's first block, which
// would silently drop fields first seen later in a file. Every file is opened through a counting
// filesystem, whose total is the task's bytesRead.
#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arrow/array/util.h"
#include "arrow/buffer.h"
#include "arrow/compute/cast.h"
#include "arrow/dataset/file_base.h"
#include "arrow/dataset/scanner.h"
#include "arrow/io/memory.h"
#include "arrow/ipc/reader.h"
#include "arrow/ipc/writer.h"
#include "arrow/json/reader.h"
#include "arrow/record_batch.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "connectors/common/dictionary_strings.h"
#include "connectors/common/parquet_dictionary.h"
#include "connectors/common/parquet_filtered_reader.h"
#include "connectors/files/files_format.h"
#include "connectors/files/files_io.h"
#include "connectors/files/files_listing.h"
#include "connectors/files/files_options.h"
#include "connectors/files/files_reader.h"
#include "connectors/files/files_table.h"
#include "parley/connector/filesystem.h"
#include "parley/connector/metrics.h"
#include "parley/connector/status.h"
#include "parquet/arrow/reader.h"
#include "parquet/arrow/schema.h"
#include "parquet/exception.h"

namespace parley::files {
namespace {

namespace cp = arrow::compute;
namespace ds = arrow::dataset;

constexpr std::string_view kPartitionTag = "parley-files-partition";
constexpr std::string_view kFactoryTag = "parley-files-factory";
constexpr char kFilesReadMetric[] = "filesRead";
constexpr char kRowGroupsReadMetric[] = "rowGroupsRead";
constexpr char kRowsFilteredMetric[] = "rowsFiltered";
constexpr int64_t kParquetBatchRows = 64 * 1024;

Status NotSerializable(std::string_view what, std::string_view bytes, std::string_view detail) {
  std::string shown;
  for (char c : bytes.substr(0, 80)) shown += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (bytes.size() > 80) shown += "...";
  return InvalidError("CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
                      "The files connector cannot rebuild a " + std::string(what) +
                          " from the bytes '" + shown + "': " + std::string(detail) + ".");
}

// ---- Length-prefixed fields.

class Encoder {
 public:
  void Add(std::string_view field) {
    out_ += std::to_string(field.size());
    out_ += ':';
    out_.append(field);
  }
  void AddInt(int64_t value) { Add(std::to_string(value)); }
  std::string Finish() { return std::move(out_); }

 private:
  std::string out_;
};

class Decoder {
 public:
  explicit Decoder(std::string_view bytes) : rest_(bytes) {}

  bool Next(std::string_view* field) {
    size_t colon = rest_.find(':');
    uint64_t length = 0;
    if (colon == std::string_view::npos || colon == 0) return false;
    auto [end, error] = std::from_chars(rest_.data(), rest_.data() + colon, length);
    if (error != std::errc() || end != rest_.data() + colon || length > rest_.size() - colon - 1) {
      return false;
    }
    *field = rest_.substr(colon + 1, length);
    rest_.remove_prefix(colon + 1 + length);
    return true;
  }
  bool NextInt(int64_t* value) {
    std::string_view field;
    if (!Next(&field) || field.empty()) return false;
    auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), *value);
    return error == std::errc() && end == field.data() + field.size();
  }
  bool NextString(std::string* value) {
    std::string_view field;
    if (!Next(&field)) return false;
    *value = std::string(field);
    return true;
  }
  bool done() const { return rest_.empty(); }

 private:
  std::string_view rest_;
};

bool ParseRowGroups(std::string_view text, std::vector<int>* out) {
  if (text.empty()) return true;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    int value = 0;
    auto [end, error] = std::from_chars(text.data() + start, text.data() + comma, value);
    if (error != std::errc() || end != text.data() + comma || value < 0 ||
        (!out->empty() && value <= out->back())) {
      return false;
    }
    out->push_back(value);
    start = comma + 1;
  }
  return true;
}

// ---- Partitions.

class FilesInputPartition : public InputPartition {
 public:
  explicit FilesInputPartition(std::vector<FilePiece> pieces) : pieces_(std::move(pieces)) {}

  Result<std::string> Serialize() const override {
    Encoder encoder;
    encoder.Add(kPartitionTag);
    encoder.AddInt(static_cast<int64_t>(pieces_.size()));
    for (const auto& piece : pieces_) {
      encoder.Add(piece.path);
      encoder.AddInt(piece.file_size);
      encoder.AddInt(piece.offset);
      encoder.AddInt(piece.length);
      std::string row_groups;
      for (int id : piece.row_groups) {
        if (!row_groups.empty()) row_groups += ',';
        row_groups += std::to_string(id);
      }
      encoder.Add(row_groups);
      ARROW_ASSIGN_OR_RAISE(auto expression, cp::Serialize(piece.partition));
      encoder.Add(std::string_view(reinterpret_cast<const char*>(expression->data()),
                                   static_cast<size_t>(expression->size())));
    }
    return encoder.Finish();
  }

  const std::vector<FilePiece>& pieces() const { return pieces_; }

 private:
  std::vector<FilePiece> pieces_;
};

Result<std::shared_ptr<InputPartition>> DecodePartition(std::string_view bytes) {
  constexpr std::string_view kExpected =
      "expected a parley-files-partition encoding (see files_reader.cc)";
  Decoder decoder(bytes);
  std::string_view tag;
  int64_t count = 0;
  if (!decoder.Next(&tag) || tag != kPartitionTag || !decoder.NextInt(&count) || count < 0) {
    return NotSerializable("partition", bytes, kExpected);
  }
  std::vector<FilePiece> pieces;
  for (int64_t i = 0; i < count; ++i) {
    FilePiece piece;
    std::string_view row_groups, expression;
    if (!decoder.NextString(&piece.path) || !decoder.NextInt(&piece.file_size) ||
        !decoder.NextInt(&piece.offset) || !decoder.NextInt(&piece.length) ||
        !decoder.Next(&row_groups) || !decoder.Next(&expression) || piece.file_size < 0 ||
        piece.offset < 0 || piece.length < -1 || !ParseRowGroups(row_groups, &piece.row_groups)) {
      return NotSerializable("partition", bytes, kExpected);
    }
    auto partition = cp::Deserialize(arrow::Buffer::FromString(std::string(expression)));
    if (!partition.ok()) {
      return NotSerializable("partition", bytes,
                             "bad partition expression: " + partition.status().message());
    }
    piece.partition = *std::move(partition);
    pieces.push_back(std::move(piece));
  }
  if (!decoder.done()) return NotSerializable("partition", bytes, kExpected);
  return std::make_shared<FilesInputPartition>(std::move(pieces));
}

// ---- What every reader of one scan shares: immutable.

struct ReaderContext {
  TaskSpec spec;
  std::shared_ptr<arrow::fs::FileSystem> filesystem;
  std::shared_ptr<ds::FileFormat> format;
  std::shared_ptr<arrow::Schema> read_schema;
  /// The non-partition columns of the table, in order (CSV names them by position).
  std::shared_ptr<arrow::Schema> data_schema;
  /// The non-partition read columns (JSON's explicit schema).
  std::shared_ptr<arrow::Schema> read_data_schema;
};

Result<std::shared_ptr<const ReaderContext>> MakeContext(TaskSpec spec) {
  auto context = std::make_shared<ReaderContext>();
  const auto& schema = *spec.table_schema;
  std::set<std::string> partition_columns;
  for (const auto& name : spec.partition_columns) {
    if (schema.GetFieldIndex(name) < 0) {
      return Status::Invalid("partition column ", QuoteIdentifier(name), " is not in the table");
    }
    partition_columns.insert(name);
  }
  arrow::FieldVector read_fields, data_fields, read_data_fields;
  for (const auto& name : spec.read_columns) {
    auto field = schema.GetFieldByName(name);
    if (field == nullptr) {
      return Status::Invalid("read column ", QuoteIdentifier(name), " is not in the table");
    }
    if (auto narrowed = spec.narrowed->GetFieldByName(name)) field = narrowed;
    read_fields.push_back(field);
    if (!partition_columns.contains(name)) read_data_fields.push_back(field);
  }
  for (const auto& field : schema.fields()) {
    if (!partition_columns.contains(field->name())) data_fields.push_back(field);
  }
  context->read_schema = arrow::schema(std::move(read_fields));
  context->data_schema = arrow::schema(std::move(data_fields));
  context->read_data_schema = arrow::schema(std::move(read_data_fields));
  ARROW_ASSIGN_OR_RAISE(context->format, MakeArrowFormat(spec.options));
  ARROW_ASSIGN_OR_RAISE(context->filesystem, OpenFileSystem(spec.filesystem_uri));
  context->spec = std::move(spec);
  return context;
}

// ---- Readers.

class FilesPartitionReader : public PartitionReader {
 public:
  FilesPartitionReader(std::shared_ptr<const ReaderContext> context, std::vector<FilePiece> pieces)
      : context_(std::move(context)),
        pieces_(std::move(pieces)),
        bytes_read_(std::make_shared<std::atomic<int64_t>>(0)),
        rows_dropped_(std::make_shared<std::atomic<int64_t>>(0)),
        filesystem_(MakeCountingFileSystem(context_->filesystem, bytes_read_)),
        remaining_(context_->spec.limit) {}

  ~FilesPartitionReader() override { CloseCurrent(); }

  Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    while (remaining_ != 0) {
      if (current_ == nullptr) {
        if (next_piece_ == pieces_.size()) return nullptr;
        const FilePiece& piece = pieces_[next_piece_++];
        auto opened = OpenPiece(piece);
        if (!opened.ok()) return Failed(piece, opened.status());
        current_ = *std::move(opened);
        if (current_ == nullptr) continue;  // an empty line range
        known_ = PartitionValues(piece.partition);
      }
      const FilePiece& piece = pieces_[next_piece_ - 1];
      std::shared_ptr<arrow::RecordBatch> batch;
      Status read = current_->ReadNext(&batch);
      if (!read.ok()) return Failed(piece, read);
      if (batch == nullptr) {
        CloseCurrent();
        continue;
      }
      auto shaped = Shape(*batch);
      if (!shaped.ok()) return Failed(piece, shaped.status());
      std::shared_ptr<arrow::RecordBatch> out = *std::move(shaped);
      if (remaining_ > 0) {
        if (out->num_rows() >= remaining_) {
          out = out->Slice(0, remaining_);
          CloseCurrent();
        }
        remaining_ -= out->num_rows();
      }
      if (out->num_rows() > 0) return out;
    }
    return nullptr;
  }

  std::vector<CustomTaskMetric> CurrentMetricsValues() const override {
    return {{kBytesReadMetric, bytes_read_->load()},
            {kFilesReadMetric, static_cast<int64_t>(files_opened_.size())},
            {kRowGroupsReadMetric, row_groups_read_},
            {kRowsFilteredMetric, rows_dropped_->load()}};
  }

 private:
  Status Failed(const FilePiece& piece, const Status& status) {
    CloseCurrent();
    remaining_ = 0;
    if (!ErrorCondition(status).empty()) return status;
    return FileReadError(DisplayPath(*context_->filesystem, piece.path), status);
  }

  void CloseCurrent() {
    if (current_ != nullptr) {
      // Closing early (a reached limit) only stops the scan; its status carries nothing.
      (void)current_->Close();
      current_.reset();
    }
  }

  arrow::fs::FileInfo Info(const FilePiece& piece) const {
    arrow::fs::FileInfo info(piece.path, arrow::fs::FileType::File);
    info.set_size(piece.file_size);
    return info;
  }

  // A reader of the piece's batches, or nullptr when the piece holds no line.
  Result<std::shared_ptr<arrow::RecordBatchReader>> OpenPiece(const FilePiece& piece) {
    const ReadOptions& options = context_->spec.options;
    files_opened_.insert(piece.path);
    row_groups_read_ += static_cast<int64_t>(piece.row_groups.size());
    std::shared_ptr<arrow::io::RandomAccessFile> range;
    if (piece.length >= 0) {
      ARROW_ASSIGN_OR_RAISE(auto file, filesystem_->OpenInputFile(Info(piece)));
      const bool csv_header = options.format == FileFormatKind::kCsv && options.header;
      ARROW_ASSIGN_OR_RAISE(range, OpenLineRange(std::move(file), piece.file_size, piece.offset,
                                                 piece.length, csv_header));
      ARROW_ASSIGN_OR_RAISE(int64_t size, range->GetSize());
      if (size == 0) return nullptr;
    }
    if (options.format == FileFormatKind::kJson) return OpenJson(piece, std::move(range));
    if (options.format == FileFormatKind::kParquet) return OpenParquet(piece);

    ARROW_ASSIGN_OR_RAISE(int64_t range_size, range ? range->GetSize() : Result<int64_t>(0));
    ds::FileSource source =
        range ? ds::FileSource(range, range_size) : ds::FileSource(Info(piece), filesystem_);
    ARROW_ASSIGN_OR_RAISE(auto fragment, context_->format->MakeFragment(source, piece.partition));
    ds::ScannerBuilder builder(context_->spec.table_schema, std::move(fragment),
                               std::make_shared<ds::ScanOptions>());
    ARROW_RETURN_NOT_OK(builder.Project(context_->spec.read_columns));
    ARROW_RETURN_NOT_OK(builder.UseThreads(false));
    if (options.format == FileFormatKind::kCsv) {
      // A line range has already left the header out; a whole (compressed) file skips it.
      int skip_rows = range == nullptr && options.header ? 1 : 0;
      ARROW_RETURN_NOT_OK(builder.FragmentScanOptions(
          MakeCsvScanOptions(options, *context_->data_schema, skip_rows)));
    }
    ARROW_ASSIGN_OR_RAISE(auto scanner, builder.Finish());
    return scanner->ToRecordBatchReader();
  }

  // A Parquet piece: its row groups, the leaf columns of the read data columns present in the
  // file (matched by name; Shape() fills in the others).
  Result<std::shared_ptr<arrow::RecordBatchReader>> OpenParquet(const FilePiece& piece) {
    ARROW_ASSIGN_OR_RAISE(auto file, filesystem_->OpenInputFile(Info(piece)));
    try {
      parquet::arrow::FileReaderBuilder builder;
      ARROW_RETURN_NOT_OK(builder.Open(std::move(file)));
      parquet::ArrowReaderProperties properties;
      properties.set_batch_size(kParquetBatchRows);
      ReadDictionaryEncodedStrings(*builder.raw_reader()->metadata(), &properties);
      builder.properties(properties);
      ARROW_ASSIGN_OR_RAISE(std::shared_ptr<parquet::arrow::FileReader> reader, builder.Build());
      std::vector<int> leaves;
      for (const auto& column : reader->manifest().schema_fields) {
        if (auto wanted = context_->read_data_schema->GetFieldByName(column.field->name())) {
          AddLeaves(column, wanted->type().get(), &leaves);
        }
      }
      std::sort(leaves.begin(), leaves.end());
      ARROW_ASSIGN_OR_RAISE(
          auto filtered,
          MakeFilteredParquetReader(reader, piece.row_groups, leaves, context_->spec.row_filter,
                                    kParquetBatchRows, rows_dropped_.get()));
      if (filtered != nullptr) return filtered;
      ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::RecordBatchReader> batches,
                            reader->GetRecordBatchReader(piece.row_groups, leaves));
      return std::make_shared<ParquetBatchReader>(std::move(reader), std::move(batches));
    } catch (const parquet::ParquetException& error) {
      return Status::IOError(error.what());
    }
  }

  // The leaf column indexes of `column` that `wanted` keeps: all of them, unless both are
  // structs and `wanted` (a narrowed column) names some of the fields (nullptr: all).
  static void AddLeaves(const parquet::arrow::SchemaField& column, const arrow::DataType* wanted,
                        std::vector<int>* leaves) {
    if (column.is_leaf()) {
      leaves->push_back(column.column_index);
      return;
    }
    const bool narrow = wanted != nullptr && wanted->id() == arrow::Type::STRUCT &&
                        column.field->type()->id() == arrow::Type::STRUCT;
    for (const auto& child : column.children) {
      if (!narrow) {
        AddLeaves(child, nullptr, leaves);
        continue;
      }
      auto kept =
          static_cast<const arrow::StructType&>(*wanted).GetFieldByName(child.field->name());
      if (kept != nullptr) AddLeaves(child, kept->type().get(), leaves);
    }
  }

  // The batches of a Parquet file reader, which it keeps open; Parquet's exceptions become
  // errors.
  class ParquetBatchReader : public arrow::RecordBatchReader {
   public:
    ParquetBatchReader(std::shared_ptr<parquet::arrow::FileReader> file,
                       std::shared_ptr<arrow::RecordBatchReader> batches)
        : file_(std::move(file)), batches_(std::move(batches)) {}
    std::shared_ptr<arrow::Schema> schema() const override { return batches_->schema(); }
    Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
      try {
        return batches_->ReadNext(batch);
      } catch (const parquet::ParquetException& error) {
        return Status::IOError(error.what());
      }
    }

   private:
    std::shared_ptr<parquet::arrow::FileReader> file_;
    std::shared_ptr<arrow::RecordBatchReader> batches_;
  };

  Result<std::shared_ptr<arrow::RecordBatchReader>> OpenJson(
      const FilePiece& piece, std::shared_ptr<arrow::io::RandomAccessFile> range) {
    std::shared_ptr<arrow::io::InputStream> input = range;
    if (input == nullptr) {
      ARROW_ASSIGN_OR_RAISE(input, ds::FileSource(Info(piece), filesystem_).OpenCompressed());
    }
    auto read = arrow::json::ReadOptions::Defaults();
    read.use_threads = false;
    auto parse = arrow::json::ParseOptions::Defaults();
    parse.explicit_schema = context_->read_data_schema;
    parse.unexpected_field_behavior = arrow::json::UnexpectedFieldBehavior::Ignore;
    parse.newlines_in_values = context_->spec.options.multi_line;
    ARROW_ASSIGN_OR_RAISE(auto reader,
                          arrow::json::StreamingReader::Make(std::move(input), read, parse));
    return reader;
  }

  // The batch with exactly the read schema: columns by name, cast when a file's type differs
  // from the table's, partition values from the piece, NULL for a column the file lacks.
  Result<std::shared_ptr<arrow::RecordBatch>> Shape(const arrow::RecordBatch& batch) const {
    const int64_t rows = batch.num_rows();
    arrow::ArrayVector columns;
    for (const auto& field : context_->read_schema->fields()) {
      std::shared_ptr<arrow::Array> column = batch.GetColumnByName(field->name());
      auto known = known_.find(field->name());
      if (known != known_.end()) {
        auto value = known->second ? known->second : arrow::MakeNullScalar(field->type());
        if (!value->type->Equals(*field->type())) {
          ARROW_ASSIGN_OR_RAISE(value, value->CastTo(field->type()));
        }
        ARROW_ASSIGN_OR_RAISE(column, arrow::MakeArrayFromScalar(*value, rows));
      } else if (column == nullptr) {
        ARROW_ASSIGN_OR_RAISE(column, arrow::MakeArrayOfNull(field->type(), rows));
      } else if (!column->type()->Equals(*field->type())) {
        ARROW_ASSIGN_OR_RAISE(auto expanded, ExpandDictionaryStrings(*column, field->type()));
        if (expanded != nullptr) {
          column = std::move(expanded);
        } else {
          ARROW_ASSIGN_OR_RAISE(column, cp::Cast(*column, field->type()));
        }
      }
      columns.push_back(std::move(column));
    }
    return arrow::RecordBatch::Make(context_->read_schema, rows, std::move(columns));
  }

  std::shared_ptr<const ReaderContext> context_;
  std::vector<FilePiece> pieces_;
  std::shared_ptr<std::atomic<int64_t>> bytes_read_;
  std::shared_ptr<std::atomic<int64_t>> rows_dropped_;  // by the filtered Parquet reader
  std::shared_ptr<arrow::fs::FileSystem> filesystem_;   // counts into bytes_read_
  int64_t remaining_;                                   // rows left under the limit; -1: none
  size_t next_piece_ = 0;
  std::shared_ptr<arrow::RecordBatchReader> current_;
  std::map<std::string, std::shared_ptr<arrow::Scalar>> known_;  // the piece's partition
  std::set<std::string> files_opened_;
  int64_t row_groups_read_ = 0;
};

class FilesReaderFactory : public PartitionReaderFactory {
 public:
  explicit FilesReaderFactory(std::shared_ptr<const ReaderContext> context)
      : context_(std::move(context)) {}

  Result<std::unique_ptr<PartitionReader>> CreateReader(
      const InputPartition& partition) const override {
    auto* files = dynamic_cast<const FilesInputPartition*>(&partition);
    if (files == nullptr) {
      return InvalidError("INTERNAL_ERROR",
                          "The files connector was given a partition of another connector.");
    }
    return std::make_unique<FilesPartitionReader>(context_, files->pieces());
  }

  Result<std::string> Serialize() const override {
    const TaskSpec& spec = context_->spec;
    Encoder encoder;
    encoder.Add(kFactoryTag);
    encoder.Add(FormatName(spec.options.format));
    encoder.Add(spec.filesystem_uri);
    encoder.AddInt(static_cast<int64_t>(spec.options.raw.size()));
    for (const auto& [key, value] : spec.options.raw) {
      encoder.Add(key);
      encoder.Add(value);
    }
    ARROW_ASSIGN_OR_RAISE(auto schema, arrow::ipc::SerializeSchema(*spec.table_schema));
    encoder.Add(std::string_view(reinterpret_cast<const char*>(schema->data()),
                                 static_cast<size_t>(schema->size())));
    for (const auto* names : {&spec.partition_columns, &spec.read_columns}) {
      encoder.AddInt(static_cast<int64_t>(names->size()));
      for (const auto& name : *names) encoder.Add(name);
    }
    encoder.AddInt(spec.limit);
    ARROW_ASSIGN_OR_RAISE(auto narrowed, arrow::ipc::SerializeSchema(*spec.narrowed));
    encoder.Add(std::string_view(reinterpret_cast<const char*>(narrowed->data()),
                                 static_cast<size_t>(narrowed->size())));
    ARROW_ASSIGN_OR_RAISE(auto row_filter, cp::Serialize(spec.row_filter));
    encoder.Add(std::string_view(reinterpret_cast<const char*>(row_filter->data()),
                                 static_cast<size_t>(row_filter->size())));
    return encoder.Finish();
  }

  Result<std::shared_ptr<InputPartition>> DeserializePartition(
      std::string_view bytes) const override {
    return DecodePartition(bytes);
  }

 private:
  std::shared_ptr<const ReaderContext> context_;
};

bool DecodeNames(Decoder* decoder, std::vector<std::string>* names) {
  int64_t count = 0;
  if (!decoder->NextInt(&count) || count < 0) return false;
  for (int64_t i = 0; i < count; ++i) {
    std::string name;
    if (!decoder->NextString(&name)) return false;
    names->push_back(std::move(name));
  }
  return true;
}

void CollectPartitionValues(const cp::Expression& expression,
                            std::map<std::string, std::shared_ptr<arrow::Scalar>>* out) {
  const cp::Expression::Call* call = expression.call();
  if (call == nullptr) return;
  const auto& args = call->arguments;
  if (call->function_name == "and_kleene" || call->function_name == "and") {
    for (const auto& arg : args) CollectPartitionValues(arg, out);
  } else if (call->function_name == "equal" && args.size() == 2 && args[0].field_ref() &&
             args[0].field_ref()->name() && args[1].literal() && args[1].literal()->is_scalar()) {
    (*out)[*args[0].field_ref()->name()] = args[1].literal()->scalar();
  } else if (call->function_name == "is_null" && args.size() == 1 && args[0].field_ref() &&
             args[0].field_ref()->name()) {
    (*out)[*args[0].field_ref()->name()] = nullptr;
  }
}

}  // namespace

std::map<std::string, std::shared_ptr<arrow::Scalar>> PartitionValues(
    const cp::Expression& partition) {
  std::map<std::string, std::shared_ptr<arrow::Scalar>> values;
  CollectPartitionValues(partition, &values);
  return values;
}

std::shared_ptr<InputPartition> MakeInputPartition(std::vector<FilePiece> pieces) {
  return std::make_shared<FilesInputPartition>(std::move(pieces));
}

Result<std::shared_ptr<PartitionReaderFactory>> MakeReaderFactory(TaskSpec spec) {
  ARROW_RETURN_NOT_OK(EnsureArrowComputeInitialized());
  ARROW_ASSIGN_OR_RAISE(auto context, MakeContext(std::move(spec)));
  return std::make_shared<FilesReaderFactory>(std::move(context));
}

Result<std::shared_ptr<PartitionReaderFactory>> DeserializeReaderFactory(std::string_view bytes) {
  constexpr std::string_view kExpected =
      "expected a parley-files-factory encoding (see files_reader.cc)";
  Decoder decoder(bytes);
  std::string_view tag, format_name, schema_bytes, narrowed_bytes, row_filter_bytes;
  TaskSpec spec;
  int64_t option_count = 0;
  if (!decoder.Next(&tag) || tag != kFactoryTag || !decoder.Next(&format_name) ||
      !decoder.NextString(&spec.filesystem_uri) || !decoder.NextInt(&option_count) ||
      option_count < 0) {
    return NotSerializable("reader factory", bytes, kExpected);
  }
  Options raw;
  for (int64_t i = 0; i < option_count; ++i) {
    std::string key, value;
    if (!decoder.NextString(&key) || !decoder.NextString(&value)) {
      return NotSerializable("reader factory", bytes, kExpected);
    }
    raw[std::move(key)] = std::move(value);
  }
  if (!decoder.Next(&schema_bytes) || !DecodeNames(&decoder, &spec.partition_columns) ||
      !DecodeNames(&decoder, &spec.read_columns) || !decoder.NextInt(&spec.limit) ||
      spec.limit < -1 || !decoder.Next(&narrowed_bytes) || !decoder.Next(&row_filter_bytes) ||
      !decoder.done()) {
    return NotSerializable("reader factory", bytes, kExpected);
  }
  std::optional<FileFormatKind> format;
  for (auto kind : {FileFormatKind::kParquet, FileFormatKind::kCsv, FileFormatKind::kJson,
                    FileFormatKind::kOrc}) {
    if (format_name == FormatName(kind)) format = kind;
  }
  if (!format) return NotSerializable("reader factory", bytes, "unknown file format");
  auto options = ParseReadOptions(*format, raw);
  if (!options.ok()) return NotSerializable("reader factory", bytes, options.status().message());
  spec.options = *std::move(options);
  arrow::io::BufferReader schema_reader(arrow::Buffer::FromString(std::string(schema_bytes)));
  arrow::ipc::DictionaryMemo memo;
  auto schema = arrow::ipc::ReadSchema(&schema_reader, &memo);
  if (!schema.ok()) return NotSerializable("reader factory", bytes, schema.status().message());
  spec.table_schema = *std::move(schema);
  arrow::io::BufferReader narrowed_reader(arrow::Buffer::FromString(std::string(narrowed_bytes)));
  auto narrowed = arrow::ipc::ReadSchema(&narrowed_reader, &memo);
  if (!narrowed.ok()) {
    return NotSerializable("reader factory", bytes, narrowed.status().message());
  }
  spec.narrowed = *std::move(narrowed);
  auto row_filter = cp::Deserialize(arrow::Buffer::FromString(std::string(row_filter_bytes)));
  if (!row_filter.ok()) {
    return NotSerializable("reader factory", bytes, row_filter.status().message());
  }
  spec.row_filter = *std::move(row_filter);
  auto factory = MakeReaderFactory(std::move(spec));
  if (!factory.ok()) return NotSerializable("reader factory", bytes, factory.status().message());
  return factory;
}

std::vector<std::shared_ptr<CustomMetric>> FilesMetrics() {
  return {std::make_shared<CustomSumMetric>(kBytesReadMetric, "bytes read from storage"),
          std::make_shared<CustomSumMetric>(kFilesReadMetric, "files read"),
          std::make_shared<CustomSumMetric>(kRowGroupsReadMetric, "Parquet row groups read"),
          std::make_shared<CustomSumMetric>(kRowsFilteredMetric,
                                            "rows the reader dropped by pushed filters")};
}

}  // namespace parley::files
