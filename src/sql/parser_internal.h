// The recursive-descent parser's state and grammar productions, shared by parser.cc
// (statements and queries) and parser_expression.cc (expressions and types). Not installed.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sql/ast.h"
#include "sql/lexer.h"

namespace parley::sql::internal {

/// \brief Whether an unquoted `word` can never be an identifier: clause and operator keywords
/// whose use as a name would make the grammar ambiguous. Such names must be backquoted, except
/// after a '.' in a qualified name and as a function name followed by '('.
bool IsReservedWord(std::string_view word);

/// \brief Parses one text. Productions consume tokens on success; on failure the parser's state
/// is unspecified and it must be discarded.
class Parser {
 public:
  Parser(std::string_view text, SourcePosition origin);

  /// \brief statement ';'* <end>
  Result<Statement> ParseSingleStatement();
  /// \brief expression <end>
  Result<ExprPtr> ParseSingleExpression();

 private:
  // Where a construct starts: for its node's position and source text.
  struct Mark {
    size_t begin;
    SourcePosition pos;
  };

  // ---- Tokens (parser.cc) ----
  const Token& Peek(size_t ahead = 0) const;
  const Token& Next();
  bool PeekWord(std::string_view keyword, size_t ahead = 0) const;
  bool PeekOperator(std::string_view op, size_t ahead = 0) const;
  bool AcceptWord(std::string_view keyword);
  bool AcceptOperator(std::string_view op);
  Status ExpectWord(std::string_view keyword);
  Status ExpectOperator(std::string_view op);
  // Whether the token `ahead` ends the statement (end of input or ';').
  bool AtStatementEnd(size_t ahead = 0) const;
  // The error for the current token.
  Status Unexpected() const;
  Mark Here() const;
  // The source text from `start` to the end of the last consumed token.
  std::string_view SourceFrom(const Mark& start) const;
  // Set `expr`'s position and source text to span from `start` to the last consumed token.
  ExprPtr Close(ExprPtr expr, const Mark& start) const;

  // ---- Names (parser.cc) ----
  // Whether `token` can be an identifier; reserved words only when `allow_reserved`.
  static bool IsIdentifier(const Token& token, bool allow_reserved);
  Result<std::string> ParseIdentifier();
  Result<QualifiedName> ParseQualifiedName();
  // An alias after an expression or table: `AS name`, or a bare name that is not a keyword
  // that could start the next clause. Returns an empty string when there is none.
  Result<std::string> ParseOptionalAlias();

  // ---- Statements (parser.cc) ----
  Result<Statement> ParseStatement();
  Result<Statement> ParseShow(const Mark& start);
  Result<std::optional<std::string>> ParseOptionalPattern();
  Result<Statement> ParseDescribe(const Mark& start);
  Result<Statement> ParseUse(const Mark& start);
  Result<Statement> ParseSet(const Mark& start);
  Result<Statement> ParseReset(const Mark& start);
  Result<Statement> ParseExplain(const Mark& start);
  // The raw text after the keyword just consumed up to the statement's end (trailing ';'s
  // excluded), trimmed; consumes all those tokens. `first` is set to its first token.
  Result<std::string_view> TakeRawRemainder(Token* first);
  // Validate and unquote a SET/RESET key written at `at`.
  Result<std::string> ConfigKey(std::string_view raw, const Token& at) const;

  // ---- Queries (parser.cc) ----
  // query: queryTerm [ORDER BY ...] [LIMIT ...] [OFFSET ...]
  Result<SelectStatement> ParseQuery();
  // queryTerm: querySpecification (set operations later)
  Result<SelectStatement> ParseQueryTerm();
  // querySpecification: SELECT [ALL|DISTINCT] items [FROM fromItem] [WHERE expr]
  Result<SelectStatement> ParseQuerySpecification();
  Result<SelectItem> ParseSelectItem();
  Result<TableRef> ParseFromItem();
  Result<OrderItem> ParseOrderItem();

  // ---- Expressions (parser_expression.cc) ----
  Result<ExprPtr> ParseExpression();
  Result<ExprPtr> ParseOr();
  Result<ExprPtr> ParseAnd();
  Result<ExprPtr> ParseNot();
  // A value expression followed by at most one predicate (IS, IN, BETWEEN, LIKE).
  Result<ExprPtr> ParsePredicate();
  // The left-associative binary operators from comparison (level 0) to multiplicative.
  Result<ExprPtr> ParseBinary(int level);
  Result<ExprPtr> ParseUnary();
  Result<ExprPtr> ParsePrimary();
  Result<ExprPtr> ParseLiteral();
  Result<ExprPtr> ParseName();
  Result<ExprPtr> ParseFunctionCall(ExprPtr function, const Mark& start);
  Result<ExprPtr> ParseCase();
  Result<ExprPtr> ParseCast();
  Result<TypeName> ParseType();

  std::string_view text_;
  std::vector<Token> tokens_;
  size_t index_ = 0;
  // End offset of the last consumed token.
  size_t consumed_end_ = 0;
};

}  // namespace parley::sql::internal
