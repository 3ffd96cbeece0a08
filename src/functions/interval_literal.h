// INTERVAL literals as Spark 4 types them: year-month intervals (YearMonthIntervalType) are
// Arrow month_interval values (a count of months), day-time intervals (DayTimeIntervalType)
// are Arrow duration[us] values.
#pragma once

#include <memory>

#include "arrow/type_fwd.h"
#include "parley/connector/status.h"
#include "sql/ast.h"

namespace parley {

/// \brief The value of an INTERVAL literal (a node with `interval` set): INTERVAL '90' DAY,
/// INTERVAL 3 MONTHS, INTERVAL '1-2' YEAR TO MONTH, INTERVAL '1 2:03:04' DAY TO SECOND,
/// INTERVAL 1 YEAR 2 MONTHS, INTERVAL '1 day 2 hours'. INVALID_TYPED_LITERAL for text that is
/// not an interval of its form; INVALID_INTERVAL_FORMAT when year-month and day-time units mix.
Result<std::shared_ptr<arrow::Scalar>> IntervalValue(const sql::Expr& expr);

/// \brief Whether an INTERVAL literal counts whole days only (its units are DAY or WEEK), as
/// Spark's DayTimeIntervalType(DAY, DAY): a date plus such an interval stays a date.
bool IsDaysInterval(const sql::Expr& expr);

/// \brief Whether `type` is one of the interval types above.
bool IsIntervalType(const arrow::DataType& type);

}  // namespace parley
