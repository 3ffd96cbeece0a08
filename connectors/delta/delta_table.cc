// The Delta Table and its path TableProvider (see delta_table.h).
#include "connectors/delta/delta_table.h"

#include <algorithm>
#include <cctype>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "arrow/compute/initialize.h"
#include "arrow/filesystem/filesystem.h"
#include "arrow/filesystem/localfs.h"
#include "arrow/type.h"

#include "connectors/delta/log/protocol.h"
#include "connectors/delta/log/row_tracking.h"
#include "connectors/delta/log/transaction.h"
#include "connectors/delta/read/metadata_column.h"
#include "connectors/delta/read/scan.h"
#include "connectors/delta/table_state.h"
#include "connectors/delta/util.h"
#include "connectors/delta/write/dml.h"
#include "connectors/delta/write/write.h"
#include "parley/connector/filesystem.h"
#include "parley/connector/metadata_columns.h"
#include "parley/connector/table.h"

namespace parley::delta {
namespace {

// Days since 1970-01-01 of a proleptic Gregorian date.
int64_t DaysFromCivil(int64_t year, int64_t month, int64_t day) {
  year -= month <= 2;
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const int64_t year_of_era = year - era * 400;
  const int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

// Epoch milliseconds of `digits` read as consecutive fixed-width fields (year 4, then 2 each,
// then milliseconds 3); fields absent at the end are zero.
std::optional<int64_t> EpochMillis(const std::string& digits) {
  static const int kWidths[] = {4, 2, 2, 2, 2, 2, 3};
  int64_t fields[7] = {0, 1, 1, 0, 0, 0, 0};
  size_t position = 0;
  for (int i = 0; i < 7 && position < digits.size(); ++i) {
    if (position + kWidths[i] > digits.size()) return std::nullopt;
    fields[i] = std::stoll(digits.substr(position, kWidths[i]));
    position += kWidths[i];
  }
  if (position != digits.size() || digits.size() < 8) return std::nullopt;
  if (fields[1] < 1 || fields[1] > 12 || fields[2] < 1 || fields[2] > 31 || fields[3] > 23 ||
      fields[4] > 59 || fields[5] > 59) {
    return std::nullopt;
  }
  return ((DaysFromCivil(fields[0], fields[1], fields[2]) * 24 + fields[3]) * 60 + fields[4]) *
             60000 +
         fields[5] * 1000 + fields[6];
}

// `yyyy-MM-dd[ HH:mm:ss[.SSS]]` (or with 'T') as epoch milliseconds, UTC.
std::optional<int64_t> ParseTimestampOption(const std::string& text) {
  std::string digits;
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digits.push_back(c);
    } else if (c != '-' && c != ':' && c != ' ' && c != 'T' && c != '.' && c != 'Z') {
      return std::nullopt;
    }
  }
  return EpochMillis(digits);
}

// Where and when to read: the location without its time travel suffix, and the version.
struct TableRequest {
  std::string location;
  std::optional<int64_t> version;
  std::optional<int64_t> timestamp_ms;
  std::string suffix;  // shown in the table name
};

Result<TableRequest> ParseRequest(const Options& options) {
  auto path = options.find("path");
  if (path == options.end() || path->second.empty()) {
    return InvalidError("DELTA_OPERATION_MISSING_PATH",
                        "Please provide the path or table identifier for the Delta read.");
  }
  TableRequest request;
  request.location = path->second;
  auto invalid = [](const std::string& value) {
    return InvalidError("DELTA_TIMESTAMP_INVALID",
                        "The provided time travel value (" + value +
                            ") is neither @v<version> nor @yyyyMMddHHmmssSSS.");
  };
  size_t at = request.location.rfind('@');
  if (at != std::string::npos && request.location.find('/', at) == std::string::npos) {
    std::string suffix = request.location.substr(at + 1);
    if (suffix.size() > 1 && suffix[0] == 'v' &&
        std::all_of(suffix.begin() + 1, suffix.end(), ::isdigit)) {
      request.version = ParseInt64(std::string_view(suffix).substr(1));
      if (!request.version) return invalid(suffix);
    } else if (suffix.size() == 17 && std::all_of(suffix.begin(), suffix.end(), ::isdigit)) {
      request.timestamp_ms = EpochMillis(suffix);
      if (!request.timestamp_ms) return invalid(suffix);
    } else {
      return invalid(suffix);
    }
    request.suffix = "@" + suffix;
    request.location = request.location.substr(0, at);
  }
  auto version = options.find("versionasof");
  auto timestamp = options.find("timestampasof");
  if ((version != options.end() || timestamp != options.end()) &&
      (!request.suffix.empty() || (version != options.end() && timestamp != options.end()))) {
    return InvalidError("DELTA_UNSUPPORTED_TIME_TRAVEL_MULTIPLE_FORMATS",
                        "Cannot specify time travel in multiple formats.");
  }
  if (version != options.end()) {
    const std::string& text = version->second;
    request.version = ParseInt64(text);
    if (!request.version || !std::all_of(text.begin(), text.end(), ::isdigit)) {
      return InvalidError("DELTA_ILLEGAL_OPTION", "Invalid value '" + text +
                                                      "' for option 'versionAsOf', it must be "
                                                      "a non-negative version number.");
    }
    request.suffix = "@v" + text;
  }
  if (timestamp != options.end()) {
    request.timestamp_ms = ParseTimestampOption(timestamp->second);
    if (!request.timestamp_ms) {
      return InvalidError("DELTA_TIMESTAMP_INVALID",
                          "The provided timestamp (" + timestamp->second +
                              ") cannot be converted to a valid timestamp.");
    }
    request.suffix = "@" + timestamp->second;
  }
  return request;
}

Result<std::shared_ptr<const TableState>> LoadTable(const Options& options) {
  ARROW_ASSIGN_OR_RAISE(TableRequest request, ParseRequest(options));
  return LoadTableState(request.location,
                        "delta." + QuoteIdentifier(request.location + request.suffix),
                        request.version, request.timestamp_ms);
}

}  // namespace

