// Checkpoints (§4). A Parquet checkpoint has one nullable struct column per action; each row
// holds one action. Rows are turned into JSON and parsed by the same code as commit lines, so
// both forms accept exactly the same actions. A V2 checkpoint (JSON or Parquet, UUID-named or
// classic-named) may list `sidecar` files under `_delta_log/_sidecars/` holding its file
// actions; they are read in turn. When a checkpoint has `stats_parsed` but no `stats` string,
// the struct is rendered back into the JSON form.
#include <nlohmann/json.hpp>

#include <string>
#include <utility>

#include "arrow/array.h"
#include "arrow/filesystem/filesystem.h"
#include "arrow/io/interfaces.h"
#include "arrow/record_batch.h"
#include "arrow/scalar.h"
#include "arrow/table.h"
#include "arrow/type.h"

#include "connectors/delta/log/actions.h"
#include "connectors/delta/log/checkpoint.h"
#include "connectors/delta/util.h"
#include "parquet/arrow/reader.h"
#include "parquet/exception.h"

namespace parley::delta {
namespace {

using nlohmann::json;

Result<json> ValueToJson(const arrow::Array& array, int64_t row);

Result<json> StructToJson(const arrow::StructArray& array, int64_t row) {
  json object = json::object();
  const auto& type = *array.struct_type();
  for (int i = 0; i < type.num_fields(); ++i) {
    ARROW_ASSIGN_OR_RAISE(object[type.field(i)->name()], ValueToJson(*array.field(i), row));
  }
  return object;
}

Result<json> ValueToJson(const arrow::Array& array, int64_t row) {
  if (array.IsNull(row)) return json(nullptr);
  switch (array.type_id()) {
    case arrow::Type::BOOL: return json(static_cast<const arrow::BooleanArray&>(array).Value(row));
    case arrow::Type::INT8: return json(static_cast<const arrow::Int8Array&>(array).Value(row));
    case arrow::Type::INT16: return json(static_cast<const arrow::Int16Array&>(array).Value(row));
    case arrow::Type::INT32: return json(static_cast<const arrow::Int32Array&>(array).Value(row));
    case arrow::Type::INT64: return json(static_cast<const arrow::Int64Array&>(array).Value(row));
    case arrow::Type::FLOAT: return json(static_cast<const arrow::FloatArray&>(array).Value(row));
    case arrow::Type::DOUBLE: return json(static_cast<const arrow::DoubleArray&>(array).Value(row));
    case arrow::Type::STRING:
    case arrow::Type::BINARY:
      return json(std::string(static_cast<const arrow::BinaryArray&>(array).GetView(row)));
    case arrow::Type::LARGE_STRING:
    case arrow::Type::LARGE_BINARY:
      return json(std::string(static_cast<const arrow::LargeBinaryArray&>(array).GetView(row)));
    case arrow::Type::STRUCT:
      return StructToJson(static_cast<const arrow::StructArray&>(array), row);
    case arrow::Type::MAP: {
      const auto& map = static_cast<const arrow::MapArray&>(array);
      json object = json::object();
      for (int64_t i = map.value_offset(row); i < map.value_offset(row + 1); ++i) {
        ARROW_ASSIGN_OR_RAISE(json key, ValueToJson(*map.keys(), i));
        ARROW_ASSIGN_OR_RAISE(json value, ValueToJson(*map.items(), i));
        object[key.is_string() ? key.get<std::string>() : key.dump()] = std::move(value);
      }
      return object;
    }
    case arrow::Type::LIST: {
      const auto& list = static_cast<const arrow::ListArray&>(array);
      json items = json::array();
      for (int64_t i = list.value_offset(row); i < list.value_offset(row + 1); ++i) {
        ARROW_ASSIGN_OR_RAISE(json item, ValueToJson(*list.values(), i));
        items.push_back(std::move(item));
      }
      return items;
    }
    default: {
      // Decimals, dates and timestamps only occur inside stats_parsed; their text form is what
      // the JSON statistics hold too.
      ARROW_ASSIGN_OR_RAISE(auto scalar, array.GetScalar(row));
      std::string text = scalar->ToString();
      json number = json::parse(text, nullptr, /*allow_exceptions=*/false);
      if (!number.is_discarded() && number.is_number()) return number;
      return json(std::move(text));
    }
  }
}

// Render `add.stats_parsed` as the `stats` JSON string when only the struct form is present.
void FillStatsFromParsed(json* add) {
  auto stats = add->find("stats");
  auto parsed = add->find("stats_parsed");
  if ((stats == add->end() || stats->is_null()) && parsed != add->end() && parsed->is_object()) {
    (*add)["stats"] = parsed->dump();
  }
}

Status ReadParquetActions(arrow::fs::FileSystem& filesystem, const std::string& path,
                          CommitActions* actions) {
  auto read = [&]() -> Status {
    ARROW_ASSIGN_OR_RAISE(auto input, filesystem.OpenInputFile(path));
    ARROW_ASSIGN_OR_RAISE(auto reader,
                          parquet::arrow::OpenFile(std::move(input), arrow::default_memory_pool()));
    ARROW_ASSIGN_OR_RAISE(auto table, reader->ReadTable());
    ARROW_ASSIGN_OR_RAISE(table, table->CombineChunks());
    ARROW_ASSIGN_OR_RAISE(auto batch, table->CombineChunksToBatch());
    for (int64_t row = 0; row < batch->num_rows(); ++row) {
      for (int c = 0; c < batch->num_columns(); ++c) {
        const arrow::Array& column = *batch->column(c);
        if (column.IsNull(row)) continue;
        const std::string& name = batch->schema()->field(c)->name();
        ARROW_ASSIGN_OR_RAISE(json body, ValueToJson(column, row));
        if (name == "add" && body.is_object()) FillStatsFromParsed(&body);
        ARROW_RETURN_NOT_OK(AddAction(name, body, actions));
      }
    }
    return Status::OK();
  };
  Status status;
  try {
    status = read();
  } catch (const parquet::ParquetException& error) {
    status = Status::IOError(error.what());
  } catch (const json::exception& error) {
    // A string that is not UTF-8 cannot be rendered as JSON text.
    status = Status::Invalid(error.what());
  }
  if (!status.ok()) return CorruptLogFile(path, status.message());
  return Status::OK();
}

Status ReadJsonActions(arrow::fs::FileSystem& filesystem, const std::string& path,
                       CommitActions* actions) {
  ARROW_ASSIGN_OR_RAISE(std::string body, ReadTextFile(filesystem, path));
  ARROW_ASSIGN_OR_RAISE(CommitActions parsed, ParseCommit(body, actions->version, path));
  if (parsed.protocol) actions->protocol = std::move(parsed.protocol);
  if (parsed.metadata) actions->metadata = std::move(parsed.metadata);
  for (auto& change : parsed.file_changes) actions->file_changes.push_back(std::move(change));
  for (auto& txn : parsed.transactions) actions->transactions.push_back(std::move(txn));
  for (auto& domain : parsed.domains) actions->domains.push_back(std::move(domain));
  return Status::OK();
}

bool EndsWith(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The sidecar paths a V2 checkpoint file names: read them again as sidecar actions, which
// AddAction ignores, so look at the raw rows.
Result<std::vector<std::string>> SidecarPaths(arrow::fs::FileSystem& filesystem,
                                              const std::string& path) {
  std::vector<std::string> sidecars;
  if (EndsWith(path, ".json")) {
    ARROW_ASSIGN_OR_RAISE(std::string body, ReadTextFile(filesystem, path));
    size_t start = 0;
    while (start < body.size()) {
      size_t end = body.find('\n', start);
      if (end == std::string::npos) end = body.size();
      json line = json::parse(body.substr(start, end - start), nullptr, false);
      start = end + 1;
      if (line.is_discarded() || !line.is_object()) continue;
      auto sidecar = line.find("sidecar");
      if (sidecar != line.end() && sidecar->is_object() && sidecar->contains("path") &&
          (*sidecar)["path"].is_string()) {
        sidecars.push_back((*sidecar)["path"].get<std::string>());
      }
    }
    return sidecars;
  }
  ARROW_ASSIGN_OR_RAISE(auto input, filesystem.OpenInputFile(path));
  std::unique_ptr<parquet::arrow::FileReader> reader;
  try {
    ARROW_ASSIGN_OR_RAISE(reader,
                          parquet::arrow::OpenFile(std::move(input), arrow::default_memory_pool()));
  } catch (const parquet::ParquetException& error) {
    return CorruptLogFile(path, error.what());
  }
  std::shared_ptr<arrow::Schema> schema;
  ARROW_RETURN_NOT_OK(reader->GetSchema(&schema));
  int index = schema->GetFieldIndex("sidecar");
  if (index < 0) return sidecars;
  std::shared_ptr<arrow::ChunkedArray> column;
  ARROW_RETURN_NOT_OK(reader->ReadColumn(index, &column));
  for (const auto& chunk : column->chunks()) {
    if (chunk->type_id() != arrow::Type::STRUCT) {
      return CorruptLogFile(path, "the 'sidecar' column is not a struct");
    }
    const auto& structs = static_cast<const arrow::StructArray&>(*chunk);
    auto paths = structs.GetFieldByName("path");
    if (paths == nullptr || paths->type_id() != arrow::Type::STRING) {
      return CorruptLogFile(path, "the 'sidecar' column has no string 'path'");
    }
    const auto& strings = static_cast<const arrow::StringArray&>(*paths);
    for (int64_t i = 0; i < structs.length(); ++i) {
      if (!structs.IsNull(i) && !strings.IsNull(i)) sidecars.emplace_back(strings.GetView(i));
    }
  }
  return sidecars;
}

}  // namespace

Result<CommitActions> ReadCheckpoint(arrow::fs::FileSystem& filesystem, const std::string& log_dir,
                                     const CheckpointFiles& checkpoint) {
  CommitActions actions;
  actions.version = checkpoint.version;
  for (const auto& path : checkpoint.paths) {
    if (EndsWith(path, ".json")) {
      ARROW_RETURN_NOT_OK(ReadJsonActions(filesystem, path, &actions));
    } else {
      ARROW_RETURN_NOT_OK(ReadParquetActions(filesystem, path, &actions));
    }
  }
  // Only a single-file checkpoint can be V2; multi-part checkpoints never have sidecars.
  if (checkpoint.paths.size() == 1) {
    ARROW_ASSIGN_OR_RAISE(auto sidecars, SidecarPaths(filesystem, checkpoint.paths[0]));
    for (const auto& sidecar : sidecars) {
      std::string path = sidecar.find('/') == std::string::npos
                             ? log_dir + "/_sidecars/" + sidecar
                             : ResolveDataPath(log_dir + "/_sidecars", sidecar);
      ARROW_RETURN_NOT_OK(ReadParquetActions(filesystem, path, &actions));
    }
  }
  return actions;
}

}  // namespace parley::delta
