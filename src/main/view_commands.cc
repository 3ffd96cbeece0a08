// Views as statements: CREATE [OR REPLACE] [TEMPORARY] VIEW, ALTER VIEW, DROP VIEW, and the
// DESCRIBE, SHOW CREATE TABLE and SHOW TBLPROPERTIES of a view. A temporary view lives in the
// session's CatalogManager, a persistent one in its catalog (a ViewCatalog); both are kept as
// ViewInfo, and reading one binds its query again (analysis/from_binder.cc).
#include <fmt/format.h>

#include <set>

#include <fmt/ranges.h>

#include "analysis/analysis_error.h"
#include "analysis/from_binder.h"
#include "analysis/query_binder.h"
#include "arrow/api.h"
#include "catalog/identifiers.h"
#include "main/command_results.h"
#include "main/commands.h"
#include "sql/parser.h"

namespace parley {
namespace {

constexpr const char* kCommentProperty = "comment";

std::string QuotedList(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + QuoteIdentifier(name);
  return out;
}

// The view's column names: its column list, checked against the query's columns, else the
// query's own names; each name once.
Result<std::vector<std::string>> ViewColumnNames(const std::vector<std::string>& declared,
                                                 const PlanNode& query, const std::string& display,
                                                 SourcePosition pos) {
  std::vector<std::string> data;
  for (const auto& field : query.output) data.push_back(field.display);
  std::vector<std::string> columns = declared.empty() ? data : declared;
  if (columns.size() != data.size()) {
    const bool too_many = data.size() > columns.size();
    return AnalysisError(
        too_many ? "CREATE_VIEW_COLUMN_ARITY_MISMATCH.TOO_MANY_DATA_COLUMNS"
                 : "CREATE_VIEW_COLUMN_ARITY_MISMATCH.NOT_ENOUGH_DATA_COLUMNS",
        fmt::format("Cannot create view {}, the reason is {} data columns:\nView columns: "
                    "{}.\nData columns: {}.",
                    display, too_many ? "too many" : "not enough", QuotedList(columns),
                    QuotedList(data)),
        pos);
  }
  std::set<std::string> seen;
  for (const auto& column : columns) {
    if (!seen.insert(ToLowerAscii(column)).second) {
      return AnalysisError(
          "COLUMN_ALREADY_EXISTS",
          fmt::format("The column {} already exists. Choose another name or rename the existing "
                      "column.",
                      QuoteIdentifier(column)),
          pos);
    }
  }
  return columns;
}

// A persistent view names each computed column: CREATE_PERMANENT_VIEW_WITHOUT_ALIAS for a
// select item that is neither a column, a literal nor aliased (its generated name would change
// with the engine's naming rules).
Status CheckAliases(const sql::SelectStatement& query, const std::string& display) {
  if (query.kind != sql::QueryKind::kSelect) return Status::OK();
  for (const auto& item : query.items) {
    if (!item.alias.empty() || item.expr == nullptr) continue;
    const auto kind = item.expr->kind;
    if (kind == sql::ExprKind::kColumn || kind == sql::ExprKind::kStar ||
        kind == sql::ExprKind::kLiteral) {
      continue;
    }
    return AnalysisError("CREATE_PERMANENT_VIEW_WITHOUT_ALIAS",
                         fmt::format("Not allowed to create the permanent view {} without "
                                     "explicitly assigning an alias for the expression \"{}\".",
                                     display, item.expr->source_text),
                         item.expr->pos);
  }
  return Status::OK();
}

// Bind `query` as the new query of the view `display` and describe the view it makes: the
// columns (`declared` names and comments, or the query's), the current catalog, namespace and
// settings. A query that reaches the view itself is RECURSIVE_VIEW; a persistent view's query
// may not read a temporary view (INVALID_TEMP_OBJ_REFERENCE).
Result<ViewInfo> DefineView(const sql::SelectStatement& query, const std::string& query_text,
                            const std::vector<std::pair<std::string, std::string>>& declared,
                            const std::string& display, bool persistent, SourcePosition pos,
                            const CommandContext& context) {
  CatalogManager* catalogs = context.catalogs;
  std::vector<std::string> temp_views;
  PlanNodePtr plan;
  {
    ViewDefinitionScope scope(display, persistent ? &temp_views : nullptr);
    ARROW_ASSIGN_OR_RAISE(plan, BindSelect(query, catalogs));
  }
  if (!temp_views.empty()) {
    return AnalysisError(
        "INVALID_TEMP_OBJ_REFERENCE",
        fmt::format("Cannot create the persistent object {} of the type VIEW because it "
                    "references to the temporary object {} of the type VIEW. Please make the "
                    "temporary object {} persistent, or make the persistent object {} "
                    "temporary.",
                    display, QuoteIdentifier(temp_views[0]), QuoteIdentifier(temp_views[0]),
                    display),
        pos);
  }
  if (persistent) ARROW_RETURN_NOT_OK(CheckAliases(query, display));
  std::vector<std::string> declared_names;
  for (const auto& [name, comment] : declared) declared_names.push_back(name);
  ARROW_ASSIGN_OR_RAISE(auto names, ViewColumnNames(declared_names, *plan, display, pos));
  ViewInfo info;
  info.query_text = query_text;
  info.current_catalog = catalogs->current_catalog();
  ARROW_ASSIGN_OR_RAISE(info.current_namespace, catalogs->CurrentNamespace());
  if (persistent) info.sql_configs = CapturedConfigs(*context.conf);
  for (size_t i = 0; i < plan->output.size(); ++i) {
    const auto& field = plan->output[i];
    Column column;
    column.name = names[i];
    column.type = field.type;
    column.nullable = field.nullable;
    if (i < declared.size()) column.comment = declared[i].second;
    info.columns.push_back(std::move(column));
    info.query_column_names.push_back(field.display);
  }
  return info;
}

CommandResult CreateTempView(const sql::CreateView& create, const CommandContext& context) {
  CatalogManager* catalogs = context.catalogs;
  if (create.if_not_exists) {
    return AnalysisError("_LEGACY_ERROR_TEMP_0053",
                         "It is not allowed to define a TEMPORARY view with IF NOT EXISTS.",
                         create.name.pos);
  }
  ARROW_RETURN_NOT_OK(CheckTempObjectQualifier("VIEW", create.name));
  const std::string& name = create.name.parts.back();
  const bool exists = create.global ? catalogs->FindGlobalTempView(name).has_value()
                                    : catalogs->FindTempView(name) != nullptr;
  if (exists && !create.replace) {
    return AnalysisError("TEMP_TABLE_OR_VIEW_ALREADY_EXISTS",
                         fmt::format("Cannot create the temporary view {} because it already "
                                     "exists.",
                                     QuoteIdentifier(name)),
                         create.name.pos);
  }
  const std::string display =
      create.global ? QuoteIdentifier(catalogs->GlobalTempDatabase()) + "." + QuoteIdentifier(name)
                    : QuoteIdentifier(name);
  ARROW_ASSIGN_OR_RAISE(auto view,
                        DefineView(*create.query, create.query_text, create.columns, display,
                                   /*persistent=*/false, create.name.pos, context));
  if (create.global) {
    catalogs->PutGlobalTempView(name, std::move(view));
  } else {
    catalogs->PutTempView(name, std::move(view));
  }
  return EmptyResult();
}

// The catalog of a persistent view's name, as a ViewCatalog: MISSING_CATALOG_ABILITY.VIEWS when
// it keeps no views.
Result<std::pair<ResolvedName, ViewCatalog*>> ResolveViewName(const sql::QualifiedName& name,
                                                              CatalogManager* catalogs) {
  ARROW_ASSIGN_OR_RAISE(ResolvedName resolved, catalogs->ResolveTableName(name.parts));
  auto* views = dynamic_cast<ViewCatalog*>(resolved.catalog.get());
  if (views == nullptr) {
    return AnalysisError("MISSING_CATALOG_ABILITY.VIEWS",
                         fmt::format("Catalog {} does not support views.",
                                     QuoteIdentifier(resolved.catalog->name())),
                         name.pos);
  }
  return std::make_pair(std::move(resolved), views);
}

// Whether a table has the name (a TableCatalog that cannot find it says no).
Result<bool> TableHasName(const ResolvedName& name) {
  auto* tables = dynamic_cast<TableCatalog*>(name.catalog.get());
  if (tables == nullptr) return false;
  return tables->TableExists(name.ident);
}

Status ViewNotTable(const ResolvedName& name, std::string_view operation, bool use_alter_table,
                    SourcePosition pos) {
  return AnalysisError(
      use_alter_table ? "EXPECT_VIEW_NOT_TABLE.USE_ALTER_TABLE"
                      : "EXPECT_VIEW_NOT_TABLE.NO_ALTERNATIVE",
      fmt::format("The table {} does not support {}.{}", name.ToString(), operation,
                  use_alter_table ? " Please use ALTER TABLE instead." : ""),
      pos);
}

CommandResult CreatePersistentView(const sql::CreateView& create, const CommandContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto target, ResolveViewName(create.name, context.catalogs));
  auto& [name, views] = target;
  if (create.replace && create.if_not_exists) {
    return AnalysisError("CREATE_VIEW_WITH_IF_NOT_EXISTS_AND_REPLACE",
                         fmt::format("CREATE VIEW {} with both IF NOT EXISTS and REPLACE is not "
                                     "allowed.",
                                     name.ToString()),
                         create.name.pos);
  }
  ARROW_ASSIGN_OR_RAISE(bool view_exists, views->ViewExists(name.ident));
  ARROW_ASSIGN_OR_RAISE(bool table_exists, TableHasName(name));
  if ((view_exists || table_exists) && create.if_not_exists) return EmptyResult();
  if (table_exists && create.replace) {
    return ViewNotTable(name, "CREATE OR REPLACE VIEW", false, create.name.pos);
  }
  if ((view_exists && !create.replace) || table_exists) {
    return AnalysisError("TABLE_OR_VIEW_ALREADY_EXISTS",
                         fmt::format("Cannot create table or view {} because it already exists. "
                                     "Choose a different name, drop or replace the existing "
                                     "object, or add the IF NOT EXISTS clause to tolerate "
                                     "pre-existing objects.",
                                     name.ToString()),
                         create.name.pos);
  }
  ARROW_ASSIGN_OR_RAISE(
      auto info, DefineView(*create.query, create.query_text, create.columns, name.ToString(),
                            /*persistent=*/true, create.name.pos, context));
  for (const auto& [key, value] : create.properties) info.properties[key] = value;
  if (create.comment) info.properties[kCommentProperty] = *create.comment;
  ARROW_RETURN_NOT_OK(view_exists ? views->ReplaceView(name.ident, info)
                                  : views->CreateView(name.ident, info));
  return EmptyResult();
}

// The persistent view `name` names, for ALTER VIEW: EXPECT_VIEW_NOT_TABLE.* when a table has
// the name, TABLE_OR_VIEW_NOT_FOUND when nothing does.
Result<std::tuple<ResolvedName, ViewCatalog*, ViewInfo>> LoadViewForAlter(
    const sql::AlterView& alter, const CommandContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto target, ResolveViewName(alter.name, context.catalogs));
  auto& [name, views] = target;
  auto info = views->LoadView(name.ident);
  if (info.ok()) return std::make_tuple(name, views, std::move(info).ValueUnsafe());
  if (ErrorCondition(info.status()) != "TABLE_OR_VIEW_NOT_FOUND") return info.status();
  ARROW_ASSIGN_OR_RAISE(bool table_exists, TableHasName(name));
  if (table_exists) {
    if (alter.kind == sql::AlterViewKind::kQuery) {
      return ViewNotTable(name, "ALTER VIEW ... AS", false, alter.name.pos);
    }
    return ViewNotTable(name, "ALTER VIEW", true, alter.name.pos);
  }
  return TableNotFound(alter.name);
}

