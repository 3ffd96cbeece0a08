// Runs a bound write: executes its query, checks NOT NULL columns, configures the connector's
// WriteBuilder for the mode, lays the rows out as the Write requires and runs the write job.
#pragma once

#include <string>

#include "exec/scan_tasks.h"
#include "exec/write_job.h"
#include "plan/write_plan.h"

namespace parley {

struct WriteRunOptions {
  ScanRunOptions scan;
  WriteJobOptions job;
  int64_t rows_per_task = 1 << 20;
  /// Unique per write: LogicalWriteInfo::query_id.
  std::string query_id;
};

/// \brief Run `plan` (its query already negotiated). Nothing is written when the query fails or
/// a NOT NULL column receives NULL (NOT_NULL_ASSERT_VIOLATION naming the column). Errors from
/// the builder: UNSUPPORTED_OVERWRITE.TABLE when the table refuses the overwrite predicates,
/// CONNECTOR_CONTRACT_VIOLATION.MISSING_WRITE_MIXIN when the table declares a capability its
/// builder does not implement.
Result<WriteJobResult> RunWrite(WritePlan* plan, const WriteRunOptions& options);

}  // namespace parley
