// The task side of a files-table write: the writer factory, the writers and their commit
// messages, and the encodings of the factory and messages (JSON, with the schema as base64 Arrow
// IPC).
//
// A writer stages one task attempt's rows under _temporary/<query_id>/<task_id>/. Each batch is
// split by the Hive partition columns with Arrow's HivePartitioning::Partition (which also drops
// those columns, as Hive files do not hold them), and each partition directory gets one file,
// kept open until the attempt commits: `part-<partition>-<query_id>-<task_id>.<format>`, unique
// to the attempt. Files are written with Arrow's writers (Parquet with Snappy, CSV with a header
// line when the table's `header` option is set, ORC) and JSON lines with nlohmann/json (Arrow
// has no JSON writer; null fields are left out, as Spark does). Commit() closes the files and
// returns a message naming each one with its partition directory, bytes and rows; Abort()
// deletes the attempt's staging directory.
#include <nlohmann/json.hpp>

#include <cctype>
#include <map>
#include <utility>

#include "arrow/adapters/orc/adapter.h"
#include "arrow/array.h"
#include "arrow/buffer.h"
#include "arrow/csv/writer.h"
#include "arrow/dataset/partition.h"
#include "arrow/io/memory.h"
#include "arrow/ipc/reader.h"
#include "arrow/ipc/writer.h"
#include "arrow/record_batch.h"
#include "arrow/util/base64.h"
#include "connectors/files/files_options.h"
#include "connectors/files/files_writer.h"
#include "files_commit.h"
#include "parley/connector/filesystem.h"
#include "parley/connector/metrics.h"
#include "parquet/arrow/writer.h"
#include "parquet/properties.h"

namespace parley::files {
namespace {

namespace afs = arrow::fs;
namespace ds = arrow::dataset;
using nlohmann::json;

constexpr char kRowsWrittenMetric[] = "rowsWritten";

std::string FileExtension(FileFormatKind format) {
  switch (format) {
    case FileFormatKind::kParquet: return ".parquet";
    case FileFormatKind::kCsv: return ".csv";
    case FileFormatKind::kJson: return ".json";
    case FileFormatKind::kOrc: return ".orc";
  }
  return ".parquet";
}

Status NotSerializable(std::string_view what, std::string_view detail) {
  return InvalidError("CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
                      "The files connector cannot rebuild a " + std::string(what) +
                          " from its bytes: " + std::string(detail) + ".");
}

// ---- Format writers: one open data file.

class FormatWriter {
 public:
  virtual ~FormatWriter() = default;
  /// \brief Append rows (the data columns).
  virtual Status Write(const arrow::RecordBatch& batch) = 0;
  /// \brief Write what ends the file (a footer); the caller closes the stream.
  virtual Status Finish() = 0;
};

class ParquetWriter : public FormatWriter {
 public:
  static Result<std::unique_ptr<FormatWriter>> Open(
      const std::shared_ptr<arrow::Schema>& schema,
      const std::shared_ptr<arrow::io::OutputStream>& sink) {
    auto properties =
        parquet::WriterProperties::Builder().compression(arrow::Compression::SNAPPY)->build();
    auto arrow_properties = parquet::ArrowWriterProperties::Builder().store_schema()->build();
    ARROW_ASSIGN_OR_RAISE(
        auto writer, parquet::arrow::FileWriter::Open(*schema, arrow::default_memory_pool(), sink,
                                                      properties, arrow_properties));
    return std::unique_ptr<FormatWriter>(new ParquetWriter(std::move(writer)));
  }
  Status Write(const arrow::RecordBatch& batch) override {
    return writer_->WriteRecordBatch(batch);
  }
  Status Finish() override { return writer_->Close(); }

