// Lowering: a final plan (plan/physical_planning.h) turned into an Acero declaration, operator
// by operator. Scans enter Acero as sources that their tasks feed while the plan runs (with
// profiling, as tables they gathered first), a filter directly above a scan applied by the
// tasks; each other logical operator becomes the matching Acero node, or is computed on
// gathered arrays where Acero has no such node. The lowering decides nothing the plan does not
// say. Internal to exec; one Lowering per run of a plan, used by one thread.
//
// The members live by operator family: lowering.cc (the dispatch, projections, filters, sorts,
// values, reuse, streams), scan_lowering.cc (scans and runtime filters), join_lowering.cc
// (joins) and aggregate_lowering.cc (aggregates and grouping sets).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "arrow/acero/exec_plan.h"
#include "arrow/acero/options.h"
#include "arrow/compute/expression.h"
#include "exec/executor.h"
#include "exec/runtime_filter.h"
#include "exec/scan_tasks.h"
#include "plan/storage_partitioned_join.h"

namespace parley {

/// \brief Acero options of every plan a statement runs: it allocates from the statement's pool.
arrow::acero::QueryOptions PlanOptions(const ScanRunOptions& options);

/// \brief The whole output of `declaration` as one table; runtime errors carry Spark conditions.
Result<std::shared_ptr<arrow::Table>> RunToTable(arrow::acero::Declaration declaration,
                                                 const ScanRunOptions& options);

/// \brief Each custom metric of `scan` aggregated over its tasks, by the scan's CustomMetric.
std::vector<std::pair<std::string, std::string>> AggregateCustomMetrics(
    const Scan& scan, const std::vector<TaskMetrics>& tasks);

class Lowering {
 public:
  /// \brief With `profile`, each operator runs to completion on its own and enters its parent
  /// as a table, so that its rows and time are known exactly (EXPLAIN ANALYZE).
  Lowering(const ScanRunOptions& options, bool profile) : options_(options), profile_(profile) {}

  /// \brief Note the nodes of `plan` that share one computed result (PlanNode::reuses); call
  /// before Lower.
  void CollectReuse(const PlanNode& plan);
  /// \brief The declaration computing `node`'s rows.
  Result<arrow::acero::Declaration> Lower(const PlanNodePtr& node);
  /// \brief End every streamed scan now (ScanStream::Stop): the plan above them then runs dry.
  void StopStreams();
  /// \brief Wait for the tasks of every streamed scan and append their metrics, in the order
  /// the scans started; the first task error, if any. Called once, after the plan ran or
  /// failed.
  Status FinishStreams();

  std::map<const PlanNode*, OperatorProfile>& profile() { return profile_by_node_; }
  std::vector<TaskMetrics>& metrics() { return metrics_; }

 private:
  // lowering.cc
  Result<arrow::acero::Declaration> LowerNode(const PlanNodePtr& node);
  void MarkUnorderedInput(const PlanNode& node);
  Result<arrow::acero::Declaration> LowerReused(const PlanNodePtr& node, const PlanNode* key);
  Result<std::shared_ptr<arrow::Table>> Gather(const PlanNodePtr& node);
  Result<arrow::acero::Declaration> LowerValues(const PlanNode& node);
  Result<arrow::acero::Declaration> LowerSort(const PlanNodePtr& node);
  Result<arrow::acero::Declaration> LowerChangelogPass(const PlanNode& node);
  Result<arrow::acero::Declaration> LowerRowNumbering(const PlanNode& node);
  Result<arrow::acero::Declaration> LowerReplicateRows(const PlanNode& node);

  // scan_lowering.cc
  std::optional<std::vector<size_t>> Subset(const PlanNode* scan) const;
  Status OfferRuntimeFilter(PlanNode* scan, const RuntimeFilter& filter);
  Result<arrow::acero::Declaration> StreamScan(const PlanNodePtr& scan,
                                               std::optional<arrow::compute::Expression> filter);
  Result<arrow::acero::Declaration> LowerFilteredScan(const PlanNodePtr& scan,
                                                      arrow::compute::Expression condition);

  // join_lowering.cc
  Result<arrow::acero::Declaration> LowerJoinNode(const PlanNodePtr& node);
  Result<arrow::acero::Declaration> LowerPartitionedJoin(const PlanNodePtr& node,
                                                         const PartitionGroups& groups);

  // aggregate_lowering.cc
  Result<arrow::acero::Declaration> LowerAggregate(const PlanNodePtr& node);
  Result<arrow::acero::Declaration> LowerExpand(const PlanNode& node);

  const ScanRunOptions& options_;
  bool profile_;
  std::vector<std::shared_ptr<ScanStream>> streams_;
  std::vector<TaskMetrics> metrics_;
  // Runtime filters of the scans (by node), evaluated by their tasks.
  std::map<const PlanNode*, arrow::compute::Expression> row_filters_;
  // Scans whose consumer does not depend on the order of their rows (MarkUnorderedInput).
  std::set<const PlanNode*> unordered_scans_;
  // Scans restricted to one key group's partitions while a storage-partitioned join lowers it.
  std::map<const PlanNode*, std::vector<size_t>> subsets_;
  std::map<const PlanNode*, OperatorProfile> profile_by_node_;
  // Nodes sharing one computed result, each mapped to the key of that result.
  std::map<const PlanNode*, const PlanNode*> reuse_key_;
  // Per reuse key, the node whose run computed the shared rows, and the rows.
  std::map<const PlanNode*, const PlanNode*> computed_by_;
  std::map<const PlanNode*, std::shared_ptr<arrow::Table>> reused_rows_;
};

}  // namespace parley
