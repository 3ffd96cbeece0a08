// Binding calls of temporary and catalog functions (routine_binder.h).
#include "analysis/routine_binder.h"

#include <fmt/format.h>

#include <atomic>

#include "analysis/analysis_error.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"

namespace parley {
namespace {

thread_local CatalogManager* routine_catalogs = nullptr;
thread_local std::vector<std::string>* temp_function_references = nullptr;
// Numbers the calls of functions that are not deterministic.
std::atomic<int64_t> nondeterministic_calls{0};

thread_local RoutineScope* routine_scope = nullptr;

// The catalog's function `ident`, loaded once per scope; null when the catalog has none.
Result<std::shared_ptr<UnboundFunction>> LoadOnce(
    FunctionCatalog& functions, const std::string& catalog, const Identifier& ident,
    std::map<std::string, std::shared_ptr<UnboundFunction>>* loaded) {
  std::string key = ToLowerAscii(catalog);
  for (const auto& part : ident.namespace_path) key += '\x1f' + ToLowerAscii(part);
  key += '\x1f' + ToLowerAscii(ident.name);
  if (auto it = loaded->find(key); it != loaded->end()) return it->second;
  auto function = functions.LoadFunction(ident);
  if (!function.ok() && !function.status().IsKeyError()) return function.status();
  std::shared_ptr<UnboundFunction> found = function.ok() ? *function : nullptr;
  loaded->emplace(std::move(key), found);
  return found;
}

}  // namespace

RoutineScope::RoutineScope(CatalogManager* catalogs)
    : outer_(routine_catalogs), outer_scope_(routine_scope) {
  routine_catalogs = catalogs;
  routine_scope = this;
}

RoutineScope::~RoutineScope() {
  routine_catalogs = outer_;
  routine_scope = outer_scope_;
}

std::string RoutineQualifiedName(const std::string& catalog, const Identifier& ident) {
  std::string name = catalog;
  for (const auto& part : ident.namespace_path) name += "." + part;
  return name + "." + ident.name;
}

TempFunctionWatch::TempFunctionWatch(std::vector<std::string>* found)
    : outer_(temp_function_references) {
  temp_function_references = found;
}

TempFunctionWatch::~TempFunctionWatch() { temp_function_references = outer_; }

CatalogManager* RoutineCatalogs() { return routine_catalogs; }

Result<Routine> FindRoutine(const sql::Expr& call) { return FindRoutineNamed(call.name_parts); }

Result<Routine> FindRoutineNamed(const std::vector<std::string>& parts) {
  CatalogManager* catalogs = routine_catalogs;
  if (catalogs == nullptr || routine_scope == nullptr) return Routine{};
  if (parts.size() == 1) {
    if (auto temporary = catalogs->FindTempFunction(parts[0])) {
      if (temp_function_references != nullptr) temp_function_references->push_back(parts[0]);
      return Routine{std::move(temporary), ToLowerAscii(parts[0])};
    }
  }
  auto resolved = catalogs->ResolveTableName(parts);
  if (!resolved.ok()) return Routine{};
  auto* functions = dynamic_cast<FunctionCatalog*>(resolved->catalog.get());
  if (functions == nullptr) return Routine{};
  const std::string catalog = resolved->catalog->name();
  ARROW_ASSIGN_OR_RAISE(auto function,
                        LoadOnce(*functions, catalog, resolved->ident, &routine_scope->loaded_));
  if (function == nullptr) return Routine{};
  return Routine{std::move(function), RoutineQualifiedName(catalog, resolved->ident)};
}

Result<std::shared_ptr<BoundFunction>> BindRoutineFunction(const sql::Expr& call,
                                                           const Routine& routine,
                                                           const std::vector<BoundExprPtr>& args) {
  arrow::FieldVector fields;
  for (size_t i = 0; i < args.size(); ++i) {
    fields.push_back(arrow::field("param" + std::to_string(i), args[i]->type));
  }
  ARROW_ASSIGN_OR_RAISE(auto bound, routine.function->Bind(*arrow::schema(std::move(fields))));
  if (bound == nullptr) {
    return AnalysisError("CONNECTOR_CONTRACT_VIOLATION.FUNCTION_INPUT_TYPES",
                         fmt::format("The function {} bound to nothing.", call.source_text),
                         call.pos);
  }
  const auto input_types = bound->input_types();
  if (input_types.size() != args.size() || bound->result_type() == nullptr) {
    return AnalysisError("CONNECTOR_CONTRACT_VIOLATION.FUNCTION_INPUT_TYPES",
                         fmt::format("The function {} bound to {} arguments declares {} input "
                                     "types{}.",
                                     bound->name(), args.size(), input_types.size(),
                                     bound->result_type() == nullptr ? " and no result type" : ""),
                         call.pos);
  }
  return bound;
}

std::vector<BoundExprPtr> CastArguments(const BoundFunction& function,
                                        std::vector<BoundExprPtr> args) {
  const auto input_types = function.input_types();
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i]->type->Equals(*input_types[i])) {
      args[i] = MakeCall("CAST", {args[i]}, input_types[i]);
    }
  }
  return args;
}

std::string CallName(const Routine& routine, const BoundFunction& function) {
  std::string name = routine.qualified_name;
  if (!function.deterministic()) name += "#" + std::to_string(++nondeterministic_calls);
  return name;
}

Result<BoundExprPtr> BindScalarRoutineCall(const sql::Expr& call, const Routine& routine,
                                           std::shared_ptr<BoundFunction> bound,
                                           std::vector<BoundExprPtr> args) {
  auto scalar = std::dynamic_pointer_cast<const ScalarFunction>(bound);
  if (scalar == nullptr) {
    return AnalysisError("NOT_IMPLEMENTED",
                         fmt::format("The function {} binds to neither a scalar nor an aggregate "
                                     "function.",
                                     call.source_text),
                         call.pos);
  }
  auto expr = std::make_shared<BoundExpr>(*MakeCall(
      CallName(routine, *scalar), CastArguments(*scalar, std::move(args)), scalar->result_type()));
  expr->connector_function = std::move(scalar);
  return expr;
}

}  // namespace parley
