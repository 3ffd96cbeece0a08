// Lowering of scans: a scan's tasks stream into the plan as a source (or, profiled, gather a
// table first), a filter directly above a scan runs inside its tasks, and a runtime filter
// reaches a scan before its partitions are planned.
#include <chrono>

#include "arrow/compute/api.h"
#include "arrow/table.h"
#include "exec/lowering.h"

namespace parley {

namespace ac = arrow::acero;
namespace cp = arrow::compute;

// The partitions of `scan` to run: those of the key group being joined, else all.
std::optional<std::vector<size_t>> Lowering::Subset(const PlanNode* scan) const {
  auto it = subsets_.find(scan);
  if (it == subsets_.end()) return std::nullopt;
  return it->second;
}

// Give `scan` the predicates (its partitions are planned again afterwards) and add the row
// filter to what its tasks evaluate.
Status Lowering::OfferRuntimeFilter(PlanNode* scan, const RuntimeFilter& filter) {
  auto& negotiation = *scan->negotiation;
  if (!filter.predicates.empty()) {
    auto* filtering = dynamic_cast<SupportsRuntimeV2Filtering*>(negotiation.scan.get());
    ARROW_RETURN_NOT_OK(filtering->Filter(filter.predicates));
    negotiation.runtime_predicates.insert(negotiation.runtime_predicates.end(),
                                          filter.predicates.begin(), filter.predicates.end());
    negotiation.batch = nullptr;
    negotiation.partitions.clear();
  }
  auto [it, inserted] = row_filters_.emplace(scan, filter.row_filter);
  if (!inserted) it->second = cp::and_(it->second, filter.row_filter);
  return Status::OK();
}

// A scan whose tasks stream their batches (and apply `filter`) into the plan as they read.
Result<ac::Declaration> Lowering::StreamScan(const PlanNodePtr& scan,
                                             std::optional<cp::Expression> filter) {
  const bool ordered =
      unordered_scans_.count(scan.get()) == 0 && options_.unordered_scans.count(scan.get()) == 0;
  ARROW_ASSIGN_OR_RAISE(auto stream, StartScanTasks(scan.get(), options_, std::move(filter),
                                                    Subset(scan.get()), ordered));
  streams_.push_back(stream);
  return ac::Declaration("source",
                         ac::SourceNodeOptions(
                             stream->schema(), [stream] { return stream->Next(); },
                             ordered ? cp::Ordering::Implicit() : cp::Ordering::Unordered()));
}

// A filter directly above a scan runs inside the scan's tasks (scan_tasks.h). The scan's
// profile entry is its tasks' (rows as read); the filter's is recorded by Lower().
Result<ac::Declaration> Lowering::LowerFilteredScan(const PlanNodePtr& scan,
                                                    cp::Expression condition) {
  if (!profile_) return StreamScan(scan, std::move(condition));
  auto start = std::chrono::steady_clock::now();
  size_t tasks_before = metrics_.size();
  ARROW_ASSIGN_OR_RAISE(auto table, RunScanTasks(scan.get(), options_, &metrics_,
                                                 std::move(condition), Subset(scan.get())));
  if (profile_) {
    auto& entry = profile_by_node_[scan.get()];
    entry.tasks.assign(metrics_.begin() + tasks_before, metrics_.end());
    entry.rows_out = 0;
    for (const auto& task : entry.tasks) entry.rows_out += task.rows;
    entry.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    entry.custom_metrics = AggregateCustomMetrics(*scan->negotiation->scan, entry.tasks);
  }
  return ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(table)));
}

}  // namespace parley
