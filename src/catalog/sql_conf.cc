// SqlConf: user values over a table of known defaults.
#include "catalog/sql_conf.h"

#include <fmt/format.h>
#include <algorithm>

namespace parley {
namespace {

const std::vector<ConfEntry>& KnownEntries() {
  static const std::vector<ConfEntry> kEntries = {
      {kDefaultCatalogKey, kSessionCatalogName,
       "The catalog that one-part and two-part names resolve in."},
      {std::string(kCatalogKeyPrefix) + kSessionCatalogName, "delta",
       "The plugin of the session catalog: Delta tables in the warehouse directory."},
      {"spark.sql.ansi.enabled", "true", "ANSI SQL semantics (errors instead of NULLs)."},
      {"spark.sql.caseSensitive", "false", "Whether identifiers are case-sensitive."},
      {kVerifyPushdownKey, "false",
       "Re-check on the rows a source returns every predicate and limit it accepted exactly."},
      {kRuntimeFilterEnabledKey, "true",
       "Let a join's small build side prune the scans of its probe side at run time."},
      {kRuntimeFilterMaxBuildRowsKey, "1000",
       "The most rows a join's build side may have to create a runtime filter."},
      {kRuntimeFilterMaxInListKey, "1000",
       "The most build keys offered to a source as an IN list; more are offered as a range."},
      {kReuseSubplansKey, "true",
       "Compute once an aggregation that a query repeats over the same scan (a common table "
       "expression referenced twice), and read its result in each place."},
      {kJoinPushdownKey, "true",
       "Offer an inner join of two scans to their source when both builders take joins "
       "(SupportsPushDownJoin). Spark's default is false; the mix-in is opt-in per connector."},
      {kV2BucketingKey, "true",
       "Join scans whose sources report key-grouped partitioning on the join keys one key "
       "group at a time (storage-partitioned join)."},
      {kNestedSchemaPruningKey, "true",
       "Ask sources for only the fields of a struct column that the query reads."},
      {kRoundTripTasksKey, "false",
       "Round-trip every input partition, reader factory, writer factory and commit message "
       "through bytes before use."},
      {kPartitionOverwriteModeKey, "static",
       "INSERT OVERWRITE of a partitioned table: static replaces the partitions the PARTITION "
       "clause names (all when none), dynamic only those the written rows fall into."},
      {kRetentionDurationCheckKey, "true",
       "Whether VACUUM refuses a retention shorter than 168 hours."},
      {kTaskMaxFailuresKey, "4", "Attempts of a write task before the write fails."},
      {kSpeculationKey, "false", "Launch duplicate attempts of slow write tasks."},
      {kSpeculationMultiplierKey, "1.5",
       "How many times slower than the median finished task a task must be to be duplicated."},
      {kSpeculationQuantileKey, "0.75",
       "The fraction of tasks that must finish before speculation starts."},
      {kSpeculationMinRuntimeKey, "100ms", "The shortest runtime that can be speculated."},
      {kWriteRowsPerTaskKey, "1048576",
       "Rows per write task when the write asks for no particular layout."},
      {kWriteBytesPerTaskKey, "128m",
       "The most memory of rows one write task takes while a query's rows stream into the "
       "write (bytes: 64m, 1g); a task ends at this size or at parley.write.rowsPerTask rows."},
      {kDuplicateWriteTasksKey, "false",
       "Test mode: run two attempts of every write task, racing for the commit."},
      {kMemoryLimitKey, "80%",
       "The most Arrow memory the process may hold while a statement runs: bytes (512m, 4g) "
       "or a percentage of the machine's memory. A statement that needs more fails with "
       "UNABLE_TO_ACQUIRE_MEMORY."},
      {kFaultInjectionKey, "",
       "Test mode: fault points to arm, <point>[@<partition>][#<attempt>][:fail|:kill],..."},
  };
  return kEntries;
}

}  // namespace

SqlConf::SqlConf() = default;

void SqlConf::Set(const std::string& key, const std::string& value) { values_[key] = value; }

void SqlConf::Unset(const std::string& key) { values_.erase(key); }

void SqlConf::Clear() { values_.clear(); }

std::optional<std::string> SqlConf::Get(const std::string& key) const {
  if (auto it = values_.find(key); it != values_.end()) return it->second;
  for (const auto& entry : KnownEntries()) {
    if (entry.key == key) return entry.default_value;
  }
  return std::nullopt;
}

Result<std::string> SqlConf::GetOrError(const std::string& key) const {
  if (auto value = Get(key)) return *value;
  return MakeError(arrow::StatusCode::KeyError, "SQL_CONF_NOT_FOUND",
                   fmt::format("The SQL config \"{}\" cannot be found. Please verify that the "
                               "config exists.",
                               key));
}

bool SqlConf::GetBool(const std::string& key, bool fallback) const {
  auto value = Get(key);
  if (!value) return fallback;
  std::string lower = *value;
  std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
  if (lower == "true") return true;
  if (lower == "false") return false;
  return fallback;
}

std::vector<std::pair<ConfEntry, std::string>> SqlConf::KnownWithValues() const {
  std::vector<std::pair<ConfEntry, std::string>> out;
  for (const auto& entry : KnownEntries()) out.emplace_back(entry, *Get(entry.key));
  return out;
}

std::map<std::string, std::string> SqlConf::WithPrefix(const std::string& prefix) const {
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : values_) {
    if (key.size() > prefix.size() && key.compare(0, prefix.size(), prefix) == 0) {
      out[key.substr(prefix.size())] = value;
    }
  }
  return out;
}

}  // namespace parley
