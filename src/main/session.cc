// The Session: parses each statement, runs commands (SET, USE, SHOW, DESCRIBE, EXPLAIN) itself
// and queries through analysis -> pushdown negotiation -> execution. Built-in connectors are
// registered here, at the top of the dependency graph, exactly as an external plugin would be.
#include "parley/session.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/analysis_error.h"
#include "analysis/changes_binder.h"
#include "analysis/query_binder.h"
#include "analysis/routine_binder.h"
#include "arrow/array/builder_binary.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/record_batch.h"
#include "arrow/table.h"
#include "catalog/catalog_manager.h"
#include "catalog/identifiers.h"
#include "exec/executor.h"
#include "exec/explain_analyze.h"
#include "functions/statement_clock.h"
#include "main/command_results.h"
#include "main/commands.h"
#include "parley/connector/builtin.h"
#include "parley/connector/fault_injection.h"
#include "plan/explain.h"
#include "plan/pushdown.h"
#include "sql/parser.h"

namespace parley {
namespace {

Status MemoryLimitError(const std::string& key, const std::string& value, SourcePosition pos) {
  return AnalysisError("INVALID_CONF_VALUE.TYPE_MISMATCH",
                       fmt::format("The value '{}' in the config \"{}\" is invalid. It should "
                                   "be a/an 'bytes in BYTE' value or a percentage of the "
                                   "machine's memory (1% to 100%).",
                                   value, key),
                       pos);
}

std::string JoinNamespace(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += '.';
    out += parts[i];
  }
  return out;
}

// A query's result as a reader: each ReadNext takes the next batch the running plan produced
// (the plan stream checks the statement's stop token and deadline at each one).
class PlanStreamReader : public arrow::RecordBatchReader {
 public:
  explicit PlanStreamReader(std::unique_ptr<PlanStream> stream) : stream_(std::move(stream)) {}

  std::shared_ptr<arrow::Schema> schema() const override { return stream_->schema(); }

  Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    *batch = nullptr;
    if (ended_) return final_;
    auto next = stream_->Next();
    if (next.ok() && *next != nullptr) {
      *batch = std::move(next).ValueUnsafe();
      return Status::OK();
    }
    ended_ = true;
    Status closed = stream_->Close();
    final_ = next.ok() ? closed : next.status();
    return final_;
  }

  Status Close() override {
    ended_ = true;
    return stream_->Close();
  }

 private:
  std::unique_ptr<PlanStream> stream_;
  bool ended_ = false;
  Status final_;  // what every ReadNext after the end returns
};

class SessionImpl : public Session {
 public:
  SessionImpl(SessionOptions options, PluginRegistry registry)
      : options_(std::move(options)), catalogs_(&conf_, std::move(registry)) {
    for (const auto& [key, value] : options_.conf) conf_.Set(key, value);
  }

  using Session::Sql;
  using Session::SqlReader;

  Result<std::shared_ptr<arrow::Table>> Sql(std::string_view text,
                                            const StatementOptions& options) override {
    ARROW_ASSIGN_OR_RAISE(auto statement, sql::ParseStatement(text, options.origin));
    return RunStatement(statement, options);
  }

  Result<std::shared_ptr<arrow::RecordBatchReader>> SqlReader(
      std::string_view text, const StatementOptions& options) override {
    ARROW_ASSIGN_OR_RAISE(auto statement, sql::ParseStatement(text, options.origin));
    const auto* select = std::get_if<sql::SelectStatement>(&statement.node);
    if (select == nullptr) {
      ARROW_ASSIGN_OR_RAISE(auto table, RunStatement(statement, options));
      return std::make_shared<arrow::TableBatchReader>(std::move(table));
    }
    ARROW_ASSIGN_OR_RAISE(auto control, ControlFor(options));
    StatementClock clock;
    ARROW_ASSIGN_OR_RAISE(auto plan, PlanQuery(*select));
    ARROW_ASSIGN_OR_RAISE(auto stream, ExecutePlanStream(plan, ScanOptionsFor(conf_, control)));
    return std::make_shared<PlanStreamReader>(std::move(stream));
  }

