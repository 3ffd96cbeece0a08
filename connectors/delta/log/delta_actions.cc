// Delta actions from and to JSON. Reading: one commit line, or one checkpoint row turned into
// JSON (delta_checkpoint.cc); unknown actions and fields are ignored, as the protocol requires;
// a known action with a missing or mistyped required field is an error naming the file.
// Writing: each action as the one-key object of a commit line, optional fields left out.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <utility>

#include "connectors/delta/log/actions.h"
#include "connectors/delta/log/delta_log.h"
#include "connectors/delta/util.h"

namespace parley::delta {

using nlohmann::json;

std::string DeletionVectorDescriptor::UniqueId() const {
  std::string id = storage_type + path_or_inline_dv;
  if (offset.has_value()) id += "@" + std::to_string(*offset);
  return id;
}

std::string FileAction::Key() const {
  return path + "\n" + (deletion_vector ? deletion_vector->UniqueId() : std::string());
}

namespace {

// Thrown inside this file only, and turned into a Status at its boundary.
struct ActionError {
  std::string message;
};

const json& Required(const json& object, const char* key, const char* action) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    throw ActionError{std::string("the '") + action + "' action has no '" + key + "' field"};
  }
  return *it;
}

std::string RequiredString(const json& object, const char* key, const char* action) {
  const json& value = Required(object, key, action);
  if (!value.is_string()) {
    throw ActionError{std::string("'") + action + "." + key + "' is not a string"};
  }
  return value.get<std::string>();
}

int64_t AsInt64(const json& value, const char* action, const char* key) {
  if (value.is_number_integer()) return value.get<int64_t>();
  // Some writers quote numbers; accept a string of digits.
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    size_t used = 0;
    try {
      int64_t parsed = std::stoll(text, &used);
      if (used == text.size()) return parsed;
    } catch (const std::exception&) {
    }
  }
  throw ActionError{std::string("'") + action + "." + key + "' is not an integer"};
}

int64_t RequiredInt64(const json& object, const char* key, const char* action) {
  return AsInt64(Required(object, key, action), action, key);
}

std::optional<int64_t> OptionalInt64(const json& object, const char* key, const char* action) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return std::nullopt;
  return AsInt64(*it, action, key);
}

std::optional<std::string> OptionalString(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

bool OptionalBool(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_boolean() && it->get<bool>();
}

std::map<std::string, std::string> StringMap(const json& object, const char* key) {
  std::map<std::string, std::string> out;
  auto it = object.find(key);
  if (it == object.end() || !it->is_object()) return out;
  for (const auto& [k, v] : it->items()) {
    if (v.is_string()) {
      out[k] = v.get<std::string>();
    } else if (!v.is_null()) {
      out[k] = v.dump();
    }
  }
  return out;
}

std::optional<std::vector<std::string>> OptionalStringList(const json& object, const char* key,
                                                           const char* action) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return std::nullopt;
  if (!it->is_array()) {
    throw ActionError{std::string("'") + action + "." + key + "' is not an array"};
  }
  std::vector<std::string> out;
  for (const auto& item : *it) {
    if (!item.is_string()) {
      throw ActionError{std::string("'") + action + "." + key + "' holds a non-string"};
    }
    out.push_back(item.get<std::string>());
  }
  return out;
}

Protocol ParseProtocol(const json& object) {
  Protocol protocol;
  protocol.min_reader_version =
      static_cast<int32_t>(RequiredInt64(object, "minReaderVersion", "protocol"));
  protocol.min_writer_version =
      static_cast<int32_t>(RequiredInt64(object, "minWriterVersion", "protocol"));
  protocol.reader_features = OptionalStringList(object, "readerFeatures", "protocol");
  protocol.writer_features = OptionalStringList(object, "writerFeatures", "protocol");
  return protocol;
}

Metadata ParseMetadata(const json& object) {
  Metadata metadata;
  metadata.id = RequiredString(object, "id", "metaData");
  metadata.name = OptionalString(object, "name");
  metadata.description = OptionalString(object, "description");
  auto format = object.find("format");
  if (format != object.end() && format->is_object()) {
    if (auto provider = OptionalString(*format, "provider")) metadata.format_provider = *provider;
    metadata.format_options = StringMap(*format, "options");
  }
  metadata.schema_string = RequiredString(object, "schemaString", "metaData");
  metadata.partition_columns = OptionalStringList(object, "partitionColumns", "metaData")
                                   .value_or(std::vector<std::string>{});
  metadata.configuration = StringMap(object, "configuration");
  metadata.created_time = OptionalInt64(object, "createdTime", "metaData");
  return metadata;
}

