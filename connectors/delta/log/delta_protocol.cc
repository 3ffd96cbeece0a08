// Table properties, the protocol a table needs, and what this writer can write (§"Protocol
// and table features" of the protocol digest).
#include <cctype>
#include <random>
#include <set>
#include <string>

#include "arrow/type.h"
#include "arrow/util/key_value_metadata.h"
#include "connectors/delta/log/delta_schema.h"
#include "connectors/delta/log/protocol.h"
#include "connectors/delta/log/row_tracking.h"
#include "connectors/delta/util.h"

namespace parley::delta {
namespace {

// Writer features whose presence alone asks nothing of this writer, given the checks below.
const std::set<std::string>& WritableFeatures() {
  static const std::set<std::string> kFeatures = {
      "appendOnly",       "invariants",      "columnMapping",        "timestampNtz",
      "deletionVectors",  "changeDataFeed",  "domainMetadata",       "vacuumProtocolCheck",
      "v2Checkpoint",     "typeWidening",    "typeWidening-preview", "checkConstraints",
      "generatedColumns", "identityColumns", "rowTracking"};
  return kFeatures;
}

enum class Kind { kBool, kPositiveInt, kInt, kText, kMode, kPolicy };

const std::map<std::string, Kind>& KnownProperties() {
  static const std::map<std::string, Kind> kKnown = {
      {"delta.appendOnly", Kind::kBool},
      {"delta.checkpointInterval", Kind::kPositiveInt},
      {"delta.checkpointPolicy", Kind::kPolicy},
      {"delta.checkpoint.writeStatsAsJson", Kind::kBool},
      {"delta.checkpoint.writeStatsAsStruct", Kind::kBool},
      {"delta.columnMapping.mode", Kind::kMode},
      {"delta.columnMapping.maxColumnId", Kind::kInt},
      {"delta.dataSkippingNumIndexedCols", Kind::kInt},
      {"delta.dataSkippingStatsColumns", Kind::kText},
      {"delta.deletedFileRetentionDuration", Kind::kText},
      {"delta.logRetentionDuration", Kind::kText},
      {"delta.setTransactionRetentionDuration", Kind::kText},
      {"delta.enableChangeDataFeed", Kind::kBool},
      {"delta.enableDeletionVectors", Kind::kBool},
      {"delta.enableExpiredLogCleanup", Kind::kBool},
      {"delta.enableTypeWidening", Kind::kBool},
      {"delta.enableRowTracking", Kind::kBool},
      {"delta.rowTrackingSuspended", Kind::kBool},
      {"delta.rowTracking.materializedRowIdColumnName", Kind::kText},
      {"delta.rowTracking.materializedRowCommitVersionColumnName", Kind::kText},
      {"delta.isolationLevel", Kind::kText},
      {"delta.targetFileSize", Kind::kPositiveInt},
      {"delta.tuneFileSizesForRewrites", Kind::kBool},
      {"delta.randomizeFilePrefixes", Kind::kBool},
      {"delta.randomPrefixLength", Kind::kPositiveInt},
      {"delta.autoOptimize.optimizeWrite", Kind::kBool},
      {"delta.autoOptimize.autoCompact", Kind::kText},
      {"delta.minReaderVersion", Kind::kPositiveInt},
      {"delta.minWriterVersion", Kind::kPositiveInt},
  };
  return kKnown;
}

bool IsInteger(const std::string& text) {
  size_t start = !text.empty() && text[0] == '-' ? 1 : 0;
  return text.size() > start && std::all_of(text.begin() + start, text.end(), ::isdigit) &&
         text.size() < 19;
}

bool HasType(const arrow::DataType& type, arrow::Type::type id, bool needs_no_zone) {
  if (type.id() == id &&
      (!needs_no_zone || static_cast<const arrow::TimestampType&>(type).timezone().empty())) {
    return true;
  }
  for (const auto& child : type.fields()) {
    if (HasType(*child->type(), id, needs_no_zone)) return true;
  }
  return false;
}

// Whether any field (nested ones included) carries the annotation `key`.
bool HasAnnotation(const arrow::Field& field, const std::string& key) {
  if (field.metadata() != nullptr && field.metadata()->Contains(key)) return true;
  for (const auto& child : field.type()->fields()) {
    if (HasAnnotation(*child, key)) return true;
  }
  return false;
}

bool SchemaHasAnnotation(const arrow::Schema& schema, const std::string& key) {
  for (const auto& field : schema.fields()) {
    if (HasAnnotation(*field, key)) return true;
  }
  return false;
}

Status Unwritable(const std::string& table, const std::string& features) {
  return InvalidError("DELTA_UNSUPPORTED_FEATURES_FOR_WRITE",
                      "Unable to write the table " + table +
                          " because it requires writer table feature(s) that are unsupported by "
                          "Parley: " +
                          features + ".");
}

}  // namespace

std::string RandomUuid() {
  static thread_local std::mt19937_64 generator{std::random_device{}()};
  uint64_t high = generator(), low = generator();
  high = (high & 0xFFFFFFFFFFFF0FFFULL) | 0x0000000000004000ULL;  // version 4
  low = (low & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;    // variant 1
  char buffer[40];
  std::snprintf(buffer, sizeof(buffer), "%08llx-%04llx-%04llx-%04llx-%012llx",
                static_cast<unsigned long long>(high >> 32),
                static_cast<unsigned long long>((high >> 16) & 0xFFFF),
                static_cast<unsigned long long>(high & 0xFFFF),
                static_cast<unsigned long long>(low >> 48),
                static_cast<unsigned long long>(low & 0xFFFFFFFFFFFFULL));
  return buffer;
}

int64_t IntProperty(const std::map<std::string, std::string>& configuration, const std::string& key,
                    int64_t fallback) {
  auto it = configuration.find(key);
  if (it == configuration.end() || !IsInteger(it->second)) return fallback;
  return std::stoll(it->second);
}

int64_t CheckpointInterval(const Protocol& protocol, const Metadata& metadata) {
  auto policy = metadata.configuration.find("delta.checkpointPolicy");
  bool v2 = policy != metadata.configuration.end() && Lower(policy->second) == "v2";
  if (protocol.writer_features) {
    const auto& features = *protocol.writer_features;
    v2 = v2 || std::find(features.begin(), features.end(), "v2Checkpoint") != features.end();
  }
  if (v2) return 0;
  return IntProperty(metadata.configuration, "delta.checkpointInterval", 10);
}

Status ValidateConfiguration(const std::map<std::string, std::string>& configuration) {
  for (const auto& [key, value] : configuration) {
    if (!key.starts_with("delta.")) continue;
    if (key.starts_with("delta.feature.")) {
      if (Lower(value) != "supported" && Lower(value) != "enabled") {
        return InvalidError(
            "DELTA_INVALID_TABLE_PROPERTY_VALUE",
            "The table property " + key + " must be 'supported', not '" + value + "'.");
      }
      continue;
    }
    auto known = KnownProperties().find(key);
    if (known == KnownProperties().end()) {
      return InvalidError("DELTA_UNKNOWN_CONFIGURATION",
                          "Unknown configuration was specified: " + key + ".");
    }
    bool valid = true;
    std::string expected;
    switch (known->second) {
      case Kind::kBool:
        valid = Lower(value) == "true" || Lower(value) == "false";
        expected = "true or false";
        break;
      case Kind::kPositiveInt:
        valid = IsInteger(value) && std::stoll(value) > 0;
        expected = "a positive integer";
        break;
      case Kind::kInt:
        valid = IsInteger(value) && std::stoll(value) >= -1;
        expected = "an integer of at least -1";
        break;
      case Kind::kMode:
        valid = Lower(value) == "none" || Lower(value) == "name" || Lower(value) == "id";
        expected = "none, name or id";
        break;
      case Kind::kPolicy:
        valid = Lower(value) == "classic" || Lower(value) == "v2";
        expected = "classic or v2";
        break;
      case Kind::kText: break;
    }
    if (!valid) {
      return InvalidError("DELTA_INVALID_TABLE_PROPERTY_VALUE",
                          "The value '" + value + "' of the table property " + key +
                              " is invalid: expected " + expected + ".");
    }
  }
  return Status::OK();
}

Protocol RequiredProtocol(const std::map<std::string, std::string>& configuration,
                          const arrow::Schema& schema, const std::optional<Protocol>& current) {
  int reader = 1, writer = 2;
  std::set<std::string> reader_features, writer_features;
  auto mode = configuration.find("delta.columnMapping.mode");
  bool column_mapping = mode != configuration.end() && Lower(mode->second) != "none";
  if (column_mapping) reader = 2, writer = 5;
  bool cdf = ConfigurationIsTrue(configuration, "delta.enableChangeDataFeed");
  if (cdf) writer = std::max(writer, 4);
  auto both = [&](const std::string& feature) {
    reader_features.insert(feature);
    writer_features.insert(feature);
  };
  if (ConfigurationIsTrue(configuration, "delta.enableDeletionVectors")) both("deletionVectors");
  for (const auto& field : schema.fields()) {
    if (HasType(*field->type(), arrow::Type::TIMESTAMP, /*needs_no_zone=*/true)) {
      both("timestampNtz");
    }
  }
  auto policy = configuration.find("delta.checkpointPolicy");
  if (policy != configuration.end() && Lower(policy->second) == "v2") both("v2Checkpoint");
  for (const auto& [key, value] : configuration) {
    if (key.starts_with("delta.feature.")) writer_features.insert(key.substr(14));
  }
  if (ConfigurationIsTrue(configuration, "delta.enableTypeWidening")) both("typeWidening");
  // Row tracking is a writer feature that needs domain metadata for its high-water mark.
  if (ConfigurationIsTrue(configuration, kEnableRowTracking) ||
      writer_features.contains(kRowTrackingFeature)) {
    writer_features.insert({kRowTrackingFeature, "domainMetadata"});
  }
  std::optional<std::vector<std::string>> current_readers, current_writers;
  if (current) {
    reader = std::max(reader, current->min_reader_version);
    writer = std::max(writer, current->min_writer_version);
    current_readers = current->reader_features;
    current_writers = current->writer_features;
  }
  if (current_readers) reader_features.insert(current_readers->begin(), current_readers->end());
  if (current_writers) writer_features.insert(current_writers->begin(), current_writers->end());
  Protocol protocol;
  if (!reader_features.empty() || reader >= 3) {
    reader = 3;
    if (column_mapping) reader_features.insert("columnMapping");
    protocol.reader_features =
        std::vector<std::string>(reader_features.begin(), reader_features.end());
  }
  if (!writer_features.empty() || writer >= 7) {
    // Moving to table features keeps what the legacy writer version implied.
    if (writer < 7) {
      writer_features.insert({"appendOnly", "invariants"});
      if (writer >= 3) writer_features.insert("checkConstraints");
      if (writer >= 4) writer_features.insert({"changeDataFeed", "generatedColumns"});
      if (writer >= 5) writer_features.insert("columnMapping");
      if (writer >= 6) writer_features.insert("identityColumns");
    }
    writer = 7;
    if (column_mapping) writer_features.insert("columnMapping");
    if (cdf) writer_features.insert("changeDataFeed");
    writer_features.insert(reader_features.begin(), reader_features.end());
    protocol.writer_features =
        std::vector<std::string>(writer_features.begin(), writer_features.end());
  }
  protocol.min_reader_version = reader;
  protocol.min_writer_version = writer;
  return protocol;
}

Status CheckWriteSupported(const Protocol& protocol, const Metadata& metadata,
                           const std::string& table) {
  ARROW_RETURN_NOT_OK(CheckReadSupported(protocol, table));
  if (protocol.min_writer_version < 1 || protocol.min_writer_version > 7) {
    return InvalidError("DELTA_INVALID_PROTOCOL_VERSION",
                        "Delta protocol version is not supported by this version of Parley: "
                        "table " +
                            table + " requires writer version " +
                            std::to_string(protocol.min_writer_version) +
                            ", client supports writer versions 1 to 7.");
  }
  std::string unsupported;
  if (protocol.writer_features) {
    for (const auto& feature : *protocol.writer_features) {
      if (WritableFeatures().contains(feature)) continue;
      unsupported += (unsupported.empty() ? "" : ", ") + feature;
    }
  }
  if (!unsupported.empty()) return Unwritable(table, unsupported);
  // Features this writer accepts only while the table does not use them.
  ARROW_ASSIGN_OR_RAISE(auto schema, SchemaFromDeltaJson(metadata.schema_string));
  if (SchemaHasAnnotation(*schema, "delta.invariants")) return Unwritable(table, "invariants");
  if (SchemaHasAnnotation(*schema, "delta.generationExpression")) {
    return Unwritable(table, "generatedColumns");
  }
  if (SchemaHasAnnotation(*schema, "delta.identity.start")) {
    return Unwritable(table, "identityColumns");
  }
  for (const auto& [key, value] : metadata.configuration) {
    if (key.starts_with("delta.constraints.")) return Unwritable(table, "checkConstraints");
  }
  return Status::OK();
}

bool ConfigurationIsTrue(const std::map<std::string, std::string>& configuration,
                         const std::string& key) {
  auto it = configuration.find(key);
  return it != configuration.end() && Lower(it->second) == "true";
}

}  // namespace parley::delta
