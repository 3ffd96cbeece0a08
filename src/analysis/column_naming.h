// How Spark names a select item that has no alias: by the SQL text of the resolved expression
// as Spark prints it, not by the text the user wrote. `a+1` is `(a + 1)`, `UPPER(b)` is
// `upper(b)`, `count(*)` is `count(1)`, 'x' is `x`, `a <> 1` is `(NOT (a = 1))`, a column is its
// name as written without its qualifier, and a CAST of a column keeps the column's name.
#pragma once

#include <optional>
#include <string>

#include "sql/ast.h"

namespace parley {

/// \brief Spark's name for the unaliased select item `expr`, or std::nullopt when `expr` uses a
/// form whose printing depends on more than its syntax (a named window, a generator, an
/// INTERVAL, date arithmetic, ...): the caller then names the item by its source text.
std::optional<std::string> SparkItemName(const sql::Expr& expr);

}  // namespace parley