std::vector<std::string> QualifierOf(const ResolvedName& name) {
  std::vector<std::string> parts = {name.catalog->name()};
  for (const auto& part : name.ident.namespace_path) parts.push_back(part);
  parts.push_back(name.ident.name);
  return parts;
}

// The name a view is shown under in DDL: namespace and name in the session catalog (as Spark
// prints them), with the catalog elsewhere.
std::string DdlName(const ResolvedName& name) {
  std::vector<std::string> parts;
  if (name.catalog->name() != kSessionCatalogName) parts.push_back(name.catalog->name());
  for (const auto& part : name.ident.namespace_path) parts.push_back(part);
  parts.push_back(name.ident.name);
  std::vector<std::string> quoted;
  for (const auto& part : parts) quoted.push_back(QuoteIfNeeded(part));
  return fmt::format("{}", fmt::join(quoted, "."));
}

}  // namespace

Status CheckTempObjectQualifier(const char* kind, const sql::QualifiedName& name) {
  const auto& parts = name.parts;
  const bool session_qualified = (parts.size() == 2 && EqualsIgnoreCase(parts[0], "session")) ||
                                 (parts.size() == 3 && EqualsIgnoreCase(parts[0], "system") &&
                                  EqualsIgnoreCase(parts[1], "session"));
  if (parts.size() == 1 || session_qualified) return Status::OK();
  std::vector<std::string> qualifier;
  for (size_t i = 0; i + 1 < parts.size(); ++i) qualifier.push_back(QuoteIdentifier(parts[i]));
  return AnalysisError("INVALID_TEMP_OBJ_QUALIFIER",
                       fmt::format("Temporary {} {} cannot be qualified with {}. Temporary "
                                   "objects can only be qualified with SESSION or "
                                   "SYSTEM.SESSION.",
                                   kind, QuoteIdentifier(parts.back()), fmt::join(qualifier, ".")),
                       name.pos);
}

