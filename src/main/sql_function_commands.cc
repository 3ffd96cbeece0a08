// CREATE FUNCTION and DROP FUNCTION of SQL functions, and how DESCRIBE FUNCTION shows one.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <ctime>

#include "analysis/analysis_error.h"
#include "analysis/routine_binder.h"
#include "analysis/sql_function_binder.h"
#include "analysis/types.h"
#include "catalog/identifiers.h"
#include "main/command_results.h"
#include "main/commands.h"
#include "parley/connector/procedure.h"

namespace parley {
namespace {

// The SqlFunctionInfo a CREATE FUNCTION states, before its body is checked.
Result<SqlFunctionInfo> InfoFor(const sql::CreateFunction& create, const CommandContext& context) {
  SqlFunctionInfo info;
  for (const auto& parameter : create.parameters) {
    ARROW_ASSIGN_OR_RAISE(auto type, TypeFromName(parameter.type, parameter.pos));
    SqlFunctionParameter out{parameter.name[0], std::move(type)};
    if (parameter.default_value != nullptr) out.default_value = parameter.default_text;
    out.comment = parameter.comment.value_or("");
    info.parameters.push_back(std::move(out));
  }
  info.is_table = create.returns_table;
  if (create.return_type) {
    ARROW_ASSIGN_OR_RAISE(info.return_type, TypeFromName(*create.return_type, create.name.pos));
  }
  for (const auto& column : create.return_columns) {
    Column out;
    out.name = column.name[0];
    ARROW_ASSIGN_OR_RAISE(out.type, TypeFromName(column.type, column.pos));
    out.comment = column.comment.value_or("");
    info.return_columns.push_back(std::move(out));
  }
  info.body = create.body_text;
  info.comment = create.comment.value_or("");
  info.deterministic = create.deterministic.value_or(true);
  if (!create.data_access.empty()) info.data_access = create.data_access;
  info.sql_configs = CapturedConfigs(*context.conf);
  info.create_time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
  return info;
}

Status RoutineAlreadyExists(const std::string& display, SourcePosition pos) {
  return AnalysisError("ROUTINE_ALREADY_EXISTS",
                       fmt::format("Cannot create the routine {} because a routine of that name "
                                   "already exists.",
                                   display),
                       pos);
}

Status RoutineNotFound(const std::string& display, SourcePosition pos) {
  return AnalysisError("ROUTINE_NOT_FOUND",
                       fmt::format("The routine {} cannot be found. Verify the spelling and "
                                   "correctness of the schema and catalog.",
                                   display),
                       pos);
}

// A persistent function's name resolved to its catalog, which must keep SQL functions
// (MISSING_CATALOG_ABILITY.<ability> otherwise).
Result<std::pair<ResolvedName, SqlFunctionCatalog*>> ResolveFunctionName(
    const sql::QualifiedName& name, const char* ability, const char* statement,
    CatalogManager* catalogs) {
  ARROW_ASSIGN_OR_RAISE(ResolvedName resolved, catalogs->ResolveTableName(name.parts));
  auto* functions = dynamic_cast<SqlFunctionCatalog*>(resolved.catalog.get());
  if (functions == nullptr) {
    return AnalysisError(std::string("MISSING_CATALOG_ABILITY.") + ability,
                         fmt::format("Catalog {} does not support {}.",
                                     QuoteIdentifier(resolved.catalog->name()), statement),
                         name.pos);
  }
  return std::make_pair(std::move(resolved), functions);
}

// The name of a persistent function in messages: `ns`.`name`.
std::string Display(const Identifier& ident) {
  std::vector<std::string> parts = ident.namespace_path;
  parts.push_back(ident.name);
  return QuoteMultipartIdentifier(parts);
}

// Rows of `name type [DEFAULT d] ['comment']`, names and types padded to line up.
std::vector<std::string> AlignedRows(
    const std::vector<std::tuple<std::string, std::string, std::string>>& rows) {
  size_t name_width = 0;
  size_t type_width = 0;
  for (const auto& [name, type, extra] : rows) {
    name_width = std::max(name_width, name.size());
    type_width = std::max(type_width, type.size());
  }
  std::vector<std::string> lines;
  for (const auto& [name, type, extra] : rows) {
    lines.push_back(fmt::format("{:<{}} {:<{}}", name, name_width, type, type_width) + extra);
  }
  return lines;
}

// Java's Date.toString form in UTC: `Thu Dec 03 05:42:35 UTC 2026`.
std::string CreateTimeText(int64_t millis) {
  std::time_t seconds = static_cast<std::time_t>(millis / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[64];
  std::strftime(text, sizeof(text), "%a %b %d %H:%M:%S UTC %Y", &utc);
  return text;
}

}  // namespace

std::vector<std::string> DescribeSqlFunctionLines(const std::string& name,
                                                  const SqlFunctionInfo& info, bool extended) {
  std::vector<std::pair<std::string, std::vector<std::string>>> entries;
  entries.push_back({"Function", {name}});
  entries.push_back({"Type", {info.is_table ? "TABLE" : "SCALAR"}});
  std::vector<std::tuple<std::string, std::string, std::string>> inputs;
  for (const auto& parameter : info.parameters) {
    std::string extra;
    if (extended && parameter.default_value) extra += " DEFAULT " + *parameter.default_value;
    if (extended && !parameter.comment.empty()) extra += " '" + parameter.comment + "'";
    inputs.emplace_back(parameter.name, SqlTypeName(*parameter.type), std::move(extra));
  }
  entries.push_back(
      {"Input", inputs.empty() ? std::vector<std::string>{"()"} : AlignedRows(inputs)});
  if (info.is_table) {
    std::vector<std::tuple<std::string, std::string, std::string>> columns;
    for (const auto& column : info.return_columns) {
      std::string extra = extended && !column.comment.empty() ? " '" + column.comment + "'" : "";
      columns.emplace_back(column.name, SqlTypeName(*column.type), std::move(extra));
    }
    entries.push_back({"Returns", AlignedRows(columns)});
  } else {
    entries.push_back({"Returns", {SqlTypeName(*info.return_type)}});
  }
  if (extended) {
    if (!info.comment.empty()) entries.push_back({"Comment", {info.comment}});
    entries.push_back({"Deterministic", {info.deterministic ? "true" : "false"}});
    entries.push_back({"Data Access", {info.data_access}});
    std::vector<std::string> configs;
    for (const auto& [key, value] : info.sql_configs) configs.push_back(key + "=" + value);
    if (!configs.empty()) entries.push_back({"Configs", configs});
    entries.push_back({"Create Time", {CreateTimeText(info.create_time_ms)}});
    entries.push_back({"Body", {info.body}});
  }
  size_t width = 0;
  for (const auto& [key, values] : entries) width = std::max(width, key.size() + 2);
  std::vector<std::string> lines;
  for (const auto& [key, values] : entries) {
    for (size_t i = 0; i < values.size(); ++i) {
      lines.push_back(fmt::format("{:<{}}", i == 0 ? key + ":" : "", width) + values[i]);
    }
  }
  return lines;
}

CommandResult RunCreateFunction(const sql::CreateFunction& create, SourcePosition pos,
                                const CommandContext& context) {
  CatalogManager* catalogs = context.catalogs;
  const auto& parts = create.name.parts;
  ARROW_ASSIGN_OR_RAISE(SqlFunctionInfo info, InfoFor(create, context));
  if (create.temporary) {
    ARROW_RETURN_NOT_OK(CheckTempObjectQualifier("FUNCTION", create.name));
    const std::string name = ToLowerAscii(parts.back());
    if (catalogs->FindTempFunction(name) != nullptr && !create.replace) {
      return RoutineAlreadyExists(QuoteIdentifier(name), create.name.pos);
    }
    ARROW_RETURN_NOT_OK(
        CheckSqlFunction(name, QuoteIdentifier(name), /*persistent=*/false, &info, catalogs, pos));
    catalogs->PutTempFunction(name, std::make_shared<SqlFunction>(name, std::move(info)));
    return EmptyResult();
  }
  ARROW_ASSIGN_OR_RAISE(auto resolved, ResolveFunctionName(create.name, "CREATE_FUNCTION",
                                                           "CREATE FUNCTION", catalogs));
  auto& [name, functions] = resolved;
  const std::string display = Display(name.ident);
  ARROW_ASSIGN_OR_RAISE(bool exists, functions->FunctionExists(name.ident));
  if (exists && create.if_not_exists) return EmptyResult();
  if (exists && !create.replace) return RoutineAlreadyExists(display, create.name.pos);
  ARROW_RETURN_NOT_OK(CheckSqlFunction(RoutineQualifiedName(name.catalog->name(), name.ident),
                                       display,
                                       /*persistent=*/true, &info, catalogs, pos));
  ARROW_RETURN_NOT_OK(functions->CreateSqlFunction(name.ident, info, create.replace));
  return EmptyResult();
}

CommandResult RunDropFunction(const sql::DropFunction& drop, SourcePosition pos,
                              const CommandContext& context) {
  CatalogManager* catalogs = context.catalogs;
  const auto& parts = drop.name.parts;
  if (drop.temporary) {
    if (parts.size() == 1 && catalogs->DropTempFunction(parts[0])) return EmptyResult();
    if (drop.if_exists) return EmptyResult();
    return RoutineNotFound(QuoteIdentifier(parts.back()), drop.name.pos);
  }
  if (parts.size() == 1 && catalogs->FindTempFunction(parts[0]) != nullptr) {
    return AnalysisError(
        "_LEGACY_ERROR_TEMP_1017",
        fmt::format("{} is a temporary function. 'DROP FUNCTION' expects a persistent function. "
                    "Please use DROP TEMPORARY FUNCTION to drop a temporary function.",
                    parts[0]),
        pos);
  }
  ARROW_ASSIGN_OR_RAISE(auto resolved,
                        ResolveFunctionName(drop.name, "DROP_FUNCTION", "DROP FUNCTION", catalogs));
  auto& [name, functions] = resolved;
  ARROW_ASSIGN_OR_RAISE(bool dropped, functions->DropSqlFunction(name.ident));
  if (dropped || drop.if_exists) return EmptyResult();
  return RoutineNotFound(Display(name.ident), drop.name.pos);
}

}  // namespace parley
