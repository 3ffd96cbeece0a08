// The Spark SQL parser: text in, syntax tree (sql/ast.h) out.
//
// A hand-written recursive-descent parser over the tokens of sql/lexer.h, following the shape and
// operator precedence of Spark's SqlBaseParser.g4 (non-ANSI mode, where most keywords may be used
// as identifiers). It reads the commands of sql/ast.h, the table and namespace DDL, INSERT and
// TRUNCATE of sql/ast_write.h, and Spark's query grammar: WITH, UNION / INTERSECT / EXCEPT,
// VALUES, SELECT with joins, subqueries, table functions, TABLESAMPLE, GROUP BY (grouping sets,
// ROLLUP, CUBE, ALL), HAVING and WINDOW, and ORDER BY / LIMIT / OFFSET; in expressions,
// aggregate and window calls, subqueries, INTERVAL, EXTRACT and `::`. Errors are
// PARSE_SYNTAX_ERROR statuses whose message names the offending token and shows its line with a
// caret; the semantic checks Spark makes while building its tree report Spark's conditions
// instead (UNSUPPORTED_DATATYPE, DATATYPE_MISSING_SIZE, INVALID_ESC, INVALID_PROPERTY_KEY,
// DUPLICATED_CTE_NAMES, MIXED_INTERVAL_UNITS, UNSUPPORTED_FEATURE.NATURAL_CROSS_JOIN,
// DUPLICATE_CLAUSES, DUPLICATE_KEY, _LEGACY_ERROR_TEMP_0035 "Operation not allowed", ...). All
// functions are pure and safe to call from any thread.
#pragma once

#include <string_view>
#include <vector>

#include "parley/connector/status.h"
#include "parley/source_text.h"
#include "sql/ast.h"

namespace parley::sql {

/// \brief Parse exactly one statement; trailing semicolons are allowed. `origin` is where the
/// text starts in its script, so that positions in the tree and in errors are script-relative.
///
/// SET and RESET take the rest of the statement as raw text, as Spark does: in
/// `SET spark.sql.catalog.ex=build/libex.so` the key is `spark.sql.catalog.ex` and the value
/// `build/libex.so`, both trimmed; a key written in backquotes is unquoted.
Result<Statement> ParseStatement(std::string_view text, SourcePosition origin = {});

/// \brief Split a script into statements on top-level semicolons; semicolons inside quotes
/// ('...', "...", `...`) and comments (-- and /* */) do not count. Each statement's text starts
/// at its first token and ends after its last one, so surrounding whitespace and comments are
/// dropped, and statements that hold nothing else are dropped entirely. `start` is the 1-based
/// line and column of the statement's first token in the script.
///
/// Malformed text (such as an unterminated string) is not an error here: it stays in its
/// statement, and ParseStatement reports it with a script-relative position.
Result<std::vector<StatementText>> SplitStatements(std::string_view script);

/// \brief Parse a single expression that makes up the whole of `text`.
Result<ExprPtr> ParseExpression(std::string_view text);

/// \brief Parse a table name (`cat.db.t`, with backquotes where needed) that makes up the whole
/// of `text`.
Result<QualifiedName> ParseTableName(std::string_view text);

/// \brief Parse a schema as from_json and from_csv take it: a type (`ARRAY<INT>`,
/// `STRUCT<a: INT>`) or a column list (`a INT, b STRING`, a STRUCT of those fields), making up
/// the whole of `text`.
Result<TypeName> ParseSchema(std::string_view text);

}  // namespace parley::sql
