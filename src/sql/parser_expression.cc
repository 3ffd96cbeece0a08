// Expression and type productions of the recursive-descent parser.
//
// Precedence follows Spark's booleanExpression / valueExpression rules, lowest first: OR; AND;
// NOT; a value expression with at most one predicate (IS [NOT] NULL|TRUE|FALSE, IS [NOT]
// DISTINCT FROM, [NOT] IN, [NOT] BETWEEN, [NOT] LIKE|ILIKE|RLIKE); then the left-associative
// binary operators from comparison through | ^ & and + - || to * / % DIV; then unary - + ~; then
// primaries. So `NOT a = b` is NOT (a = b) and `a = b IS NULL` is (a = b) IS NULL. As in Spark's
// `number` rule, a minus sign directly before a numeric literal belongs to the literal. Every
// node gets the position of its first token and its exact source text (parentheses included for
// a parenthesized expression), which the analyzer uses to name unaliased columns.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>

#include "sql/ast_printer.h"
#include "sql/parser_internal.h"

namespace parley::sql::internal {
namespace {

ExprPtr MakeExpr(ExprKind kind) {
  auto expr = std::make_unique<Expr>();
  expr->kind = kind;
  return expr;
}

ExprPtr MakeUnary(std::string op, ExprPtr operand) {
  ExprPtr expr = MakeExpr(ExprKind::kUnary);
  expr->op = std::move(op);
  expr->children.push_back(std::move(operand));
  return expr;
}

ExprPtr MakeBinary(std::string op, ExprPtr left, ExprPtr right) {
  ExprPtr expr = MakeExpr(ExprKind::kBinary);
  expr->op = std::move(op);
  expr->children.push_back(std::move(left));
  expr->children.push_back(std::move(right));
  return expr;
}

bool IsNumber(TokenKind kind) {
  return kind == TokenKind::kInteger || kind == TokenKind::kDecimal || kind == TokenKind::kDouble;
}

// The binary operator levels of ParseBinary, lowest precedence first.
constexpr int kComparisonLevel = 0;
constexpr int kBinaryLevels = 6;

// The operator `token` stands for at `level`, normalised (== is =, != is <>), or nullopt.
std::optional<std::string> BinaryOperatorAt(const Token& token, int level) {
  if (token.kind == TokenKind::kWord) {
    if (level == 5 && token.IsWord("DIV")) return "DIV";
    return std::nullopt;
  }
  if (token.kind != TokenKind::kOperator) return std::nullopt;
  const std::string& op = token.value;
  switch (level) {
    case kComparisonLevel:
      if (op == "==") return "=";
      if (op == "!=") return "<>";
      if (op == "=" || op == "<>" || op == "<" || op == "<=" || op == ">" || op == ">=" ||
          op == "<=>") {
        return op;
      }
      return std::nullopt;
    case 1:
      return op == "|" ? std::optional<std::string>(op) : std::nullopt;
    case 2:
      return op == "^" ? std::optional<std::string>(op) : std::nullopt;
    case 3:
      return op == "&" ? std::optional<std::string>(op) : std::nullopt;
    case 4:
      if (op == "+" || op == "-" || op == "||") return op;
      return std::nullopt;
    default:
      if (op == "*" || op == "/" || op == "%") return op;
      return std::nullopt;
  }
}

// Types CAST accepts, with how many parameters each takes.
struct TypeRule {
  std::string_view name;
  size_t min_parameters;
  size_t max_parameters;
};
constexpr TypeRule kTypeRules[] = {
    {"BOOLEAN", 0, 0}, {"TINYINT", 0, 0},   {"BYTE", 0, 0},          {"SMALLINT", 0, 0},
    {"SHORT", 0, 0},   {"INT", 0, 0},       {"INTEGER", 0, 0},       {"BIGINT", 0, 0},
    {"LONG", 0, 0},    {"FLOAT", 0, 0},     {"REAL", 0, 0},          {"DOUBLE", 0, 0},
    {"DECIMAL", 0, 2}, {"DEC", 0, 2},       {"NUMERIC", 0, 2},       {"STRING", 0, 0},
    {"VARCHAR", 1, 1}, {"CHAR", 1, 1},      {"CHARACTER", 1, 1},     {"BINARY", 0, 0},
    {"DATE", 0, 0},    {"TIMESTAMP", 0, 0}, {"TIMESTAMP_NTZ", 0, 0}, {"TIMESTAMP_LTZ", 0, 0}};

std::string ToUpper(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

}  // namespace

Result<ExprPtr> Parser::ParseSingleExpression() {
  ARROW_ASSIGN_OR_RAISE(ExprPtr expr, ParseExpression());
  if (Peek().kind != TokenKind::kEnd) return Unexpected();
  return expr;
}

Result<ExprPtr> Parser::ParseExpression() { return ParseOr(); }

Result<ExprPtr> Parser::ParseOr() {
  Mark start = Here();
  ARROW_ASSIGN_OR_RAISE(ExprPtr left, ParseAnd());
  while (AcceptWord("OR")) {
    ARROW_ASSIGN_OR_RAISE(ExprPtr right, ParseAnd());
    left = Close(MakeBinary("OR", std::move(left), std::move(right)), start);
  }
  return left;
}

Result<ExprPtr> Parser::ParseAnd() {
  Mark start = Here();
  ARROW_ASSIGN_OR_RAISE(ExprPtr left, ParseNot());
  while (AcceptWord("AND")) {
    ARROW_ASSIGN_OR_RAISE(ExprPtr right, ParseNot());
    left = Close(MakeBinary("AND", std::move(left), std::move(right)), start);
  }
  return left;
}

Result<ExprPtr> Parser::ParseNot() {
  if (!PeekWord("NOT") && !PeekOperator("!")) return ParsePredicate();
  Mark start = Here();
  Next();
  ARROW_ASSIGN_OR_RAISE(ExprPtr operand, ParseNot());
  return Close(MakeUnary("NOT", std::move(operand)), start);
}

Result<ExprPtr> Parser::ParsePredicate() {
  Mark start = Here();
  ARROW_ASSIGN_OR_RAISE(ExprPtr value, ParseBinary(kComparisonLevel));
  if (AcceptWord("IS")) {
    bool negated = AcceptWord("NOT");
    ExprPtr expr;
    if (AcceptWord("NULL")) {
      expr = MakeExpr(ExprKind::kIsNull);
    } else if (PeekWord("TRUE") || PeekWord("FALSE")) {
      expr = MakeExpr(ExprKind::kIsBool);
      expr->text = Next().IsWord("TRUE") ? "true" : "false";
    } else if (AcceptWord("DISTINCT")) {
      // a IS NOT DISTINCT FROM b is a <=> b; IS DISTINCT FROM is its negation.
      RETURN_NOT_OK(ExpectWord("FROM"));
      ARROW_ASSIGN_OR_RAISE(ExprPtr other, ParseBinary(kComparisonLevel));
      ExprPtr equal = Close(MakeBinary("<=>", std::move(value), std::move(other)), start);
      if (negated) return equal;
      return Close(MakeUnary("NOT", std::move(equal)), start);
    } else {
      return Unexpected();
    }
    expr->negated = negated;
    expr->children.push_back(std::move(value));
    return Close(std::move(expr), start);
  }

  bool negated = false;
  if (PeekWord("NOT")) {
    for (std::string_view keyword : {"IN", "BETWEEN", "LIKE", "ILIKE", "RLIKE", "REGEXP"}) {
      negated = negated || PeekWord(keyword, 1);
    }
    if (!negated) return value;
    Next();
  }
  ExprPtr expr;
  if (AcceptWord("IN")) {
    expr = MakeExpr(ExprKind::kIn);
    expr->children.push_back(std::move(value));
    RETURN_NOT_OK(ExpectOperator("("));
    do {
      ARROW_ASSIGN_OR_RAISE(ExprPtr item, ParseExpression());
      expr->children.push_back(std::move(item));
    } while (AcceptOperator(","));
    RETURN_NOT_OK(ExpectOperator(")"));
  } else if (AcceptWord("BETWEEN")) {
    expr = MakeExpr(ExprKind::kBetween);
    expr->children.push_back(std::move(value));
    ARROW_ASSIGN_OR_RAISE(ExprPtr lower, ParseBinary(kComparisonLevel));
    RETURN_NOT_OK(ExpectWord("AND"));
    ARROW_ASSIGN_OR_RAISE(ExprPtr upper, ParseBinary(kComparisonLevel));
    expr->children.push_back(std::move(lower));
    expr->children.push_back(std::move(upper));
  } else if (PeekWord("LIKE") || PeekWord("ILIKE") || PeekWord("RLIKE") || PeekWord("REGEXP")) {
    expr = MakeExpr(ExprKind::kLike);
    const Token& keyword = Next();
    expr->op = keyword.IsWord("REGEXP") ? "RLIKE" : ToUpper(keyword.value);
    expr->children.push_back(std::move(value));
    ARROW_ASSIGN_OR_RAISE(ExprPtr pattern, ParseBinary(kComparisonLevel));
    expr->children.push_back(std::move(pattern));
    if (expr->op != "RLIKE" && AcceptWord("ESCAPE")) {
      const Token& escape = Peek();
      if (escape.kind != TokenKind::kString) return Unexpected();
      size_t characters = std::count_if(escape.value.begin(), escape.value.end(),
                                        [](char c) { return (c & 0xC0) != 0x80; });
      if (characters != 1) {
        return ErrorAtToken("INVALID_ESC", text_, escape,
                            fmt::format("Invalid escape string: '{}'. The escape string must "
                                        "contain only one character",
                                        escape.value));
      }
      expr->text = Next().value;
    }
  } else {
    return value;
  }
  expr->negated = negated;
  return Close(std::move(expr), start);
}

Result<ExprPtr> Parser::ParseBinary(int level) {
  if (level == kBinaryLevels) return ParseUnary();
  Mark start = Here();
  ARROW_ASSIGN_OR_RAISE(ExprPtr left, ParseBinary(level + 1));
  while (std::optional<std::string> op = BinaryOperatorAt(Peek(), level)) {
    Next();
    ARROW_ASSIGN_OR_RAISE(ExprPtr right, ParseBinary(level + 1));
    left = Close(MakeBinary(std::move(*op), std::move(left), std::move(right)), start);
  }
  return left;
}

Result<ExprPtr> Parser::ParseUnary() {
  if (!PeekOperator("-") && !PeekOperator("+") && !PeekOperator("~")) return ParsePrimary();
  Mark start = Here();
  std::string op = Next().value;
  if (op == "-" && IsNumber(Peek().kind)) {
    ARROW_ASSIGN_OR_RAISE(ExprPtr literal, ParseLiteral());
    literal->text.insert(0, "-");
    return Close(std::move(literal), start);
  }
  ARROW_ASSIGN_OR_RAISE(ExprPtr operand, ParseUnary());
  return Close(MakeUnary(std::move(op), std::move(operand)), start);
}

Result<ExprPtr> Parser::ParsePrimary() {
  const Token& token = Peek();
  switch (token.kind) {
    case TokenKind::kInteger:
    case TokenKind::kDecimal:
    case TokenKind::kDouble:
    case TokenKind::kString:
    case TokenKind::kBinaryString:
      return ParseLiteral();
    case TokenKind::kQuotedIdentifier:
      return ParseName();
    case TokenKind::kWord:
      if (token.IsWord("NULL") || token.IsWord("TRUE") || token.IsWord("FALSE")) {
        return ParseLiteral();
      }
      if ((token.IsWord("DATE") || token.IsWord("TIMESTAMP") || token.IsWord("TIMESTAMP_NTZ") ||
           token.IsWord("TIMESTAMP_LTZ")) &&
          Peek(1).kind == TokenKind::kString) {
        return ParseLiteral();
      }
      if (token.IsWord("CASE")) return ParseCase();
      if ((token.IsWord("CAST") || token.IsWord("TRY_CAST")) && PeekOperator("(", 1)) {
        return ParseCast();
      }
      return ParseName();
    case TokenKind::kOperator:
      if (token.IsOperator("*")) {
        Mark start = Here();
        Next();
        return Close(MakeExpr(ExprKind::kStar), start);
      }
      if (token.IsOperator("(")) {
        Mark start = Here();
        Next();
        ARROW_ASSIGN_OR_RAISE(ExprPtr inner, ParseExpression());
        RETURN_NOT_OK(ExpectOperator(")"));
        return Close(std::move(inner), start);
      }
      return Unexpected();
    default:
      return Unexpected();
  }
}

Result<ExprPtr> Parser::ParseLiteral() {
  Mark start = Here();
  ExprPtr expr = MakeExpr(ExprKind::kLiteral);
  const Token& token = Peek();
  switch (token.kind) {
    case TokenKind::kInteger:
      expr->literal_kind = LiteralKind::kInteger;
      break;
    case TokenKind::kDecimal:
      expr->literal_kind = LiteralKind::kDecimal;
      break;
    case TokenKind::kDouble:
      expr->literal_kind = LiteralKind::kDouble;
      break;
    case TokenKind::kBinaryString:
      expr->literal_kind = LiteralKind::kBinary;
      break;
    case TokenKind::kString:
      // Adjacent string literals are one literal: 'a' 'b' is 'ab'.
      expr->literal_kind = LiteralKind::kString;
      while (Peek().kind == TokenKind::kString) expr->text += Next().value;
      return Close(std::move(expr), start);
    default:
      if (token.IsWord("NULL")) {
        Next();
        return Close(std::move(expr), start);
      }
      if (token.IsWord("TRUE") || token.IsWord("FALSE")) {
        expr->literal_kind = LiteralKind::kBoolean;
        expr->text = Next().IsWord("TRUE") ? "true" : "false";
        return Close(std::move(expr), start);
      }
      // A typed literal: DATE, TIMESTAMP, TIMESTAMP_LTZ or TIMESTAMP_NTZ, then a string.
      expr->literal_kind = token.IsWord("DATE")            ? LiteralKind::kDate
                           : token.IsWord("TIMESTAMP_NTZ") ? LiteralKind::kTimestampNtz
                                                           : LiteralKind::kTimestamp;
      Next();
      break;
  }
  expr->text = Next().value;
  return Close(std::move(expr), start);
}

Result<ExprPtr> Parser::ParseName() {
  Mark start = Here();
  const Token& first = Peek();
  // A reserved word may name a function: left(s, 2), like(a, b).
  bool function_name = first.kind == TokenKind::kWord && PeekOperator("(", 1);
  if (!function_name && !IsIdentifier(first, /*allow_reserved=*/false)) return Unexpected();
  ExprPtr expr = MakeExpr(ExprKind::kColumn);
  expr->name_parts.push_back(Next().value);
  while (AcceptOperator(".")) {
    if (AcceptOperator("*")) {
      expr->kind = ExprKind::kStar;
      return Close(std::move(expr), start);
    }
    if (!IsIdentifier(Peek(), /*allow_reserved=*/true)) return Unexpected();
    expr->name_parts.push_back(Next().value);
  }
  if (PeekOperator("(")) return ParseFunctionCall(std::move(expr), start);
  return Close(std::move(expr), start);
}

Result<ExprPtr> Parser::ParseFunctionCall(ExprPtr function, const Mark& start) {
  function->kind = ExprKind::kFunction;
  RETURN_NOT_OK(ExpectOperator("("));
  if (PeekOperator("*") && PeekOperator(")", 1)) {
    Next();
    Next();
    function->star = true;
    return Close(std::move(function), start);
  }
  if (AcceptOperator(")")) return Close(std::move(function), start);
  if (AcceptWord("DISTINCT")) {
    function->distinct = true;
  } else {
    AcceptWord("ALL");
  }
  do {
    ARROW_ASSIGN_OR_RAISE(ExprPtr argument, ParseExpression());
    function->children.push_back(std::move(argument));
  } while (AcceptOperator(","));
  RETURN_NOT_OK(ExpectOperator(")"));
  return Close(std::move(function), start);
}

Result<ExprPtr> Parser::ParseCase() {
  Mark start = Here();
  RETURN_NOT_OK(ExpectWord("CASE"));
  ExprPtr expr = MakeExpr(ExprKind::kCase);
  if (!PeekWord("WHEN")) {
    ARROW_ASSIGN_OR_RAISE(ExprPtr operand, ParseExpression());
    expr->children.push_back(std::move(operand));
    expr->has_operand = true;
  }
  if (!PeekWord("WHEN")) return Unexpected();
  while (AcceptWord("WHEN")) {
    ARROW_ASSIGN_OR_RAISE(ExprPtr condition, ParseExpression());
    RETURN_NOT_OK(ExpectWord("THEN"));
    ARROW_ASSIGN_OR_RAISE(ExprPtr result, ParseExpression());
    expr->children.push_back(std::move(condition));
    expr->children.push_back(std::move(result));
  }
  if (AcceptWord("ELSE")) {
    ARROW_ASSIGN_OR_RAISE(ExprPtr otherwise, ParseExpression());
    expr->children.push_back(std::move(otherwise));
    expr->has_else = true;
  }
  RETURN_NOT_OK(ExpectWord("END"));
  return Close(std::move(expr), start);
}

Result<ExprPtr> Parser::ParseCast() {
  Mark start = Here();
  ExprPtr expr = MakeExpr(ExprKind::kCast);
  expr->is_try = Next().IsWord("TRY_CAST");
  RETURN_NOT_OK(ExpectOperator("("));
  ARROW_ASSIGN_OR_RAISE(ExprPtr operand, ParseExpression());
  expr->children.push_back(std::move(operand));
  RETURN_NOT_OK(ExpectWord("AS"));
  ARROW_ASSIGN_OR_RAISE(expr->type, ParseType());
  RETURN_NOT_OK(ExpectOperator(")"));
  return Close(std::move(expr), start);
}

Result<TypeName> Parser::ParseType() {
  if (Peek().kind != TokenKind::kWord) return Unexpected();
  Token name_token = Next();
  TypeName type;
  type.name = ToUpper(name_token.value);
  if (AcceptOperator("(")) {
    do {
      const Token& token = Peek();
      int value = 0;
      const char* end = token.value.data() + token.value.size();
      if (token.kind != TokenKind::kInteger ||
          std::from_chars(token.value.data(), end, value).ptr != end) {
        return Unexpected();
      }
      type.parameters.push_back(value);
      Next();
    } while (AcceptOperator(","));
    RETURN_NOT_OK(ExpectOperator(")"));
  }
  const TypeRule* rule =
      std::find_if(std::begin(kTypeRules), std::end(kTypeRules),
                   [&](const TypeRule& candidate) { return candidate.name == type.name; });
  if (rule == std::end(kTypeRules) || type.parameters.size() > rule->max_parameters) {
    return ErrorAtToken("UNSUPPORTED_DATATYPE", text_, name_token,
                        fmt::format("Unsupported data type \"{}\"", ToString(type)));
  }
  if (type.parameters.size() < rule->min_parameters) {
    return ErrorAtToken("DATATYPE_MISSING_SIZE", text_, name_token,
                        fmt::format("DataType \"{}\" requires a length parameter, for example "
                                    "\"{}(10)\". Please specify the length",
                                    type.name, type.name));
  }
  return type;
}

}  // namespace parley::sql::internal
