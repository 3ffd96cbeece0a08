// DmlBinder: binds DELETE, UPDATE and MERGE into a RowLevelPlan.
//
// The target must be readable and either implement SupportsRowLevelOperations or (DELETE only)
// SupportsDeleteV2; otherwise UNSUPPORTED_FEATURE.TABLE_OPERATION naming the table. Names
// resolve as in queries (UNRESOLVED_COLUMN.*, AMBIGUOUS_REFERENCE between target and source);
// conditions must be boolean (DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN); assigned values follow
// ANSI store assignment like INSERT (INCOMPATIBLE_DATA_FOR_TABLE.*); a column assigned twice is
// DUPLICATE_ASSIGNMENTS. MERGE's NOT MATCHED clauses see only the source, NOT MATCHED BY SOURCE
// clauses only the target, as in Spark.
#pragma once

#include "catalog/catalog_manager.h"
#include "plan/row_level_plan.h"
#include "sql/ast.h"

namespace parley {

Result<RowLevelPlan> BindDelete(const sql::DeleteFrom& statement, CatalogManager* catalogs);
Result<RowLevelPlan> BindUpdate(const sql::Update& statement, CatalogManager* catalogs);
Result<RowLevelPlan> BindMerge(const sql::Merge& statement, CatalogManager* catalogs);

}  // namespace parley
