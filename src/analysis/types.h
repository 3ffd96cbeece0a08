// SQL types in Arrow: the mapping from SQL type names and literal typing. Spark's coercion
// rules are in plan/type_rules.h.
#pragma once

#include <memory>
#include <string>

#include "arrow/type_fwd.h"
#include "parley/connector/status.h"
#include "plan/type_rules.h"
#include "sql/ast.h"

namespace parley {

/// \brief Arrow type of a SQL type name (INT -> int32, DECIMAL(p,s) -> decimal128(p,s),
/// TIMESTAMP -> timestamp[us, UTC], ...). UNSUPPORTED_DATATYPE for unknown names.
Result<std::shared_ptr<arrow::DataType>> TypeFromName(const sql::TypeName& name,
                                                      SourcePosition pos);

/// \brief The type of a schema text (sql::ParseSchema): `a INT, b STRING` is a STRUCT of
/// those fields. A parse error or UNSUPPORTED_DATATYPE at `pos` when it names none.
Result<std::shared_ptr<arrow::DataType>> SchemaFromText(std::string_view text, SourcePosition pos);

/// \brief The CHAR(n) / VARCHAR(n) declaration `name` makes of a STRING column, as
/// Column::char_varchar keeps it ("char(3)", "varchar(10)"), or "" for any other type.
std::string CharVarcharDeclaration(const sql::TypeName& name);

/// \brief The typed value of a literal as Spark types it (1 -> INT, 1L -> BIGINT, 1.5 ->
/// DECIMAL(2,1), 1e3 -> DOUBLE, ...). INVALID_TYPED_LITERAL for a bad DATE/TIMESTAMP text.
Result<std::shared_ptr<arrow::Scalar>> LiteralValue(const sql::Expr& literal);

}  // namespace parley
