// What a files scan reads, decided when its builder builds it: partition pruning, the files
// whose partition values rule out a predicate, and for Parquet the row groups whose statistics
// do, with the bytes and rows left and the statistics the scan reports (files_scan_plan.cc).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "arrow/compute/expression.h"
#include "connectors/files/files_options.h"
#include "connectors/files/files_table.h"
#include "parley/connector/expressions.h"
#include "parley/connector/read.h"
#include "parley/connector/status.h"

namespace parley::files {

/// \brief A predicate the builder accepted, with its (unbound) Arrow form.
struct AcceptedPredicate {
  PredicatePtr predicate;
  arrow::compute::Expression expression;
};

/// \brief What the builder hands to the scan.
struct ScanRequest {
  ReadOptions options;
  std::vector<AcceptedPredicate> partition_filters;  // exact
  std::vector<AcceptedPredicate> data_filters;       // pruning only; also returned
  std::vector<std::string> read_columns;             // table order
  // Parquet: struct read columns narrowed to some of their fields (nested schema pruning).
  arrow::FieldVector narrowed;
  int64_t limit = -1;
};

/// \brief A file kept by pruning, with what will be read of it.
struct PlannedFile {
  const DataFile* file = nullptr;
  std::vector<int> row_groups;           // Parquet: the kept row groups
  std::vector<int64_t> row_group_bytes;  // Parquet: compressed bytes of the read columns
  std::vector<int64_t> row_group_rows;   // Parquet
  int64_t bytes = 0;                     // what the planner weighs: the bytes to read
};

/// \brief What a scan reads: the files kept with their row groups, and the statistics it reports.
struct ScanPlan {
  std::vector<PlannedFile> files;
  int64_t candidate_row_groups = 0;  // Parquet: row groups in the files partition pruning kept
  Statistics statistics;
};

/// Prune and measure: partitions exactly, then files by partition values, then Parquet row
// groups by statistics.
Result<ScanPlan> PlanScan(const TableData& table, const ScanRequest& request);

}  // namespace parley::files