 private:
  explicit ParquetWriter(std::unique_ptr<parquet::arrow::FileWriter> writer)
      : writer_(std::move(writer)) {}
  std::unique_ptr<parquet::arrow::FileWriter> writer_;
};

class CsvWriter : public FormatWriter {
 public:
  static Result<std::unique_ptr<FormatWriter>> Open(
      const ReadOptions& options, const std::shared_ptr<arrow::Schema>& schema,
      const std::shared_ptr<arrow::io::OutputStream>& sink) {
    auto write = arrow::csv::WriteOptions::Defaults();
    write.include_header = options.header;
    write.delimiter = options.delimiter;
    write.null_string = options.null_value;
    ARROW_ASSIGN_OR_RAISE(auto writer, arrow::csv::MakeCSVWriter(sink, schema, write));
    return std::unique_ptr<FormatWriter>(new CsvWriter(std::move(writer)));
  }
  Status Write(const arrow::RecordBatch& batch) override {
    return writer_->WriteRecordBatch(batch);
  }
  Status Finish() override { return writer_->Close(); }

 private:
  explicit CsvWriter(std::shared_ptr<arrow::ipc::RecordBatchWriter> writer)
      : writer_(std::move(writer)) {}
  std::shared_ptr<arrow::ipc::RecordBatchWriter> writer_;
};

class OrcWriter : public FormatWriter {
 public:
  static Result<std::unique_ptr<FormatWriter>> Open(
      const std::shared_ptr<arrow::io::OutputStream>& sink) {
    ARROW_ASSIGN_OR_RAISE(auto writer, arrow::adapters::orc::ORCFileWriter::Open(sink.get()));
    return std::unique_ptr<FormatWriter>(new OrcWriter(std::move(writer), sink));
  }
  Status Write(const arrow::RecordBatch& batch) override { return writer_->Write(batch); }
  Status Finish() override { return writer_->Close(); }

 private:
  OrcWriter(std::unique_ptr<arrow::adapters::orc::ORCFileWriter> writer,
            std::shared_ptr<arrow::io::OutputStream> sink)
      : writer_(std::move(writer)), sink_(std::move(sink)) {}
  std::unique_ptr<arrow::adapters::orc::ORCFileWriter> writer_;
  std::shared_ptr<arrow::io::OutputStream> sink_;  // the ORC writer only borrows it
};

// The JSON value of row `row` of `array` (which is valid there). Types JSON has no form for
// (dates, timestamps, decimals, binary) are written as Arrow prints them.
Result<json> JsonValue(const arrow::Array& array, int64_t row);

template <typename ArrayType>
json Number(const arrow::Array& array, int64_t row) {
  return static_cast<const ArrayType&>(array).Value(row);
}

template <typename ListType>
Result<json> JsonList(const arrow::Array& array, int64_t row) {
  const auto& list = static_cast<const ListType&>(array);
  json out = json::array();
  const auto& values = *list.values();
  for (int64_t i = list.value_offset(row); i < list.value_offset(row) + list.value_length(row);
       ++i) {
    if (values.IsNull(i)) {
      out.push_back(nullptr);
    } else {
      ARROW_ASSIGN_OR_RAISE(auto value, JsonValue(values, i));
      out.push_back(std::move(value));
    }
  }
  return out;
}

Result<json> JsonObject(const arrow::StructArray& array, int64_t row) {
  json out = json::object();
  for (int i = 0; i < array.num_fields(); ++i) {
    const auto& child = *array.field(i);
    if (child.IsNull(row)) continue;
    ARROW_ASSIGN_OR_RAISE(out[array.struct_type()->field(i)->name()], JsonValue(child, row));
  }
  return out;
}

Result<json> JsonValue(const arrow::Array& array, int64_t row) {
  switch (array.type_id()) {
    case arrow::Type::BOOL: return Number<arrow::BooleanArray>(array, row);
    case arrow::Type::INT8: return Number<arrow::Int8Array>(array, row);
    case arrow::Type::INT16: return Number<arrow::Int16Array>(array, row);
    case arrow::Type::INT32: return Number<arrow::Int32Array>(array, row);
    case arrow::Type::INT64: return Number<arrow::Int64Array>(array, row);
    case arrow::Type::UINT8: return Number<arrow::UInt8Array>(array, row);
    case arrow::Type::UINT16: return Number<arrow::UInt16Array>(array, row);
    case arrow::Type::UINT32: return Number<arrow::UInt32Array>(array, row);
    case arrow::Type::UINT64: return Number<arrow::UInt64Array>(array, row);
    case arrow::Type::FLOAT: return Number<arrow::FloatArray>(array, row);
    case arrow::Type::DOUBLE: return Number<arrow::DoubleArray>(array, row);
    case arrow::Type::STRING:
      return json(static_cast<const arrow::StringArray&>(array).GetString(row));
    case arrow::Type::LARGE_STRING:
      return json(static_cast<const arrow::LargeStringArray&>(array).GetString(row));
    case arrow::Type::STRUCT: return JsonObject(static_cast<const arrow::StructArray&>(array), row);
    case arrow::Type::LIST: return JsonList<arrow::ListArray>(array, row);
    case arrow::Type::LARGE_LIST: return JsonList<arrow::LargeListArray>(array, row);
    default: {
      ARROW_ASSIGN_OR_RAISE(auto scalar, array.GetScalar(row));
      return json(scalar->ToString());
    }
  }
}

class JsonLinesWriter : public FormatWriter {
 public:
  explicit JsonLinesWriter(std::shared_ptr<arrow::io::OutputStream> sink)
      : sink_(std::move(sink)) {}
  Status Write(const arrow::RecordBatch& batch) override {
    ARROW_ASSIGN_OR_RAISE(auto rows, batch.ToStructArray());
    std::string text;
    for (int64_t row = 0; row < rows->length(); ++row) {
      ARROW_ASSIGN_OR_RAISE(auto object, JsonObject(*rows, row));
      text += object.dump(-1, ' ', false, json::error_handler_t::replace);
      text += '\n';
    }
    return sink_->Write(text);
  }
  Status Finish() override { return Status::OK(); }

