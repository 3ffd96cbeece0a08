// The task side of a Delta write: the writer factory, the writers and their commit messages.
//
// A writer puts data files straight into the table directory: nothing is visible until a commit
// in `_delta_log` adds them, so no staging area is needed. Each batch is split by the partition
// columns (Arrow's Grouper); each partition gets one Parquet file (Snappy), kept open until the
// attempt commits, named `part-<partition>-<uuid>.c000.snappy.parquet` under Hive-style
// directories `<physical column>=<escaped value>`. Partition columns are left out of the files;
// data columns are written under their physical names (and field ids in `id` column mapping
// mode). Commit() closes the files and returns their `add` actions with statistics; Abort()
// deletes them. The factory and the messages serialize as JSON. A change data writer puts
// `cdc-...` files under `_change_data/` with the `_change_type` column, and a rewrite may add
// the materialized row tracking columns (WriteSpec).
#include <nlohmann/json.hpp>

#include <random>
#include <string>
#include <utility>

#include "arrow/array.h"
#include "arrow/builder.h"
#include "arrow/compute/api_vector.h"
#include "arrow/compute/row/grouper.h"
#include "arrow/filesystem/filesystem.h"
#include "arrow/record_batch.h"
#include "arrow/type.h"

#include "connectors/delta/log/actions.h"
#include "connectors/delta/log/values.h"
#include "connectors/delta/util.h"
#include "connectors/delta/write/data_writer.h"
#include "parley/connector/changelog.h"
#include "parquet/arrow/writer.h"
#include "parquet/properties.h"

