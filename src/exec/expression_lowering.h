// Lowering of bound expressions to Arrow compute expressions, with Spark's ANSI semantics
// (checked arithmetic, SQL three-valued logic, null-safe equality).
#pragma once

#include "arrow/compute/expression.h"
#include "parley/connector/status.h"
#include "plan/bound_expression.h"

namespace parley {

/// \brief The Arrow compute expression evaluating `expr` over its input's fields by name.
Result<arrow::compute::Expression> LowerExpression(const BoundExpr& expr);

/// \brief `value`, of type DECIMAL128 `from`, as the DECIMAL128 `to` with a larger or equal
/// scale: unchecked and (at the same scale) zero-copy when `to` keeps at least `from`'s integer
/// digits, since no value can fail then; otherwise Arrow's checked cast.
Result<arrow::compute::Expression> WidenDecimal(arrow::compute::Expression value,
                                                const arrow::DataType& from,
                                                const std::shared_ptr<arrow::DataType>& to);

/// \brief `key`, of type `type`, as a grouping or join key compares in Spark: a floating-point
/// key has one NaN and one zero (-0.0 is 0.0), as Spark normalizes such keys; any other key is
/// returned as it is.
arrow::compute::Expression NormalizedKey(arrow::compute::Expression key,
                                         const arrow::DataType& type);

}  // namespace parley