 private:
  std::shared_ptr<arrow::io::OutputStream> sink_;
};

Result<std::unique_ptr<FormatWriter>> OpenFormatWriter(
    const ReadOptions& options, const std::shared_ptr<arrow::Schema>& schema,
    const std::shared_ptr<arrow::io::OutputStream>& sink) {
  switch (options.format) {
    case FileFormatKind::kParquet: return ParquetWriter::Open(schema, sink);
    case FileFormatKind::kCsv: return CsvWriter::Open(options, schema, sink);
    case FileFormatKind::kOrc: return OrcWriter::Open(sink);
    case FileFormatKind::kJson: return std::make_unique<JsonLinesWriter>(sink);
  }
  return Status::Invalid("unknown file format");
}

// ---- Writers.

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

Status CheckWriteSchema(const std::string& table_name, const arrow::Schema& expected,
                        const arrow::Schema& actual) {
  const std::string prefix = "Cannot write incompatible data for the table " + table_name + ": ";
  for (int i = 0; i < expected.num_fields(); ++i) {
    const auto& want = expected.field(i);
    if (i >= actual.num_fields()) {
      return InvalidError(
          "INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_FIND_DATA",
          prefix + "Cannot find data for the output column " + QuoteIdentifier(want->name()) + ".");
    }
    const auto& got = actual.field(i);
    if (Lower(got->name()) != Lower(want->name())) {
      return InvalidError("INCOMPATIBLE_DATA_FOR_TABLE.UNEXPECTED_COLUMN_NAME",
                          prefix + "The column " + std::to_string(i + 1) +
                              " name does not match: expected " + QuoteIdentifier(want->name()) +
                              ", found " + QuoteIdentifier(got->name()) + ".");
    }
    if (!got->type()->Equals(*want->type())) {
      return InvalidError("INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST",
                          prefix + "Cannot safely cast " + QuoteIdentifier(want->name()) + " " +
                              got->type()->ToString() + " to " + want->type()->ToString() + ".");
    }
  }
  if (actual.num_fields() > expected.num_fields()) {
    return InvalidError("INCOMPATIBLE_DATA_FOR_TABLE.EXTRA_COLUMNS",
                        prefix + "Cannot write extra columns " +
                            QuoteIdentifier(actual.field(expected.num_fields())->name()) + ".");
  }
  return Status::OK();
}

namespace {

// What the factory and its writers share; immutable.
struct WriterContext {
  WriteSpec spec;
  ReadOptions options;
  std::shared_ptr<afs::FileSystem> filesystem;
  std::shared_ptr<arrow::Schema> data_schema;          // spec.schema without the partition columns
  std::shared_ptr<ds::HivePartitioning> partitioning;  // null when unpartitioned
};

std::string JoinPath(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a + "/" + b;
}

class FilesDataWriter : public DataWriter {
 public:
  FilesDataWriter(std::shared_ptr<const WriterContext> context, int partition_id, int64_t task_id)
      : context_(std::move(context)), partition_id_(partition_id), task_id_(task_id) {}

