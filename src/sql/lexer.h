// The tokenizer for Spark SQL text, and the syntax-error formatting shared with the parser.
//
// Tokenize() turns text into a flat token list the way Spark's ANTLR lexer does: keywords are not
// distinguished from identifiers (the parser decides by context, since almost every Spark keyword
// is non-reserved), whitespace and comments (`--` to end of line, nested `/* */`) are dropped, and
// string literals are unescaped. Lexing never fails outright: a malformed construct becomes a
// kInvalid token carrying its error message, so that the parser reports whichever problem comes
// first in the text and so that raw-text commands (SET key=value) can tolerate odd characters.
// Positions are 1-based lines and columns (counted in UTF-8 code points), offset by `origin` so
// that they are relative to the enclosing script. Everything here is a pure function of its
// input and safe to call from any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parley/connector/status.h"
#include "parley/source_text.h"

namespace parley::sql {

using parley::SourcePosition;

enum class TokenKind {
  kWord,              // an unquoted identifier or keyword; value is the text as written
  kQuotedIdentifier,  // `name`; value is the name with each `` turned into `
  kString,            // '...', "..." or raw r'...'; value is the unescaped content
  kBinaryString,      // X'0A1B'; value is the text between the quotes
  kInteger,           // 1, 1L, 1S, 1Y; value is the text, suffix included
  kDecimal,           // 1.5, .5, 1., 1.5BD, 1BD; value is the text
  kDouble,            // 1e3, 1.5E-2, 1.5D, 1F; value is the text
  kOperator,          // punctuation and operators such as ( , <= ||; value is the text
  kInvalid,           // malformed input; value is the complete error message
  kEnd,               // end of input; positioned just after the last real token
};

/// \brief One token with where it came from.
struct Token {
  TokenKind kind = TokenKind::kEnd;
  /// The token's interpretation; see TokenKind.
  std::string value;
  /// Byte offsets of the token in the lexed text: [begin, end).
  size_t begin = 0;
  size_t end = 0;
  /// Line and column of the token's first character, relative to the script.
  SourcePosition pos;

  /// \brief Whether this is the unquoted word `keyword`, compared case-insensitively.
  /// REQUIRES: `keyword` is upper case.
  bool IsWord(std::string_view keyword) const;
  /// \brief Whether this is the operator `op` (exact text).
  bool IsOperator(std::string_view op) const;
};

/// \brief Split `text` into tokens, ending with one kEnd token. Never fails: malformed input
/// (an unterminated string, comment or quoted identifier, an unexpected character, a bad numeric
/// literal) becomes a kInvalid token whose value is the message. An unterminated construct
/// swallows the rest of the text, so it is always the last token before kEnd. `origin` is the
/// position of text[0] in its script.
std::vector<Token> Tokenize(std::string_view text, SourcePosition origin = {});

/// \brief Like Tokenize, but fail with the first kInvalid token's PARSE_SYNTAX_ERROR.
Result<std::vector<Token>> TokenizeStrict(std::string_view text, SourcePosition origin = {});

/// \brief Make an Invalid status with error `condition` pointing at `token` of `text`: the
/// message, then `. (line L, column C)`, then a `== SQL (line L, column C) ==` header, the token's
/// source line and a caret under the token's first character.
Status ErrorAtToken(std::string_view condition, std::string_view text, const Token& token,
                    std::string_view message);

/// \brief ErrorAtToken with condition PARSE_SYNTAX_ERROR.
Status SyntaxErrorAt(std::string_view text, const Token& token, std::string_view message);

/// \brief The error for an unexpected `token`: `Syntax error at or near 'tok'` (or
/// `Syntax error at end of input`), or the lexer's own message for a kInvalid token.
Status UnexpectedTokenError(std::string_view text, const Token& token);

}  // namespace parley::sql
