// EXPLAIN of a row-level plan: its operator, target and group filter above its query's plan.
#include "exec/row_level_explain.h"

#include <fmt/format.h>

#include "catalog/identifiers.h"
#include "exec/row_level_runner.h"
#include "plan/explain.h"

namespace parley {
namespace {

std::string PredicateList(const std::vector<PredicatePtr>& predicates) {
  std::vector<std::string> texts;
  for (const auto& predicate : predicates) texts.push_back(predicate->ToString());
  return fmt::format("[{}]", fmt::join(texts, ", "));
}

}  // namespace

Result<std::string> ExplainRowLevel(RowLevelPlan* plan, sql::ExplainMode mode) {
  const std::string target = plan->target_name.ToString();
  ARROW_ASSIGN_OR_RAISE(auto strategy, PlanRowLevel(plan));
  if (strategy.metadata_delete) {
    return fmt::format(
        "== Physical Plan ==\nDeleteFromTable {} (metadata-only delete: the "
        "table accepts the condition, no rows are read)\nDeletePredicates: {}\n",
        target, PredicateList(strategy.delete_predicates));
  }
  const char* command = RowLevelCommandName(plan->command);
  std::string header;
  if (plan->representation == RowLevelRepresentation::kDeltaBased) {
    std::vector<std::string> row_id;
    for (const auto& column : plan->row_id_columns) row_id.push_back(column.name);
    header = fmt::format(
        "WriteDelta {} {} (delta-based row-level operation: only changed rows "
        "are written)\nRowId: [{}]\n",
        command, target, fmt::join(row_id, ", "));
  } else {
    header = fmt::format(
        "ReplaceData {} {} (group-based row-level operation: every group with "
        "a changed row is rewritten)\n",
        command, target);
  }
  const std::string operation = plan->operation->description();
  if (operation != command) header += "Operation: " + operation + "\n";
  header += "GroupFilter: " + PredicateList(strategy.group_filter);
  if (strategy.group_filter.empty()) {
    header += " (every group is read)";
  } else if (!strategy.group_filter_offered) {
    header += " (not offered: the scan takes no filters, every group is read)";
  }
  header += "\n";
  ARROW_ASSIGN_OR_RAISE(auto query_text, ExplainPlan(plan->query, mode));
  return ExplainCommand(header, query_text);
}

}  // namespace parley
