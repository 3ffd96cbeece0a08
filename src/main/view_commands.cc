// Views as statements: CREATE [OR REPLACE] TEMPORARY VIEW and DROP VIEW. A temporary view lives
// in the session's CatalogManager; reading one binds its query again (analysis/from_binder.cc).
#include <fmt/format.h>

#include <set>

#include <fmt/ranges.h>

#include "analysis/analysis_error.h"
#include "analysis/query_binder.h"
#include "arrow/api.h"
#include "catalog/identifiers.h"
#include "main/command_results.h"
#include "main/commands.h"
#include "sql/parser.h"

namespace parley {
namespace {

std::string QuotedList(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + QuoteIdentifier(name);
  return out;
}

// The view's column names: its column list, checked against the query's columns, else the
// query's own names; each name once.
Result<std::vector<std::string>> ViewColumns(const sql::CreateView& create, const PlanNode& query) {
  std::vector<std::string> data;
  for (const auto& field : query.output) data.push_back(field.display);
  std::vector<std::string> columns = data;
  if (!create.columns.empty()) {
    columns.clear();
    for (const auto& [name, comment] : create.columns) columns.push_back(name);
    if (columns.size() != data.size()) {
      const bool too_many = data.size() > columns.size();
      return AnalysisError(
          too_many ? "CREATE_VIEW_COLUMN_ARITY_MISMATCH.TOO_MANY_DATA_COLUMNS"
                   : "CREATE_VIEW_COLUMN_ARITY_MISMATCH.NOT_ENOUGH_DATA_COLUMNS",
          fmt::format("Cannot create view {}, the reason is {} data columns:\nView columns: "
                      "{}.\nData columns: {}.",
                      QuoteIdentifier(create.name.parts.back()),
                      too_many ? "too many" : "not enough", QuotedList(columns), QuotedList(data)),
          create.name.pos);
    }
  }
  std::set<std::string> seen;
  for (const auto& column : columns) {
    if (!seen.insert(ToLowerAscii(column)).second) {
      return AnalysisError(
          "COLUMN_ALREADY_EXISTS",
          fmt::format("The column {} already exists. Choose another name or rename the existing "
                      "column.",
                      QuoteIdentifier(column)),
          create.name.pos);
    }
  }
  return columns;
}

}  // namespace

CommandResult RunCreateView(const sql::CreateView& create, const CommandContext& context) {
  CatalogManager* catalogs = context.catalogs;
  if (!create.temporary || create.global) {
    return AnalysisError("NOT_IMPLEMENTED",
                         fmt::format("{} views are not implemented yet: create {} as a "
                                     "TEMPORARY VIEW.",
                                     create.global ? "Global temporary" : "Persistent",
                                     QuoteIdentifier(create.name.parts.back())),
                         create.name.pos);
  }
  if (create.if_not_exists) {
    return AnalysisError("_LEGACY_ERROR_TEMP_0053",
                         "It is not allowed to define a TEMPORARY view with IF NOT EXISTS.",
                         create.name.pos);
  }
  // A temporary view may be qualified only as the session's: session.v or system.session.v.
  const auto& parts = create.name.parts;
  const bool session_qualified = (parts.size() == 2 && EqualsIgnoreCase(parts[0], "session")) ||
                                 (parts.size() == 3 && EqualsIgnoreCase(parts[0], "system") &&
                                  EqualsIgnoreCase(parts[1], "session"));
  if (parts.size() > 1 && !session_qualified) {
    std::vector<std::string> qualifier;
    for (size_t i = 0; i + 1 < parts.size(); ++i) qualifier.push_back(QuoteIdentifier(parts[i]));
    return AnalysisError("INVALID_TEMP_OBJ_QUALIFIER",
                         fmt::format("Temporary VIEW {} cannot be qualified with {}. Temporary "
                                     "objects can only be qualified with SESSION or "
                                     "SYSTEM.SESSION.",
                                     QuoteIdentifier(parts.back()), fmt::join(qualifier, ".")),
                         create.name.pos);
  }
  const std::string& name = parts.back();
  if (catalogs->FindTempView(name) != nullptr && !create.replace) {
    return AnalysisError("TEMP_TABLE_OR_VIEW_ALREADY_EXISTS",
                         fmt::format("Cannot create the temporary view {} because it already "
                                     "exists.",
                                     QuoteIdentifier(name)),
                         create.name.pos);
  }
  // The query is bound now, so that a view that cannot be read is never created.
  ARROW_ASSIGN_OR_RAISE(auto plan, BindSelect(*create.query, catalogs));
  TempView view;
  ARROW_ASSIGN_OR_RAISE(view.columns, ViewColumns(create, *plan));
  for (const auto& field : plan->output) view.query_columns.push_back(field.display);
  view.comments.resize(view.columns.size());
  for (size_t i = 0; i < create.columns.size() && i < view.comments.size(); ++i) {
    view.comments[i] = create.columns[i].second;
  }
  view.query_text = create.query_text;
  view.catalog = catalogs->current_catalog();
  ARROW_ASSIGN_OR_RAISE(view.namespace_path, catalogs->CurrentNamespace());
  // A replacement may close a cycle through other views: read it once, and put the old view
  // back when that fails.
  std::optional<TempView> previous = catalogs->PutTempView(name, std::move(view));
  ARROW_ASSIGN_OR_RAISE(auto read, sql::ParseStatement("SELECT * FROM " + QuoteIdentifier(name)));
  auto bound = BindSelect(std::get<sql::SelectStatement>(read.node), catalogs);
  if (!bound.ok()) {
    if (previous) {
      catalogs->PutTempView(name, std::move(*previous));
    } else {
      catalogs->DropTempView(name);
    }
    return bound.status();
  }
  return EmptyResult();
}

CommandResult RunDescribeTempView(const sql::DescribeTable& describe, const TempView& view,
                                  const CommandContext& context) {
  const std::string& name = describe.table.parts[0];
  ARROW_ASSIGN_OR_RAISE(auto read, sql::ParseStatement("SELECT * FROM " + QuoteIdentifier(name)));
  ARROW_ASSIGN_OR_RAISE(auto plan,
                        BindSelect(std::get<sql::SelectStatement>(read.node), context.catalogs));
  arrow::StringBuilder names, types, comments;
  auto add = [&](const std::string& a, const std::string& b, const std::string& c) -> Status {
    ARROW_RETURN_NOT_OK(names.Append(a));
    ARROW_RETURN_NOT_OK(types.Append(b));
    return c.empty() ? comments.AppendNull() : comments.Append(c);
  };
  for (size_t i = 0; i < plan->output.size(); ++i) {
    const auto& field = plan->output[i];
    ARROW_RETURN_NOT_OK(add(field.display, DescribeTypeName(*field.type),
                            i < view.comments.size() ? view.comments[i] : ""));
  }
  if (describe.extended) {
    ARROW_RETURN_NOT_OK(add("", "", ""));
    ARROW_RETURN_NOT_OK(add("# Detailed Table Information", "", ""));
    ARROW_RETURN_NOT_OK(add("Table", name, ""));
    ARROW_RETURN_NOT_OK(add("Type", "VIEW", ""));
    ARROW_RETURN_NOT_OK(add("View Text", view.query_text, ""));
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

CommandResult RunDropView(const sql::DropView& drop, const CommandContext& context) {
  CatalogManager* catalogs = context.catalogs;
  if (drop.name.parts.size() == 1 && catalogs->DropTempView(drop.name.parts[0])) {
    return EmptyResult();
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

}  // namespace parley