std::map<std::string, std::string> CapturedConfigs(const SqlConf& conf) {
  std::map<std::string, std::string> captured;
  for (const auto& [key, value] : conf.explicit_values()) {
    if (key.rfind("spark.sql.", 0) != 0 || key.rfind(kCatalogKeyPrefix, 0) == 0 ||
        key == kDefaultCatalogKey) {
      continue;
    }
    captured[key] = value;
  }
  return captured;
}

CommandResult RunCreateView(const sql::CreateView& create, const CommandContext& context) {
  return create.temporary || create.global ? CreateTempView(create, context)
                                           : CreatePersistentView(create, context);
}

CommandResult RunAlterView(const sql::AlterView& alter, const CommandContext& context) {
  if (alter.name.parts.size() == 1 && context.catalogs->FindTempView(alter.name.parts[0])) {
    const std::string& name = alter.name.parts[0];
    if (alter.kind != sql::AlterViewKind::kQuery) {
      return AnalysisError("EXPECT_PERMANENT_VIEW_NOT_TEMP",
                           fmt::format("'ALTER VIEW' expects a permanent view but {} is a temp "
                                       "view.",
                                       QuoteIdentifier(name)),
                           alter.name.pos);
    }
    ARROW_ASSIGN_OR_RAISE(auto view,
                          DefineView(*alter.query, alter.query_text, {}, QuoteIdentifier(name),
                                     /*persistent=*/false, alter.name.pos, context));
    context.catalogs->PutTempView(name, std::move(view));
    return EmptyResult();
  }
  ARROW_ASSIGN_OR_RAISE(auto loaded, LoadViewForAlter(alter, context));
  auto& [name, views, info] = loaded;
  switch (alter.kind) {
    case sql::AlterViewKind::kQuery: {
      ARROW_ASSIGN_OR_RAISE(auto redefined,
                            DefineView(*alter.query, alter.query_text, {}, name.ToString(),
                                       /*persistent=*/true, alter.name.pos, context));
      redefined.properties = info.properties;
      ARROW_RETURN_NOT_OK(views->ReplaceView(name.ident, redefined));
      return EmptyResult();
    }
    case sql::AlterViewKind::kRename: {
      Identifier to{name.ident.namespace_path, alter.new_name.parts.back()};
      if (alter.new_name.parts.size() > 1) {
        ARROW_ASSIGN_OR_RAISE(auto resolved,
                              context.catalogs->ResolveTableName(alter.new_name.parts));
        if (resolved.catalog != name.catalog) {
          return AnalysisError("UNSUPPORTED_FEATURE.TABLE_OPERATION",
                               "The feature is not supported: renaming a view into another "
                               "catalog.",
                               alter.new_name.pos);
        }
        to = resolved.ident;
      }
      ARROW_RETURN_NOT_OK(views->RenameView(name.ident, to));
      return EmptyResult();
    }
    case sql::AlterViewKind::kSetProperties:
      for (const auto& [key, value] : alter.properties) info.properties[key] = value;
      break;
    case sql::AlterViewKind::kUnsetProperties:
      for (const auto& key : alter.property_keys) info.properties.erase(key);
      break;
  }
  ARROW_RETURN_NOT_OK(views->ReplaceView(name.ident, info));
  return EmptyResult();
}

