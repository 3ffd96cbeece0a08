// WindowCall: one window function of a Window plan node, with its window: partitioning,
// ordering and frame. Everything it reads is a column of the Window node's input.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "plan/bound_expression.h"

namespace parley {

/// \brief Sort key of a Sort node or of a window's ORDER BY.
struct SortKey {
  BoundExprPtr expr;
  bool ascending = true;
  bool nulls_first = true;
};

/// \brief One end of a window frame.
struct WindowBound {
  enum class Type { kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing };
  Type type = Type::kCurrentRow;
  /// kPreceding, kFollowing: the distance, >= 0; rows for a ROWS frame, a difference of the
  /// ORDER BY key for a RANGE frame.
  double offset = 0;
};

/// \brief ROWS or RANGE BETWEEN start AND end.
struct WindowFrame {
  bool rows = true;  // ROWS (by position); false for RANGE (by the ORDER BY key's value)
  WindowBound start;
  WindowBound end;
  std::string ToString() const;
};

struct WindowCall {
  /// Spark's name in lower case: row_number, rank, dense_rank, percent_rank, cume_dist, ntile,
  /// lag, lead, first_value, last_value, nth_value, count, sum, avg, min, max.
  std::string function;
  /// Argument columns: the value (none for the ranking functions and count(*)), and for lag and
  /// lead the default value when given.
  std::vector<BoundExprPtr> args;
  bool star = false;  // count(*)
  /// lag, lead: how many rows back or ahead; ntile: the number of buckets; nth_value: which
  /// row of the frame (from 1).
  int64_t offset = 1;
  /// first_value, last_value, nth_value, lag, lead: skip NULL values.
  bool ignore_nulls = false;
  std::vector<BoundExprPtr> partition_by;
  std::vector<SortKey> order_by;
  WindowFrame frame;
  std::shared_ptr<arrow::DataType> type;

  /// \brief SQL-like text for EXPLAIN: `rank() OVER (PARTITION BY a ORDER BY b ASC ...)`.
  std::string ToString() const;
  /// \brief The text of the window alone; calls with the same one share a sort.
  std::string WindowText() const;
};

}  // namespace parley
