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

// The function the name means, or a null one when none has it.
Result<Routine> FindFunction(const std::vector<std::string>& parts, CatalogManager* catalogs) {
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
  auto loaded = functions->LoadFunction(resolved->ident);
  if (!loaded.ok()) {
    if (loaded.status().IsKeyError()) return Routine{};
    return loaded.status();
  }
  std::string qualified = resolved->catalog->name();
  for (const auto& part : resolved->ident.namespace_path) qualified += "." + part;
  qualified += "." + resolved->ident.name;
  return Routine{std::move(loaded).ValueUnsafe(), std::move(qualified)};
}

}  // namespace

RoutineScope::RoutineScope(CatalogManager* catalogs) : outer_(routine_catalogs) {
  routine_catalogs = catalogs;
}

RoutineScope::~RoutineScope() { routine_catalogs = outer_; }

TempFunctionWatch::TempFunctionWatch(std::vector<std::string>* found)
    : outer_(temp_function_references) {
  temp_function_references = found;
}

TempFunctionWatch::~TempFunctionWatch() { temp_function_references = outer_; }

CatalogManager* RoutineCatalogs() { return routine_catalogs; }

Result<Routine> FindRoutine(const sql::Expr& call) { return FindRoutineNamed(call.name_parts); }

Result<Routine> FindRoutineNamed(const std::vector<std::string>& name_parts) {
  if (routine_catalogs == nullptr) return Routine{};
  return FindFunction(name_parts, routine_catalogs);
}

Result<BoundExprPtr> BindRoutineCall(const sql::Expr& call, const Routine& routine,
                                     std::vector<BoundExprPtr> args) {
  arrow::FieldVector fields;
  for (size_t i = 0; i < args.size(); ++i) {
    fields.push_back(arrow::field("param" + std::to_string(i), args[i]->type));
  }
  auto bound = routine.function->Bind(*arrow::schema(std::move(fields)));
  if (!bound.ok()) return bound.status();
  auto scalar = std::dynamic_pointer_cast<const ScalarFunction>(*bound);
  if (scalar == nullptr) {
    return AnalysisError("NOT_IMPLEMENTED",
                         fmt::format("The function {} is not a scalar function; only scalar "
                                     "connector functions can be called yet.",
                                     call.source_text),
                         call.pos);
  }
  const auto input_types = scalar->input_types();
  if (input_types.size() != args.size() || scalar->result_type() == nullptr) {
    return AnalysisError("CONNECTOR_CONTRACT_VIOLATION.FUNCTION_INPUT_TYPES",
                         fmt::format("The function {} bound to {} arguments declares {} input "
                                     "types{}.",
                                     scalar->name(), args.size(), input_types.size(),
                                     scalar->result_type() == nullptr ? " and no result type" : ""),
                         call.pos);
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i]->type->Equals(*input_types[i])) {
      args[i] = MakeCall("CAST", {args[i]}, input_types[i]);
    }
  }
  std::string name = routine.qualified_name;
  if (!scalar->deterministic()) name += "#" + std::to_string(++nondeterministic_calls);
  auto expr = std::make_shared<BoundExpr>(
      *MakeCall(std::move(name), std::move(args), scalar->result_type()));
  expr->connector_function = std::move(scalar);
  return expr;
}

}  // namespace parley
