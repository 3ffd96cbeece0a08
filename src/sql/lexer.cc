// The Spark SQL tokenizer: a single forward scan that tracks line and column as it goes.
//
// It follows Spark's ANTLR lexer (SqlBaseLexer.g4) where behaviour is visible to users: numbers
// take Spark's suffixes (L S Y for integers, BD for decimals, D and F for doubles) and a digit run
// followed by letters is an identifier (`1a`), as ANTLR's longest match makes it; single- and
// double-quoted strings are both string literals with Spark's backslash escapes (see
// UnescapeString) and a doubled quote standing for one; r'...' is a raw string; X'...' is a binary
// literal; `...` is an identifier with
// `` standing for one backquote. Block comments nest. A malformed construct becomes a kInvalid
// token rather than an error, which keeps the scan total (see lexer.h).
#include "sql/lexer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace parley::sql {
namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHexDigit(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
// Bytes of multi-byte UTF-8 sequences count as letters, so non-ASCII names need no quoting.
bool IsWordStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool IsWordChar(char c) { return IsWordStart(c) || IsDigit(c); }
bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }
char ToUpper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

// Longer operators first, so that the first match is the longest.
constexpr std::string_view kOperators[] = {
    "<=>", "<=", ">=", "<>", "!=", "==", "=>", "->", "||", "::", ":", "=", "<", ">", "+", "-",
    "*",   "/",  "%",  "&",  "|",  "^",  "~",  "!",  "(",  ")",  "[", "]", ",", ".", ";"};

void AppendUtf8(uint32_t code, std::string* out) {
  if (code < 0x80) {
    out->push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (code >> 6)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else if (code < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (code >> 12)));
    out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (code >> 18)));
    out->push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
  }
}

// Parse `count` hex digits at s[i], or return false.
bool ParseHex(std::string_view s, size_t i, size_t count, uint32_t* code) {
  if (i + count > s.size()) return false;
  uint32_t value = 0;
  for (size_t k = i; k < i + count; ++k) {
    char c = s[k];
    if (!IsHexDigit(c)) return false;
    value = value * 16 + static_cast<uint32_t>(IsDigit(c) ? c - '0' : ToUpper(c) - 'A' + 10);
  }
  *code = value;
  return true;
}

