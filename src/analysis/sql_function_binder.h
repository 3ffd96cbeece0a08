// Calls of SQL functions (CREATE FUNCTION ... RETURN), expanded as Spark expands them: the
// arguments are matched to the parameters (by position and by name, defaults filling the
// rest) and cast to the parameters' types; the body is parsed and bound with the settings it
// was created with (its names resolve in the catalog and namespace current at the call, as in
// Spark), each parameter standing for its argument; a
// scalar function's value is cast to its RETURNS type, a table function's columns to its
// RETURNS TABLE columns.
//
// A name in the body resolves to a column of the body's own FROM first, then to a parameter
// (`p` or `f.p`). Inside a subquery of a scalar function's body, a parameter whose argument
// reads the caller's columns is NOT_IMPLEMENTED (its value would be a correlation); constant
// arguments are fine anywhere, and a table function's arguments are always constant.
#pragma once

#include <string>
#include <vector>

#include "analysis/expression_binder.h"
#include "analysis/routine_binder.h"
#include "parley/connector/function.h"
#include "plan/logical_plan.h"
#include "sql/ast.h"

namespace parley {

/// \brief The value of the parameter `name_parts` names in the SQL function whose body is
/// being bound on this thread, if it names one. `scope` is the scope of the binder asking
/// (to tell the body's top level from its subqueries).
std::optional<Result<BoundExprPtr>> ResolveSqlFunctionParameter(
    const std::vector<std::string>& name_parts, const Scope* scope, SourcePosition pos);

/// \brief The parameters of the SQL function whose body is being bound on this thread (none
/// outside one), for the suggestions of UNRESOLVED_COLUMN.
std::vector<std::string> SqlFunctionParameterNames();

/// \brief The call `call` of the scalar SQL function `routine` with its bound `args`. `options`
/// are the caller's (its subquery hook serves the body's subqueries). Errors: NOT_A_SCALAR_FUNCTION
/// for a table function, those of MatchArguments, the casts' DATATYPE_MISMATCH.*,
/// CYCLIC_FUNCTION_REFERENCE.
Result<BoundExprPtr> BindSqlFunctionCall(const sql::Expr& call, const Routine& routine,
                                         const SqlFunction& function,
                                         std::vector<BoundExprPtr> args,
                                         const BindOptions& options);

/// \brief The plan of `FROM f(args)` for the table SQL function `routine`: its columns named
/// and typed as its RETURNS TABLE says. Errors: NOT_A_TABLE_FUNCTION for a scalar function,
/// then as BindSqlFunctionCall.
Result<PlanNodePtr> BindSqlTableFunction(const sql::FromItem& item, const Routine& routine,
                                         const SqlFunction& function, CatalogManager* catalogs);

/// \brief Check a new SQL function `info` and complete it: a scalar function without RETURNS
/// gets its body's type, a table function without columns its body's. `qualified_name` is the
/// name calls resolve to (a cycle back to it is CYCLIC_FUNCTION_REFERENCE), `display` names it
/// in errors; a `persistent` function may not read temporary functions or views
/// (INVALID_TEMP_OBJ_REFERENCE). Other errors: USER_DEFINED_FUNCTIONS.* (Spark's rules on
/// parameters, defaults and bodies), DUPLICATE_ROUTINE_PARAMETER_NAMES,
/// DUPLICATE_ROUTINE_RETURNS_COLUMNS, the body's binding errors.
Status CheckSqlFunction(const std::string& qualified_name, const std::string& display,
                        bool persistent, SqlFunctionInfo* info, CatalogManager* catalogs,
                        SourcePosition pos);

}  // namespace parley
