// A harness for connector tests: run a built Scan's tasks the way the engine does, through the
// public API only. The reader factory and every partition are rebuilt from bytes first (as on
// an executor), each reader is drained, and every batch must have the scan's ReadSchema().
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "arrow/record_batch.h"
#include "arrow/table.h"
#include "parley/connector/read.h"

namespace parley::testing {

/// \brief What running a scan produced: its rows in partition order, the number of planned
/// partitions, and each custom metric summed over the tasks.
struct ScanRun {
  std::shared_ptr<arrow::Table> rows;
  int64_t partitions = 0;
  std::map<std::string, int64_t> metrics;
};

/// \brief Plan, round-trip and drain every partition of `scan`.
inline Result<ScanRun> RunScan(Scan& scan) {
  ScanRun run;
  ARROW_ASSIGN_OR_RAISE(auto batch, scan.ToBatch());
  ARROW_ASSIGN_OR_RAISE(auto partitions, batch->PlanInputPartitions());
  ARROW_ASSIGN_OR_RAISE(auto factory, batch->CreateReaderFactory());
  ARROW_ASSIGN_OR_RAISE(auto factory_bytes, factory->Serialize());
  ARROW_ASSIGN_OR_RAISE(auto executor_factory, batch->DeserializeReaderFactory(factory_bytes));
  run.partitions = static_cast<int64_t>(partitions.size());
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  for (const auto& partition : partitions) {
    ARROW_ASSIGN_OR_RAISE(auto bytes, partition->Serialize());
    ARROW_ASSIGN_OR_RAISE(auto rebuilt, executor_factory->DeserializePartition(bytes));
    ARROW_ASSIGN_OR_RAISE(auto reader, executor_factory->CreateReader(*rebuilt));
    while (true) {
      ARROW_ASSIGN_OR_RAISE(auto next, reader->Next());
      if (next == nullptr) break;
      if (!next->schema()->Equals(*scan.ReadSchema())) {
        return Status::Invalid("batch schema ", next->schema()->ToString(),
                               " differs from ReadSchema ", scan.ReadSchema()->ToString());
      }
      batches.push_back(std::move(next));
    }
    for (const auto& metric : reader->CurrentMetricsValues()) {
      run.metrics[metric.name] += metric.value;
    }
  }
  ARROW_ASSIGN_OR_RAISE(run.rows, arrow::Table::FromRecordBatches(scan.ReadSchema(), batches));
  return run;
}

}  // namespace parley::testing
