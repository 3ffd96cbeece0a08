// A bound DELETE, UPDATE or MERGE: the target, how the engine may run it, and the query that
// computes every row of the groups it rewrites, each with the action that produced it.
#pragma once

#include <memory>
#include <vector>

#include "catalog/resolved_name.h"
#include "parley/connector/row_level.h"
#include "parley/connector/table.h"
#include "plan/logical_plan.h"

namespace parley {

/// \brief What happened to one row of a RowLevelPlan's query (its kActionField).
enum class RowAction : int32_t {
  kCopy = 0,     // an unchanged target row of a rewritten group
  kUpdate = 1,   // a target row after an UPDATE
  kDelete = 2,   // a target row that goes
  kInsert = 3,   // a new row (MERGE's NOT MATCHED ... INSERT)
  kDiscard = 4,  // a source row no clause applies to
};
static_assert(static_cast<int32_t>(RowAction::kCopy) ==
                  static_cast<int32_t>(RowLevelWriteAction::kCopy) &&
              static_cast<int32_t>(RowAction::kUpdate) ==
                  static_cast<int32_t>(RowLevelWriteAction::kUpdate) &&
              static_cast<int32_t>(RowAction::kDelete) ==
                  static_cast<int32_t>(RowLevelWriteAction::kDelete) &&
              static_cast<int32_t>(RowAction::kInsert) ==
                  static_cast<int32_t>(RowLevelWriteAction::kInsert));

struct RowLevelPlan {
  /// The query's extra output fields, after the table's columns.
  static constexpr const char* kActionField = "__row_action";
  /// MERGE only: the target row's number (null for source-only rows), and whether a MATCHED
  /// clause applies to the pair (null when the row is not a pair of a target and a source
  /// row). A target row the join pairs with several source rows appears once per pair: the
  /// runner keeps one of them, the one a clause applied to if any.
  static constexpr const char* kTargetRowField = "__target_row";
  static constexpr const char* kMatchedField = "__matched_clause";

  RowLevelCommand command = RowLevelCommand::kDelete;
  ResolvedName target_name;
  std::shared_ptr<Table> table;
  std::vector<Column> columns;
  /// The table's row-level operation, built when binding; null when the table only supports
  /// a metadata-only DELETE (SupportsDeleteV2).
  std::shared_ptr<RowLevelOperation> operation;
  /// The operation's RequiredMetadataAttributes(): the target scan returns them after the
  /// table's columns, and they end the query's output.
  std::vector<Column> metadata_columns;
  /// The operation's RequiresChangeRows() (group-based only): the write also receives deleted
  /// rows and, for UPDATE and MERGE, the pre-image of each updated row.
  bool change_rows = false;
  /// The operation's representation (group-based when `operation` is null).
  RowLevelRepresentation representation = RowLevelRepresentation::kGroupBased;
  /// Delta-based: SupportsDelta::RowId(), each a table column or one of metadata_columns (with
  /// that column's name and type), and RepresentUpdateAsDeleteAndInsert().
  std::vector<Column> row_id_columns;
  bool update_as_delete_and_insert = false;
  /// The scan of the target inside `query`; the runner gives it the operation's scan builder.
  PlanNodePtr target_scan;
  /// Conjuncts over the target's columns that every changed target row satisfies: offered to
  /// the operation's scan to choose groups. Empty: every group is read.
  std::vector<BoundExprPtr> group_filter;
  /// DELETE only: the conjuncts of the condition (none without WHERE), for a metadata-only
  /// delete.
  std::vector<BoundExprPtr> delete_conjuncts;
  /// The WHERE condition has a subquery: `query` joins the target's scan with it (each target
  /// row still read once), and a DELETE is never metadata-only.
  bool subquery_condition = false;
  /// Output: the table's columns in order with the table's types, then kActionField (int32),
  /// then for MERGE kTargetRowField and kMatchedField, then metadata_columns and then
  /// row_id_columns as the target scan read them (null for rows that are not the target's),
  /// then, when change_rows and the command is UPDATE or MERGE, the table's columns again as
  /// the target scan read them (the pre-images; null for rows that are not the target's).
  PlanNodePtr query;
  /// MERGE: fail when a MATCHED clause applies to one target row more than once.
  bool check_cardinality = false;
};

}  // namespace parley
