// QueryBinder: turns a query into a logical plan, resolving the table through the catalogs and
// checking its capabilities before anything runs.
//
// A query's WITH clause makes its CTEs visible to its body (analysis/cte_scope.h). A SELECT's
// plan: FROM clause (analysis/from_binder.h)|OneRow -> [joins of WHERE's subqueries] ->
// [Filter] -> [joins of the select list's subqueries] -> [Aggregate -> [joins of subqueries
// after grouping] -> [Filter (HAVING)]] -> Project -> [Distinct] -> [Sort] -> [Limit] ->
// [Project dropping ORDER BY helper columns]. A set operation (analysis/set_operation_binder.h),
// VALUES list or parenthesised query gets its ORDER BY, LIMIT and OFFSET over its output
// (analysis/result_clauses.h).
#pragma once

#include <functional>

#include "analysis/cte_scope.h"
#include "analysis/subquery.h"
#include "catalog/catalog_manager.h"
#include "plan/logical_plan.h"
#include "sql/ast.h"

namespace parley {

/// \brief Bind a query of any shape, seeing the CTEs of `ctes` (and its own). Errors:
/// TABLE_OR_VIEW_NOT_FOUND, UNSUPPORTED_FEATURE.TABLE_OPERATION (missing BATCH_READ),
/// UNRESOLVED_COLUMN.*, ...
Result<PlanNodePtr> BindSelect(const sql::SelectStatement& select, CatalogManager* catalogs,
                               const CteScope* ctes = nullptr);

/// \brief Bind the query of a subquery expression inside `outer` (analysis/subquery.h): its
/// WHERE conjuncts that read the innermost enclosing scope become the correlation, and the
/// inner values they read are carried out of its plan (for an aggregate, as grouping keys).
/// Errors as BindSelect, and UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.* for correlations Spark
/// does not decorrelate either.
Result<BoundSubquery> BindSubquery(const sql::SelectStatement& select, CatalogManager* catalogs,
                                   const OuterQuery& outer);

/// \brief Binds the DEFAULT keyword in column `column` of a VALUES row (INSERT ... VALUES).
using DefaultResolver = std::function<Result<BoundExprPtr>(size_t column)>;

/// \brief Whether `expr` is the DEFAULT keyword (a bare name `DEFAULT`).
bool IsDefaultKeyword(const sql::Expr& expr);

/// \brief Bind a VALUES query; a DEFAULT cell is bound by `resolve_default`, or is an error
/// without one. Errors: INVALID_INLINE_TABLE.*, ASSIGNMENT_ARITY_MISMATCH.
Result<PlanNodePtr> BindValues(const sql::SelectStatement& select,
                               const DefaultResolver& resolve_default = nullptr);

/// \brief Resolve a table name for reading: as CatalogManager::ResolveTableName, except that a
/// name that cannot exist (a multi-part namespace in spark_catalog) is TABLE_OR_VIEW_NOT_FOUND.
Result<ResolvedName> ResolveNameForRead(const sql::QualifiedName& name, CatalogManager* catalogs);

/// \brief Resolve and load a table for reading, mapping "not found" errors to
/// TABLE_OR_VIEW_NOT_FOUND naming the table as written. With `time_travel`, the version it
/// names: a catalog table through LoadTableAtVersion / LoadTableAtTimestamp, a path table
/// through the read options versionAsOf / timestampAsOf. The version must be an integer or
/// string literal and the timestamp a constant string or TIMESTAMP literal
/// (INVALID_TIME_TRAVEL_SPEC otherwise).
Result<std::pair<ResolvedName, std::shared_ptr<Table>>> LoadTableForName(
    const sql::QualifiedName& name, CatalogManager* catalogs,
    const sql::TimeTravel* time_travel = nullptr);

/// \brief What a name read in a query is: a table, or a view of a RelationCatalog.
struct LoadedRelation {
  ResolvedName name;
  std::shared_ptr<Table> table;  // null for a view
  std::optional<ViewInfo> view;
};

/// \brief As LoadTableForName, except that in a RelationCatalog a view's name loads the view
/// (in the same round trip). Time travel on a view is UNSUPPORTED_FEATURE.TIME_TRAVEL.
Result<LoadedRelation> LoadRelationForName(const sql::QualifiedName& name, CatalogManager* catalogs,
                                           const sql::TimeTravel* time_travel = nullptr);

/// \brief LoadTableForName for a command that needs a table (`operation`: "INSERT",
/// "TRUNCATE TABLE"): a view's name (a temporary view's, which shadows a table's, or a catalog's
/// view) is EXPECT_TABLE_NOT_VIEW.NO_ALTERNATIVE, not the table or TABLE_OR_VIEW_NOT_FOUND.
Result<std::pair<ResolvedName, std::shared_ptr<Table>>> LoadTableForCommand(
    const sql::QualifiedName& name, CatalogManager* catalogs, std::string_view operation);

/// \brief OK unless `name` is a view of its catalog: then EXPECT_TABLE_NOT_VIEW.NO_ALTERNATIVE
/// (or .USE_ALTER_VIEW) naming `operation` ("INSERT", "ALTER TABLE ... ADD COLUMNS").
Status ExpectTableNotView(const ResolvedName& name, std::string_view operation, bool use_alter_view,
                          SourcePosition pos);

/// \brief The EXPECT_TABLE_NOT_VIEW.* error of `operation` on the view `view` (as errors name
/// it).
Status ViewIsNotATable(std::string_view view, std::string_view operation, bool use_alter_view,
                       SourcePosition pos);

}  // namespace parley