  Status RegisterCatalog(const std::string& name, std::shared_ptr<CatalogPlugin> catalog) override {
    return catalogs_.Register(name, std::move(catalog));
  }

  Status RegisterFunction(const std::string& name,
                          std::shared_ptr<UnboundFunction> function) override {
    if (name.empty() || function == nullptr) {
      return InvalidError("INVALID_SCHEMA_OR_RELATION_NAME",
                          "A temporary function needs a name and a function.");
    }
    catalogs_.PutTempFunction(name, std::move(function));
    return Status::OK();
  }

  Result<std::shared_ptr<CatalogPlugin>> Catalog(const std::string& name) override {
    return catalogs_.Catalog(name);
  }

  Result<std::string> GetConf(const std::string& key) const override {
    return conf_.GetOrError(key);
  }

  Result<std::shared_ptr<arrow::Table>> ReadChanges(
      std::string_view table, const std::map<std::string, std::string>& options) override {
    ARROW_ASSIGN_OR_RAISE(auto name, sql::ParseTableName(table));
    ARROW_ASSIGN_OR_RAISE(auto relation, BindChanges(name, options, name.pos, &catalogs_));
    ARROW_ASSIGN_OR_RAISE(auto plan, NegotiatePushdown(relation.plan, PushdownOptionsFor(conf_)));
    ARROW_ASSIGN_OR_RAISE(auto result, ExecutePlan(plan, RunOptions()));
    return result.table;
  }

 private:
  // The control of a statement run with `options`: its stop conditions and memory pool.
  Result<QueryControl> ControlFor(const StatementOptions& options) {
    QueryControl control;
    ARROW_ASSIGN_OR_RAISE(control.memory_pool, MemoryPool());
    control.stop_token = options.stop_token;
    control.deadline = options.deadline;
    return control;
  }

  // Run a parsed statement under the control `options` give it.
  Result<std::shared_ptr<arrow::Table>> RunStatement(const sql::Statement& statement,
                                                     const StatementOptions& options) {
    ARROW_ASSIGN_OR_RAISE(control_, ControlFor(options));
    auto result = Execute(statement);
    control_ = QueryControl{};
    return result;
  }

  Result<std::shared_ptr<arrow::Table>> Execute(const sql::Statement& statement) {
    StatementClock clock;
    RoutineScope routines(&catalogs_);
    return std::visit([&](const auto& node) { return Run(node, statement.pos); }, statement.node);
  }

  Result<PlanNodePtr> PlanQuery(const sql::SelectStatement& select) {
    RoutineScope routines(&catalogs_);
    ARROW_ASSIGN_OR_RAISE(auto plan, BindSelect(select, &catalogs_));
    return NegotiatePushdown(plan, PushdownOptionsFor(conf_));
  }

  Result<std::shared_ptr<arrow::Table>> Run(const sql::SelectStatement& select, SourcePosition) {
    ARROW_ASSIGN_OR_RAISE(auto plan, PlanQuery(select));
    ARROW_ASSIGN_OR_RAISE(auto result, ExecutePlan(plan, RunOptions()));
    return result.table;
  }

  ScanRunOptions RunOptions() const { return ScanOptionsFor(conf_, control_); }

  CommandContext Context() { return CommandContext{&catalogs_, &conf_, control_}; }

  // The pool of parley.memory.limit, made again only when the setting changed.
  Result<arrow::MemoryPool*> MemoryPool() {
    std::string setting = conf_.Get(kMemoryLimitKey).value_or("");
    if (memory_pool_ == nullptr || setting != memory_setting_) {
      std::optional<int64_t> limit = ParseMemoryLimit(setting);
      if (!limit) return MemoryLimitError(kMemoryLimitKey, setting, {});
      memory_pool_ = MemoryPoolWithLimit(*limit);
      memory_setting_ = setting;
    }
    return memory_pool_;
  }

