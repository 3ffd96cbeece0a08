// A bound write: the target table, how the write treats existing rows, and the query whose
// output rows (exactly the table's columns, in order, with the table's types) are written.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "catalog/resolved_name.h"
#include "parley/connector/table.h"
#include "plan/logical_plan.h"

namespace parley {

struct WritePlan {
  enum class Mode {
    kAppend,             // INSERT INTO, CTAS
    kTruncate,           // INSERT OVERWRITE without a PARTITION clause
    kOverwriteByFilter,  // INSERT OVERWRITE with static partition values; REPLACE WHERE
    kOverwriteDynamic,   // INSERT OVERWRITE with partitionOverwriteMode=dynamic
  };
  ResolvedName target_name;
  std::shared_ptr<Table> table;
  Mode mode = Mode::kAppend;
  /// kOverwriteByFilter: the static PARTITION values (column, constant expression); the rows
  /// to replace are those equal to all of them. Evaluated into `overwrite_predicates` just
  /// before the write builder is configured.
  std::vector<std::pair<std::string, BoundExprPtr>> static_partition_values;
  /// kOverwriteByFilter: what the write builder receives (REPLACE WHERE sets it at binding).
  std::vector<PredicatePtr> overwrite_predicates;
  /// Output fields are the table's columns in order, with the table's types.
  PlanNodePtr query;
  /// The table's columns; NOT NULL ones are checked on the rows before any task writes.
  std::vector<Column> columns;
  /// Write options (lower-cased keys).
  Options options;

  /// \brief "append", "truncate", "overwrite where ...", "dynamic partition overwrite".
  std::string ModeDescription() const;
};

}  // namespace parley
