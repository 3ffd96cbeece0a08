// `+` and `-` on dates, timestamps and intervals, with Spark 4's result types:
//   date ± integer             -> DATE (date_add / date_sub)
//   date ± year-month interval -> DATE, the day clamped to the month's end (add_months)
//   date ± INTERVAL n DAY      -> DATE; date ± another day-time interval -> TIMESTAMP
//   timestamp ± interval       -> TIMESTAMP
//   date - date                -> INTERVAL DAY; timestamp - timestamp -> INTERVAL DAY TO SECOND
//   interval ± interval        -> INTERVAL of the same kind
// An interval operand is an INTERVAL literal; constant operands are folded to a literal so
// that a predicate such as `d <= DATE '1998-12-01' - INTERVAL '90' DAY` compares a column
// with a constant and can be pushed to the scan.
#pragma once

#include <string>

#include "parley/connector/status.h"
#include "plan/bound_expression.h"
#include "sql/ast.h"

namespace parley {

/// \brief date_add (or date_sub when `subtract`) of a DATE and an INT; a constant when both
/// are constants.
BoundExprPtr AddDaysToDate(const BoundExprPtr& date, const BoundExprPtr& days, bool subtract);

/// \brief add_months of a DATE and an INT; a constant when both are constants.
BoundExprPtr AddMonthsToDate(const BoundExprPtr& date, const BoundExprPtr& months);

/// \brief Whether `left op right` is date/time arithmetic (either operand a date, a
/// timestamp or an interval).
bool IsDatetimeArithmetic(const BoundExpr& left, const BoundExpr& right);

/// \brief The bound form of the binary `expr` (op "+" or "-") over its bound operands.
/// DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES for pairs Spark rejects (date + date, interval -
/// date, ...).
Result<BoundExprPtr> BindDatetimeArithmetic(const sql::Expr& expr, const std::string& op,
                                            BoundExprPtr left, BoundExprPtr right);

}  // namespace parley
