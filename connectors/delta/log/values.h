// Values the log holds as text: partition values and file statistics, parsed into typed Arrow
// scalars (delta_values.cc) and produced while files are written (delta_stats.cc).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/status.h"

namespace parley::delta {

/// \brief Parse a serialized partition value (§5) into a scalar of `type`. nullopt and "" are
/// NULL. Fails with DELTA_FAILED_CAST_PARTITION_VALUE naming the column.
Result<std::shared_ptr<arrow::Scalar>> ParsePartitionValue(
    const std::optional<std::string>& value, const std::shared_ptr<arrow::DataType>& type,
    const std::string& column);

/// \brief The statistics of one file (§5) for the top-level columns, by physical name.
struct FileStatistics {
  std::optional<int64_t> num_records;
  bool tight_bounds = true;
  std::map<std::string, std::shared_ptr<arrow::Scalar>> min_values;
  std::map<std::string, std::shared_ptr<arrow::Scalar>> max_values;
  std::map<std::string, int64_t> null_counts;
};

/// \brief Parse `stats` for the given top-level columns (physical name -> table type). Values
/// that do not convert are left out (unknown); a malformed JSON gives empty statistics.
FileStatistics ParseStatistics(
    const std::string& stats,
    const std::map<std::string, std::shared_ptr<arrow::DataType>>& columns);

/// \brief Collects the statistics of one data file while its batches are written: numRecords,
/// and per column (nested struct fields included, by the names of `schema`) nullCount and,
/// for numbers, decimals up to precision 15, strings, dates and timestamps, minValues and
/// maxValues. Strings keep a 32-character prefix (a longer maximum is left out); timestamps
/// are truncated to milliseconds; a float column holding NaN gets no bounds. Only the first
/// `indexed_columns` columns are collected (`delta.dataSkippingNumIndexedCols`).
class StatisticsCollector {
 public:
  StatisticsCollector(const arrow::Schema& schema, int indexed_columns);
  ~StatisticsCollector();
  /// \brief Add a batch with the collector's schema.
  Status Update(const arrow::RecordBatch& batch);
  /// \brief The statistics JSON string of everything added.
  std::string ToJson() const;

 private:
  struct Column;
  int64_t num_records_ = 0;
  std::vector<Column> columns_;
};

/// \brief A partition value as the log stores it (§5): nullopt for NULL (and for the empty
/// string, as Spark does); dates `yyyy-MM-dd`; timestamps `yyyy-MM-ddTHH:mm:ss.ffffffZ` with a
/// time zone and `yyyy-MM-dd HH:mm:ss.ffffff` without. Types that cannot partition fail with
/// DELTA_INVALID_PARTITION_COLUMN_TYPE.
Result<std::optional<std::string>> FormatPartitionValue(const arrow::Scalar& value);

}  // namespace parley::delta