  ~FilesDataWriter() override {
    if (Status closed = CloseFiles(); !closed.ok()) closed.Warn();
  }

  Status Write(const arrow::RecordBatch& batch) override {
    ARROW_RETURN_NOT_OK(
        CheckWriteSchema(context_->spec.table_name, *context_->spec.schema, *batch.schema()));
    auto shared = arrow::RecordBatch::Make(batch.schema(), batch.num_rows(), batch.columns());
    if (context_->partitioning == nullptr) return WriteTo("", *shared);
    ARROW_ASSIGN_OR_RAISE(auto parts, context_->partitioning->Partition(shared));
    for (size_t i = 0; i < parts.batches.size(); ++i) {
      ARROW_ASSIGN_OR_RAISE(auto path, context_->partitioning->Format(parts.expressions[i]));
      std::string directory = path.directory;
      while (!directory.empty() && directory.back() == '/') directory.pop_back();
      ARROW_RETURN_NOT_OK(WriteTo(directory, *parts.batches[i]));
    }
    return Status::OK();
  }

  Result<CommitMessagePtr> Commit() override {
    ARROW_RETURN_NOT_OK(CloseFiles());
    auto message = std::make_shared<FilesCommitMessage>();
    message->query_id = context_->spec.query_id;
    message->partition_id = partition_id_;
    message->task_id = task_id_;
    message->files = closed_;
    return message;
  }

  Status Abort() override {
    if (Status closed = CloseFiles(); !closed.ok()) closed.Warn();  // the files go anyway
    const std::string staging =
        JoinPath(context_->spec.root_dir, TaskStagingDir(context_->spec.query_id, task_id_));
    Status deleted = context_->filesystem->DeleteDir(staging);
    if (deleted.ok()) return deleted;
    ARROW_ASSIGN_OR_RAISE(auto info, context_->filesystem->GetFileInfo(staging));
    return info.type() == afs::FileType::NotFound ? Status::OK() : deleted;
  }

  Status Close() override { return CloseFiles(); }

  std::vector<CustomTaskMetric> CurrentMetricsValues() const override {
    int64_t bytes = 0, rows = 0;
    for (const auto& file : closed_) {
      bytes += file.bytes;
      rows += file.rows;
    }
    for (const auto& [directory, open] : open_) {
      auto position = open.sink->Tell();
      if (position.ok()) bytes += *position;
      rows += open.file.rows;
    }
    return {{kBytesWrittenMetric, bytes},
            {kFilesWrittenMetric, static_cast<int64_t>(closed_.size() + open_.size())},
            {kRowsWrittenMetric, rows}};
  }

 private:
  struct OpenFile {
    StagedFile file;
    std::shared_ptr<arrow::io::OutputStream> sink;
    std::unique_ptr<FormatWriter> writer;
  };

  Status WriteTo(const std::string& directory, const arrow::RecordBatch& batch) {
    if (batch.num_rows() == 0) return Status::OK();
    auto it = open_.find(directory);
    if (it == open_.end()) {
      ARROW_ASSIGN_OR_RAISE(auto opened, OpenFileIn(directory));
      it = open_.emplace(directory, std::move(opened)).first;
    }
    ARROW_RETURN_NOT_OK(it->second.writer->Write(batch));
    it->second.file.rows += batch.num_rows();
    return Status::OK();
  }

