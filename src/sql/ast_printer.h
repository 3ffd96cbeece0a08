// Renders syntax trees back to SQL text, for tests, debugging and EXPLAIN output.
//
// The rendering is fully parenthesised, so operator precedence is explicit: `a OR b AND c`
// renders as `(a OR (b AND c))`, and every set-operation operand is parenthesised. The output
// parses back to an equivalent tree, and rendering that tree again gives the same text. Pure
// functions, safe to call from any thread.
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

/// \brief Render a query in a canonical form: keywords upper case, one space between words,
/// every alias after AS, set-operation operands and subqueries in parentheses, a comma list in
/// FROM as CROSS JOINs, VALUES rows in parentheses, `WITH ROLLUP` as ROLLUP((a), (b)),
/// INTERVAL values quoted and units singular, and ORDER BY keys without ASC.
std::string ToString(const SelectStatement& query);

/// \brief Render a FROM item (a table, table function, subquery or join) as in ToString(query).
std::string ToString(const FromItem& item);

/// \brief Render a window as after OVER: a name, or `(PARTITION BY ... ORDER BY ... frame)`.
std::string ToString(const WindowSpec& window);

}  // namespace parley::sql
