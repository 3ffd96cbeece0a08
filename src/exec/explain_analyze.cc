// EXPLAIN ANALYZE annotations: operator and task metrics rendered under each operator.
#include "exec/explain_analyze.h"

#include <fmt/format.h>

#include <algorithm>

#include "plan/runtime_filter.h"

namespace parley {
namespace {

std::string Millis(double seconds) { return fmt::format("{:.1f} ms", seconds * 1000); }

std::string TaskLines(const std::vector<TaskMetrics>& tasks) {
  if (tasks.empty()) return "Tasks: 0\n";
  std::vector<double> durations;
  for (const auto& task : tasks) durations.push_back(task.seconds);
  std::sort(durations.begin(), durations.end());
  double median = durations[durations.size() / 2];
  double max = durations.back();
  bool skew = durations.size() > 1 && max > 4 * median;
  return fmt::format("Tasks: {}, duration min / median / max: {} / {} / {}{}\n", tasks.size(),
                     Millis(durations.front()), Millis(median), Millis(max),
                     skew ? " (SKEW: slowest task over 4x the median)" : "");
}

// How the run followed the plan's physical decisions: a join's build side computed first and
// the runtime filters its keys were offered as, a shared result read.
std::string ExecutedLines(const PlanNode& node, const OperatorProfile& p,
                          const OperatorNumbers& numbers) {
  std::string out;
  if (p.build_rows_first) {
    std::string offered = RuntimeFilterSummary(node, p.offered_runtime_filters);
    out += fmt::format("Executed: build side ({}) first, {} rows; runtime filters offered: {}\n",
                       numbers.at(node.children[BuildChild(node)].get()), *p.build_rows_first,
                       offered.empty() ? "none (more rows than maxBuildRows)" : offered);
  }
  if (p.rows_computed_by != nullptr) {
    out += p.rows_computed_by == &node ? std::string("Executed: computed the shared rows\n")
                                       : fmt::format("Executed: read the rows ({}) computed\n",
                                                     numbers.at(p.rows_computed_by));
  }
  return out;
}

}  // namespace

ExplainAnnotator ProfileAnnotator(const std::map<const PlanNode*, OperatorProfile>& profile) {
  return [&profile](const PlanNode& node, const OperatorNumbers& numbers) -> std::string {
    auto it = profile.find(&node);
    if (it == profile.end()) return {};
    const OperatorProfile& p = it->second;
    std::string out =
        fmt::format("Rows out: {}\nTime (with inputs): {}\n", p.rows_out, Millis(p.seconds));
    out += ExecutedLines(node, p, numbers);
    if (node.kind != PlanNode::Kind::kScan) return out;
    out += TaskLines(p.tasks);
    for (const auto& [name, value] : p.custom_metrics) {
      out += fmt::format("{}: {}\n", name == kBytesReadMetric ? "Bytes read" : name, value);
    }
    return out;
  };
}

}  // namespace parley
