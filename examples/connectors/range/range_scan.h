// The read pieces both example tables share: the scan (which is also its own Batch, like
// Spark's JavaSimpleScanBuilder), the range partition (JavaRangeInputPartition), and the reader
// factory and reader that count through a range (JavaSimpleReaderFactory), producing Arrow
// record batches of int32 columns `i` and `j = -i`.
//
// What crosses the driver/executor boundary, and its bytes (text, so it reads in a debugger):
//   partition  "range-partition:<start>:<end>"   e.g. "range-partition:5:10"
//   factory    "range-factory:<columns>"          e.g. "range-factory:i,j", "range-factory:j",
//                                                 "range-factory:" (no column, for COUNT(*))
// Rebuilding validates everything (tag, integers, 0 <= start <= end <= 10, known columns in
// table order without repeats) and fails with CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE
// on anything else; it never trusts the bytes.
//
// Thread-safety: scans are used from one thread at a time; the factory is immutable and may
// create readers from several threads at once; each reader belongs to one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/read.h"

namespace parley::example {

/// The rows of the example tables: i runs over [kRangeBegin, kRangeEnd).
constexpr int32_t kRangeBegin = 0;
constexpr int32_t kRangeEnd = 10;

/// \brief A column of the example tables, in table order.
enum class RangeColumn { kI, kJ };

/// \brief The Arrow schema of the given columns: `i` and/or `j`, int32, nullable as in Spark.
std::shared_ptr<arrow::Schema> RangeSchema(const std::vector<RangeColumn>& columns);

/// \brief A configured read of a range table, and its own Batch.
class RangeScan : public Scan, public Batch, public std::enable_shared_from_this<RangeScan> {
 public:
  /// \brief `lower_bound` is the accepted `i > bound` threshold (none: read everything),
  /// `pushed` the predicates accepted (for Description), `columns` the output in table order.
  RangeScan(std::optional<int32_t> lower_bound, std::vector<PredicatePtr> pushed,
            std::vector<RangeColumn> columns);

  std::shared_ptr<arrow::Schema> ReadSchema() const override;
  /// \brief E.g. "pushedPredicates=[i > 6], readSchema=[i, j]".
  std::string Description() const override;
  /// \brief Returns this object.
  Result<std::shared_ptr<Batch>> ToBatch() override;

  /// \brief Plan as Spark's JavaAdvancedDataSourceV2: no bound -> [0,5) [5,10);
  /// bound < 4 -> [bound+1,5) [5,10); bound < 9 -> [bound+1,10); otherwise nothing.
  Result<std::vector<std::shared_ptr<InputPartition>>> PlanInputPartitions() override;
  Result<std::shared_ptr<PartitionReaderFactory>> CreateReaderFactory() override;
  /// \brief Rebuild a factory from "range-factory:..." bytes (see file comment).
  Result<std::shared_ptr<PartitionReaderFactory>> DeserializeReaderFactory(
      std::string_view bytes) const override;

 private:
  std::optional<int32_t> lower_bound_;
  std::vector<PredicatePtr> pushed_;
  std::vector<RangeColumn> columns_;
};

}  // namespace parley::example
