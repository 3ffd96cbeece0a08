// The executor: runs a negotiated plan. Scans run as parallel tasks (scan_tasks.h); every
// operator above them runs on Arrow Acero (filter, project, aggregate for DISTINCT, order_by,
// fetch). Results carry the display names users see.
#pragma once

#include <memory>
#include <vector>

#include "arrow/type_fwd.h"
#include "exec/scan_tasks.h"
#include "plan/logical_plan.h"

namespace parley {

/// \brief Result of running a plan, with per-task metrics of its scans.
struct ExecutionResult {
  std::shared_ptr<arrow::Table> table;
  std::vector<TaskMetrics> task_metrics;
};

/// \brief Execute `plan` and gather its whole result. Runtime errors carry Spark conditions
/// (ARITHMETIC_OVERFLOW, DIVIDE_BY_ZERO, CAST_INVALID_INPUT, ...).
Result<ExecutionResult> ExecutePlan(const PlanNodePtr& plan, const ScanRunOptions& options);

}  // namespace parley
