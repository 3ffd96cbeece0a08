// DmlBinder: binds DELETE, UPDATE and MERGE into a RowLevelPlan.
//
// The target must be readable and either implement SupportsRowLevelOperations or (DELETE only)
// SupportsDeleteV2; otherwise UNSUPPORTED_FEATURE.TABLE_OPERATION naming the table. Names
// resolve as in queries (UNRESOLVED_COLUMN.*, AMBIGUOUS_REFERENCE between target and source);
// conditions must be boolean (DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN); assigned values follow
// ANSI store assignment like INSERT (INCOMPATIBLE_DATA_FOR_TABLE.*); a column assigned twice is
// DUPLICATE_ASSIGNMENTS. MERGE's NOT MATCHED clauses see only the source, NOT MATCHED BY SOURCE
// clauses only the target, as in Spark.
//
// The WHERE of DELETE and UPDATE may hold subqueries, as in Spark: [NOT] IN, [NOT] EXISTS and
// scalar, uncorrelated or correlated with the target (by equalities, except under a
// correlated scalar aggregate), anywhere in the condition. Each is planned as a value per
// target row (analysis/subquery.h: PlanSubqueryValue), by joins above the target's scan that
// keep each of its rows exactly once, so a rewritten group's copies are all still there; the
// statement acts where the condition is TRUE. Only the conjuncts without a subquery form the
// group filter, and such a DELETE is never metadata-only (a table with SupportsDeleteV2 only
// refuses it: UNSUPPORTED_FEATURE.TABLE_OPERATION). A subquery in SET is
// UNSUPPORTED_FEATURE.SUBQUERY; in any MERGE condition it is
// UNSUPPORTED_MERGE_CONDITION.SUBQUERY, naming the condition (SEARCH, DELETE, UPDATE, INSERT)
// and the target, as in Spark.
#pragma once

#include "catalog/catalog_manager.h"
#include "plan/row_level_plan.h"
#include "sql/ast.h"

namespace parley {

Result<RowLevelPlan> BindDelete(const sql::DeleteFrom& statement, CatalogManager* catalogs);
Result<RowLevelPlan> BindUpdate(const sql::Update& statement, CatalogManager* catalogs);
Result<RowLevelPlan> BindMerge(const sql::Merge& statement, CatalogManager* catalogs);

}  // namespace parley
