// Renders syntax trees back to SQL text, for tests, debugging and EXPLAIN output.
//
// The rendering is fully parenthesised, so operator precedence is explicit: `a OR b AND c`
// renders as `(a OR (b AND c))`. The output parses back to an equivalent tree. Pure functions,
// safe to call from any thread.
#pragma once

#include <string>

#include "sql/ast.h"

namespace parley::sql {

/// \brief Render `expr` as fully parenthesised SQL: every unary, binary and predicate node is
/// wrapped in parentheses; identifiers that need it are backquoted; string literals are quoted
/// with backslash escapes.
std::string ToString(const Expr& expr);

/// \brief Render a type as written in CAST: `DECIMAL(10,2)`, `STRING`.
std::string ToString(const TypeName& type);

}  // namespace parley::sql
