// The Scan shared by the Delta change readers (delta_change_feed.cc, delta_changelog.cc): both
// plan their input partitions while building the scan, and differ only in their Batch.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "connectors/delta/read/read_task.h"
#include "connectors/delta/table_state.h"
#include "parley/connector/read.h"
#include "parley/connector/status.h"

namespace parley::delta {

/// \brief A scan of change rows whose input partitions were planned when it was built: each
/// ToBatch() hands them, the table and the read schema to a new `BatchType`.
template <typename BatchType>
class PlannedChangeScan : public Scan {
 public:
  PlannedChangeScan(std::shared_ptr<const TableState> table,
                    std::vector<std::shared_ptr<InputPartition>> partitions,
                    std::shared_ptr<arrow::Schema> schema, std::string description)
      : table_(std::move(table)),
        partitions_(std::move(partitions)),
        schema_(std::move(schema)),
        description_(std::move(description)) {}

  std::shared_ptr<arrow::Schema> ReadSchema() const override { return schema_; }
  std::string Description() const override { return description_; }
  Result<std::shared_ptr<Batch>> ToBatch() override {
    return std::make_shared<BatchType>(table_, partitions_, schema_);
  }
  std::vector<std::shared_ptr<CustomMetric>> SupportedCustomMetrics() const override {
    return DeltaMetrics();
  }

 private:
  std::shared_ptr<const TableState> table_;
  std::vector<std::shared_ptr<InputPartition>> partitions_;
  std::shared_ptr<arrow::Schema> schema_;
  std::string description_;
};

}  // namespace parley::delta