DeletionVectorDescriptor ParseDescriptor(const json& object, const char* action) {
  if (!object.is_object()) {
    throw ActionError{std::string("'") + action + ".deletionVector' is not an object"};
  }
  DeletionVectorDescriptor dv;
  dv.storage_type = RequiredString(object, "storageType", "deletionVector");
  dv.path_or_inline_dv = RequiredString(object, "pathOrInlineDv", "deletionVector");
  if (auto offset = OptionalInt64(object, "offset", "deletionVector")) {
    dv.offset = static_cast<int32_t>(*offset);
  }
  dv.size_in_bytes = static_cast<int32_t>(RequiredInt64(object, "sizeInBytes", "deletionVector"));
  dv.cardinality = RequiredInt64(object, "cardinality", "deletionVector");
  if (dv.storage_type != "u" && dv.storage_type != "i" && dv.storage_type != "p") {
    throw ActionError{std::string("'") + action + ".deletionVector.storageType' is '" +
                      dv.storage_type + "', expected u, i or p"};
  }
  return dv;
}

std::optional<DeletionVectorDescriptor> ParseDeletionVector(const json& object,
                                                            const char* action) {
  auto it = object.find("deletionVector");
  if (it == object.end() || it->is_null()) return std::nullopt;
  return ParseDescriptor(*it, action);
}

FileAction ParseFileAction(const json& object, bool is_add) {
  const char* action = is_add ? "add" : "remove";
  FileAction file;
  file.path = RequiredString(object, "path", action);
  auto values = object.find("partitionValues");
  if (values != object.end() && values->is_object()) {
    for (const auto& [key, value] : values->items()) {
      if (value.is_null()) {
        file.partition_values[key] = std::nullopt;
      } else if (value.is_string()) {
        file.partition_values[key] = value.get<std::string>();
      } else {
        file.partition_values[key] = value.dump();
      }
    }
  } else if (is_add) {
    Required(object, "partitionValues", action);
  }
  if (is_add) {
    file.size = RequiredInt64(object, "size", action);
    file.modification_time = RequiredInt64(object, "modificationTime", action);
  } else {
    file.size = OptionalInt64(object, "size", action).value_or(0);
    file.deletion_timestamp = OptionalInt64(object, "deletionTimestamp", action);
  }
  file.data_change = OptionalBool(object, "dataChange");
  if (auto stats = OptionalString(object, "stats")) file.stats = *stats;
  file.tags = StringMap(object, "tags");
  file.deletion_vector = ParseDeletionVector(object, action);
  file.base_row_id = OptionalInt64(object, "baseRowId", action);
  file.default_row_commit_version = OptionalInt64(object, "defaultRowCommitVersion", action);
  return file;
}

}  // namespace

Status AddAction(const std::string& name, const json& body, CommitActions* actions) {
  try {
    if (body.is_null()) return Status::OK();
    if (!body.is_object()) throw ActionError{"the '" + name + "' action is not an object"};
    if (name == "add" || name == "remove") {
      actions->file_changes.push_back({name == "add", ParseFileAction(body, name == "add")});
    } else if (name == "cdc") {
      FileAction file;
      file.path = RequiredString(body, "path", "cdc");
      auto values = body.find("partitionValues");
      if (values != body.end() && values->is_object()) {
        for (const auto& [key, value] : values->items()) {
          file.partition_values[key] =
              value.is_null() ? std::nullopt
                              : std::optional<std::string>(
                                    value.is_string() ? value.get<std::string>() : value.dump());
        }
      }
      file.size = OptionalInt64(body, "size", "cdc").value_or(0);
      file.tags = StringMap(body, "tags");
      actions->change_files.push_back(std::move(file));
    } else if (name == "metaData") {
      if (actions->metadata.has_value()) throw ActionError{"two 'metaData' actions"};
      actions->metadata = ParseMetadata(body);
    } else if (name == "protocol") {
      if (actions->protocol.has_value()) throw ActionError{"two 'protocol' actions"};
      actions->protocol = ParseProtocol(body);
    } else if (name == "txn") {
      actions->transactions.push_back({RequiredString(body, "appId", "txn"),
                                       RequiredInt64(body, "version", "txn"),
                                       OptionalInt64(body, "lastUpdated", "txn")});
    } else if (name == "domainMetadata") {
      actions->domains.push_back({RequiredString(body, "domain", "domainMetadata"),
                                  OptionalString(body, "configuration").value_or(""),
                                  OptionalBool(body, "removed")});
    } else if (name == "commitInfo") {
      actions->commit_info = body.dump();
      actions->in_commit_timestamp = OptionalInt64(body, "inCommitTimestamp", "commitInfo");
    }
  } catch (const ActionError& error) {
    return Status::Invalid(error.message);
  } catch (const json::exception& error) {
    // A value that cannot be rendered (a string that is not UTF-8, from a Parquet checkpoint).
    return Status::Invalid("the '" + name + "' action cannot be read: " + error.what());
  }
  return Status::OK();
}

