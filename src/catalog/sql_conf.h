// SqlConf: the session's configuration, keyed by Spark's setting names.
//
// Holds what `SET k=v` stores and knows the defaults of the settings Parley reads, so `SET k`
// answers for a setting that was never set, as Spark does. Not thread-safe: a Session owns one.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "parley/connector/status.h"

namespace parley {

/// \brief A setting Parley knows, with its default and meaning (listed by `SET -v`).
struct ConfEntry {
  std::string key;
  std::string default_value;
  std::string doc;
};

class SqlConf {
 public:
  SqlConf();

  /// \brief Set a value, replacing any earlier one.
  void Set(const std::string& key, const std::string& value);
  /// \brief Remove a value set by the user; the default (if any) applies again.
  void Unset(const std::string& key);
  /// \brief Remove every value the user set.
  void Clear();
  /// \brief The value of a key: the user's, else the default, else nullopt.
  std::optional<std::string> Get(const std::string& key) const;
  /// \brief The value of a key, or SQL_CONF_NOT_FOUND naming it.
  Result<std::string> GetOrError(const std::string& key) const;
  /// \brief A boolean setting ("true"/"false", case-insensitive); `fallback` when unset.
  bool GetBool(const std::string& key, bool fallback) const;
  /// \brief Every value the user set, sorted by key (what `SET` lists).
  const std::map<std::string, std::string>& explicit_values() const { return values_; }
  /// \brief Every known setting with its current value (what `SET -v` lists).
  std::vector<std::pair<ConfEntry, std::string>> KnownWithValues() const;
  /// \brief Every user value whose key starts with `prefix`, with the prefix removed.
  std::map<std::string, std::string> WithPrefix(const std::string& prefix) const;

 private:
  std::map<std::string, std::string> values_;
};

/// Setting names read by the engine.
inline constexpr const char* kDefaultCatalogKey = "spark.sql.defaultCatalog";
/// Whether VACUUM refuses a retention shorter than the default week (Delta's setting).
inline constexpr const char* kRetentionDurationCheckKey =
    "spark.databricks.delta.retentionDurationCheck.enabled";
inline constexpr const char* kCatalogKeyPrefix = "spark.sql.catalog.";
inline constexpr const char* kRoundTripTasksKey = "parley.test.roundTripTasks";
inline constexpr const char* kVerifyPushdownKey = "parley.verifyPushdown";
inline constexpr const char* kRuntimeFilterEnabledKey =
    "parley.sql.optimizer.runtimeFilter.enabled";
inline constexpr const char* kRuntimeFilterMaxBuildRowsKey =
    "parley.sql.optimizer.runtimeFilter.creationSideMaxRows";
inline constexpr const char* kRuntimeFilterMaxInListKey =
    "parley.sql.optimizer.runtimeFilter.maxInListSize";
/// Whether an aggregation repeated over the same scan is computed once (Spark's setting).
inline constexpr const char* kReuseSubplansKey = "spark.sql.exchange.reuse";
inline constexpr const char* kJoinPushdownKey = "spark.sql.optimizer.datasourceV2JoinPushdown";
inline constexpr const char* kV2BucketingKey = "spark.sql.sources.v2.bucketing.enabled";
inline constexpr const char* kNestedSchemaPruningKey =
    "spark.sql.optimizer.nestedSchemaPruning.enabled";
inline constexpr const char* kSessionCatalogName = "spark_catalog";
inline constexpr const char* kPartitionOverwriteModeKey =
    "spark.sql.sources.partitionOverwriteMode";
inline constexpr const char* kTaskMaxFailuresKey = "spark.task.maxFailures";
inline constexpr const char* kSpeculationKey = "spark.speculation";
inline constexpr const char* kSpeculationMultiplierKey = "spark.speculation.multiplier";
inline constexpr const char* kSpeculationQuantileKey = "spark.speculation.quantile";
inline constexpr const char* kSpeculationMinRuntimeKey = "spark.speculation.minTaskRuntime";
inline constexpr const char* kWriteRowsPerTaskKey = "parley.write.rowsPerTask";
/// The most Arrow memory of rows one streamed write task takes (bytes, as parley.memory.limit).
inline constexpr const char* kWriteBytesPerTaskKey = "parley.write.bytesPerTask";
inline constexpr const char* kDuplicateWriteTasksKey = "parley.test.duplicateWriteTasks";
inline constexpr const char* kFaultInjectionKey = "parley.test.faultInjection";
/// The most Arrow memory the process may hold while a statement runs (a byte string or a
/// percentage of the machine's memory); past it the statement fails with
/// UNABLE_TO_ACQUIRE_MEMORY.
inline constexpr const char* kMemoryLimitKey = "parley.memory.limit";

}  // namespace parley