namespace parley::delta {
namespace {

using nlohmann::json;
namespace cp = arrow::compute;

// Characters Hive escapes in partition directory names.
bool NeedsHiveEscape(unsigned char c) {
  if (c < 0x20 || c == 0x7F) return true;
  switch (c) {
    case '"':
    case '#':
    case '%':
    case '\'':
    case '*':
    case '/':
    case ':':
    case '=':
    case '?':
    case '\\':
    case '{':
    case '[':
    case ']':
    case '^': return true;
    default: return false;
  }
}

std::string Escape(std::string_view text, bool (*needs_escape)(unsigned char)) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (needs_escape(c)) {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

// What a URI path may hold as is; everything else is percent-encoded in the log's `path`.
bool NeedsUriEscape(unsigned char c) {
  return !(std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/' || c == '=');
}

// Everything the factory and its writers share; immutable.
struct WriterContext {
  WriteSpec spec;
  std::shared_ptr<arrow::fs::FileSystem> filesystem;
  std::string root;
  std::shared_ptr<arrow::Schema> annotated_schema;
  // Indices (in the written rows) of the partition columns and of the data columns.
  std::vector<int> partition_indices;
  std::vector<int> data_indices;
  // Physical names of the partition columns, in partition_indices order.
  std::vector<std::string> partition_physical_names;
  // The schema of the data files.
  std::shared_ptr<arrow::Schema> file_schema;
};

Result<std::shared_ptr<const WriterContext>> MakeContext(WriteSpec spec) {
  auto context = std::make_shared<WriterContext>();
  ARROW_ASSIGN_OR_RAISE(auto opened, OpenLocation(spec.location));
  context->filesystem = std::move(opened.first);
  context->root = std::move(opened.second);
  ARROW_ASSIGN_OR_RAISE(context->annotated_schema, SchemaFromDeltaJson(spec.schema_json));
  const auto& schema = *context->annotated_schema;
  std::vector<std::shared_ptr<arrow::Field>> data_fields;
  for (int i = 0; i < schema.num_fields(); ++i) {
    const auto& field = schema.field(i);
    bool is_partition = std::find(spec.partition_columns.begin(), spec.partition_columns.end(),
                                  field->name()) != spec.partition_columns.end();
    if (is_partition) {
      context->partition_indices.push_back(i);
      context->partition_physical_names.push_back(PhysicalName(*field, spec.mode));
    } else {
      context->data_indices.push_back(i);
      data_fields.push_back(field);
    }
  }
  auto physical = PhysicalSchema(arrow::Schema(data_fields), spec.mode);
  arrow::FieldVector file_fields = physical->fields();
  int next = schema.num_fields();
  if (spec.change_data) {
    context->data_indices.push_back(next++);
    file_fields.push_back(arrow::field(kChangeTypeColumn, arrow::utf8()));
  }
  if (!spec.materialized_row_id.empty() && !spec.materialized_row_commit_version.empty()) {
    for (const auto* name : {&spec.materialized_row_id, &spec.materialized_row_commit_version}) {
      context->data_indices.push_back(next++);
      file_fields.push_back(arrow::field(*name, arrow::int64()));
    }
  }
  context->file_schema = arrow::schema(std::move(file_fields));
  context->spec = std::move(spec);
  return context;
}

class DeltaCommitMessage : public WriterCommitMessage {
 public:
  explicit DeltaCommitMessage(std::vector<FileAction> adds) : adds_(std::move(adds)) {}
  const std::vector<FileAction>& adds() const { return adds_; }
  Result<std::string> Serialize() const override {
    json lines = json::array();
    for (const auto& add : adds_) lines.push_back(FileActionToJson(add, /*is_add=*/true));
    return lines.dump();
  }

 private:
  std::vector<FileAction> adds_;
};

// One open data file of a writer.
struct OpenFile {
  std::string relative_path;  // as it goes into the log, before URI encoding
  std::map<std::string, std::optional<std::string>> partition_values;
  std::shared_ptr<arrow::io::OutputStream> sink;
  std::unique_ptr<parquet::arrow::FileWriter> writer;
  std::unique_ptr<StatisticsCollector> stats;
};

class DeltaDataWriter : public DataWriter {
 public:
  DeltaDataWriter(std::shared_ptr<const WriterContext> context, int partition_id)
      : context_(std::move(context)), partition_id_(partition_id) {}

  Status Write(const arrow::RecordBatch& batch) override {
    if (batch.num_rows() == 0) return Status::OK();
    if (context_->partition_indices.empty()) return WriteTo("", {}, batch);
    std::vector<arrow::Datum> keys;
    std::vector<arrow::TypeHolder> types;
    for (int index : context_->partition_indices) {
      keys.emplace_back(batch.column(index));
      types.emplace_back(batch.column(index)->type());
    }
    ARROW_ASSIGN_OR_RAISE(auto grouper, cp::Grouper::Make(types));
    ARROW_ASSIGN_OR_RAISE(auto ids,
                          grouper->Consume(cp::ExecSpan(cp::ExecBatch(keys, batch.num_rows()))));
    ARROW_ASSIGN_OR_RAISE(
        auto groupings,
        cp::Grouper::MakeGroupings(*ids.array_as<arrow::UInt32Array>(), grouper->num_groups()));
    for (uint32_t group = 0; group < grouper->num_groups(); ++group) {
      auto rows = groupings->value_slice(group);
      ARROW_ASSIGN_OR_RAISE(auto taken, cp::Take(arrow::Datum(batch.Slice(0)), arrow::Datum(rows)));
      const auto& part = *taken.record_batch();
      std::string directory;
      std::map<std::string, std::optional<std::string>> values;
      for (size_t k = 0; k < context_->partition_indices.size(); ++k) {
        ARROW_ASSIGN_OR_RAISE(auto scalar,
                              part.column(context_->partition_indices[k])->GetScalar(0));
        ARROW_ASSIGN_OR_RAISE(auto text, FormatPartitionValue(*scalar));
        const std::string& name = context_->partition_physical_names[k];
        values[name] = text;
        directory += Escape(name, NeedsHiveEscape) + "=" +
                     (text ? Escape(*text, NeedsHiveEscape) : "__HIVE_DEFAULT_PARTITION__") + "/";
      }
      ARROW_RETURN_NOT_OK(WriteTo(directory, std::move(values), part));
    }
    return Status::OK();
  }

  Result<CommitMessagePtr> Commit() override {
    std::vector<FileAction> adds;
    for (auto& [directory, file] : files_) {
      ARROW_RETURN_NOT_OK(file.writer->Close());
      ARROW_RETURN_NOT_OK(file.sink->Close());
      std::string path = context_->root + "/" + file.relative_path;
      ARROW_ASSIGN_OR_RAISE(auto info, context_->filesystem->GetFileInfo(path));
      FileAction add;
      add.path = Escape(file.relative_path, NeedsUriEscape);
      add.partition_values = file.partition_values;
      add.size = info.size();
      add.modification_time =
          std::chrono::duration_cast<std::chrono::milliseconds>(info.mtime().time_since_epoch())
              .count();
      add.data_change = !context_->spec.change_data;
      if (!context_->spec.change_data) add.stats = file.stats->ToJson();
      bytes_written_ += info.size();
      adds.push_back(std::move(add));
    }
    files_written_ = static_cast<int64_t>(adds.size());
    files_.clear();
    return std::make_shared<DeltaCommitMessage>(std::move(adds));
  }

  Status Abort() override {
    Status status;
    for (auto& [directory, file] : files_) {
      // Close errors do not matter: the file is deleted next.
      (void)file.writer->Close();
      (void)file.sink->Close();
      status &= context_->filesystem->DeleteFile(context_->root + "/" + file.relative_path);
    }
    files_.clear();
    return status;
  }

  std::vector<CustomTaskMetric> CurrentMetricsValues() const override {
    return {{kBytesWrittenMetric, bytes_written_}, {kFilesWrittenMetric, files_written_}};
  }

 private:
  Status WriteTo(const std::string& directory,
                 std::map<std::string, std::optional<std::string>> values,
                 const arrow::RecordBatch& rows) {
    auto it = files_.find(directory);
    if (it == files_.end()) {
      ARROW_ASSIGN_OR_RAISE(OpenFile file, Open(directory, std::move(values)));
      it = files_.emplace(directory, std::move(file)).first;
    }
    std::vector<std::shared_ptr<arrow::Array>> columns;
    for (size_t i = 0; i < context_->data_indices.size(); ++i) {
      const auto& column = rows.column(context_->data_indices[i]);
      // Physical names of nested fields differ only in names: a view changes no data.
      ARROW_ASSIGN_OR_RAISE(
          auto viewed, column->View(context_->file_schema->field(static_cast<int>(i))->type()));
      columns.push_back(std::move(viewed));
    }
    auto data = arrow::RecordBatch::Make(context_->file_schema, rows.num_rows(), columns);
    ARROW_RETURN_NOT_OK(it->second.writer->WriteRecordBatch(*data));
    return it->second.stats->Update(*data);
  }

  Result<OpenFile> Open(const std::string& directory,
                        std::map<std::string, std::optional<std::string>> values) {
    OpenFile file;
    char prefix[32];
    const bool change_data = context_->spec.change_data;
    std::snprintf(prefix, sizeof(prefix), change_data ? "cdc-%05d-" : "part-%05d-", partition_id_);
    file.relative_path = std::string(change_data ? "_change_data/" : "") + directory + prefix +
                         RandomUuid() + ".c000.snappy.parquet";
    file.partition_values = std::move(values);
    std::string path = context_->root + "/" + file.relative_path;
    if (!directory.empty() || change_data) {
      ARROW_RETURN_NOT_OK(context_->filesystem->CreateDir(path.substr(0, path.rfind('/'))));
    }
    ARROW_ASSIGN_OR_RAISE(file.sink, context_->filesystem->OpenOutputStream(path));
    // Decimals of precision <= 18 as INT32/INT64, as Spark writes them: far cheaper to decode
    // than fixed-length byte arrays.
    auto properties = parquet::WriterProperties::Builder()
                          .compression(arrow::Compression::SNAPPY)
                          ->enable_store_decimal_as_integer()
                          ->build();
    ARROW_ASSIGN_OR_RAISE(file.writer, parquet::arrow::FileWriter::Open(
                                           *context_->file_schema, arrow::default_memory_pool(),
                                           file.sink, properties));
    file.stats = std::make_unique<StatisticsCollector>(*context_->file_schema,
                                                       context_->spec.indexed_columns);
    return file;
  }

  std::shared_ptr<const WriterContext> context_;
  int partition_id_;
  std::map<std::string, OpenFile> files_;  // by partition directory
  int64_t bytes_written_ = 0;
  int64_t files_written_ = 0;
};

json EncodeSpec(const WriteSpec& spec) {
  return {{"location", spec.location},
          {"schema", spec.schema_json},
          {"mode", static_cast<int>(spec.mode)},
          {"partition_columns", spec.partition_columns},
          {"indexed_columns", spec.indexed_columns},
          {"change_data", spec.change_data},
          {"materialized_row_id", spec.materialized_row_id},
          {"materialized_row_commit_version", spec.materialized_row_commit_version}};
}

Status NotSerializable(const std::string& what, const std::string& detail) {
  return InvalidError(
      "CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
      "The Delta " + what + " could not be rebuilt from its bytes: " + detail + ".");
}

class DeltaWriterFactory : public DataWriterFactory {
 public:
  explicit DeltaWriterFactory(std::shared_ptr<const WriterContext> context)
      : context_(std::move(context)) {}
  Result<std::unique_ptr<DataWriter>> CreateWriter(int partition_id, int64_t) override {
    return std::make_unique<DeltaDataWriter>(context_, partition_id);
  }
  Result<std::string> Serialize() const override { return EncodeSpec(context_->spec).dump(); }

 private:
  std::shared_ptr<const WriterContext> context_;
};

}  // namespace

Result<std::shared_ptr<DataWriterFactory>> MakeDeltaWriterFactory(WriteSpec spec) {
  ARROW_ASSIGN_OR_RAISE(auto context, MakeContext(std::move(spec)));
  return std::make_shared<DeltaWriterFactory>(std::move(context));
}

Result<std::shared_ptr<DataWriterFactory>> DeserializeDeltaWriterFactory(std::string_view bytes) {
  json document = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded() || !document.is_object()) {
    return NotSerializable("writer factory", "not a JSON object");
  }
  try {
    WriteSpec spec;
    spec.location = document.at("location").get<std::string>();
    spec.schema_json = document.at("schema").get<std::string>();
    spec.mode = static_cast<ColumnMappingMode>(document.at("mode").get<int>());
    spec.partition_columns = document.at("partition_columns").get<std::vector<std::string>>();
    spec.indexed_columns = document.at("indexed_columns").get<int>();
    spec.change_data = document.at("change_data").get<bool>();
    spec.materialized_row_id = document.at("materialized_row_id").get<std::string>();
    spec.materialized_row_commit_version =
        document.at("materialized_row_commit_version").get<std::string>();
    return MakeDeltaWriterFactory(std::move(spec));
  } catch (const json::exception& error) {
    return NotSerializable("writer factory", error.what());
  }
}

Result<std::vector<FileAction>> AddsOfMessage(const WriterCommitMessage& message) {
  auto delta = dynamic_cast<const DeltaCommitMessage*>(&message);
  if (delta == nullptr) {
    return InvalidError("CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
                        "A commit message given to a Delta write was not made by one.");
  }
  return delta->adds();
}

CommitMessagePtr MakeDeltaCommitMessage(std::vector<FileAction> adds) {
  return std::make_shared<DeltaCommitMessage>(std::move(adds));
}

Result<CommitMessagePtr> DeserializeDeltaCommitMessage(std::string_view bytes) {
  json document = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (!document.is_array()) return NotSerializable("commit message", "not a JSON array");
  std::vector<FileAction> adds;
  for (const auto& line : document) {
    CommitActions parsed;
    Status added = line.is_object() && line.contains("add")
                       ? AddAction("add", line.at("add"), &parsed)
                       : Status::Invalid("an entry is not an add action");
    if (!added.ok()) return NotSerializable("commit message", added.message());
    for (auto& change : parsed.file_changes) adds.push_back(std::move(change.file));
  }
  return std::make_shared<DeltaCommitMessage>(std::move(adds));
}

}  // namespace parley::delta
