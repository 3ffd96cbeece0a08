// The executor: runs a negotiated plan. Scans run as parallel tasks (scan_tasks.h); every
// operator above them runs on Arrow Acero (filter, project, aggregate for DISTINCT, order_by,
// fetch, hashjoin, union), except those Acero lacks, which gather their input and compute on
// Arrow arrays: Window (exec/window_lowering.h), ReplicateRows (exec/replicate_rows.h), and
// Expand, whose one gathered input feeds a projection per grouping set. Results carry the
// display names users see.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "arrow/type_fwd.h"
#include "exec/scan_tasks.h"
#include "plan/logical_plan.h"

namespace parley {

/// \brief What one operator did, for EXPLAIN ANALYZE: its measures, and how it followed the
/// plan's physical decisions (plan/physical_planning.h).
struct OperatorProfile {
  int64_t rows_out = 0;
  double seconds = 0;
  /// Scans: one entry per task, and each custom metric aggregated by its CustomMetric.
  std::vector<TaskMetrics> tasks;
  std::vector<std::pair<std::string, std::string>> custom_metrics;
  /// Joins with runtime filters: the rows of the build side, computed first, and the targets
  /// its keys were offered to (none when the build side had too many rows).
  std::optional<int64_t> build_rows_first;
  std::vector<RuntimeFilterTarget> offered_runtime_filters;
  /// Nodes that share one computed result (PlanNode::reuses): the node whose run computed it.
  const PlanNode* rows_computed_by = nullptr;
};

/// \brief Result of running a plan, with per-task metrics of its scans.
struct ExecutionResult {
  std::shared_ptr<arrow::Table> table;
  std::vector<TaskMetrics> task_metrics;
  /// Filled when run with `profile`: per operator of the plan.
  std::map<const PlanNode*, OperatorProfile> profile;
};

/// \brief Register Arrow's non-core compute kernels (libarrow_compute), Arrow's dataset exec
/// nodes and Parley's own compute functions once per process. Arrow's function and exec node
/// registries are not safe to extend while other threads look entries up (a files scan task opens
/// a dataset scanner, which would register the dataset nodes on first use while the query's own
/// plan is being built), so this must complete before any thread runs compute: Session::Make calls
/// it, as does every path that calls compute functions outside ExecutePlan.
Status EnsureComputeInitialized();

/// \brief Execute `plan` and gather its whole result. Runtime errors carry Spark conditions
/// (ARITHMETIC_OVERFLOW, DIVIDE_BY_ZERO, CAST_INVALID_INPUT, ...). With `profile`, every
/// operator's output is gathered on its own so its rows and time can be reported (slower:
/// for EXPLAIN ANALYZE).
Result<ExecutionResult> ExecutePlan(const PlanNodePtr& plan, const ScanRunOptions& options,
                                    bool profile = false);

/// \brief A running plan whose output is read batch by batch (ExecutePlanStream).
class PlanStream {
 public:
  virtual ~PlanStream() = default;
  /// \brief The output schema, with the display names users see.
  virtual const std::shared_ptr<arrow::Schema>& schema() const = 0;
  /// \brief The next batch of the output, null after the last. Runtime errors carry Spark
  /// conditions, as ExecutePlan's do.
  virtual Result<std::shared_ptr<arrow::RecordBatch>> Next() = 0;
  /// \brief End the plan if it still runs (its scans stop reading and the rest of its output
  /// is discarded) and wait for its scan tasks; the plan's error, else their first error.
  /// Called after the last Next() or instead of further ones; later calls return the same
  /// status, and the destructor calls it when nobody did.
  virtual Status Close() = 0;
};

/// \brief Start `plan` and return its output as a stream: batches flow from its scans through
/// its operators to the caller as it reads them, so only operators that need their whole input
/// (sort, window, ...) gather it.
Result<std::unique_ptr<PlanStream>> ExecutePlanStream(const PlanNodePtr& plan,
                                                      const ScanRunOptions& options);

}  // namespace parley