  Result<std::shared_ptr<arrow::Table>> Run(const sql::CreateTable& create, SourcePosition) {
    return create.query ? RunCreateTableAsSelect(create, Context())
                        : RunCreateTable(create, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::DropTable& drop, SourcePosition) {
    return RunDropTable(drop, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::AlterTable& alter, SourcePosition) {
    return RunAlterTable(alter, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::CreateNamespace& create, SourcePosition) {
    return RunCreateNamespace(create, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::DropNamespace& drop, SourcePosition) {
    return RunDropNamespace(drop, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::AlterNamespace& alter, SourcePosition) {
    return RunAlterNamespace(alter, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::DescribeNamespace& describe,
                                            SourcePosition) {
    return RunDescribeNamespace(describe, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::ShowCreateTable& show, SourcePosition) {
    return RunShowCreateTable(show, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::ShowTblProperties& show, SourcePosition) {
    return RunShowTblProperties(show, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::Insert& insert, SourcePosition) {
    return RunInsert(insert, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::TruncateTable& truncate, SourcePosition) {
    return RunTruncateTable(truncate, Context());
  }

  Result<std::shared_ptr<arrow::Table>> Run(const sql::CreateView& create, SourcePosition) {
    return RunCreateView(create, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::AlterView& alter, SourcePosition) {
    return RunAlterView(alter, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::DropView& drop, SourcePosition) {
    return RunDropView(drop, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::CreateFunction& create, SourcePosition pos) {
    return RunCreateFunction(create, pos, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::DropFunction& drop, SourcePosition pos) {
    return RunDropFunction(drop, pos, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::Call& call, SourcePosition pos) {
    return RunCall(call, pos, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::ShowProcedures& show, SourcePosition pos) {
    return RunShowProcedures(show, pos, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::ShowFunctions& show, SourcePosition) {
    return RunShowFunctions(show, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::DescribeFunction& describe, SourcePosition) {
    return RunDescribeFunction(describe, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::DescribeProcedure& describe,
                                            SourcePosition) {
    return RunDescribeProcedure(describe, Context());
  }

  Result<std::shared_ptr<arrow::Table>> Run(const sql::DeleteFrom& statement, SourcePosition) {
    return RunDelete(statement, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::Update& statement, SourcePosition) {
    return RunUpdate(statement, Context());
  }
  Result<std::shared_ptr<arrow::Table>> Run(const sql::Merge& statement, SourcePosition) {
    return RunMerge(statement, Context());
  }

  Result<std::shared_ptr<arrow::Table>> Run(const sql::Explain& explain, SourcePosition pos) {
    if (const auto* insert = std::get_if<sql::Insert>(&explain.statement->node)) {
      ARROW_ASSIGN_OR_RAISE(auto text, ExplainInsert(*insert, explain.mode, Context()));
      return StringTable({"plan"}, {{text}});
    }
    const auto& node = explain.statement->node;
    if (const auto* call = std::get_if<sql::Call>(&node)) {
      ARROW_ASSIGN_OR_RAISE(auto text, ExplainCall(*call, pos, explain.mode, Context()));
      return StringTable({"plan"}, {{text}});
    }
    if (std::holds_alternative<sql::DeleteFrom>(node) ||
        std::holds_alternative<sql::Update>(node) || std::holds_alternative<sql::Merge>(node)) {
      ARROW_ASSIGN_OR_RAISE(auto text,
                            ExplainRowLevelCommand(*explain.statement, explain.mode, Context()));
      return StringTable({"plan"}, {{text}});
    }
    const auto* select = std::get_if<sql::SelectStatement>(&node);
    if (select == nullptr) {
      return AnalysisError("UNSUPPORTED_FEATURE.EXPLAIN_COMMAND",
                           "EXPLAIN supports queries, INSERT, DELETE, UPDATE, MERGE and CALL; "
                           "other commands run directly.",
                           pos);
    }
    ARROW_ASSIGN_OR_RAISE(auto plan, PlanQuery(*select));
    if (explain.mode == sql::ExplainMode::kAnalyze) {
      ARROW_ASSIGN_OR_RAISE(auto result, ExecutePlan(plan, RunOptions(), /*profile=*/true));
      ARROW_ASSIGN_OR_RAISE(auto text,
                            ExplainPlan(plan, explain.mode, ProfileAnnotator(result.profile)));
      return StringTable({"plan"}, {{text}});
    }
    ARROW_ASSIGN_OR_RAISE(auto text, ExplainPlan(plan, explain.mode));
    return StringTable({"plan"}, {{text}});
  }

  Result<std::shared_ptr<arrow::Table>> Run(const sql::ShowCatalogs& show, SourcePosition) {
    StringRows rows;
    NamePattern pattern(show.pattern);
    for (const auto& name : catalogs_.CatalogNames()) {
      if (pattern.Matches(name)) rows.push_back({name});
    }
    return StringTable({"catalog"}, rows);
  }

  Result<std::shared_ptr<arrow::Table>> Run(const sql::ShowNamespaces& show, SourcePosition pos) {
    std::vector<std::string> parts = show.parent ? show.parent->parts : std::vector<std::string>{};
    ARROW_ASSIGN_OR_RAISE(auto resolved, catalogs_.ResolveNamespace(parts));
    auto* namespaces = dynamic_cast<SupportsNamespaces*>(resolved.first.get());
    if (namespaces == nullptr) {
      return AnalysisError("MISSING_CATALOG_ABILITY.NAMESPACES",
                           fmt::format("Catalog {} does not support namespaces.",
                                       QuoteIdentifier(resolved.first->name())),
                           pos);
    }
    ARROW_ASSIGN_OR_RAISE(auto list, namespaces->ListNamespaces(resolved.second));
    StringRows rows;
    NamePattern pattern(show.pattern);
    for (const auto& ns : list) {
      std::string name = JoinNamespace(ns);
      if (pattern.Matches(name)) rows.push_back({name});
    }
    return StringTable({"namespace"}, rows);
  }

  Result<std::shared_ptr<arrow::Table>> Run(const sql::ShowTables& show, SourcePosition pos) {
    std::shared_ptr<CatalogPlugin> catalog;
    std::vector<std::string> ns;
    // IN global_temp: the global temporary views, then the session's.
    const bool global_temp =
        show.namespace_name && show.namespace_name->parts.size() == 1 &&
        EqualsIgnoreCase(show.namespace_name->parts[0], catalogs_.GlobalTempDatabase());
    if (global_temp) {
      // No catalog: only temporary views are listed.
    } else if (show.namespace_name) {
      ARROW_ASSIGN_OR_RAISE(std::tie(catalog, ns),
                            catalogs_.ResolveNamespace(show.namespace_name->parts));
    } else {
      ARROW_ASSIGN_OR_RAISE(catalog, catalogs_.Catalog(catalogs_.current_catalog()));
      ARROW_ASSIGN_OR_RAISE(ns, catalogs_.CurrentNamespace());
    }
    arrow::StringBuilder namespaces, names;
    arrow::BooleanBuilder temporary;
    NamePattern pattern(show.pattern);
    // SHOW TABLES lists the namespace's tables and views, SHOW VIEWS its views; both then list
    // the session's temporary views, with no namespace.
    auto append = [&](const Identifier& ident) -> Status {
      if (!pattern.Matches(ident.name)) return Status::OK();
      ARROW_RETURN_NOT_OK(namespaces.Append(JoinNamespace(ident.namespace_path)));
      ARROW_RETURN_NOT_OK(names.Append(ident.name));
      return temporary.Append(false);
    };
    auto* relations = dynamic_cast<RelationCatalog*>(catalog.get());
    if (global_temp) {
      for (const auto& view : catalogs_.GlobalTempViewNames()) {
        if (!pattern.Matches(view)) continue;
        ARROW_RETURN_NOT_OK(namespaces.Append(catalogs_.GlobalTempDatabase()));
        ARROW_RETURN_NOT_OK(names.Append(view));
        ARROW_RETURN_NOT_OK(temporary.Append(true));
      }
    } else if (!show.views && relations != nullptr) {
      ARROW_ASSIGN_OR_RAISE(auto summaries, relations->ListRelationSummaries(ns));
      for (const auto& summary : summaries) ARROW_RETURN_NOT_OK(append(summary.ident));
    } else if (!show.views) {
      ARROW_ASSIGN_OR_RAISE(auto* tables, AsTableCatalog(catalog.get(), pos));
      ARROW_ASSIGN_OR_RAISE(auto idents, tables->ListTables(ns));
      for (const auto& ident : idents) ARROW_RETURN_NOT_OK(append(ident));
    } else if (auto* views = dynamic_cast<ViewCatalog*>(catalog.get())) {
      ARROW_ASSIGN_OR_RAISE(auto idents, views->ListViews(ns));
      for (const auto& ident : idents) ARROW_RETURN_NOT_OK(append(ident));
    }
    for (const auto& view : catalogs_.TempViewNames()) {
      if (!pattern.Matches(view)) continue;
      ARROW_RETURN_NOT_OK(namespaces.Append(""));
      ARROW_RETURN_NOT_OK(names.Append(view));
      ARROW_RETURN_NOT_OK(temporary.Append(true));
    }
    ARROW_ASSIGN_OR_RAISE(auto ns_array, namespaces.Finish());
    ARROW_ASSIGN_OR_RAISE(auto name_array, names.Finish());
    ARROW_ASSIGN_OR_RAISE(auto temp_array, temporary.Finish());
    auto schema =
        arrow::schema({arrow::field("namespace", arrow::utf8(), false),
                       arrow::field(show.views ? "viewName" : "tableName", arrow::utf8(), false),
                       arrow::field("isTemporary", arrow::boolean(), false)});
    return arrow::Table::Make(schema, {ns_array, name_array, temp_array});
  }

  Result<std::shared_ptr<arrow::Table>> Run(const sql::DescribeTable& describe, SourcePosition) {
    if (describe.table.parts.size() == 1) {
      if (const TempView* view = catalogs_.FindTempView(describe.table.parts[0])) {
        return RunDescribeView(describe, *view, nullptr);
      }
    }
    if (describe.table.parts.size() == 2 &&
        EqualsIgnoreCase(describe.table.parts[0], catalogs_.GlobalTempDatabase())) {
      if (auto global = catalogs_.FindGlobalTempView(describe.table.parts[1])) {
        return RunDescribeView(describe, *global, nullptr);
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto view, FindPersistentView(describe.table, &catalogs_));
    if (view) return RunDescribeView(describe, view->second, &view->first);
    ARROW_ASSIGN_OR_RAISE(auto loaded, LoadTableForName(describe.table, &catalogs_));
    const auto& [name, table] = loaded;
    arrow::StringBuilder col_names, types, comments;
    auto add = [&](const std::string& a, const std::string& b,
                   const std::optional<std::string>& c) -> Status {
      ARROW_RETURN_NOT_OK(col_names.Append(a));
      ARROW_RETURN_NOT_OK(types.Append(b));
      return c ? comments.Append(*c) : comments.AppendNull();
    };
    auto comment_of = [](const Column& column) -> std::optional<std::string> {
      if (column.comment.empty()) return std::nullopt;
      return column.comment;
    };
    // A CHAR(n) / VARCHAR(n) column shows its declaration, as in Spark.
    auto type_of = [](const Column& column) {
      return column.char_varchar.empty() ? DescribeTypeName(*column.type) : column.char_varchar;
    };
    for (const auto& column : table->columns()) {
      ARROW_RETURN_NOT_OK(add(column.name, type_of(column), comment_of(column)));
    }
    // As Spark: identity partitions are listed as columns; other transforms as "Part <i>".
    auto partitioning = table->partitioning();
    std::vector<const Column*> partition_columns;
    auto columns = table->columns();
    for (const auto& transform : partitioning) {
      const std::string* name =
          transform->name() == "identity" && transform->arguments().size() == 1
              ? AsColumnName(*transform->arguments()[0])
              : nullptr;
      auto column = std::find_if(columns.begin(), columns.end(), [&](const Column& c) {
        return name != nullptr && ToLowerAscii(c.name) == ToLowerAscii(*name);
      });
      if (column == columns.end()) break;
      partition_columns.push_back(&*column);
    }
    if (!partitioning.empty() && partition_columns.size() == partitioning.size()) {
      ARROW_RETURN_NOT_OK(add("# Partition Information", "", ""));
      ARROW_RETURN_NOT_OK(add("# col_name", "data_type", "comment"));
      for (const Column* column : partition_columns) {
        ARROW_RETURN_NOT_OK(add(column->name, type_of(*column), comment_of(*column)));
      }
    } else if (!partitioning.empty()) {
      ARROW_RETURN_NOT_OK(add("# Partitioning", "", ""));
      for (size_t i = 0; i < partitioning.size(); ++i) {
        ARROW_RETURN_NOT_OK(add(fmt::format("Part {}", i), partitioning[i]->ToString(), ""));
      }
    }
    if (describe.extended) {
      ARROW_RETURN_NOT_OK(add("", "", ""));
      ARROW_RETURN_NOT_OK(add("# Detailed Table Information", "", ""));
      ARROW_RETURN_NOT_OK(add("Catalog", name.catalog ? name.catalog->name() : "", ""));
      ARROW_RETURN_NOT_OK(add("Namespace", JoinNamespace(name.ident.namespace_path), ""));
      ARROW_RETURN_NOT_OK(add("Table", name.ident.name, ""));
      std::vector<std::string> capabilities;
      for (auto capability : table->capabilities()) {
        capabilities.push_back(TableCapabilityName(capability));
      }
      ARROW_RETURN_NOT_OK(
          add("Capabilities", fmt::format("[{}]", fmt::join(capabilities, ", ")), ""));
      for (const auto& [key, value] : table->properties()) {
        ARROW_RETURN_NOT_OK(add(key, value, ""));
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto a, col_names.Finish());
    ARROW_ASSIGN_OR_RAISE(auto b, types.Finish());
    ARROW_ASSIGN_OR_RAISE(auto c, comments.Finish());
    auto schema = arrow::schema({arrow::field("col_name", arrow::utf8(), false),
                                 arrow::field("data_type", arrow::utf8(), false),
                                 arrow::field("comment", arrow::utf8(), true)});
    return arrow::Table::Make(schema, {a, b, c});
  }

  Result<std::shared_ptr<arrow::Table>> Run(const sql::Use& use, SourcePosition) {
    ARROW_RETURN_NOT_OK(catalogs_.Use(use.name.parts));
    return EmptyResult();
  }

  // A changed `spark.sql.catalog.<name>[.<option>]` makes the catalog load again on next use.
  void InvalidateCatalogFor(const std::string& key) {
    std::string prefix = kCatalogKeyPrefix;
    if (key.compare(0, prefix.size(), prefix) != 0) return;
    std::string rest = key.substr(prefix.size());
    catalogs_.Invalidate(rest.substr(0, rest.find('.')));
  }

  Result<std::shared_ptr<arrow::Table>> Run(const sql::SetConfig& set, SourcePosition pos) {
    if (set.verbose) {
      StringRows rows;
      for (const auto& [entry, value] : conf_.KnownWithValues()) {
        rows.push_back({entry.key, value, entry.doc});
      }
      return StringTable({"key", "value", "meaning"}, rows);
    }
    if (!set.key) {
      StringRows rows;
      for (const auto& [key, value] : conf_.explicit_values()) rows.push_back({key, value});
      return StringTable({"key", "value"}, rows);
    }
    if (set.key->empty()) {
      return AnalysisError("INVALID_SET_SYNTAX",
                           "Expected format is 'SET', 'SET key', or 'SET key=value'.", pos);
    }
    if (!set.value) {
      return StringTable({"key", "value"},
                         {{*set.key, conf_.Get(*set.key).value_or("<undefined>")}});
    }
    if (*set.key == kPartitionOverwriteModeKey && ToLowerAscii(*set.value) != "static" &&
        ToLowerAscii(*set.value) != "dynamic") {
      return AnalysisError("INVALID_CONF_VALUE.OUT_OF_RANGE_OF_OPTIONS",
                           fmt::format("The value '{}' in the config \"{}\" is invalid. It must "
                                       "be one of STATIC, DYNAMIC.",
                                       *set.value, *set.key),
                           pos);
    }
    if ((*set.key == kMemoryLimitKey || *set.key == kWriteBytesPerTaskKey) &&
        !ParseMemoryLimit(*set.value)) {
      return MemoryLimitError(*set.key, *set.value, pos);
    }
    // Test mode: the fault points are armed (or, with an empty value, disarmed) at once.
    if (*set.key == kFaultInjectionKey) ARROW_RETURN_NOT_OK(SetFaultInjection(*set.value));
    conf_.Set(*set.key, *set.value);
    InvalidateCatalogFor(*set.key);
    return StringTable({"key", "value"}, {{*set.key, *set.value}});
  }

  Result<std::shared_ptr<arrow::Table>> Run(const sql::ResetConfig& reset, SourcePosition) {
    if (reset.key) {
      conf_.Unset(*reset.key);
      InvalidateCatalogFor(*reset.key);
    } else {
      for (const auto& [key, value] : conf_.WithPrefix(kCatalogKeyPrefix)) {
        catalogs_.Invalidate(key.substr(0, key.find('.')));
      }
      conf_.Clear();
      for (const auto& [key, value] : options_.conf) conf_.Set(key, value);
    }
    return EmptyResult();
  }

  SessionOptions options_;
  SqlConf conf_;
  CatalogManager catalogs_;
  // The running statement's stop conditions and pool; a default one between statements.
  QueryControl control_;
  arrow::MemoryPool* memory_pool_ = nullptr;
  std::string memory_setting_;  // the parley.memory.limit memory_pool_ was made for
};

}  // namespace

Result<std::shared_ptr<Session>> Session::Make(SessionOptions options) {
  ARROW_RETURN_NOT_OK(EnsureComputeInitialized());
  // The built-in connectors, registered by their own registration files as plugins and
  // providers; the session names none of them.
  PluginRegistry registry;
  BuiltinConnectors builtin = RegisteredBuiltinConnectors();
  for (const auto& [name, factory] : builtin.catalogs) registry.Register(name, factory);
  for (const auto& [format, factory] : builtin.providers) {
    registry.RegisterProvider(format, factory());
  }
  // The session catalog's warehouse, unless the configuration names one.
  options.conf.try_emplace(std::string(kCatalogKeyPrefix) + kSessionCatalogName + ".warehouse",
                           options.warehouse);
  return std::make_shared<SessionImpl>(std::move(options), std::move(registry));
}

Result<std::vector<StatementText>> Session::SplitStatements(std::string_view script) {
  return sql::SplitStatements(script);
}

DataReader& DataReader::Option(const std::string& key, const std::string& value) {
  options_[ToLowerAscii(key)] = value;
  return *this;
}

Result<std::shared_ptr<arrow::Table>> DataReader::Changes(std::string_view table) const {
  return session_->ReadChanges(table, options_);
}

}  // namespace parley
