// WriteBinder: binds INSERT INTO / INSERT OVERWRITE into a WritePlan, and shapes any query's
// output into a table's columns with Spark's store-assignment rules (ANSI policy).
//
// Store assignment: the query's columns map to the table's by position, by the written column
// list, or BY NAME; static PARTITION values fill their columns; a column the query leaves out
// gets its DEFAULT or NULL. Each value is cast to the column's type when ANSI store assignment
// allows it (numeric to numeric, anything atomic to string, date and timestamp to each other,
// NULL to anything); the cast fails at run time on overflow. Errors name the table and column:
// INSERT_COLUMN_ARITY_MISMATCH.TOO_MANY_DATA_COLUMNS / NOT_ENOUGH_DATA_COLUMNS,
// INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST / EXTRA_COLUMNS / CANNOT_FIND_DATA,
// NON_PARTITION_COLUMN, and UNSUPPORTED_FEATURE.TABLE_OPERATION for a missing capability
// (checked before any builder is called).
#pragma once

#include "catalog/catalog_manager.h"
#include "catalog/sql_conf.h"
#include "plan/write_plan.h"
#include "sql/ast.h"

namespace parley {

/// \brief Bind an INSERT statement: resolve the table (a path table that does not exist yet is
/// created with the query's schema when its provider allows it), check its capabilities, pick
/// the mode and plan the query.
Result<WritePlan> BindInsert(const sql::Insert& insert, CatalogManager* catalogs,
                             const SqlConf& conf);

/// \brief Project `query` onto `columns` by position, casting as store assignment allows.
/// `table_name` is used in messages. Errors as listed at the top of this file.
Result<PlanNodePtr> ShapeForTable(const PlanNodePtr& query, const std::vector<Column>& columns,
                                  const std::string& table_name, SourcePosition pos);

/// \brief Whether Spark's ANSI store assignment writes a `from` value into a `to` column.
bool CanStoreAssign(const arrow::DataType& from, const arrow::DataType& to);

/// \brief `value` cast to `column`'s type as ANSI store assignment allows;
/// INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST naming `table_name` and the column otherwise.
Result<BoundExprPtr> StoreAssign(const BoundExprPtr& value, const Column& column,
                                 const std::string& table_name, SourcePosition pos);

/// \brief The value of a column a write does not provide: its DEFAULT, else NULL;
/// INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_FIND_DATA for a NOT NULL column without a default.
Result<BoundExprPtr> DefaultFor(const Column& column, const std::string& table_name,
                                SourcePosition pos);

/// \brief The columns the table's partition transforms read, in transform order.
std::vector<std::string> PartitionColumns(const Table& table);

/// \brief NON_PARTITION_COLUMN unless the PARTITION item names one of `partition_columns`.
Status CheckPartitionColumn(const std::vector<std::string>& partition_columns,
                            const sql::PartitionSpecItem& item);

/// \brief Check the capabilities a write mode needs on `table`, naming the missing one.
Status CheckWriteCapabilities(const ResolvedName& name, const Table& table, WritePlan::Mode mode,
                              SourcePosition pos);

}  // namespace parley