Result<std::shared_ptr<const TableState>> LoadTableState(const std::string& location,
                                                         const std::string& name,
                                                         std::optional<int64_t> version,
                                                         std::optional<int64_t> timestamp_ms) {
  ARROW_RETURN_NOT_OK(EnsureComputeInitialized());
  ARROW_ASSIGN_OR_RAISE(auto opened, OpenLocation(location));
  auto state = std::make_shared<TableState>();
  state->filesystem = std::move(opened.first);
  state->root = std::move(opened.second);
  state->location = location;
  state->name = name;
  state->time_travel = version.has_value() || timestamp_ms.has_value();
  if (timestamp_ms) {
    ARROW_ASSIGN_OR_RAISE(version,
                          VersionAtTimestamp(*state->filesystem, state->root, *timestamp_ms));
  }
  ARROW_ASSIGN_OR_RAISE(state->snapshot, LoadSnapshot(state->filesystem, state->root, version));
  return CompleteTableState(std::move(state));
}

Result<std::shared_ptr<const TableState>> CompleteTableState(std::shared_ptr<TableState> state) {
  const Metadata& metadata = state->snapshot->metadata;
  if (metadata.format_provider != "parquet") {
    return InvalidError("DELTA_UNSUPPORTED_SOURCE",
                        "The Delta table " + DisplayPath(state->location) +
                            " stores its data as '" + metadata.format_provider +
                            "'; only Parquet is supported.");
  }
  ARROW_ASSIGN_OR_RAISE(state->mode, ColumnMappingModeOf(metadata.configuration));
  ARROW_ASSIGN_OR_RAISE(state->annotated_schema, SchemaFromDeltaJson(metadata.schema_string));
  state->schema = PlainSchema(*state->annotated_schema);
  std::set<std::string> partition_set(metadata.partition_columns.begin(),
                                      metadata.partition_columns.end());
  for (const auto& name : partition_set) {
    if (state->schema->GetFieldIndex(name) < 0) {
      return InvalidError("DELTA_PARTITION_COLUMN_NOT_FOUND",
                          "Partition column " + QuoteIdentifier(name) +
                              " not found in the schema of " + DisplayPath(state->location) + ".");
    }
  }
  for (const auto& field : state->schema->fields()) {
    if (partition_set.contains(field->name())) state->partition_columns.push_back(field->name());
  }
  return state;
}

