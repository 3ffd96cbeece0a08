// Spark's type rules over Arrow types, shared by the analyzer and the functions' type rules:
// which types are numbers, the type two operands widen to, the decimal type of an arithmetic
// result, and the bound cast.
#pragma once

#include <memory>

#include "arrow/type_fwd.h"
#include "plan/bound_expression.h"

namespace parley {

/// \brief The most digits a DECIMAL holds, as in Spark.
inline constexpr int kMaxDecimalPrecision = 38;

/// \brief TINYINT, SMALLINT, INT, BIGINT, DECIMAL, FLOAT or DOUBLE.
bool IsNumeric(const arrow::DataType& type);
/// \brief TINYINT, SMALLINT, INT or BIGINT.
bool IsIntegral(const arrow::DataType& type);
/// \brief STRING (any of Arrow's string types).
bool IsStringLike(const arrow::DataType& type);

/// \brief The type both operands of a comparison or arithmetic convert to, per Spark's
/// widening rules; nullptr when they are incompatible.
std::shared_ptr<arrow::DataType> CommonType(const std::shared_ptr<arrow::DataType>& left,
                                            const std::shared_ptr<arrow::DataType>& right);

/// \brief The decimal that holds every value of the numeric `type` exactly (INT: DECIMAL(10,0)).
std::shared_ptr<arrow::DataType> ExactDecimalOf(const arrow::DataType& type);

/// \brief Result type of decimal arithmetic per Spark's precision rules (op is + - * / %).
std::shared_ptr<arrow::DataType> DecimalResultType(char op, const arrow::DataType& left,
                                                   const arrow::DataType& right);

/// \brief `expr` converted to `type` with a CAST unless it already has that type; the cast of
/// a constant that converts exactly is folded to the converted constant.
BoundExprPtr CastTo(const BoundExprPtr& expr, const std::shared_ptr<arrow::DataType>& type);

}  // namespace parley
