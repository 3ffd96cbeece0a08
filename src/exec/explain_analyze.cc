// EXPLAIN ANALYZE annotations: operator and task metrics rendered under each operator.
#include "exec/explain_analyze.h"

#include <fmt/format.h>

#include <algorithm>

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

}  // namespace

ExplainAnnotator ProfileAnnotator(const std::map<const PlanNode*, OperatorProfile>& profile) {
  return [&profile](const PlanNode& node) -> std::string {
    auto it = profile.find(&node);
    if (it == profile.end()) return {};
    const OperatorProfile& p = it->second;
    std::string out =
        fmt::format("Rows out: {}\nTime (with inputs): {}\n", p.rows_out, Millis(p.seconds));
    if (node.kind != PlanNode::Kind::kScan) return out;
    out += TaskLines(p.tasks);
    for (const auto& [name, value] : p.custom_metrics) {
      out += fmt::format("{}: {}\n", name == kBytesReadMetric ? "Bytes read" : name, value);
    }
    return out;
  };
}

}  // namespace parley