  Result<OpenFile> OpenFileIn(const std::string& directory) {
    const WriteSpec& spec = context_->spec;
    OpenFile open;
    open.file.partition_dir = directory;
    open.file.name = "part-" + std::to_string(100000 + partition_id_).substr(1) + "-" +
                     spec.query_id + "-" + std::to_string(task_id_) + FileExtension(spec.format);
    open.file.staged_path =
        JoinPath(JoinPath(TaskStagingDir(spec.query_id, task_id_), directory), open.file.name);
    const std::string staged_dir =
        JoinPath(spec.root_dir, JoinPath(TaskStagingDir(spec.query_id, task_id_), directory));
    ARROW_RETURN_NOT_OK(context_->filesystem->CreateDir(staged_dir, /*recursive=*/true));
    ARROW_ASSIGN_OR_RAISE(open.sink, context_->filesystem->OpenOutputStream(
                                         JoinPath(spec.root_dir, open.file.staged_path)));
    ARROW_ASSIGN_OR_RAISE(open.writer,
                          OpenFormatWriter(context_->options, context_->data_schema, open.sink));
    return open;
  }

  // Finish and close every open file, recording it; the first failure is returned.
  Status CloseFiles() {
    Status status;
    for (auto& [directory, open] : open_) {
      Status finished = open.writer->Finish();
      if (finished.ok()) {
        auto size = open.sink->Tell();
        if (size.ok()) open.file.bytes = *size;
        finished = size.status();
      }
      Status closed = open.sink->Close();
      if (status.ok()) status = finished.ok() ? closed : finished;
      closed_.push_back(std::move(open.file));
    }
    open_.clear();
    return status;
  }

  std::shared_ptr<const WriterContext> context_;
  const int partition_id_;
  const int64_t task_id_;
  std::map<std::string, OpenFile> open_;
  std::vector<StagedFile> closed_;
};

// ---- The factory and the encodings.

json EncodeSpec(const WriteSpec& spec, const std::string& schema_base64) {
  return {{"format", FormatName(spec.format)}, {"options", spec.options},
          {"table_name", spec.table_name},     {"filesystem_uri", spec.filesystem_uri},
          {"root_dir", spec.root_dir},         {"query_id", spec.query_id},
          {"schema", schema_base64},           {"partition_columns", spec.partition_columns}};
}

class FilesWriterFactory : public DataWriterFactory {
 public:
  explicit FilesWriterFactory(std::shared_ptr<const WriterContext> context)
      : context_(std::move(context)) {}

  Result<std::unique_ptr<DataWriter>> CreateWriter(int partition_id, int64_t task_id) override {
    return std::make_unique<FilesDataWriter>(context_, partition_id, task_id);
  }

  Result<std::string> Serialize() const override {
    ARROW_ASSIGN_OR_RAISE(auto schema, arrow::ipc::SerializeSchema(*context_->spec.schema));
    return EncodeSpec(context_->spec, arrow::util::base64_encode(std::string_view(*schema))).dump();
  }