namespace {

class DeltaTable : public Table,
                   public SupportsRead,
                   public SupportsWrite,
                   public TruncatableTable,
                   public SupportsMetadataColumns,
                   public SupportsDeleteV2,
                   public SupportsRowLevelOperations {
 public:
  explicit DeltaTable(std::shared_ptr<const TableState> state) : state_(std::move(state)) {}

  std::string name() const override { return state_->name; }
  std::vector<Column> columns() const override { return SchemaToColumns(*state_->schema); }
  std::vector<Column> metadataColumns() const override {
    return {{kMetadataColumn, MetadataStructType(RowTrackingEnabled(state_->snapshot->metadata)),
             false, "file and row metadata", std::nullopt}};
  }
  std::vector<std::shared_ptr<Transform>> partitioning() const override {
    return IdentityPartitioning(state_->partition_columns);
  }
  std::map<std::string, std::string> properties() const override {
    const Metadata& metadata = state_->snapshot->metadata;
    std::map<std::string, std::string> out = metadata.configuration;
    out[kPropProvider] = "delta";
    out[kPropLocation] = state_->location;
    if (metadata.description) out[kPropComment] = *metadata.description;
    return out;
  }
  std::set<TableCapability> capabilities() const override {
    // A time-travelled snapshot is read-only.
    if (state_->time_travel) return {TableCapability::kBatchRead};
    return {TableCapability::kBatchRead, TableCapability::kBatchWrite, TableCapability::kTruncate,
            TableCapability::kOverwriteByFilter, TableCapability::kOverwriteDynamic};
  }
  Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options&) override {
    return MakeDeltaScanBuilder(state_);
  }
  Result<std::unique_ptr<WriteBuilder>> NewWriteBuilder(const LogicalWriteInfo& info) override {
    // As a Delta transaction, a write starts from the latest version, not the one loaded when
    // the statement was analyzed; its columns must still be those the rows were shaped for.
    ARROW_ASSIGN_OR_RAISE(auto latest, LatestState());
    return MakeDeltaWriteBuilder(std::move(latest), info, nullptr);
  }
  const TableState& state() const { return *state_; }

  bool CanDeleteWhere(const std::vector<PredicatePtr>& predicates) const override {
    return CanDeleteFilesWhere(*state_, predicates);
  }
  Result<int64_t> DeleteWhere(const std::vector<PredicatePtr>& predicates) override {
    ARROW_RETURN_NOT_OK(CheckWritable());
    ARROW_ASSIGN_OR_RAISE(auto latest, LatestState());
    return DeleteFilesWhere(std::move(latest), predicates);
  }
  Result<std::unique_ptr<RowLevelOperationBuilder>> NewRowLevelOperationBuilder(
      const RowLevelOperationInfo& info) override {
    ARROW_RETURN_NOT_OK(CheckWritable());
    ARROW_ASSIGN_OR_RAISE(auto latest, LatestState());
    return MakeDeltaRowLevelOperationBuilder(std::move(latest), info.command);
  }

