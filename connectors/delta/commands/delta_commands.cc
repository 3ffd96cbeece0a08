// Delta's own commands on a loaded table: DESCRIBE HISTORY, DESCRIBE DETAIL and VACUUM (see
// delta_commands.h).
#include <nlohmann/json.hpp>

#include <set>
#include <string>

#include "arrow/builder.h"
#include "arrow/filesystem/filesystem.h"
#include "arrow/table.h"
#include "arrow/type.h"
#include "connectors/delta/commands/delta_commands.h"
#include "connectors/delta/delta_table.h"
#include "connectors/delta/log/deletion_vector.h"
#include "connectors/delta/table_state.h"
#include "connectors/delta/util.h"

namespace parley::delta {
namespace {

using nlohmann::json;

Result<const TableState*> DeltaStateOf(const Table& table, const std::string& operation) {
  const TableState* state = StateOf(table);
  if (state == nullptr) {
    return InvalidError(
        "DELTA_ONLY_OPERATION",
        operation + " is only supported for Delta tables, not for " + table.name() + ".");
  }
  return state;
}

// Appends string -> string entries of a JSON object (non-strings dumped) as one map value.
Status AppendStringMap(arrow::MapBuilder* builder, const json& object) {
  if (!object.is_object()) return builder->AppendNull();
  ARROW_RETURN_NOT_OK(builder->Append());
  auto* keys = static_cast<arrow::StringBuilder*>(builder->key_builder());
  auto* items = static_cast<arrow::StringBuilder*>(builder->item_builder());
  for (const auto& [key, value] : object.items()) {
    ARROW_RETURN_NOT_OK(keys->Append(key));
    ARROW_RETURN_NOT_OK(items->Append(value.is_string() ? value.get<std::string>() : value.dump()));
  }
  return Status::OK();
}

std::shared_ptr<arrow::DataType> StringMapType() {
  return arrow::map(arrow::utf8(), arrow::utf8());
}

const std::shared_ptr<arrow::DataType>& TimestampType() {
  static const auto type = arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
  return type;
}

}  // namespace

Result<std::shared_ptr<arrow::Table>> DescribeHistory(const Table& table,
                                                      std::optional<int64_t> limit) {
  ARROW_ASSIGN_OR_RAISE(const TableState* state, DeltaStateOf(table, "DESCRIBE HISTORY"));
  ARROW_ASSIGN_OR_RAISE(LogListing listing, ListLog(*state->filesystem, state->root));
  auto timestamps = CommitTimestamps(listing);
  arrow::Int64Builder versions, read_versions;
  arrow::TimestampBuilder times(TimestampType(), arrow::default_memory_pool());
  arrow::StringBuilder operations, isolation, engine;
  arrow::BooleanBuilder blind;
  arrow::MapBuilder parameters(arrow::default_memory_pool(),
                               std::make_shared<arrow::StringBuilder>(),
                               std::make_shared<arrow::StringBuilder>());
  arrow::MapBuilder metrics(arrow::default_memory_pool(), std::make_shared<arrow::StringBuilder>(),
                            std::make_shared<arrow::StringBuilder>());
  int64_t shown = 0;
  for (auto it = listing.commits.rbegin(); it != listing.commits.rend(); ++it) {
    if (it->version > state->snapshot->version) continue;
    if (limit && shown == *limit) break;
    ++shown;
    ARROW_ASSIGN_OR_RAISE(CommitActions actions,
                          ReadCommit(*state->filesystem, state->root, it->version));
    json info = actions.commit_info.empty() ? json::object() : json::parse(actions.commit_info);
    ARROW_RETURN_NOT_OK(versions.Append(it->version));
    ARROW_RETURN_NOT_OK(times.Append(timestamps[it->version] * 1000));
    auto text = [&](const char* key, arrow::StringBuilder* builder) {
      auto value = info.find(key);
      return value != info.end() && value->is_string() ? builder->Append(value->get<std::string>())
                                                       : builder->AppendNull();
    };
    ARROW_RETURN_NOT_OK(text("operation", &operations));
    ARROW_RETURN_NOT_OK(AppendStringMap(&parameters, info.value("operationParameters", json())));
    auto read_version = info.find("readVersion");
    ARROW_RETURN_NOT_OK(read_version != info.end() && read_version->is_number_integer()
                            ? read_versions.Append(read_version->get<int64_t>())
                            : read_versions.AppendNull());
    ARROW_RETURN_NOT_OK(text("isolationLevel", &isolation));
    auto blind_append = info.find("isBlindAppend");
    ARROW_RETURN_NOT_OK(blind_append != info.end() && blind_append->is_boolean()
                            ? blind.Append(blind_append->get<bool>())
                            : blind.AppendNull());
    ARROW_RETURN_NOT_OK(AppendStringMap(&metrics, info.value("operationMetrics", json())));
    ARROW_RETURN_NOT_OK(text("engineInfo", &engine));
  }
  auto schema = arrow::schema(
      {arrow::field("version", arrow::int64()), arrow::field("timestamp", TimestampType()),
       arrow::field("operation", arrow::utf8()),
       arrow::field("operationParameters", StringMapType()),
       arrow::field("readVersion", arrow::int64()), arrow::field("isolationLevel", arrow::utf8()),
       arrow::field("isBlindAppend", arrow::boolean()),
       arrow::field("operationMetrics", StringMapType()),
       arrow::field("engineInfo", arrow::utf8())});
  std::vector<std::shared_ptr<arrow::Array>> columns(9);
  ARROW_RETURN_NOT_OK(versions.Finish(&columns[0]));
  ARROW_RETURN_NOT_OK(times.Finish(&columns[1]));
  ARROW_RETURN_NOT_OK(operations.Finish(&columns[2]));
  ARROW_RETURN_NOT_OK(parameters.Finish(&columns[3]));
  ARROW_RETURN_NOT_OK(read_versions.Finish(&columns[4]));
  ARROW_RETURN_NOT_OK(isolation.Finish(&columns[5]));
  ARROW_RETURN_NOT_OK(blind.Finish(&columns[6]));
  ARROW_RETURN_NOT_OK(metrics.Finish(&columns[7]));
  ARROW_RETURN_NOT_OK(engine.Finish(&columns[8]));
  for (int i : {3, 7}) {
    ARROW_ASSIGN_OR_RAISE(columns[i], columns[i]->View(StringMapType()));
  }
  return arrow::Table::Make(schema, columns);
}

Result<std::shared_ptr<arrow::Table>> DescribeDetail(const Table& table) {
  ARROW_ASSIGN_OR_RAISE(const TableState* state, DeltaStateOf(table, "DESCRIBE DETAIL"));
  const Snapshot& snapshot = *state->snapshot;
  int64_t size = 0;
  for (const auto& file : snapshot.files) size += file.size;
  std::vector<std::string> features;
  if (snapshot.protocol.writer_features) features = *snapshot.protocol.writer_features;
  json properties(snapshot.metadata.configuration);
  json partitions(snapshot.metadata.partition_columns);
  json row = {{"format", "delta"},
              {"id", snapshot.metadata.id},
              {"name", state->name},
              {"location", state->location},
              {"numFiles", static_cast<int64_t>(snapshot.files.size())},
              {"sizeInBytes", size},
              {"minReaderVersion", snapshot.protocol.min_reader_version},
              {"minWriterVersion", snapshot.protocol.min_writer_version},
              {"version", snapshot.version}};
  arrow::StringBuilder format, id, name, description, location;
  arrow::TimestampBuilder created(TimestampType(), arrow::default_memory_pool());
  arrow::TimestampBuilder modified(TimestampType(), arrow::default_memory_pool());
  arrow::ListBuilder partition_list(arrow::default_memory_pool(),
                                    std::make_shared<arrow::StringBuilder>());
  arrow::ListBuilder feature_list(arrow::default_memory_pool(),
                                  std::make_shared<arrow::StringBuilder>());
  arrow::Int64Builder files, bytes, version;
  arrow::Int32Builder readers, writers;
  arrow::MapBuilder props(arrow::default_memory_pool(), std::make_shared<arrow::StringBuilder>(),
                          std::make_shared<arrow::StringBuilder>());
  ARROW_RETURN_NOT_OK(format.Append("delta"));
  ARROW_RETURN_NOT_OK(id.Append(snapshot.metadata.id));
  ARROW_RETURN_NOT_OK(name.Append(state->name));
  ARROW_RETURN_NOT_OK(snapshot.metadata.description
                          ? description.Append(*snapshot.metadata.description)
                          : description.AppendNull());
  ARROW_RETURN_NOT_OK(location.Append(state->location));
  ARROW_RETURN_NOT_OK(snapshot.metadata.created_time
                          ? created.Append(*snapshot.metadata.created_time * 1000)
                          : created.AppendNull());
  ARROW_RETURN_NOT_OK(modified.Append(
      snapshot.commit_timestamps.empty() ? 0 : snapshot.commit_timestamps.rbegin()->second * 1000));
  ARROW_RETURN_NOT_OK(partition_list.Append());
  for (const auto& column : snapshot.metadata.partition_columns) {
    ARROW_RETURN_NOT_OK(
        static_cast<arrow::StringBuilder*>(partition_list.value_builder())->Append(column));
  }
  ARROW_RETURN_NOT_OK(files.Append(static_cast<int64_t>(snapshot.files.size())));
  ARROW_RETURN_NOT_OK(bytes.Append(size));
  ARROW_RETURN_NOT_OK(AppendStringMap(&props, properties));
  ARROW_RETURN_NOT_OK(readers.Append(snapshot.protocol.min_reader_version));
  ARROW_RETURN_NOT_OK(writers.Append(snapshot.protocol.min_writer_version));
  ARROW_RETURN_NOT_OK(feature_list.Append());
  for (const auto& feature : features) {
    ARROW_RETURN_NOT_OK(
        static_cast<arrow::StringBuilder*>(feature_list.value_builder())->Append(feature));
  }
  ARROW_RETURN_NOT_OK(version.Append(snapshot.version));
  auto schema = arrow::schema(
      {arrow::field("format", arrow::utf8()), arrow::field("id", arrow::utf8()),
       arrow::field("name", arrow::utf8()), arrow::field("description", arrow::utf8()),
       arrow::field("location", arrow::utf8()), arrow::field("createdAt", TimestampType()),
       arrow::field("lastModified", TimestampType()),
       arrow::field("partitionColumns", arrow::list(arrow::utf8())),
       arrow::field("numFiles", arrow::int64()), arrow::field("sizeInBytes", arrow::int64()),
       arrow::field("properties", StringMapType()),
       arrow::field("minReaderVersion", arrow::int32()),
       arrow::field("minWriterVersion", arrow::int32()),
       arrow::field("tableFeatures", arrow::list(arrow::utf8())),
       arrow::field("version", arrow::int64())});
  std::vector<std::shared_ptr<arrow::Array>> columns(15);
  ARROW_RETURN_NOT_OK(format.Finish(&columns[0]));
  ARROW_RETURN_NOT_OK(id.Finish(&columns[1]));
  ARROW_RETURN_NOT_OK(name.Finish(&columns[2]));
  ARROW_RETURN_NOT_OK(description.Finish(&columns[3]));
  ARROW_RETURN_NOT_OK(location.Finish(&columns[4]));
  ARROW_RETURN_NOT_OK(created.Finish(&columns[5]));
  ARROW_RETURN_NOT_OK(modified.Finish(&columns[6]));
  ARROW_RETURN_NOT_OK(partition_list.Finish(&columns[7]));
  ARROW_RETURN_NOT_OK(files.Finish(&columns[8]));
  ARROW_RETURN_NOT_OK(bytes.Finish(&columns[9]));
  ARROW_RETURN_NOT_OK(props.Finish(&columns[10]));
  ARROW_ASSIGN_OR_RAISE(columns[10], columns[10]->View(StringMapType()));
  ARROW_RETURN_NOT_OK(readers.Finish(&columns[11]));
  ARROW_RETURN_NOT_OK(writers.Finish(&columns[12]));
  ARROW_RETURN_NOT_OK(feature_list.Finish(&columns[13]));
  ARROW_RETURN_NOT_OK(version.Finish(&columns[14]));
  ARROW_ASSIGN_OR_RAISE(columns[7], columns[7]->View(arrow::list(arrow::utf8())));
  ARROW_ASSIGN_OR_RAISE(columns[13], columns[13]->View(arrow::list(arrow::utf8())));
  return arrow::Table::Make(schema, columns);
}

Result<std::shared_ptr<arrow::Table>> Vacuum(const Table& table, const VacuumOptions& options) {
  ARROW_ASSIGN_OR_RAISE(const TableState* state, DeltaStateOf(table, "VACUUM"));
  const Snapshot& snapshot = *state->snapshot;
  constexpr double kDefaultRetentionHours = 7 * 24;
  double hours = options.retain_hours.value_or(kDefaultRetentionHours);
  if (hours < 0) {
    return InvalidError("DELTA_VACUUM_RETENTION_PERIOD_NEGATIVE",
                        "The retention period of VACUUM cannot be negative.");
  }
  if (options.check_retention && hours < kDefaultRetentionHours) {
    return InvalidError(
        "DELTA_VACUUM_RETENTION_PERIOD_TOO_SHORT",
        "Vacuuming " + state->name + " with a retention of " + std::to_string(hours) +
            " hours is shorter than the safe 168 hours: files still needed by concurrent "
            "readers or time travel could be deleted. Set "
            "spark.databricks.delta.retentionDurationCheck.enabled=false to do it anyway.");
  }
  const int64_t horizon = NowMillis() - static_cast<int64_t>(hours * 3600 * 1000);
  std::set<std::string> keep;
  auto keep_file = [&](const FileAction& file) {
    keep.insert(ResolveDataPath(state->root, file.path));
    if (file.deletion_vector && file.deletion_vector->storage_type != "i") {
      auto path = DeletionVectorPath(state->root, *file.deletion_vector);
      if (path.ok()) keep.insert(*path);
    }
  };
  for (const auto& file : snapshot.files) keep_file(file);
  for (const auto& tombstone : snapshot.tombstones) {
    if (tombstone.deletion_timestamp.value_or(0) >= horizon) keep_file(tombstone);
  }
  arrow::fs::FileSelector selector;
  selector.base_dir = state->root;
  selector.recursive = true;
  ARROW_ASSIGN_OR_RAISE(auto entries, state->filesystem->GetFileInfo(selector));
  arrow::StringBuilder paths;
  for (const auto& entry : entries) {
    if (entry.type() != arrow::fs::FileType::File) continue;
    std::string relative = entry.path().substr(state->root.size() + 1);
    // The log and hidden files or directories (leading '_' or '.') are never data files.
    bool hidden = false;
    size_t start = 0;
    while (start < relative.size()) {
      char first = relative[start];
      if (first == '_' || first == '.') hidden = true;
      size_t slash = relative.find('/', start);
      if (slash == std::string::npos) break;
      start = slash + 1;
    }
    if (hidden || keep.contains(entry.path())) continue;
    int64_t mtime =
        std::chrono::duration_cast<std::chrono::milliseconds>(entry.mtime().time_since_epoch())
            .count();
    if (mtime >= horizon) continue;
    ARROW_RETURN_NOT_OK(paths.Append(entry.path()));
    if (!options.dry_run) ARROW_RETURN_NOT_OK(state->filesystem->DeleteFile(entry.path()));
  }
  std::shared_ptr<arrow::Array> column;
  ARROW_RETURN_NOT_OK(paths.Finish(&column));
  return arrow::Table::Make(arrow::schema({arrow::field("path", arrow::utf8())}), {column});
}

}  // namespace parley::delta
