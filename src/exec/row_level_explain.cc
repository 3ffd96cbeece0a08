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
  std::string text = "== Physical Plan ==\n";
  if (strategy.metadata_delete) {
    text += fmt::format("DeleteFromTable {} (metadata-only delete: the table accepts the "
                        "condition, no rows are read)\n",
                        target);
    text += "DeletePredicates: " + PredicateList(strategy.delete_predicates) + "\n";
    return text;
  }
  const char* command = RowLevelCommandName(plan->command);
  if (plan->representation == RowLevelRepresentation::kDeltaBased) {
    std::vector<std::string> row_id;
    for (const auto& column : plan->row_id_columns) row_id.push_back(column.name);
    text += fmt::format("WriteDelta {} {} (delta-based row-level operation: only changed rows "
                        "are written)\nRowId: [{}]\n",
                        command, target, fmt::join(row_id, ", "));
  } else {
    text += fmt::format("ReplaceData {} {} (group-based row-level operation: every group with "
                        "a changed row is rewritten)\n",
                        command, target);
  }
  const std::string operation = plan->operation->description();
  if (operation != command) text += "Operation: " + operation + "\n";
  text += "GroupFilter: " + PredicateList(strategy.group_filter);
  if (strategy.group_filter.empty()) {
    text += " (every group is read)";
  } else if (!strategy.group_filter_offered) {
    text += " (not offered: the scan takes no filters, every group is read)";
  }
  text += "\n";
  // The runner runs the query without runtime filters: every row of a group must be read.
  ARROW_ASSIGN_OR_RAISE(auto query_text, ExplainPlan(plan->query, mode, nullptr,
                                                     /*runtime_filtering=*/false));
  return text + HangBelow(query_text);
}

}  // namespace parley
