// Fully parenthesised SQL rendering of expressions (see ast_printer.h).
//
// The rules mirror the parser so that rendering round-trips: an identifier is backquoted unless
// the lexer would read it back as the same bare word and the parser would accept that word in
// its place; unary operators get a space after them so that `- -1` does not print as a `--`
// comment.
#include "sql/ast_printer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "sql/parser_internal.h"

namespace parley::sql {
namespace {

bool IsPlainWord(const std::string& name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name) {
    bool word_char =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!word_char) return false;
  }
  return true;
}

// `allow_reserved`: the parser reads this name part back even if it is a reserved word.
std::string RenderIdentifier(const std::string& name, bool allow_reserved) {
  if (IsPlainWord(name) && (allow_reserved || !internal::IsReservedWord(name))) return name;
  std::string out = "`";
  for (char c : name) {
    out.push_back(c);
    if (c == '`') out.push_back('`');
  }
  out.push_back('`');
  return out;
}

// A reserved word is read back as a name after a dot, and as a function name before '('.
std::string RenderName(const std::vector<std::string>& parts, bool is_function = false) {
  std::vector<std::string> rendered;
  for (size_t i = 0; i < parts.size(); ++i) {
    bool allow_reserved = i > 0 || (is_function && parts.size() == 1);
    rendered.push_back(RenderIdentifier(parts[i], allow_reserved));
  }
  return fmt::format("{}", fmt::join(rendered, "."));
}

std::string QuoteString(const std::string& value) {
  std::string out = "'";
  for (char c : value) {
    switch (c) {
      case '\'':
        out += "\\'";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out.push_back(c);
        break;
    }
  }
  out.push_back('\'');
  return out;
}

std::string RenderLiteral(const Expr& expr) {
  switch (expr.literal_kind) {
    case LiteralKind::kNull:
      return "NULL";
    case LiteralKind::kBoolean:
      return expr.text == "true" ? "TRUE" : "FALSE";
    case LiteralKind::kInteger:
    case LiteralKind::kDecimal:
    case LiteralKind::kDouble:
      return expr.text;
    case LiteralKind::kString:
      return QuoteString(expr.text);
    case LiteralKind::kDate:
      return "DATE " + QuoteString(expr.text);
    case LiteralKind::kTimestamp:
      return "TIMESTAMP " + QuoteString(expr.text);
    case LiteralKind::kTimestampNtz:
      return "TIMESTAMP_NTZ " + QuoteString(expr.text);
    case LiteralKind::kBinary:
      return "X'" + expr.text + "'";
  }
  return expr.text;
}

std::string Not(const Expr& expr) { return expr.negated ? "NOT " : ""; }

std::string Join(const std::vector<std::unique_ptr<Expr>>& exprs, size_t from) {
  std::vector<std::string> rendered;
  for (size_t i = from; i < exprs.size(); ++i) rendered.push_back(ToString(*exprs[i]));
  return fmt::format("{}", fmt::join(rendered, ", "));
}

std::string RenderCase(const Expr& expr) {
  std::string out = "CASE";
  size_t i = 0;
  if (expr.has_operand) out += " " + ToString(*expr.children[i++]);
  size_t pairs_end = expr.children.size() - (expr.has_else ? 1 : 0);
  for (; i < pairs_end; i += 2) {
    out += fmt::format(" WHEN {} THEN {}", ToString(*expr.children[i]),
                       ToString(*expr.children[i + 1]));
  }
  if (expr.has_else) out += " ELSE " + ToString(*expr.children.back());
  return out + " END";
}

}  // namespace

std::string ToString(const TypeName& type) {
  if (type.parameters.empty()) return type.name;
  return fmt::format("{}({})", type.name, fmt::join(type.parameters, ","));
}

std::string ToString(const Expr& expr) {
  const auto& c = expr.children;
  switch (expr.kind) {
    case ExprKind::kColumn:
      return RenderName(expr.name_parts);
    case ExprKind::kStar:
      return expr.name_parts.empty() ? "*" : RenderName(expr.name_parts) + ".*";
    case ExprKind::kLiteral:
      return RenderLiteral(expr);
    case ExprKind::kUnary:
      return fmt::format("({} {})", expr.op, ToString(*c[0]));
    case ExprKind::kBinary:
      return fmt::format("({} {} {})", ToString(*c[0]), expr.op, ToString(*c[1]));
    case ExprKind::kFunction:
      return fmt::format("{}({}{})", RenderName(expr.name_parts, /*is_function=*/true),
                         expr.star ? "*" : (expr.distinct ? "DISTINCT " : ""), Join(c, 0));
    case ExprKind::kCast:
      return fmt::format("{}({} AS {})", expr.is_try ? "TRY_CAST" : "CAST", ToString(*c[0]),
                         ToString(expr.type));
    case ExprKind::kCase:
      return RenderCase(expr);
    case ExprKind::kIn:
      return fmt::format("({} {}IN ({}))", ToString(*c[0]), Not(expr), Join(c, 1));
    case ExprKind::kBetween:
      return fmt::format("({} {}BETWEEN {} AND {})", ToString(*c[0]), Not(expr), ToString(*c[1]),
                         ToString(*c[2]));
    case ExprKind::kLike:
      return fmt::format("({} {}{} {}{})", ToString(*c[0]), Not(expr), expr.op, ToString(*c[1]),
                         expr.text.empty() ? "" : " ESCAPE " + QuoteString(expr.text));
    case ExprKind::kIsNull:
      return fmt::format("({} IS {}NULL)", ToString(*c[0]), Not(expr));
    case ExprKind::kIsBool:
      return fmt::format("({} IS {}{})", ToString(*c[0]), Not(expr),
                         expr.text == "true" ? "TRUE" : "FALSE");
  }
  return expr.source_text;
}

}  // namespace parley::sql