CommandResult RunDropView(const sql::DropView& drop, const CommandContext& context) {
  CatalogManager* catalogs = context.catalogs;
  if (drop.name.parts.size() == 1 && catalogs->DropTempView(drop.name.parts[0])) {
    return EmptyResult();
  }
  if (drop.name.parts.size() == 2 &&
      EqualsIgnoreCase(drop.name.parts[0], catalogs->GlobalTempDatabase())) {
    if (catalogs->DropGlobalTempView(drop.name.parts[1]) || drop.if_exists) return EmptyResult();
    return TableNotFound(drop.name);
  }
  if (catalogs->PathProvider(drop.name.parts) == nullptr) {
    ARROW_ASSIGN_OR_RAISE(ResolvedName name, ResolveNameForRead(drop.name, catalogs));
    if (auto* views = dynamic_cast<ViewCatalog*>(name.catalog.get())) {
      ARROW_ASSIGN_OR_RAISE(bool dropped, views->DropView(name.ident));
      if (dropped) return EmptyResult();
    }
  }
  auto table = LoadTableForName(drop.name, catalogs);
  if (table.ok()) {
    return AnalysisError("WRONG_COMMAND_FOR_OBJECT_TYPE",
                         fmt::format("The operation DROP VIEW requires a VIEW. But {} is a table. "
                                     "Use DROP TABLE instead.",
                                     table->first.ToString()),
                         drop.name.pos);
  }
  if (ErrorCondition(table.status()) != "TABLE_OR_VIEW_NOT_FOUND") return table.status();
  if (drop.if_exists) return EmptyResult();
  return table.status();
}

