// Pruning a scan's files: exact evaluation over partition values and statistics-based skipping
// (delta_pruning.cc).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "arrow/type_fwd.h"
#include "connectors/delta/log/delta_log.h"
#include "connectors/delta/log/values.h"
#include "connectors/delta/table_state.h"
#include "parley/connector/expressions.h"
#include "parley/connector/status.h"

namespace parley::delta {

/// \brief What the pruner knows of one file: typed partition values by logical column name
/// (nullptr for NULL) and the file's statistics by logical column name.
struct FileFacts {
  std::map<std::string, std::shared_ptr<arrow::Scalar>> partition_values;
  FileStatistics stats;
};

/// \brief Whether `predicate` only reads the columns of `columns` and has a form the pruner
/// evaluates exactly: comparisons (=, <>, <, <=, >, >=, <=>) and IN between a column and
/// literals that convert to the column's type, IS [NOT] NULL, AND, OR, NOT, ALWAYS_TRUE/FALSE.
bool IsExactlyEvaluable(const Predicate& predicate, const arrow::Schema& columns);

/// \brief Evaluate an exactly-evaluable predicate over partition values: true, false or NULL.
std::optional<bool> EvaluateOnPartition(
    const Predicate& predicate,
    const std::map<std::string, std::shared_ptr<arrow::Scalar>>& values);

/// \brief Whether the statistics prove that no row of the file satisfies `predicate`.
/// Unknown forms and missing statistics never skip.
bool StatisticsExcludeFile(const Predicate& predicate, const FileFacts& facts);

/// \brief The partition columns of `table` (plain types), in table order.
std::shared_ptr<arrow::Schema> PartitionSchema(const TableState& table);

/// \brief A file's partition values as typed scalars by logical column name (null scalars for
/// NULL). Fails with DELTA_FAILED_CAST_PARTITION_VALUE.
Result<std::map<std::string, std::shared_ptr<arrow::Scalar>>> TypedPartitionValues(
    const TableState& table, const FileAction& file);

}  // namespace parley::delta