// Spark's unescapeSQLString: \uXXXX, \UXXXXXXXX, three-digit octal \[0-3][0-7][0-7], \0 \b \n \r
// \t, \Z (Ctrl-Z); \% and \_ keep their backslash so LIKE patterns still see the escape; any
// other escaped character stands for itself. The lexer guarantees no lone trailing backslash.
std::string UnescapeString(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out.push_back(s[i++]);
      continue;
    }
    char next = s[i + 1];
    uint32_t code = 0;
    if (next == 'u' && ParseHex(s, i + 2, 4, &code)) {
      AppendUtf8(code, &out);
      i += 6;
      continue;
    }
    if (next == 'U' && ParseHex(s, i + 2, 8, &code) && code <= 0x10FFFF) {
      AppendUtf8(code, &out);
      i += 10;
      continue;
    }
    if (i + 3 < s.size() && next >= '0' && next <= '3' && s[i + 2] >= '0' && s[i + 2] <= '7' &&
        s[i + 3] >= '0' && s[i + 3] <= '7') {
      AppendUtf8(static_cast<uint32_t>((next - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0')),
                 &out);
      i += 4;
      continue;
    }
    switch (next) {
      case '0': out.push_back('\0'); break;
      case 'b': out.push_back('\b'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case 't': out.push_back('\t'); break;
      case 'Z': out.push_back('\x1A'); break;
      case '%': out += "\\%"; break;
      case '_': out += "\\_"; break;
      default: out.push_back(next); break;
    }
    i += 2;
  }
  return out;
}

class Lexer {
 public:
  Lexer(std::string_view text, SourcePosition origin) : text_(text), pos_(origin) {}

  std::vector<Token> Run() {
    std::vector<Token> tokens;
    size_t last_end = 0;
    SourcePosition last_end_pos = pos_;
    while (true) {
      Token token;
      if (!SkipSpaceAndComments(&token)) {
        if (i_ >= text_.size()) break;
        LexToken(&token);
      }
      tokens.push_back(std::move(token));
      last_end = i_;
      last_end_pos = pos_;
    }
    Token end;
    end.kind = TokenKind::kEnd;
    end.begin = end.end = last_end;
    end.pos = last_end_pos;
    tokens.push_back(std::move(end));
    return tokens;
  }

 private:
  char At(size_t i) const { return i < text_.size() ? text_[i] : '\0'; }

  // Move past n bytes, keeping line and column (in code points) current.
  void Advance(size_t n) {
    for (size_t end = std::min(i_ + n, text_.size()); i_ < end; ++i_) {
      if (text_[i_] == '\n') {
        ++pos_.line;
        pos_.column = 1;
      } else if (!IsContinuationByte(text_[i_])) {
        ++pos_.column;
      }
    }
  }

  // Start `token` at the current position.
  void Begin(Token* token) const {
    token->begin = i_;
    token->pos = pos_;
  }

  // Consume n bytes into `token` with the given kind and value.
  void Finish(Token* token, size_t n, TokenKind kind, std::string value) {
    Advance(n);
    token->end = i_;
    token->kind = kind;
    token->value = std::move(value);
  }

  // Make `token` an invalid token covering the rest of the text.
  void FinishUnterminated(Token* token, std::string message) {
    Finish(token, text_.size() - i_, TokenKind::kInvalid, std::move(message));
  }

  // Skip whitespace and comments. Returns true with an invalid `token` on an unclosed comment.
  bool SkipSpaceAndComments(Token* token) {
    while (i_ < text_.size()) {
      char c = text_[i_];
      if (IsSpace(c)) {
        Advance(1);
      } else if (c == '-' && At(i_ + 1) == '-') {
        size_t newline = text_.find('\n', i_);
        Advance(newline == std::string_view::npos ? text_.size() - i_ : newline - i_);
      } else if (c == '/' && At(i_ + 1) == '*') {
        Begin(token);
        size_t depth = 0;
        size_t j = i_;
        while (j < text_.size()) {
          if (text_[j] == '/' && At(j + 1) == '*') {
            ++depth;
            j += 2;
          } else if (text_[j] == '*' && At(j + 1) == '/') {
            j += 2;
            if (--depth == 0) break;
          } else {
            ++j;
          }
        }
        if (depth > 0) {
          FinishUnterminated(token, "Unterminated comment: '/*' has no matching '*/'");
          return true;
        }
        Advance(j - i_);
      } else {
        break;
      }
    }
    return false;
  }

  void LexToken(Token* token) {
    Begin(token);
    char c = text_[i_];
    char next = At(i_ + 1);
    if ((c == 'x' || c == 'X') && (next == '\'' || next == '"')) return LexBinary(token);
    if ((c == 'r' || c == 'R') && (next == '\'' || next == '"')) return LexRawString(token);
    if (IsDigit(c) || (c == '.' && IsDigit(next))) return LexNumber(token);
    if (IsWordStart(c)) {
      size_t j = i_;
      while (j < text_.size() && IsWordChar(text_[j])) ++j;
      return Finish(token, j - i_, TokenKind::kWord, std::string(text_.substr(i_, j - i_)));
    }
    if (c == '\'' || c == '"') return LexString(token);
    if (c == '`') return LexQuotedIdentifier(token);
    for (std::string_view op : kOperators) {
      if (text_.substr(i_).starts_with(op)) {
        return Finish(token, op.size(), TokenKind::kOperator, std::string(op));
      }
    }
    Finish(token, 1, TokenKind::kInvalid,
           fmt::format("Syntax error at or near '{}'", text_.substr(i_, 1)));
  }

  // A quote written twice inside the string stands for one, as in Spark's lexer: 'it''s'.
  void LexString(Token* token) {
    char quote = text_[i_];
    size_t j = i_ + 1;
    std::string body;
    while (j < text_.size()) {
      if (text_[j] == quote) {
        if (j + 1 >= text_.size() || text_[j + 1] != quote) break;
        body += '\\';
        body += quote;
        j += 2;
        continue;
      }
      const size_t width = text_[j] == '\\' && j + 1 < text_.size() ? 2 : 1;
      body.append(text_.substr(j, width));
      j += width;
    }
    if (j >= text_.size()) {
      return FinishUnterminated(token, "Unterminated string literal: missing closing quote");
    }
    Finish(token, j + 1 - i_, TokenKind::kString, UnescapeString(body));
  }

  void LexRawString(Token* token) {
    char quote = text_[i_ + 1];
    size_t close = text_.find(quote, i_ + 2);
    if (close == std::string_view::npos) {
      return FinishUnterminated(token, "Unterminated string literal: missing closing quote");
    }
    Finish(token, close + 1 - i_, TokenKind::kString,
           std::string(text_.substr(i_ + 2, close - i_ - 2)));
  }

  void LexBinary(Token* token) {
    char quote = text_[i_ + 1];
    size_t close = text_.find(quote, i_ + 2);
    if (close == std::string_view::npos) {
      return FinishUnterminated(token, "Unterminated binary literal: missing closing quote");
    }
    std::string_view digits = text_.substr(i_ + 2, close - i_ - 2);
    if (!std::all_of(digits.begin(), digits.end(), IsHexDigit)) {
      return Finish(token, close + 1 - i_, TokenKind::kInvalid,
                    fmt::format("Invalid binary literal {}: only hexadecimal digits are allowed",
                                text_.substr(i_, close + 1 - i_)));
    }
    Finish(token, close + 1 - i_, TokenKind::kBinaryString, std::string(digits));
  }

  void LexQuotedIdentifier(Token* token) {
    std::string name;
    size_t j = i_ + 1;
    while (true) {
      if (j >= text_.size()) {
        return FinishUnterminated(token,
                                  "Unterminated quoted identifier: missing closing backquote");
      }
      if (text_[j] == '`') {
        if (At(j + 1) != '`') break;
        ++j;
      }
      name.push_back(text_[j++]);
    }
    Finish(token, j + 1 - i_, TokenKind::kQuotedIdentifier, std::move(name));
  }

  // True when the text at j starts with `suffix`, case-insensitively.
  bool HasSuffix(size_t j, std::string_view suffix) const {
    for (size_t k = 0; k < suffix.size(); ++k) {
      if (ToUpper(At(j + k)) != suffix[k]) return false;
    }
    return true;
  }

  void LexNumber(Token* token) {
    size_t j = i_;
    while (IsDigit(At(j))) ++j;
    bool has_fraction = false;
    if (At(j) == '.') {
      has_fraction = true;
      ++j;
      while (IsDigit(At(j))) ++j;
    }
    bool has_exponent = false;
    if (At(j) == 'e' || At(j) == 'E') {
      size_t k = j + 1;
      if (At(k) == '+' || At(k) == '-') ++k;
      if (IsDigit(At(k))) {
        has_exponent = true;
        j = k;
        while (IsDigit(At(j))) ++j;
      }
    }
    TokenKind kind = has_exponent   ? TokenKind::kDouble
                     : has_fraction ? TokenKind::kDecimal
                                    : TokenKind::kInteger;
    if (HasSuffix(j, "BD")) {
      kind = TokenKind::kDecimal;
      j += 2;
    } else if (HasSuffix(j, "D") || HasSuffix(j, "F")) {
      kind = TokenKind::kDouble;
      j += 1;
    } else if (kind == TokenKind::kInteger &&
               (HasSuffix(j, "L") || HasSuffix(j, "S") || HasSuffix(j, "Y"))) {
      j += 1;
    }
    // As in ANTLR, the longest match wins: `1a` or `123abc` is an identifier.
    size_t word_end = i_;
    while (IsWordChar(At(word_end))) ++word_end;
    if (IsDigit(text_[i_]) && word_end > j) {
      return Finish(token, word_end - i_, TokenKind::kWord,
                    std::string(text_.substr(i_, word_end - i_)));
    }
    if (IsWordChar(At(j))) {
      size_t bad_end = j;
      while (IsWordChar(At(bad_end))) ++bad_end;
      return Finish(token, bad_end - i_, TokenKind::kInvalid,
                    fmt::format("Invalid numeric literal '{}'", text_.substr(i_, bad_end - i_)));
    }
    Finish(token, j - i_, kind, std::string(text_.substr(i_, j - i_)));
  }

  std::string_view text_;
  size_t i_ = 0;
  SourcePosition pos_;
};

}  // namespace