Result<std::optional<std::pair<ResolvedName, ViewInfo>>> FindPersistentView(
    const sql::QualifiedName& name, CatalogManager* catalogs) {
  using Found = std::optional<std::pair<ResolvedName, ViewInfo>>;
  if (catalogs->PathProvider(name.parts) != nullptr) return Found();
  auto resolved = ResolveNameForRead(name, catalogs);
  if (!resolved.ok()) return Found();
  auto* views = dynamic_cast<ViewCatalog*>(resolved->catalog.get());
  if (views == nullptr) return Found();
  auto info = views->LoadView(resolved->ident);
  if (!info.ok()) {
    if (ErrorCondition(info.status()) == "TABLE_OR_VIEW_NOT_FOUND") return Found();
    return info.status();
  }
  return Found(std::make_pair(std::move(resolved).ValueUnsafe(), std::move(info).ValueUnsafe()));
}

CommandResult RunDescribeView(const sql::DescribeTable& describe, const ViewInfo& view,
                              const ResolvedName* persistent) {
  arrow::StringBuilder names, types, comments;
  auto add = [&](const std::string& a, const std::string& b,
                 const std::optional<std::string>& c) -> Status {
    ARROW_RETURN_NOT_OK(names.Append(a));
    ARROW_RETURN_NOT_OK(types.Append(b));
    return c ? comments.Append(*c) : comments.AppendNull();
  };
  for (const auto& column : view.columns) {
    ARROW_RETURN_NOT_OK(
        add(column.name, DescribeTypeName(*column.type),
            column.comment.empty() ? std::nullopt : std::optional<std::string>(column.comment)));
  }
  // As Spark's, EXTENDED adds the details of a persistent view only.
  if (describe.extended && persistent != nullptr) {
    auto detail = [&](const std::string& key, const std::string& value) {
      return add(key, value, "");
    };
    std::vector<std::string> output_columns;
    for (const auto& name : view.query_column_names)
      output_columns.push_back(QuoteIdentifier(name));
    std::vector<std::string> properties;
    for (const auto& [key, value] : view.properties) {
      if (key != kCommentProperty) properties.push_back(key + "=" + value);
    }
    std::vector<std::string> context_parts = {view.current_catalog};
    for (const auto& part : view.current_namespace) context_parts.push_back(part);
    ARROW_RETURN_NOT_OK(detail("", ""));
    ARROW_RETURN_NOT_OK(detail("# Detailed Table Information", ""));
    ARROW_RETURN_NOT_OK(detail("Catalog", persistent->catalog->name()));
    ARROW_RETURN_NOT_OK(
        detail("Database", fmt::format("{}", fmt::join(persistent->ident.namespace_path, "."))));
    ARROW_RETURN_NOT_OK(detail("Table", persistent->ident.name));
    ARROW_RETURN_NOT_OK(detail("Type", "VIEW"));
    if (auto it = view.properties.find(kCommentProperty); it != view.properties.end()) {
      ARROW_RETURN_NOT_OK(detail("Comment", it->second));
    }
    ARROW_RETURN_NOT_OK(detail("View Text", view.query_text));
    ARROW_RETURN_NOT_OK(detail("View Original Text", view.query_text));
    ARROW_RETURN_NOT_OK(detail("View Schema Mode", "COMPENSATION"));
    ARROW_RETURN_NOT_OK(
        detail("View Catalog and Namespace", fmt::format("{}", fmt::join(context_parts, "."))));
    ARROW_RETURN_NOT_OK(
        detail("View Query Output Columns", fmt::format("[{}]", fmt::join(output_columns, ", "))));
    if (!properties.empty()) {
      ARROW_RETURN_NOT_OK(
          detail("Table Properties", fmt::format("[{}]", fmt::join(properties, ", "))));
    }
  }
  std::vector<std::shared_ptr<arrow::Array>> columns(3);
  ARROW_RETURN_NOT_OK(names.Finish(&columns[0]));
  ARROW_RETURN_NOT_OK(types.Finish(&columns[1]));
  ARROW_RETURN_NOT_OK(comments.Finish(&columns[2]));
  auto schema = arrow::schema({arrow::field("col_name", arrow::utf8(), false),
                               arrow::field("data_type", arrow::utf8(), false),
                               arrow::field("comment", arrow::utf8(), true)});
  return arrow::Table::Make(schema, columns);
}

