// Row tracking on write (§7 of the protocol digest): which tables assign row ids, the
// `delta.rowTracking` high-water mark domain, fresh baseRowId / defaultRowCommitVersion for new
// files, and the names of the materialized row id and row commit version columns.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <string>

#include "delta_write_internal.h"

namespace parley::delta {
namespace {

bool IsTrue(const std::map<std::string, std::string>& configuration, const std::string& key) {
  auto it = configuration.find(key);
  if (it == configuration.end()) return false;
  std::string value = it->second;
  for (auto& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return value == "true";
}

}  // namespace

bool RowTrackingSupported(const Protocol& protocol, const Metadata& metadata) {
  if (!protocol.writer_features) return false;
  const auto& features = *protocol.writer_features;
  return std::find(features.begin(), features.end(), kRowTrackingFeature) != features.end() &&
         !IsTrue(metadata.configuration, "delta.rowTrackingSuspended");
}

bool RowTrackingEnabled(const Metadata& metadata) {
  return IsTrue(metadata.configuration, kEnableRowTracking);
}

Result<int64_t> RowIdHighWaterMark(const std::map<std::string, DomainMetadata>& domains) {
  auto it = domains.find(kRowTrackingDomain);
  if (it == domains.end()) return -1;
  return ParseHighWaterMark(it->second);
}

Result<int64_t> ParseHighWaterMark(const DomainMetadata& domain) {
  auto parsed = nlohmann::json::parse(domain.configuration, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object() || !parsed.contains("rowIdHighWaterMark") ||
      !parsed["rowIdHighWaterMark"].is_number_integer()) {
    return InvalidError("DELTA_ROW_ID_HIGH_WATER_MARK_INVALID",
                        "The domain " + std::string(kRowTrackingDomain) +
                            " has no integer rowIdHighWaterMark: '" + domain.configuration + "'.");
  }
  return parsed["rowIdHighWaterMark"].get<int64_t>();
}

DomainMetadata HighWaterMarkDomain(int64_t high_water_mark) {
  return {kRowTrackingDomain,
          nlohmann::json{{"rowIdHighWaterMark", high_water_mark}}.dump(), false};
}

Result<std::optional<int64_t>> ReadHighWaterMarkFor(const Protocol& protocol,
                                                    const Metadata& metadata,
                                                    const Snapshot* snapshot) {
  if (!RowTrackingSupported(protocol, metadata)) return std::nullopt;
  if (snapshot == nullptr) return -1;
  ARROW_ASSIGN_OR_RAISE(int64_t mark, RowIdHighWaterMark(snapshot->domains));
  return mark;
}

void NameMaterializedColumns(Metadata* metadata) {
  if (!RowTrackingEnabled(*metadata)) return;
  auto& configuration = metadata->configuration;
  if (!configuration.contains(kMaterializedRowIdColumn)) {
    configuration[kMaterializedRowIdColumn] = "_row-id-col-" + RandomUuid();
  }
  if (!configuration.contains(kMaterializedRowCommitVersionColumn)) {
    configuration[kMaterializedRowCommitVersionColumn] =
        "_row-commit-version-col-" + RandomUuid();
  }
}

Status AssignFreshRowIds(std::vector<FileAction>* adds, const std::vector<size_t>& fresh,
                         int64_t* high_water_mark, int64_t version) {
  for (size_t index : fresh) {
    FileAction& add = (*adds)[index];
    auto records = ParseStatistics(add.stats, {}).num_records;
    if (!records) {
      return InvalidError("DELTA_ROW_TRACKING_MISSING_NUM_RECORDS",
                          "Cannot assign row ids to " + PercentDecode(add.path) +
                              ": its statistics have no numRecords.");
    }
    add.base_row_id = *high_water_mark + 1;
    add.default_row_commit_version = version;
    *high_water_mark += std::max<int64_t>(*records, 0);
  }
  return Status::OK();
}

}  // namespace parley::delta