 private:
  std::shared_ptr<const WriterContext> context_;
};

Result<FileFormatKind> ParseFormat(const std::string& name) {
  for (auto kind : {FileFormatKind::kParquet, FileFormatKind::kCsv, FileFormatKind::kJson,
                    FileFormatKind::kOrc}) {
    if (name == FormatName(kind)) return kind;
  }
  return NotSerializable("writer factory", "unknown file format '" + name + "'");
}

Result<WriteSpec> DecodeSpec(std::string_view bytes) {
  try {
    json document = json::parse(bytes);
    WriteSpec spec;
    ARROW_ASSIGN_OR_RAISE(spec.format, ParseFormat(document.at("format").get<std::string>()));
    spec.options = document.at("options").get<Options>();
    spec.table_name = document.at("table_name").get<std::string>();
    spec.filesystem_uri = document.at("filesystem_uri").get<std::string>();
    spec.root_dir = document.at("root_dir").get<std::string>();
    spec.query_id = document.at("query_id").get<std::string>();
    spec.partition_columns = document.at("partition_columns").get<std::vector<std::string>>();
    ARROW_ASSIGN_OR_RAISE(auto schema_bytes,
                          arrow::util::base64_decode(document.at("schema").get<std::string>()));
    arrow::io::BufferReader reader(arrow::Buffer::FromString(std::move(schema_bytes)));
    arrow::ipc::DictionaryMemo memo;
    ARROW_ASSIGN_OR_RAISE(spec.schema, arrow::ipc::ReadSchema(&reader, &memo));
    return spec;
  } catch (const json::exception& error) {
    return NotSerializable("writer factory", error.what());
  }
}

}  // namespace

std::string StagedFile::FinalPath() const { return JoinPath(partition_dir, name); }

Result<std::string> FilesCommitMessage::Serialize() const {
  json files = json::array();
  for (const auto& file : this->files) {
    files.push_back({{"staged_path", file.staged_path},
                     {"partition_dir", file.partition_dir},
                     {"name", file.name},
                     {"bytes", file.bytes},
                     {"rows", file.rows}});
  }
  return json{{"query_id", query_id},
              {"partition_id", partition_id},
              {"task_id", task_id},
              {"files", std::move(files)}}
      .dump();
}

std::shared_ptr<ds::HivePartitioning> MakeHivePartitioning(
    std::shared_ptr<arrow::Schema> partition_schema) {
  return std::make_shared<ds::HivePartitioning>(std::move(partition_schema), arrow::ArrayVector{},
                                                kHiveNullFallback);
}

Result<std::shared_ptr<DataWriterFactory>> MakeWriterFactory(WriteSpec spec) {
  auto context = std::make_shared<WriterContext>();
  ARROW_ASSIGN_OR_RAISE(context->options, ParseReadOptions(spec.format, spec.options));
  std::string ignored_path;
  ARROW_ASSIGN_OR_RAISE(context->filesystem, OpenFileSystem(spec.filesystem_uri, &ignored_path));
  arrow::FieldVector data_fields, partition_fields;
  for (const auto& field : spec.schema->fields()) {
    bool partition = false;
    for (const auto& name : spec.partition_columns) partition = partition || name == field->name();
    if (!partition) data_fields.push_back(field);
  }
  for (const auto& name : spec.partition_columns) {
    auto field = spec.schema->GetFieldByName(name);
    if (field == nullptr) {
      return InvalidError("PARTITION_COLUMN_NOT_FOUND_IN_SCHEMA",
                          "Partition column " + QuoteIdentifier(name) + " not found in schema " +
                              spec.schema->ToString() + ".");
    }
    partition_fields.push_back(field);
  }
  context->data_schema = arrow::schema(std::move(data_fields));
  if (!partition_fields.empty()) {
    context->partitioning = MakeHivePartitioning(arrow::schema(std::move(partition_fields)));
  }
  context->spec = std::move(spec);
  return std::make_shared<FilesWriterFactory>(std::move(context));
}

Result<std::shared_ptr<DataWriterFactory>> DeserializeWriterFactory(std::string_view bytes) {
  auto spec = DecodeSpec(bytes);
  if (!spec.ok()) return spec.status();
  auto factory = MakeWriterFactory(*std::move(spec));
  if (!factory.ok()) return NotSerializable("writer factory", factory.status().message());
  return factory;
}

Result<std::shared_ptr<FilesCommitMessage>> DeserializeCommitMessage(std::string_view bytes) {
  try {
    json document = json::parse(bytes);
    auto message = std::make_shared<FilesCommitMessage>();
    message->query_id = document.at("query_id").get<std::string>();
    message->partition_id = document.at("partition_id").get<int>();
    message->task_id = document.at("task_id").get<int64_t>();
    for (const auto& entry : document.at("files")) {
      StagedFile file;
      file.staged_path = entry.at("staged_path").get<std::string>();
      file.partition_dir = entry.at("partition_dir").get<std::string>();
      file.name = entry.at("name").get<std::string>();
      file.bytes = entry.at("bytes").get<int64_t>();
      file.rows = entry.at("rows").get<int64_t>();
      message->files.push_back(std::move(file));
    }
    return message;
  } catch (const json::exception& error) {
    return NotSerializable("commit message", error.what());
  }
}

std::vector<std::shared_ptr<CustomMetric>> WriteMetrics() {
  return {std::make_shared<CustomSumMetric>(kBytesWrittenMetric, "bytes written"),
          std::make_shared<CustomSumMetric>(kFilesWrittenMetric, "files written"),
          std::make_shared<CustomSumMetric>(kRowsWrittenMetric, "rows written")};
}

}  // namespace parley::files
