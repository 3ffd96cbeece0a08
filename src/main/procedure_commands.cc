// Procedures as statements: CALL (and the commands that are calls: VACUUM, DESCRIBE HISTORY,
// DESCRIBE DETAIL), SHOW PROCEDURES and DESCRIBE PROCEDURE.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/analysis_error.h"
#include "analysis/call_binder.h"
#include "analysis/expression_binder.h"
#include "arrow/api.h"
#include "exec/executor.h"
#include "main/command_results.h"
#include "main/commands.h"
#include "plan/bound_expression.h"

namespace parley {
namespace {

// The value of each parameter: the one row the bound call's argument plan computes.
Result<std::vector<std::shared_ptr<arrow::Scalar>>> ArgumentValues(const BoundCall& bound,
                                                                   const CommandContext& context) {
  std::vector<std::shared_ptr<arrow::Scalar>> values;
  if (bound.arguments->output.empty()) return values;
  ARROW_ASSIGN_OR_RAISE(
      auto executed, ExecutePlan(bound.arguments, ScanOptionsFor(*context.conf, context.control)));
  for (const auto& column : executed.table->columns()) {
    ARROW_ASSIGN_OR_RAISE(auto value, column->GetScalar(0));
    values.push_back(std::move(value));
  }
  return values;
}

// Spark's layout of DESCRIBE PROCEDURE: keys padded to one width, then the value.
std::vector<std::string> Tabulate(const std::vector<std::string>& cells) {
  size_t width = 0;
  for (const auto& cell : cells) width = std::max(width, cell.size());
  std::vector<std::string> out;
  for (const auto& cell : cells) out.push_back(cell + std::string(width - cell.size(), ' '));
  return out;
}

// One line per parameter, as Spark prints it: IN name TYPE [DEFAULT sql] ['comment'].
std::vector<std::string> ParameterLines(const std::vector<ProcedureParameter>& parameters) {
  std::vector<std::string> modes, names, types;
  for (const auto& parameter : parameters) {
    modes.push_back(parameter.mode == ProcedureParameter::Mode::kIn      ? "IN"
                    : parameter.mode == ProcedureParameter::Mode::kInOut ? "INOUT"
                                                                         : "OUT");
    names.push_back(parameter.name);
    types.push_back(SqlTypeName(*parameter.type));
  }
  modes = Tabulate(modes);
  names = Tabulate(names);
  types = Tabulate(types);
  std::vector<std::string> lines;
  for (size_t i = 0; i < parameters.size(); ++i) {
    std::string line = modes[i] + " " + names[i] + " " + types[i];
    if (parameters[i].default_value) line += " DEFAULT " + *parameters[i].default_value;
    if (!parameters[i].comment.empty()) line += " '" + parameters[i].comment + "'";
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace

CommandResult RunCall(const sql::Call& call, SourcePosition pos, const CommandContext& context) {
  ARROW_ASSIGN_OR_RAISE(BoundCall bound, BindCall(call, pos, context.catalogs));
  ARROW_ASSIGN_OR_RAISE(auto values, ArgumentValues(bound, context));
  ARROW_ASSIGN_OR_RAISE(ProcedureResults results,
                        bound.procedure->Call(values, context.conf->explicit_values()));
  if (results.empty()) return EmptyResult();
  if (results.size() > 1) {
    return MakeError(arrow::StatusCode::NotImplemented, "INTERNAL_ERROR",
                     fmt::format("Multi-result procedures are temporarily not supported: {} "
                                 "returned {} result sets.",
                                 QuoteIdentifier(bound.procedure->name()), results.size()));
  }
  return results.front();
}

Result<std::string> ExplainCall(const sql::Call& call, SourcePosition pos, sql::ExplainMode mode,
                                const CommandContext& context) {
  if (mode == sql::ExplainMode::kAnalyze) {
    return AnalysisError("UNSUPPORTED_FEATURE.EXPLAIN_COMMAND",
                         "EXPLAIN ANALYZE of a CALL is not supported: it would run the procedure.",
                         pos);
  }
  ARROW_ASSIGN_OR_RAISE(BoundCall bound, BindCall(call, pos, context.catalogs));
  std::string values;
  if (!bound.arguments->values.empty()) {
    for (const auto& value : bound.arguments->values.front()) {
      values += (values.empty() ? "" : ", ") + value->ToString();
    }
  }
  const std::string line = "Call " + bound.name + "(" + values + ")\n";
  if (mode == sql::ExplainMode::kExtended) {
    return "== Analyzed Logical Plan ==\n" + line + "\n== Physical Plan ==\n" + line;
  }
  return "== Physical Plan ==\n" + line;
}

CommandResult RunShowProcedures(const sql::ShowProcedures& show, SourcePosition pos,
                                const CommandContext& context) {
  std::shared_ptr<CatalogPlugin> catalog;
  std::vector<std::string> ns;
  if (show.namespace_name) {
    ARROW_ASSIGN_OR_RAISE(std::tie(catalog, ns),
                          context.catalogs->ResolveNamespace(show.namespace_name->parts,
                                                             /*must_exist=*/false));
  } else {
    ARROW_ASSIGN_OR_RAISE(catalog, context.catalogs->Catalog(context.catalogs->current_catalog()));
    ARROW_ASSIGN_OR_RAISE(ns, context.catalogs->CurrentNamespace());
  }
  ARROW_ASSIGN_OR_RAISE(auto procedures, AsProcedureCatalog(catalog, pos));
  ARROW_ASSIGN_OR_RAISE(auto idents, procedures->ListProcedures(ns));
  std::sort(idents.begin(), idents.end(),
            [](const Identifier& a, const Identifier& b) { return a.name < b.name; });
  arrow::StringBuilder catalogs, schemas, names;
  arrow::ListBuilder namespaces(arrow::default_memory_pool(),
                                std::make_shared<arrow::StringBuilder>());
  auto* parts = static_cast<arrow::StringBuilder*>(namespaces.value_builder());
  for (const auto& ident : idents) {
    ARROW_RETURN_NOT_OK(catalogs.Append(catalog->name()));
    ARROW_RETURN_NOT_OK(namespaces.Append());
    for (const auto& part : ident.namespace_path) ARROW_RETURN_NOT_OK(parts->Append(part));
    ARROW_RETURN_NOT_OK(ident.namespace_path.empty() ? schemas.AppendNull()
                                                     : schemas.Append(ident.namespace_path.back()));
    ARROW_RETURN_NOT_OK(names.Append(ident.name));
  }
  std::vector<std::shared_ptr<arrow::Array>> columns(4);
  ARROW_RETURN_NOT_OK(catalogs.Finish(&columns[0]));
  ARROW_RETURN_NOT_OK(namespaces.Finish(&columns[1]));
  ARROW_RETURN_NOT_OK(schemas.Finish(&columns[2]));
  ARROW_RETURN_NOT_OK(names.Finish(&columns[3]));
  auto schema = arrow::schema({arrow::field("catalog", arrow::utf8(), false),
                               arrow::field("namespace", arrow::list(arrow::utf8()), false),
                               arrow::field("schema", arrow::utf8()),
                               arrow::field("procedure_name", arrow::utf8(), false)});
  return arrow::Table::Make(schema, columns);
}

CommandResult RunDescribeProcedure(const sql::DescribeProcedure& describe,
                                   const CommandContext& context) {
  ARROW_ASSIGN_OR_RAISE(LoadedProcedure loaded,
                        LoadProcedureForName(describe.procedure, context.catalogs));
  std::vector<std::string> keys{"Procedure:", "Description:"};
  std::vector<std::string> values{loaded.procedure->name(), loaded.procedure->description()};
  // A procedure that binds without arguments tells its parameters; one that needs them to
  // bind shows only its name and description.
  auto bound = loaded.procedure->Bind(arrow::Schema({}));
  if (bound.ok()) {
    std::vector<std::string> lines = ParameterLines((*bound)->parameters());
    if (lines.empty()) lines.push_back("()");
    for (size_t i = 0; i < lines.size(); ++i) {
      keys.push_back(i == 0 ? "Parameters:" : "");
      values.push_back(lines[i]);
    }
  }
  keys = Tabulate(keys);
  StringRows rows;
  for (size_t i = 0; i < keys.size(); ++i) rows.push_back({keys[i] + " " + values[i]});
  return StringTable({"procedure_desc"}, rows);
}

}  // namespace parley
