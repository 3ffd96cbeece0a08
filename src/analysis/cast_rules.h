// Which casts Spark's ANSI mode allows between scalar types, checked when a CAST is bound.
#pragma once

#include "arrow/type_fwd.h"
#include "parley/connector/status.h"
#include "sql/ast.h"

namespace parley {

/// \brief OK when Spark's ANSI mode casts `from` to `to`; otherwise Spark's analysis error for
/// `cast` (the CAST expression): DATATYPE_MISMATCH.CAST_WITH_FUNC_SUGGESTION (a number to or from
/// a DATE, with the function that converts it), DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION
/// (casts only the non-ANSI mode allows: DATE or TIMESTAMP to BOOLEAN, BOOLEAN to TIMESTAMP, a
/// number to BINARY) or DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION. Casts involving types outside
/// numbers, BOOLEAN, DATE, TIMESTAMP and BINARY are left to the engine. A TRY_CAST (`is_try`)
/// is offered no configuration: its errors are CAST_WITHOUT_SUGGESTION instead.
/// \brief Whether converting `from` to `to` would need an interval's start and end fields,
/// which Parley's interval types do not keep: an interval to a string or an exact number. Such
/// a CAST, and such a write, fail with NOT_IMPLEMENTED rather than answer in another unit.
bool NeedsIntervalFields(const arrow::DataType& from, const arrow::DataType& to);

Status CheckAnsiCast(const arrow::DataType& from, const arrow::DataType& to, bool is_try,
                     const sql::Expr& cast);

}  // namespace parley
