// DELETE, UPDATE and MERGE: bind, run through the row-level runner, and report Spark's metrics
// rows (num_affected_rows; MERGE also num_updated_rows, num_deleted_rows, num_inserted_rows).
#include <fmt/format.h>

#include "analysis/analysis_error.h"
#include "analysis/dml_binder.h"
#include "arrow/builder.h"
#include "arrow/table.h"
#include "arrow/type.h"
#include "exec/row_level_explain.h"
#include "exec/row_level_runner.h"
#include "main/commands.h"
#include "parley/connector/fault_injection.h"

namespace parley {
namespace {

// One row of BIGINT metrics.
CommandResult MetricsRow(const std::vector<std::pair<std::string, int64_t>>& metrics) {
  arrow::FieldVector fields;
  std::vector<std::shared_ptr<arrow::Array>> columns;
  for (const auto& [name, value] : metrics) {
    fields.push_back(arrow::field(name, arrow::int64(), false));
    arrow::Int64Builder builder;
    ARROW_RETURN_NOT_OK(builder.Append(value));
    ARROW_ASSIGN_OR_RAISE(auto array, builder.Finish());
    columns.push_back(std::move(array));
  }
  return arrow::Table::Make(arrow::schema(std::move(fields)), columns, 1);
}

Result<RowLevelResult> Run(RowLevelPlan plan, const CommandContext& context) {
  const auto& explicit_values = context.conf->explicit_values();
  if (auto faults = explicit_values.find(kFaultInjectionKey); faults != explicit_values.end()) {
    ARROW_RETURN_NOT_OK(SetFaultInjection(faults->second));
  }
  return RunRowLevel(&plan, WriteOptionsFor(*context.conf, context.control));
}

}  // namespace

CommandResult RunDelete(const sql::DeleteFrom& statement, const CommandContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto plan, BindDelete(statement, context.catalogs));
  ARROW_ASSIGN_OR_RAISE(auto result, Run(std::move(plan), context));
  return MetricsRow({{"num_affected_rows", result.deleted}});
}

CommandResult RunUpdate(const sql::Update& statement, const CommandContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto plan, BindUpdate(statement, context.catalogs));
  ARROW_ASSIGN_OR_RAISE(auto result, Run(std::move(plan), context));
  return MetricsRow({{"num_affected_rows", result.updated}});
}

CommandResult RunMerge(const sql::Merge& statement, const CommandContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto plan, BindMerge(statement, context.catalogs));
  ARROW_ASSIGN_OR_RAISE(auto result, Run(std::move(plan), context));
  return MetricsRow({{"num_affected_rows", result.updated + result.deleted + result.inserted},
                     {"num_updated_rows", result.updated},
                     {"num_deleted_rows", result.deleted},
                     {"num_inserted_rows", result.inserted}});
}

Result<std::string> ExplainRowLevelCommand(const sql::Statement& statement, sql::ExplainMode mode,
                                           const CommandContext& context) {
  Result<RowLevelPlan> plan = Status::Invalid("not a DELETE, UPDATE or MERGE");
  if (const auto* del = std::get_if<sql::DeleteFrom>(&statement.node)) {
    plan = BindDelete(*del, context.catalogs);
  } else if (const auto* update = std::get_if<sql::Update>(&statement.node)) {
    plan = BindUpdate(*update, context.catalogs);
  } else if (const auto* merge = std::get_if<sql::Merge>(&statement.node)) {
    plan = BindMerge(*merge, context.catalogs);
  }
  ARROW_RETURN_NOT_OK(plan.status());
  if (mode == sql::ExplainMode::kAnalyze) {
    return AnalysisError(
        "UNSUPPORTED_FEATURE.EXPLAIN_COMMAND",
        fmt::format("EXPLAIN ANALYZE of {} is not supported: it would change "
                    "the table {}. EXPLAIN, EXPLAIN EXTENDED and EXPLAIN "
                    "FORMATTED show how it would run without running it.",
                    RowLevelCommandName(plan->command), plan->target_name.ToString()),
        statement.pos);
  }
  return ExplainRowLevel(&*plan, mode);
}

}  // namespace parley
