// Calls of functions that are not built in: a session's temporary functions and the functions
// of a catalog (parley/connector/function.h), resolved as Spark resolves routines: a one-part
// name is a built-in, else a temporary function, else a function of the current catalog and
// namespace; a longer name is resolved as a table name is (catalog.ns.f, ns.f).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog_manager.h"
#include "plan/bound_expression.h"
#include "sql/ast.h"

namespace parley {

/// \brief While alive, calls bound on this thread resolve non-built-in functions through
/// `catalogs`, each catalog function loaded once per scope however often the statement's binding
/// looks it up (a warehouse function is a file read). Scopes nest; without one such calls are
/// UNRESOLVED_ROUTINE.
class RoutineScope {
 public:
  explicit RoutineScope(CatalogManager* catalogs);
  ~RoutineScope();
  RoutineScope(const RoutineScope&) = delete;
  RoutineScope& operator=(const RoutineScope&) = delete;

 private:
  CatalogManager* outer_;
  RoutineScope* outer_scope_;
  friend Result<struct Routine> FindRoutineNamed(const std::vector<std::string>& name_parts);
  // Catalog functions looked up in this scope, by catalog and identifier; a null function for
  // a name the catalog does not have.
  std::map<std::string, std::shared_ptr<UnboundFunction>> loaded_;
};

/// \brief The name a catalog function is known by: catalog.ns.name.
std::string RoutineQualifiedName(const std::string& catalog, const Identifier& ident);

/// \brief While alive, the temporary functions that calls bound on this thread resolve to are
/// listed in `*found` (checking that a persistent function reads none). Scopes nest.
class TempFunctionWatch {
 public:
  explicit TempFunctionWatch(std::vector<std::string>* found);
  ~TempFunctionWatch();
  TempFunctionWatch(const TempFunctionWatch&) = delete;
  TempFunctionWatch& operator=(const TempFunctionWatch&) = delete;

 private:
  std::vector<std::string>* outer_;
};

/// \brief The catalogs of the innermost RoutineScope on this thread, or nullptr.
CatalogManager* RoutineCatalogs();

/// \brief A function found for a call: the function, and the name that tells it from every
/// other (a temporary function's own, a catalog function's catalog.ns.name).
struct Routine {
  std::shared_ptr<UnboundFunction> function;
  std::string qualified_name;
};

/// \brief The temporary or catalog function the name of `call` (no built-in's) means; a null
/// function when none has it (the caller reports UNRESOLVED_ROUTINE). Errors: the catalog's,
/// other than its KeyError for a name it does not have.
Result<Routine> FindRoutine(const sql::Expr& call);

/// \brief As FindRoutine, for the name of a call written as `name_parts` (a table function in
/// FROM).
Result<Routine> FindRoutineNamed(const std::vector<std::string>& name_parts);

/// \brief `routine` bound to the types of its call's bound `args`. Errors: the function's own
/// from Bind, CONNECTOR_CONTRACT_VIOLATION.FUNCTION_INPUT_TYPES for a bound function whose
/// input types do not match the arguments or that has no result type.
Result<std::shared_ptr<BoundFunction>> BindRoutineFunction(const sql::Expr& call,
                                                           const Routine& routine,
                                                           const std::vector<BoundExprPtr>& args);

/// \brief Each argument cast to the bound function's input type where they differ.
std::vector<BoundExprPtr> CastArguments(const BoundFunction& function,
                                        std::vector<BoundExprPtr> args);

/// \brief The name a call of `function` (found as `routine`) is known by in the plan: the
/// routine's qualified name, and for a function that is not deterministic a number of its own,
/// so that no two of its calls are taken for one.
std::string CallName(const Routine& routine, const BoundFunction& function);

/// \brief The call of the scalar function `bound` with `args`, each cast to its input type.
/// NOT_IMPLEMENTED when `bound` is not a ScalarFunction.
Result<BoundExprPtr> BindScalarRoutineCall(const sql::Expr& call, const Routine& routine,
                                           std::shared_ptr<BoundFunction> bound,
                                           std::vector<BoundExprPtr> args);

}  // namespace parley