  Result<bool> TruncateTable() override {
    ARROW_ASSIGN_OR_RAISE(auto latest, LatestState());
    const Snapshot& snapshot = *latest->snapshot;
    ARROW_RETURN_NOT_OK(CheckWriteSupported(snapshot.protocol, snapshot.metadata, state_->name));
    auto append_only = snapshot.metadata.configuration.find("delta.appendOnly");
    if (append_only != snapshot.metadata.configuration.end() && append_only->second == "true") {
      return InvalidError("DELTA_CANNOT_MODIFY_APPEND_ONLY",
                          "This table is configured to only allow appends: " + state_->name +
                              " has delta.appendOnly=true.");
    }
    Transaction transaction;
    transaction.removes = snapshot.files;
    transaction.operation = "TRUNCATE";
    transaction.operation_metrics = {{"numRemovedFiles", std::to_string(snapshot.files.size())}};
    transaction.checkpoint_interval = CheckpointInterval(snapshot.protocol, snapshot.metadata);
    ARROW_RETURN_NOT_OK(CommitTransaction(latest->filesystem, latest->root, latest->name,
                                          snapshot.version, std::move(transaction))
                            .status());
    return true;
  }

 private:
  // A time-travelled snapshot is read-only.
  Status CheckWritable() const {
    if (!state_->time_travel) return Status::OK();
    return InvalidError("UNSUPPORTED_FEATURE.TABLE_OPERATION",
                        "The feature is not supported: Table " + state_->name +
                            " is an earlier version of a Delta table and cannot be changed.");
  }

  Result<std::shared_ptr<const TableState>> LatestState() const {
    ARROW_ASSIGN_OR_RAISE(
        auto latest, LoadTableState(state_->location, state_->name, std::nullopt, std::nullopt));
    if (latest->snapshot->metadata.schema_string != state_->snapshot->metadata.schema_string ||
        latest->snapshot->metadata.partition_columns !=
            state_->snapshot->metadata.partition_columns) {
      return InvalidError("DELTA_METADATA_CHANGED",
                          "The schema or partitioning of " + state_->name +
                              " changed after this statement was analyzed (now at version " +
                              std::to_string(latest->snapshot->version) +
                              "). Please try the operation again.");
    }
    return latest;
  }

  std::shared_ptr<const TableState> state_;
};

class DeltaTableProvider : public TableProvider {
 public:
  Result<std::shared_ptr<arrow::Schema>> InferSchema(const Options& options) override {
    ARROW_ASSIGN_OR_RAISE(auto state, LoadTable(options));
    return state->schema;
  }
  Result<std::shared_ptr<Table>> GetTable(const std::shared_ptr<arrow::Schema>&,
                                          const Options& options) override {
    ARROW_ASSIGN_OR_RAISE(auto state, LoadTable(options));
    return MakeDeltaTable(std::move(state));
  }
};

}  // namespace

Status EnsureComputeInitialized() {
  static std::once_flag once;
  static Status status;
  std::call_once(once, [] { status = arrow::compute::Initialize(); });
  return status;
}

Result<std::pair<std::shared_ptr<arrow::fs::FileSystem>, std::string>> OpenLocation(
    const std::string& location) {
  std::string path;
  ARROW_ASSIGN_OR_RAISE(auto filesystem, OpenFileSystem(location, &path));
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return std::make_pair(std::move(filesystem), std::move(path));
}

std::vector<std::shared_ptr<Transform>> IdentityPartitioning(
    const std::vector<std::string>& columns) {
  std::vector<std::shared_ptr<Transform>> out;
  for (const auto& column : columns) {
    out.push_back(std::make_shared<Transform>("identity",
                                              std::vector<ExpressionPtr>{FieldReference(column)}));
  }
  return out;
}

const TableState* StateOf(const Table& table) {
  const auto* delta = dynamic_cast<const DeltaTable*>(&table);
  return delta == nullptr ? nullptr : &delta->state();
}

std::shared_ptr<Table> MakeDeltaTable(std::shared_ptr<const TableState> state) {
  return std::make_shared<DeltaTable>(std::move(state));
}

std::shared_ptr<TableProvider> MakeDeltaTableProvider() {
  return std::make_shared<DeltaTableProvider>();
}

}  // namespace parley::delta
