// Classic single-file Parquet checkpoints (§4): one row per action, one nullable struct column
// per action kind, written from the actions' JSON forms so that the checkpoint holds exactly
// what a commit line would. Readers (delta_checkpoint.cc, delta-rs, delta-spark) read it back
// through the same column names.
#include <nlohmann/json.hpp>

#include <string>

#include "arrow/builder.h"
#include "arrow/filesystem/filesystem.h"
#include "arrow/io/buffered.h"
#include "arrow/io/interfaces.h"
#include "arrow/table.h"
#include "arrow/type.h"

#include "connectors/delta/log/actions.h"
#include "connectors/delta/log/checkpoint.h"
#include "connectors/delta/util.h"
#include "parquet/arrow/writer.h"
#include "parquet/properties.h"

namespace parley::delta {
namespace {

using nlohmann::json;

// Tombstones younger than this stay in checkpoints (delta.deletedFileRetentionDuration).
constexpr int64_t kTombstoneRetentionMs = 7LL * 24 * 3600 * 1000;

std::shared_ptr<arrow::DataType> StringMap() {
  return arrow::map(arrow::utf8(), arrow::field("value", arrow::utf8(), true));
}

std::shared_ptr<arrow::DataType> DeletionVectorType() {
  return arrow::struct_(
      {arrow::field("storageType", arrow::utf8()), arrow::field("pathOrInlineDv", arrow::utf8()),
       arrow::field("offset", arrow::int32()), arrow::field("sizeInBytes", arrow::int32()),
       arrow::field("cardinality", arrow::int64())});
}

std::shared_ptr<arrow::Schema> CheckpointSchema() {
  using arrow::field;
  return arrow::schema({
      field("txn", arrow::struct_({field("appId", arrow::utf8()), field("version", arrow::int64()),
                                   field("lastUpdated", arrow::int64())})),
      field("add", arrow::struct_(
                       {field("path", arrow::utf8()), field("partitionValues", StringMap()),
                        field("size", arrow::int64()), field("modificationTime", arrow::int64()),
                        field("dataChange", arrow::boolean()), field("stats", arrow::utf8()),
                        field("tags", StringMap()), field("deletionVector", DeletionVectorType()),
                        field("baseRowId", arrow::int64()),
                        field("defaultRowCommitVersion", arrow::int64())})),
      field("remove",
            arrow::struct_(
                {field("path", arrow::utf8()), field("deletionTimestamp", arrow::int64()),
                 field("dataChange", arrow::boolean()),
                 field("extendedFileMetadata", arrow::boolean()),
                 field("partitionValues", StringMap()), field("size", arrow::int64()),
                 field("deletionVector", DeletionVectorType()), field("baseRowId", arrow::int64()),
                 field("defaultRowCommitVersion", arrow::int64())})),
      field("metaData",
            arrow::struct_({field("id", arrow::utf8()), field("name", arrow::utf8()),
                            field("description", arrow::utf8()),
                            field("format", arrow::struct_({field("provider", arrow::utf8()),
                                                            field("options", StringMap())})),
                            field("schemaString", arrow::utf8()),
                            field("partitionColumns", arrow::list(arrow::utf8())),
                            field("configuration", StringMap()),
                            field("createdTime", arrow::int64())})),
      field("protocol", arrow::struct_({field("minReaderVersion", arrow::int32()),
                                        field("minWriterVersion", arrow::int32()),
                                        field("readerFeatures", arrow::list(arrow::utf8())),
                                        field("writerFeatures", arrow::list(arrow::utf8()))})),
      field("domainMetadata",
            arrow::struct_({field("domain", arrow::utf8()), field("configuration", arrow::utf8()),
                            field("removed", arrow::boolean())})),
  });
}

// Append a JSON value to a builder of the matching checkpoint type (null when absent).
Status AppendJson(arrow::ArrayBuilder* builder, const json& value) {
  if (value.is_null()) return builder->AppendNull();
  switch (builder->type()->id()) {
    case arrow::Type::STRUCT: {
      auto* structs = static_cast<arrow::StructBuilder*>(builder);
      ARROW_RETURN_NOT_OK(structs->Append());
      // type() may build a new type object: keep it alive while its fields are read.
      const std::shared_ptr<arrow::DataType> type = builder->type();
      for (int i = 0; i < type->num_fields(); ++i) {
        auto child = value.find(type->field(i)->name());
        ARROW_RETURN_NOT_OK(
            AppendJson(structs->field_builder(i), child == value.end() ? json(nullptr) : *child));
      }
      return Status::OK();
    }
    case arrow::Type::MAP: {
      auto* maps = static_cast<arrow::MapBuilder*>(builder);
      ARROW_RETURN_NOT_OK(maps->Append());
      for (const auto& [key, item] : value.items()) {
        ARROW_RETURN_NOT_OK(static_cast<arrow::StringBuilder*>(maps->key_builder())->Append(key));
        ARROW_RETURN_NOT_OK(AppendJson(maps->item_builder(), item));
      }
      return Status::OK();
    }
    case arrow::Type::LIST: {
      auto* lists = static_cast<arrow::ListBuilder*>(builder);
      ARROW_RETURN_NOT_OK(lists->Append());
      for (const auto& item : value) ARROW_RETURN_NOT_OK(AppendJson(lists->value_builder(), item));
      return Status::OK();
    }
    case arrow::Type::STRING:
      return static_cast<arrow::StringBuilder*>(builder)->Append(
          value.is_string() ? value.get<std::string>() : value.dump());
    case arrow::Type::INT64:
      return static_cast<arrow::Int64Builder*>(builder)->Append(value.get<int64_t>());
    case arrow::Type::INT32:
      return static_cast<arrow::Int32Builder*>(builder)->Append(value.get<int32_t>());
    case arrow::Type::BOOL:
      return static_cast<arrow::BooleanBuilder*>(builder)->Append(value.get<bool>());
    default: return Status::NotImplemented("checkpoint column type ", builder->type()->ToString());
  }
}

}  // namespace

Status WriteCheckpoint(arrow::fs::FileSystem& filesystem, const Snapshot& snapshot) {
  std::vector<json> rows;
  rows.push_back(ProtocolToJson(snapshot.protocol));
  rows.push_back(MetadataToJson(snapshot.metadata));
  for (const auto& [app_id, version] : snapshot.app_versions) {
    rows.push_back(TransactionToJson({app_id, version, std::nullopt}));
  }
  for (const auto& [name, domain] : snapshot.domains) rows.push_back(DomainToJson(domain));
  int64_t num_adds = 0;
  for (const auto& file : snapshot.files) {
    FileAction add = file;
    add.data_change = false;
    rows.push_back(FileActionToJson(add, /*is_add=*/true));
    ++num_adds;
  }
  const int64_t horizon = NowMillis() - kTombstoneRetentionMs;
  for (const auto& tombstone : snapshot.tombstones) {
    if (tombstone.deletion_timestamp.value_or(0) < horizon) continue;
    FileAction remove = tombstone;
    remove.data_change = false;
    rows.push_back(FileActionToJson(remove, /*is_add=*/false));
  }

  auto schema = CheckpointSchema();
  std::vector<std::unique_ptr<arrow::ArrayBuilder>> builders;
  for (const auto& field : schema->fields()) {
    ARROW_ASSIGN_OR_RAISE(auto builder, arrow::MakeBuilder(field->type()));
    builders.push_back(std::move(builder));
  }
  try {
    for (const auto& row : rows) {
      for (int i = 0; i < schema->num_fields(); ++i) {
        auto value = row.find(schema->field(i)->name());
        ARROW_RETURN_NOT_OK(
            AppendJson(builders[i].get(), value == row.end() ? json(nullptr) : *value));
      }
    }
  } catch (const json::exception& error) {
    return Status::Invalid("checkpoint row: ", error.what());
  }
  std::vector<std::shared_ptr<arrow::Array>> columns;
  for (auto& builder : builders) {
    ARROW_ASSIGN_OR_RAISE(auto column, builder->Finish());
    columns.push_back(std::move(column));
  }
  auto table = arrow::Table::Make(schema, columns);

  const std::string log_dir = LogDirectory(snapshot.table_root);
  std::string name = CommitFileName(snapshot.version);
  name = name.substr(0, name.size() - 5) + ".checkpoint.parquet";
  const std::string temporary = log_dir + "/." + name + "." + RandomUuid() + ".tmp";
  {
    // A checkpoint has many small column chunks: buffered, they reach storage in a few writes.
    ARROW_ASSIGN_OR_RAISE(auto file, filesystem.OpenOutputStream(temporary));
    ARROW_ASSIGN_OR_RAISE(auto sink, arrow::io::BufferedOutputStream::Create(
                                         1 << 20, arrow::default_memory_pool(), file));
    auto properties =
        parquet::WriterProperties::Builder().compression(arrow::Compression::SNAPPY)->build();
    ARROW_RETURN_NOT_OK(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), sink,
                                                   /*chunk_size=*/1 << 20, properties));
    ARROW_RETURN_NOT_OK(sink->Close());
  }
  ARROW_ASSIGN_OR_RAISE(auto info, filesystem.GetFileInfo(temporary));
  // Every writer of a version's checkpoint writes the same actions: replacing is harmless.
  ARROW_RETURN_NOT_OK(filesystem.Move(temporary, log_dir + "/" + name));
  json last = {{"version", snapshot.version},
               {"size", static_cast<int64_t>(rows.size())},
               {"sizeInBytes", info.size()},
               {"numOfAddFiles", num_adds}};
  const std::string last_temporary = log_dir + "/._last_checkpoint." + RandomUuid() + ".tmp";
  {
    ARROW_ASSIGN_OR_RAISE(auto sink, filesystem.OpenOutputStream(last_temporary));
    std::string body = last.dump();
    ARROW_RETURN_NOT_OK(sink->Write(body.data(), static_cast<int64_t>(body.size())));
    ARROW_RETURN_NOT_OK(sink->Close());
  }
  return filesystem.Move(last_temporary, log_dir + "/_last_checkpoint");
}

}  // namespace parley::delta
