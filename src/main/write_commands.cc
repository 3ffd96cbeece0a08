// INSERT, CREATE/REPLACE TABLE AS SELECT and TRUNCATE TABLE: bind, negotiate the query, run the
// write through the two-phase commit.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <map>
#include <optional>
#include <random>

#include "analysis/analysis_error.h"
#include "analysis/expression_binder.h"
#include "analysis/query_binder.h"
#include "analysis/write_binder.h"
#include "arrow/table.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "exec/executor.h"
#include "exec/query_control.h"
#include "main/command_results.h"
#include "main/commands.h"
#include "parley/connector/fault_injection.h"
#include "plan/explain.h"
#include "plan/pushdown.h"

namespace parley {
namespace {

// A query id unique across processes and runs: random prefix, then a counter.
std::string NewQueryId() {
  static const uint64_t prefix = [] {
    std::random_device random;
    return (static_cast<uint64_t>(random()) << 32) ^ random();
  }();
  static std::atomic<uint64_t> counter{0};
  return fmt::format("{:016x}-{}", prefix, counter++);
}

double ParseDouble(const std::optional<std::string>& text, double fallback) {
  if (!text) return fallback;
  double value = fallback;
  auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  return error == std::errc() ? value : fallback;
}

// Milliseconds of a duration setting such as "100ms", "2s" or a plain number of milliseconds.
int64_t ParseMillis(const std::optional<std::string>& text, int64_t fallback) {
  if (!text) return fallback;
  int64_t value = 0;
  auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (error != std::errc()) return fallback;
  std::string_view unit(end, text->data() + text->size() - end);
  if (unit == "s") return value * 1000;
  if (unit == "min") return value * 60000;
  return value;
}

Status RunPlannedWrite(WritePlan* plan, const CommandContext& context, WriteJobResult* profile) {
  ARROW_ASSIGN_OR_RAISE(plan->query,
                        NegotiatePushdown(plan->query, PushdownOptionsFor(*context.conf)));
  const auto& explicit_values = context.conf->explicit_values();
  if (auto faults = explicit_values.find(kFaultInjectionKey); faults != explicit_values.end()) {
    ARROW_RETURN_NOT_OK(SetFaultInjection(faults->second));
  }
  WriteRunOptions options = WriteOptionsFor(*context.conf, context.control);
  ARROW_ASSIGN_OR_RAISE(auto result, RunWrite(plan, options));
  if (profile != nullptr) *profile = std::move(result);
  return Status::OK();
}

}  // namespace

ScanRunOptions ScanOptionsFor(const SqlConf& conf, const QueryControl& control) {
  ScanRunOptions options;
  options.control = control;
  options.round_trip_tasks = conf.GetBool(kRoundTripTasksKey, false);
  options.verify_pushdown = conf.GetBool(kVerifyPushdownKey, false);
  options.runtime_filter_max_build_rows =
      conf.GetBool(kRuntimeFilterEnabledKey, true)
          ? std::max<int64_t>(
                0, static_cast<int64_t>(ParseDouble(conf.Get(kRuntimeFilterMaxBuildRowsKey), 1000)))
          : 0;
  options.runtime_filter_max_in_list = std::max<int64_t>(
      1, static_cast<int64_t>(ParseDouble(conf.Get(kRuntimeFilterMaxInListKey), 1000)));
  return options;
}

WriteRunOptions WriteOptionsFor(const SqlConf& conf, const QueryControl& control) {
  WriteRunOptions options;
  options.scan = ScanOptionsFor(conf, control);
  options.job.round_trip = options.scan.round_trip_tasks;
  options.job.max_attempts =
      std::max(1, static_cast<int>(ParseDouble(conf.Get(kTaskMaxFailuresKey), 4)));
  options.job.speculation = conf.GetBool(kSpeculationKey, false);
  options.job.speculation_multiplier = ParseDouble(conf.Get(kSpeculationMultiplierKey), 1.5);
  options.job.speculation_quantile = ParseDouble(conf.Get(kSpeculationQuantileKey), 0.75);
  options.job.speculation_min_ms = ParseMillis(conf.Get(kSpeculationMinRuntimeKey), 100);
  options.job.duplicate_every_task = conf.GetBool(kDuplicateWriteTasksKey, false);
  options.rows_per_task = std::max<int64_t>(
      1, static_cast<int64_t>(ParseDouble(conf.Get(kWriteRowsPerTaskKey), 1 << 20)));
  options.bytes_per_task =
      ParseMemoryLimit(conf.Get(kWriteBytesPerTaskKey).value_or("")).value_or(128 << 20);
  options.query_id = NewQueryId();
  return options;
}

CommandResult RunInsert(const sql::Insert& insert, const CommandContext& context,
                        WriteJobResult* profile) {
  ARROW_ASSIGN_OR_RAISE(auto plan, BindInsert(insert, context.catalogs, *context.conf));
  ARROW_RETURN_NOT_OK(RunPlannedWrite(&plan, context, profile));
  return EmptyResult();
}

Result<std::string> ExplainInsert(const sql::Insert& insert, sql::ExplainMode mode,
                                  const CommandContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto plan, BindInsert(insert, context.catalogs, *context.conf));
  static const char* kOperator[] = {"AppendData", "OverwriteByExpression", "OverwriteByExpression",
                                    "OverwritePartitionsDynamic"};
  const std::string header = fmt::format("{} {} ({})\n", kOperator[static_cast<int>(plan.mode)],
                                         plan.target_name.ToString(), plan.ModeDescription());
  std::optional<WriteJobResult> profile;
  if (mode == sql::ExplainMode::kAnalyze) {
    profile.emplace();
    ARROW_RETURN_NOT_OK(RunPlannedWrite(&plan, context, &*profile));
  } else {
    ARROW_ASSIGN_OR_RAISE(plan.query,
                          NegotiatePushdown(plan.query, PushdownOptionsFor(*context.conf)));
  }
  ARROW_ASSIGN_OR_RAISE(auto query_text, ExplainPlan(plan.query, mode == sql::ExplainMode::kAnalyze
                                                                     ? sql::ExplainMode::kSimple
                                                                     : mode));
  std::string text = ExplainCommand(header, query_text);
  if (profile) {
    text += fmt::format(
        "\nWrite metrics\nRows written: {}\nTasks: {}\nAttempts: {}\n"
        "Commits denied: {}\nTime: {:.1f} ms\n",
        profile->rows, profile->partitions, profile->attempts, profile->denied,
        profile->seconds * 1000);
    for (const auto& [name, value] : profile->custom_metrics) {
      text += fmt::format("{}: {}\n", name, value);
    }
  }
  return text;
}

