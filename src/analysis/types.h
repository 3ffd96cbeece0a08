// SQL types in Arrow: the mapping from SQL type names, literal typing, and Spark's coercion rules
// for finding the common type of two operands.
#pragma once

#include <memory>

#include "arrow/type_fwd.h"
#include "parley/connector/status.h"
#include "sql/ast.h"

namespace parley {

/// \brief Arrow type of a SQL type name (INT -> int32, DECIMAL(p,s) -> decimal128(p,s),
/// TIMESTAMP -> timestamp[us, UTC], ...). UNSUPPORTED_DATATYPE for unknown names.
Result<std::shared_ptr<arrow::DataType>> TypeFromName(const sql::TypeName& name,
                                                     SourcePosition pos);

/// \brief The typed value of a literal as Spark types it (1 -> INT, 1L -> BIGINT, 1.5 ->
/// DECIMAL(2,1), 1e3 -> DOUBLE, ...). INVALID_TYPED_LITERAL for a bad DATE/TIMESTAMP text.
Result<std::shared_ptr<arrow::Scalar>> LiteralValue(const sql::Expr& literal);

bool IsNumeric(const arrow::DataType& type);
bool IsIntegral(const arrow::DataType& type);
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

}  // namespace parley
