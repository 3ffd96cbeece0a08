// SetOperationBinder: UNION, INTERSECT and EXCEPT (MINUS), in their ALL and DISTINCT forms.
//
// Both sides are bound on their own and must have as many columns. Column i of the result has
// the wider of the two sides' types by Spark's rules for set operations (the usual widening,
// and a string meeting a number becomes BIGINT or DOUBLE) and the left side's name; each side
// is projected to those types. NULLs compare equal, as in Spark. The plans are those Spark's
// optimizer rewrites the operators to:
//   UNION ALL              Union(left, right)
//   UNION                  Distinct(Union(left, right))
//   INTERSECT, EXCEPT      Distinct(left) semi / anti join Distinct(right) on every column
//                          with <=> (Spark puts the Distinct above the join; below, the join
//                          sees fewer rows and its result is already distinct)
//   INTERSECT ALL          Union of both sides, each row tagged with its side -> Aggregate
//                          counting each side's copies per distinct row -> rows found on both
//                          sides -> ReplicateRows(the smaller count)
//   EXCEPT ALL             Union of left rows as +1 and right rows as -1 -> Aggregate summing
//                          them per distinct row -> rows with a positive sum -> ReplicateRows
#pragma once

#include "analysis/cte_scope.h"
#include "catalog/catalog_manager.h"
#include "plan/logical_plan.h"
#include "sql/ast.h"

namespace parley {

/// \brief Bind `operation`, its sides seeing the CTEs of `ctes`. Errors: NUM_COLUMNS_MISMATCH,
/// INCOMPATIBLE_COLUMN_TYPE, and those of binding either side.
Result<PlanNodePtr> BindSetOperation(const sql::SetOperation& operation, CatalogManager* catalogs,
                                     const CteScope* ctes);

}  // namespace parley