CommandResult RunCreateTableAsSelect(const sql::CreateTable& create,
                                     const CommandContext& context) {
  // The parser rejects a column list beside AS SELECT, as Spark does.
  const SourcePosition pos = create.name.pos;
  ARROW_ASSIGN_OR_RAISE(auto resolved, context.catalogs->ResolveTableName(create.name.parts));
  ARROW_ASSIGN_OR_RAISE(auto* catalog, AsTableCatalog(resolved.catalog.get(), pos));
  const Identifier& ident = resolved.ident;
  ARROW_ASSIGN_OR_RAISE(bool exists, catalog->TableExists(ident));
  if (create.create && !create.replace && exists) {
    if (create.if_not_exists) return EmptyResult();
    return AnalysisError("TABLE_OR_VIEW_ALREADY_EXISTS",
                         fmt::format("Cannot create table or view {} because it already exists.",
                                     resolved.ToString()),
                         pos);
  }
  if (!create.create && !exists) {
    return AnalysisError("CANNOT_REPLACE_MISSING_TABLE",
                         fmt::format("Table or view {} cannot be replaced as it does not exist. "
                                     "Use CREATE OR REPLACE TABLE to create the table.",
                                     resolved.ToString()),
                         pos);
  }

  // The query's columns become the table's; all nullable, as Spark's useNullableQuerySchema.
  ARROW_ASSIGN_OR_RAISE(auto query, BindSelect(*create.query, context.catalogs));
  std::vector<Column> columns;
  for (const auto& field : query->output)
    columns.push_back({field.display, field.type, true, "", std::nullopt});
  ARROW_ASSIGN_OR_RAISE(auto info, TableInfoFor(create, columns));

  WritePlan plan;
  plan.target_name = resolved;
  plan.columns = info.columns;
  ARROW_ASSIGN_OR_RAISE(plan.query, ShapeForTable(query, plan.columns, resolved.ToString(), pos));

  if (auto* staging = dynamic_cast<StagingTableCatalog*>(catalog)) {
    std::shared_ptr<StagedTable> staged;
    if (!create.replace) {
      ARROW_ASSIGN_OR_RAISE(staged, staging->StageCreate(ident, info));
    } else if (!create.create) {
      ARROW_ASSIGN_OR_RAISE(staged, staging->StageReplace(ident, info));
    } else {
      ARROW_ASSIGN_OR_RAISE(staged, staging->StageCreateOrReplace(ident, info));
    }
    plan.table = staged;
    Status written = CheckWriteCapabilities(resolved, *staged, plan.mode, pos);
    if (written.ok()) written = RunPlannedWrite(&plan, context, nullptr);
    if (written.ok()) written = staged->CommitStagedChanges();
    if (!written.ok()) {
      Status aborted = staged->AbortStagedChanges();
      if (!aborted.ok()) {
        return written.WithMessage(written.message() + " (abort also failed: " + aborted.message() +
                                   ")");
      }
      return written;
    }
    return EmptyResult();
  }

  // Not atomic: replace drops the old table first; a failed write drops the new one.
  if (exists) ARROW_RETURN_NOT_OK(catalog->DropTable(ident).status());
  ARROW_ASSIGN_OR_RAISE(plan.table, catalog->CreateTable(ident, info));
  Status written = CheckWriteCapabilities(resolved, *plan.table, plan.mode, pos);
  if (written.ok()) written = RunPlannedWrite(&plan, context, nullptr);
  if (!written.ok()) {
    auto dropped = catalog->DropTable(ident);
    if (!dropped.ok()) {
      return written.WithMessage(written.message() + " (dropping the new table also failed: " +
                                 dropped.status().message() + ")");
    }
    return written;
  }
  return EmptyResult();
}

