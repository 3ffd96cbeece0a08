// Runs a bound write: configures the connector's WriteBuilder for the mode, runs the query and
// hands its rows to the write job as they are produced (or, when the Write requires a
// distribution or ordering, lays the whole result out first), checking NOT NULL columns and
// decimal precision on the way.
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
  /// When the query's rows stream into the write: the most Arrow memory of rows one task
  /// takes (a task ends at whichever of the two limits it reaches first).
  int64_t bytes_per_task = 128 << 20;
  /// Unique per write: LogicalWriteInfo::query_id.
  std::string query_id;
};

/// \brief Run `plan` (its query already negotiated). Memory follows the write's task size
/// (`rows_per_task` rows or `bytes_per_task` bytes per running task), not the query's result,
/// unless the Write lays its rows out. Nothing is committed when the query fails or a NOT NULL
/// column receives NULL (NOT_NULL_ASSERT_VIOLATION naming the column): the write is aborted, with
/// the commit messages of the tasks that finished, so the connector removes what they wrote. Errors
/// from the builder: UNSUPPORTED_OVERWRITE.TABLE when the table refuses the overwrite predicates,
/// CONNECTOR_CONTRACT_VIOLATION.MISSING_WRITE_MIXIN when the table declares a capability its
/// builder does not implement.
Result<WriteJobResult> RunWrite(WritePlan* plan, const WriteRunOptions& options);

}  // namespace parley
