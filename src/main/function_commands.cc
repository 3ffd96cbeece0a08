// SHOW FUNCTIONS and DESCRIBE FUNCTION: the built-in functions, the session's temporary
// functions and the functions of a catalog (a FunctionCatalog), listed and described as Spark
// lists and describes them.
#include <fmt/format.h>

#include <set>

#include "analysis/analysis_error.h"
#include "analysis/expression_binder.h"
#include "analysis/routine_binder.h"
#include "analysis/window_binder.h"
#include "catalog/identifiers.h"
#include "functions/function_registry.h"
#include "main/command_results.h"
#include "main/commands.h"
#include "parley/connector/procedure.h"

namespace parley {
namespace {

// Every built-in function's name: the scalar functions, the aggregates, the window functions.
std::set<std::string> BuiltinNames() {
  std::set<std::string> names;
  for (const auto& name : FunctionRegistry::Builtin().Names()) names.insert(name);
  for (const auto& name : AggregateFunctionNames()) names.insert(name);
  for (const auto& name : WindowOnlyFunctionNames()) names.insert(name);
  return names;
}

}  // namespace

CommandResult RunShowFunctions(const sql::ShowFunctions& show, const CommandContext& context) {
  CatalogManager* catalogs = context.catalogs;
  std::set<std::string> names;
  const bool user = show.scope != sql::ShowFunctions::Scope::kSystem;
  const bool system = show.scope != sql::ShowFunctions::Scope::kUser;
  if (system) names = BuiltinNames();
  if (user) {
    for (const auto& name : catalogs->TempFunctionNames()) names.insert(name);
    std::pair<std::shared_ptr<CatalogPlugin>, std::vector<std::string>> resolved;
    if (show.namespace_name) {
      ARROW_ASSIGN_OR_RAISE(resolved, catalogs->ResolveNamespace(show.namespace_name->parts));
    } else {
      ARROW_ASSIGN_OR_RAISE(resolved.first, catalogs->Catalog(catalogs->current_catalog()));
      ARROW_ASSIGN_OR_RAISE(resolved.second, catalogs->CurrentNamespace());
    }
    if (auto* functions = dynamic_cast<FunctionCatalog*>(resolved.first.get())) {
      ARROW_ASSIGN_OR_RAISE(auto idents, functions->ListFunctions(resolved.second));
      for (const auto& ident : idents)
        names.insert(RoutineQualifiedName(resolved.first->name(), ident));
    }
  }
  NamePattern pattern(show.pattern);
  StringRows rows;
  for (const auto& name : names) {
    if (pattern.Matches(name)) rows.push_back({name});
  }
  return StringTable({"function"}, rows);
}

CommandResult RunDescribeFunction(const sql::DescribeFunction& describe,
                                  const CommandContext& context) {
  CatalogManager* catalogs = context.catalogs;
  const auto& parts = describe.function.parts;
  std::vector<std::string> lines;
  if (parts.size() == 1 && BuiltinNames().count(ToLowerAscii(parts[0])) > 0) {
    lines = {"Function: " + ToLowerAscii(parts[0]), "Usage: N/A."};
  } else if (parts.size() == 1 && catalogs->FindTempFunction(parts[0]) != nullptr) {
    auto function = catalogs->FindTempFunction(parts[0]);
    if (const auto* sql = dynamic_cast<const SqlFunction*>(function.get())) {
      lines = DescribeSqlFunctionLines(ToLowerAscii(parts[0]), sql->info(), describe.extended);
    } else {
      const std::string usage = function->description();
      lines = {"Function: " + ToLowerAscii(parts[0]), "Usage: " + (usage.empty() ? "N/A." : usage)};
    }
  } else {
    auto resolved = catalogs->ResolveTableName(parts);
    auto* functions =
        resolved.ok() ? dynamic_cast<FunctionCatalog*>(resolved->catalog.get()) : nullptr;
    std::shared_ptr<UnboundFunction> function;
    if (functions != nullptr) {
      auto loaded = functions->LoadFunction(resolved->ident);
      if (!loaded.ok() && !loaded.status().IsKeyError()) return loaded.status();
      if (loaded.ok()) function = *loaded;
    }
    if (function == nullptr) {
      return AnalysisError(
          "UNRESOLVED_ROUTINE",
          fmt::format("Cannot resolve routine {} on search path [`system`.`builtin`, "
                      "`system`.`session`, {}].",
                      QuoteMultipartIdentifier(parts),
                      QuoteIdentifier(catalogs->current_catalog())),
          describe.function.pos);
    }
    const std::string qualified = RoutineQualifiedName(resolved->catalog->name(), resolved->ident);
    if (const auto* sql = dynamic_cast<const SqlFunction*>(function.get())) {
      lines = DescribeSqlFunctionLines(qualified, sql->info(), describe.extended);
    } else {
      const std::string usage = function->description();
      lines = {"Function: " + qualified, "Usage: " + (usage.empty() ? "N/A." : usage)};
    }
  }
  StringRows rows;
  for (auto& line : lines) rows.push_back({std::move(line)});
  return StringTable({"function_desc"}, rows);
}

}  // namespace parley