Result<DeletionVectorDescriptor> DeletionVectorFromJson(const json& descriptor) {
  try {
    return ParseDescriptor(descriptor, "add");
  } catch (const ActionError& error) {
    return Status::Invalid(error.message);
  }
}

Status AddActionsOfLine(const json& line, CommitActions* actions) {
  if (!line.is_object()) return Status::Invalid("a line is not a JSON object");
  for (const auto& [name, body] : line.items()) {
    ARROW_RETURN_NOT_OK(AddAction(name, body, actions));
  }
  return Status::OK();
}

Result<CommitActions> ParseCommit(std::string_view body, int64_t version,
                                  const std::string& display_path) {
  CommitActions actions;
  actions.version = version;
  size_t line_number = 0;
  while (!body.empty()) {
    size_t end = body.find('\n');
    std::string_view line = body.substr(0, end);
    body.remove_prefix(end == std::string_view::npos ? body.size() : end + 1);
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    json parsed = json::parse(line, nullptr, /*allow_exceptions=*/false);
    Status added = parsed.is_discarded() ? Status::Invalid("the text is not valid JSON")
                                         : AddActionsOfLine(parsed, &actions);
    if (!added.ok()) {
      return CorruptLogFile(display_path,
                            "line " + std::to_string(line_number) + ": " + added.message());
    }
  }
  return actions;
}

json ProtocolToJson(const Protocol& protocol) {
  json body = {{"minReaderVersion", protocol.min_reader_version},
               {"minWriterVersion", protocol.min_writer_version}};
  if (protocol.reader_features) body["readerFeatures"] = *protocol.reader_features;
  if (protocol.writer_features) body["writerFeatures"] = *protocol.writer_features;
  return {{"protocol", std::move(body)}};
}

json MetadataToJson(const Metadata& metadata) {
  json body = {
      {"id", metadata.id},
      {"format",
       {{"provider", metadata.format_provider}, {"options", json(metadata.format_options)}}},
      {"schemaString", metadata.schema_string},
      {"partitionColumns", metadata.partition_columns},
      {"configuration", json(metadata.configuration)}};
  if (metadata.name) body["name"] = *metadata.name;
  if (metadata.description) body["description"] = *metadata.description;
  if (metadata.created_time) body["createdTime"] = *metadata.created_time;
  return {{"metaData", std::move(body)}};
}

namespace {

json DescriptorToJson(const DeletionVectorDescriptor& dv) {
  json body = {{"storageType", dv.storage_type},
               {"pathOrInlineDv", dv.path_or_inline_dv},
               {"sizeInBytes", dv.size_in_bytes},
               {"cardinality", dv.cardinality}};
  if (dv.offset) body["offset"] = *dv.offset;
  return body;
}

}  // namespace

json FileActionToJson(const FileAction& file, bool is_add) {
  json values = json::object();
  for (const auto& [key, value] : file.partition_values) {
    values[key] = value ? json(*value) : json(nullptr);
  }
  json body = {{"path", file.path},
               {"partitionValues", std::move(values)},
               {"size", file.size},
               {"dataChange", file.data_change}};
  if (is_add) {
    body["modificationTime"] = file.modification_time;
    if (!file.stats.empty()) body["stats"] = file.stats;
    if (!file.tags.empty()) body["tags"] = json(file.tags);
  } else {
    body["deletionTimestamp"] = file.deletion_timestamp.value_or(0);
    body["extendedFileMetadata"] = true;
  }
  if (file.deletion_vector) body["deletionVector"] = DescriptorToJson(*file.deletion_vector);
  if (file.base_row_id) body["baseRowId"] = *file.base_row_id;
  if (file.default_row_commit_version) {
    body["defaultRowCommitVersion"] = *file.default_row_commit_version;
  }
  return {{is_add ? "add" : "remove", std::move(body)}};
}

json ChangeFileToJson(const FileAction& file) {
  json values = json::object();
  for (const auto& [key, value] : file.partition_values) {
    values[key] = value ? json(*value) : json(nullptr);
  }
  json body = {{"path", file.path},
               {"partitionValues", std::move(values)},
               {"size", file.size},
               {"dataChange", false}};
  if (!file.tags.empty()) body["tags"] = json(file.tags);
  return {{"cdc", std::move(body)}};
}

json TransactionToJson(const SetTransaction& txn) {
  json body = {{"appId", txn.app_id}, {"version", txn.version}};
  if (txn.last_updated) body["lastUpdated"] = *txn.last_updated;
  return {{"txn", std::move(body)}};
}

json DomainToJson(const DomainMetadata& domain) {
  return {{"domainMetadata",
           {{"domain", domain.domain},
            {"configuration", domain.configuration},
            {"removed", domain.removed}}}};
}

}  // namespace parley::delta