bool Token::IsWord(std::string_view keyword) const {
  if (kind != TokenKind::kWord || value.size() != keyword.size()) return false;
  for (size_t i = 0; i < keyword.size(); ++i) {
    if (ToUpper(value[i]) != keyword[i]) return false;
  }
  return true;
}

bool Token::IsOperator(std::string_view op) const {
  return kind == TokenKind::kOperator && value == op;
}

std::vector<Token> Tokenize(std::string_view text, SourcePosition origin) {
  return Lexer(text, origin).Run();
}

Result<std::vector<Token>> TokenizeStrict(std::string_view text, SourcePosition origin) {
  std::vector<Token> tokens = Tokenize(text, origin);
  for (const Token& token : tokens) {
    if (token.kind == TokenKind::kInvalid) return SyntaxErrorAt(text, token, token.value);
  }
  return tokens;
}

Status ErrorAtToken(std::string_view condition, std::string_view text, const Token& token,
                    std::string_view message) {
  size_t offset = std::min(token.begin, text.size());
  size_t newline = offset == 0 ? std::string_view::npos : text.rfind('\n', offset - 1);
  size_t line_begin = newline == std::string_view::npos ? 0 : newline + 1;
  size_t line_end = text.find('\n', offset);
  if (line_end == std::string_view::npos) line_end = text.size();
  std::string_view line = text.substr(line_begin, line_end - line_begin);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  // Keep tabs so that the caret lines up however the terminal expands them.
  std::string caret;
  for (size_t i = line_begin; i < offset; ++i) {
    if (text[i] == '\t') {
      caret.push_back('\t');
    } else if (!IsContinuationByte(text[i])) {
      caret.push_back(' ');
    }
  }
  caret.push_back('^');
  std::string where = fmt::format("line {}, column {}", token.pos.line, token.pos.column);
  return InvalidError(condition, fmt::format("{}. ({})\n== SQL ({}) ==\n{}\n{}", message, where,
                                             where, line, caret));
}

Status SyntaxErrorAt(std::string_view text, const Token& token, std::string_view message) {
  return ErrorAtToken("PARSE_SYNTAX_ERROR", text, token, message);
}

Status UnexpectedTokenError(std::string_view text, const Token& token) {
  switch (token.kind) {
    case TokenKind::kInvalid: return SyntaxErrorAt(text, token, token.value);
    case TokenKind::kEnd: return SyntaxErrorAt(text, token, "Syntax error at end of input");
    default:
      return SyntaxErrorAt(text, token,
                           fmt::format("Syntax error at or near '{}'",
                                       text.substr(token.begin, token.end - token.begin)));
  }
}

}  // namespace parley::sql
