// Scan tasks: one task per input partition, run on a thread pool, each creating its reader from
// the (optionally round-tripped) reader factory and draining it into Arrow batches, which are
// gathered into a table (RunScanTasks) or streamed to the consumer (StartScanTasks).
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "arrow/compute/exec.h"
#include "arrow/compute/expression.h"
#include "arrow/type_fwd.h"
#include "arrow/util/future.h"
#include "exec/query_control.h"
#include "plan/logical_plan.h"

namespace parley {

/// \brief What one task did: for EXPLAIN ANALYZE and tests.
struct TaskMetrics {
  size_t partition = 0;
  int64_t rows = 0;
  double seconds = 0;
  /// The reader's CurrentMetricsValues() once it was exhausted.
  std::vector<CustomTaskMetric> custom;
};

/// \brief Options of a scan run.
struct ScanRunOptions {
  /// Serialize and rebuild the reader factory and every partition before use, failing with
  /// CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE when that does not round-trip.
  bool round_trip_tasks = false;
  /// Re-evaluate every predicate the source accepted exactly (and a fully pushed limit) on
  /// what it returned, failing with CONNECTOR_CONTRACT_VIOLATION.PUSHED_PREDICATE_NOT_APPLIED
  /// or PUSHED_LIMIT_NOT_APPLIED. Predicates over columns the scan does not return (pruned
  /// away because nothing above needs them) cannot be checked and are skipped.
  bool verify_pushdown = false;
  /// Runtime filtering (the joins' PlanNode::runtime_filters): the most rows a join's build
  /// side may have for its keys to be offered to the probe side's scans.
  int64_t runtime_filter_max_build_rows = 1000;
  /// The most distinct keys offered to a source as an IN predicate; more are offered as a
  /// range (key >= min AND key <= max).
  int64_t runtime_filter_max_in_list = 1000;
  /// Scan nodes whose rows the caller takes in any order (a row-level operation's target):
  /// they stream unordered, with bounded read-ahead (StartScanTasks).
  std::set<const PlanNode*> unordered_scans;
  /// The statement's stop conditions (checked by each task before each batch) and the pool
  /// its Acero plans allocate from.
  QueryControl control;
};

/// \brief Run every partition of a negotiated scan node as its own task and return the rows
/// as one table with the scan's read schema. Appends one TaskMetrics per task to `metrics`
/// (its `rows` count what the reader returned). With a `filter` over the read schema (the
/// residual filter directly above the scan), each task keeps only the rows of each batch for
/// which it is TRUE, while the batch is fresh; its runtime errors carry Spark conditions.
/// With `only`, just the partitions at those indices of the planned ones run (one key group of
/// a storage-partitioned join).
Result<std::shared_ptr<arrow::Table>> RunScanTasks(
    PlanNode* scan, const ScanRunOptions& options, std::vector<TaskMetrics>* metrics,
    const std::optional<arrow::compute::Expression>& filter = std::nullopt,
    const std::optional<std::vector<size_t>>& only = std::nullopt);

/// \brief A scan's output as a stream of batches, produced by its tasks while the consumer
/// runs (StartScanTasks): in partition order, each task buffering what the consumer has not
/// taken yet; or, unordered, in the order the tasks produce them, each task pausing while a
/// few of its batches wait, so that the memory held stays small. Thread-safe.
class ScanStream {
 public:
  virtual ~ScanStream() = default;
  /// \brief The scan's read schema.
  virtual const std::shared_ptr<arrow::Schema>& schema() const = 0;
  /// \brief The next batch, std::nullopt after the last one; an error once the task it waits
  /// for failed (or the pushed limit check did). One call at a time: the next only after the
  /// previous future completed, as Acero's source node calls it.
  virtual arrow::Future<std::optional<arrow::compute::ExecBatch>> Next() = 0;
  /// \brief End the stream early: a Next() still waiting, and every later one, completes
  /// with std::nullopt at once (no error, no limit check); the batches not taken are dropped
  /// and the tasks stop at their next batch. The consumer then runs dry instead of being
  /// stopped from outside. Finish() must still be called.
  virtual void Stop() = 0;
  /// \brief Stop the tasks still reading, wait for every task, and return their metrics in
  /// partition order, or the first task error. Must be called once, whatever happened, before
  /// the plan node is released.
  virtual Result<std::vector<TaskMetrics>> Finish() = 0;
};

/// \brief Start the partitions of a negotiated scan node as tasks, as RunScanTasks does, but
/// hand the batches out through the returned stream as the tasks produce them: in partition
/// order when `ordered`, otherwise in any order and with bounded buffering (for a consumer
/// whose result does not depend on the order of its input, such as an aggregation).
Result<std::shared_ptr<ScanStream>> StartScanTasks(
    PlanNode* scan, const ScanRunOptions& options,
    const std::optional<arrow::compute::Expression>& filter = std::nullopt,
    const std::optional<std::vector<size_t>>& only = std::nullopt, bool ordered = true);

}  // namespace parley