namespace {

// Whether the table of `plan` has a row in the partition its static partition values name
// (each column NULL-safely equal to its value): the table scanned with that filter, to one row.
Result<bool> PartitionHasRows(const WritePlan& plan, const CommandContext& context) {
  auto scan = std::make_shared<PlanNode>();
  scan->kind = PlanNode::Kind::kScan;
  scan->table_name = plan.target_name;
  scan->table = plan.table;
  std::map<std::string, std::shared_ptr<arrow::DataType>> types;
  for (const auto& column : plan.columns) {
    scan->output.push_back({column.name, column.name, column.type, column.nullable});
    types[column.name] = column.type;
  }
  std::vector<BoundExprPtr> conjuncts;
  for (const auto& [column, value] : plan.static_partition_values) {
    conjuncts.push_back(MakeCall("<=>", {MakeColumnRef(column, column, types.at(column)), value},
                                 arrow::boolean()));
  }
  auto filter = std::make_shared<PlanNode>();
  filter->kind = PlanNode::Kind::kFilter;
  filter->children = {scan};
  filter->output = scan->output;
  filter->condition = CombineConjuncts(conjuncts);
  auto limit = std::make_shared<PlanNode>();
  limit->kind = PlanNode::Kind::kLimit;
  limit->children = {filter};
  limit->output = filter->output;
  limit->limit = 1;
  ARROW_ASSIGN_OR_RAISE(auto negotiated,
                        NegotiatePushdown(limit, PushdownOptionsFor(*context.conf)));
  ARROW_ASSIGN_OR_RAISE(auto result,
                        ExecutePlan(negotiated, ScanOptionsFor(*context.conf, context.control)));
  return result.table->num_rows() > 0;
}

// A literal's text as Spark prints a partition value: a string without its quotes.
std::string UnquotedLiteral(const std::string& text) {
  if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"') &&
      text.back() == text.front()) {
    return text.substr(1, text.size() - 2);
  }
  return text;
}

}  // namespace