CommandResult RunShowCreateView(const ResolvedName& name, const ViewInfo& view) {
  std::vector<std::string> columns;
  for (const auto& column : view.columns) {
    std::string line = "  " + QuoteIfNeeded(column.name);
    if (!column.comment.empty()) line += " COMMENT " + QuoteSqlString(column.comment);
    columns.push_back(std::move(line));
  }
  std::string ddl =
      fmt::format("CREATE VIEW {} (\n{})\n", DdlName(name), fmt::join(columns, ",\n"));
  if (auto it = view.properties.find(kCommentProperty); it != view.properties.end()) {
    ddl += "COMMENT " + QuoteSqlString(it->second) + "\n";
  }
  std::vector<std::string> properties;
  for (const auto& [key, value] : view.properties) {
    if (key != kCommentProperty) {
      properties.push_back("  " + QuoteSqlString(key) + " = " + QuoteSqlString(value));
    }
  }
  if (!properties.empty()) {
    ddl += fmt::format("TBLPROPERTIES (\n{})\n", fmt::join(properties, ",\n"));
  }
  ddl += "WITH SCHEMA COMPENSATION\nAS " + view.query_text + "\n";
  return StringTable({"createtab_stmt"}, {{ddl}});
}

CommandResult RunShowViewProperties(const ResolvedName& name, const ViewInfo& view,
                                    const std::optional<std::string>& key) {
  StringRows rows;
  if (key) {
    auto it = view.properties.find(*key);
    rows.push_back({*key, it != view.properties.end() && *key != kCommentProperty
                              ? it->second
                              : fmt::format("Table {} does not have property: {}",
                                            fmt::join(QualifierOf(name), "."), *key)});
  } else {
    for (const auto& [property, value] : view.properties) {
      if (property != kCommentProperty) rows.push_back({property, value});
    }
  }
  return StringTable({"key", "value"}, rows);
}

}  // namespace parley
