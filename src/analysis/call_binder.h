// CallBinder: resolves CALL's procedure in its catalog, binds it to the arguments' types, and
// matches the arguments to its parameters as Spark does (parley/connector/procedure.h lists the
// errors). The commands that are calls (VACUUM t, DESCRIBE HISTORY t, DESCRIBE DETAIL t) load
// their table first and call the procedure of the table's catalog; a path table's procedures
// are those of the catalog plugin its format names.
#pragma once

#include <memory>
#include <string>

#include "catalog/catalog_manager.h"
#include "parley/connector/procedure.h"
#include "plan/logical_plan.h"
#include "sql/ast.h"

namespace parley {

/// \brief A procedure as a name resolves to it.
struct LoadedProcedure {
  std::shared_ptr<ProcedureCatalog> catalog;
  Identifier ident;
  std::shared_ptr<UnboundProcedure> procedure;
};

/// \brief A CALL ready to run.
struct BoundCall {
  /// catalog.ns.proc as EXPLAIN prints it (parts unquoted).
  std::string name;
  std::shared_ptr<BoundProcedure> procedure;
  /// One row holding each parameter's value, cast to the parameter's type, in the order of
  /// procedure->parameters().
  PlanNodePtr arguments;
};

/// \brief The catalog's ProcedureCatalog mix-in, or MISSING_CATALOG_ABILITY.PROCEDURES naming
/// it.
Result<std::shared_ptr<ProcedureCatalog>> AsProcedureCatalog(std::shared_ptr<CatalogPlugin> catalog,
                                                             SourcePosition pos);

/// \brief Resolve and load the procedure `name` (catalog.ns.proc, or relative to the current
/// catalog and namespace as a table name is). FAILED_TO_LOAD_ROUTINE when the catalog has none
/// of that name.
Result<LoadedProcedure> LoadProcedureForName(const sql::QualifiedName& name,
                                             CatalogManager* catalogs);

/// \brief Bind a CALL statement written at `pos`. Errors: those of LoadProcedureForName,
/// MISSING_CATALOG_ABILITY.PROCEDURES, the argument errors of procedure.h, and for a command
/// its table's TABLE_OR_VIEW_NOT_FOUND, or DELTA_ONLY_OPERATION when the table's catalog has
/// no such procedure.
Result<BoundCall> BindCall(const sql::Call& call, SourcePosition pos, CatalogManager* catalogs);

}  // namespace parley