CommandResult RunTruncateTable(const sql::TruncateTable& truncate, const CommandContext& context) {
  const SourcePosition pos = truncate.name.pos;
  ARROW_ASSIGN_OR_RAISE(auto loaded,
                        LoadTableForCommand(truncate.name, context.catalogs, "TRUNCATE TABLE"));
  auto& [name, table] = loaded;
  if (truncate.partition_spec.empty()) {
    if (auto* truncatable = dynamic_cast<TruncatableTable*>(table.get())) {
      ARROW_RETURN_NOT_OK(truncatable->TruncateTable().status());
      return EmptyResult();
    }
  }
  // Otherwise: an overwrite of all rows, or of the named partitions, with no rows.
  WritePlan plan;
  plan.target_name = name;
  plan.table = table;
  plan.columns = table->columns();
  auto empty = std::make_shared<PlanNode>();
  empty->kind = PlanNode::Kind::kValues;
  for (size_t i = 0; i < plan.columns.size(); ++i) {
    empty->output.push_back(
        {fmt::format("_t{}", i), plan.columns[i].name, plan.columns[i].type, true});
  }
  plan.query = empty;
  plan.mode = truncate.partition_spec.empty() ? WritePlan::Mode::kTruncate
                                              : WritePlan::Mode::kOverwriteByFilter;
  const auto partition_columns = PartitionColumns(*table);
  for (const auto& item : truncate.partition_spec) {
    ARROW_RETURN_NOT_OK(CheckPartitionColumn(partition_columns, item));
    auto column = std::find_if(plan.columns.begin(), plan.columns.end(), [&](const Column& c) {
      return EqualsIgnoreCase(c.name, item.column);
    });
    if (!item.value || column == plan.columns.end()) {
      return AnalysisError("INVALID_PARTITION_SPEC",
                           fmt::format("TRUNCATE TABLE needs a value for an existing partition "
                                       "column; {} has none.",
                                       QuoteIdentifier(item.column)),
                           item.pos);
    }
    ARROW_ASSIGN_OR_RAISE(auto value, BindExpression(*item.value, Scope{}));
    plan.static_partition_values.emplace_back(column->name, CastTo(value, column->type));
  }
  ARROW_RETURN_NOT_OK(CheckWriteCapabilities(name, *table, plan.mode, pos));
  if (!plan.static_partition_values.empty()) {
    ARROW_ASSIGN_OR_RAISE(bool exists, PartitionHasRows(plan, context));
    if (!exists) {
      std::string spec;
      for (const auto& item : truncate.partition_spec) {
        spec += (spec.empty() ? "" : ", ") + QuoteIdentifier(item.column) + " = " +
                UnquotedLiteral(item.value->source_text);
      }
      return AnalysisError("PARTITIONS_NOT_FOUND",
                           fmt::format("The partition(s) PARTITION ({}) cannot be found in table "
                                       "{}. Verify the partition specification and table name.",
                                       spec, name.ToString()),
                           pos);
    }
  }
  ARROW_RETURN_NOT_OK(RunPlannedWrite(&plan, context, nullptr));
  return EmptyResult();
}

}  // namespace parley
