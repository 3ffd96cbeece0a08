// Expression and type productions of the recursive-descent parser.
//
// Precedence follows Spark's booleanExpression / valueExpression rules, lowest first: OR; AND;
// NOT; a value expression with at most one predicate (IS [NOT] NULL|TRUE|FALSE, IS [NOT]
// DISTINCT FROM, [NOT] IN, [NOT] BETWEEN, [NOT] LIKE|ILIKE|RLIKE); then the left-associative
// binary operators from comparison through | ^ & and + - || to * / % DIV; then unary - + ~; then
// primaries with their `::type` casts. So `NOT a = b` is NOT (a = b) and `a = b IS NULL` is
// (a = b) IS NULL. As in Spark's `number` rule, a minus sign directly before a numeric literal
// belongs to the literal. Every node gets the position of its first token and its exact source
// text (parentheses included for a parenthesized expression), which the analyzer uses to name
// unaliased columns.
//
// The forms of Spark's grammar beyond plain expressions are built as ast.h describes: EXISTS
// and scalar subqueries, INTERVAL literals and EXTRACT as calls, `x IN (query)` as kIn, and the
// WITHIN GROUP, FILTER, IGNORE|RESPECT NULLS and OVER clauses of a call as fields of its node.
// Where a '(' may open a query or an expression, the parser tries them in the order of Spark's
// alternatives (see ParseEither). INTERVAL literals get Spark's parse-time checks: a unit-to-unit
// form takes a string and a supported pair of fields, a multi-unit form takes numbers and does
// not mix year-month with day-time units.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
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
constexpr int kShiftLevel = 4;
constexpr int kBinaryLevels = 7;

// The operator `token` stands for at `level`, normalised (== is =, != is <>), or nullopt.
std::optional<std::string> BinaryOperatorAt(const Token& token, int level) {
  if (token.kind == TokenKind::kWord) {
    if (level == 6 && token.IsWord("DIV")) return "DIV";
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
    case 1: return op == "|" ? std::optional<std::string>(op) : std::nullopt;
    case 2: return op == "^" ? std::optional<std::string>(op) : std::nullopt;
    case 3: return op == "&" ? std::optional<std::string>(op) : std::nullopt;
    case 5:
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

// An interval unit of the multi-unit form, singular and upper case: "DAYS" is "DAY".
std::optional<std::string> IntervalUnit(std::string_view word) {
  std::string upper = ToUpper(word);
  if (upper.size() > 1 && upper.back() == 'S') upper.pop_back();
  for (std::string_view unit :
       {"YEAR", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND"}) {
    if (upper == unit) return upper;
  }
  return std::nullopt;
}

// Whether `token` names a field of the interval types, singular: YEAR, MONTH, DAY, HOUR, MINUTE
// or SECOND.
bool IsIntervalField(const Token& token) {
  for (std::string_view field : {"YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"}) {
    if (token.IsWord(field)) return true;
  }
  return false;
}

// The unit-to-unit intervals Spark supports: YEAR TO MONTH, and day-time pairs from a larger
// field to a smaller one.
bool IsFromToInterval(std::string_view from, std::string_view to) {
  if (from == "YEAR") return to == "MONTH";
  constexpr std::string_view kDayTime[] = {"DAY", "HOUR", "MINUTE", "SECOND"};
  auto rank = [&](std::string_view unit) {
    return std::find(std::begin(kDayTime), std::end(kDayTime), unit) - std::begin(kDayTime);
  };
  return rank(from) < 3 && rank(to) < 4 && rank(from) < rank(to);
}

}  // namespace

Result<ExprPtr> Parser::ParseSingleExpression() {
  ARROW_ASSIGN_OR_RAISE(ExprPtr expr, ParseExpression());
  if (Peek().kind != TokenKind::kEnd) return Unexpected();
  return expr;
}

Result<ExprPtr> Parser::ParseExpression() {
  Nesting nesting(this, kNestingWeight);
  RETURN_NOT_OK(CheckNesting());
  return ParseOr();
}

Result<ExprPtr> Parser::ParseOr() {
  Mark start = Here();
  ARROW_ASSIGN_OR_RAISE(ExprPtr left, ParseAnd());
  Nesting chain(this, 0);
  while (AcceptWord("OR")) {
    chain.Deepen();
    RETURN_NOT_OK(CheckNesting());
    ARROW_ASSIGN_OR_RAISE(ExprPtr right, ParseAnd());
    left = Close(MakeBinary("OR", std::move(left), std::move(right)), start);
  }
  return left;
}

Result<ExprPtr> Parser::ParseAnd() {
  Mark start = Here();
  ARROW_ASSIGN_OR_RAISE(ExprPtr left, ParseNot());
  Nesting chain(this, 0);
  while (AcceptWord("AND")) {
    chain.Deepen();
    RETURN_NOT_OK(CheckNesting());
    ARROW_ASSIGN_OR_RAISE(ExprPtr right, ParseNot());
    left = Close(MakeBinary("AND", std::move(left), std::move(right)), start);
  }
  return left;
}

Result<ExprPtr> Parser::ParseNot() {
  if (PeekWord("EXISTS") && PeekOperator("(", 1) && (PeekQueryStart(2) || PeekOperator("(", 2))) {
    Mark start = Here();
    auto parse_exists = [&]() -> Result<ExprPtr> {
      ExprPtr expr = MakeExpr(ExprKind::kFunction);
      expr->name_parts.push_back("exists");
      Next();
      return ParseSubqueryExpression(std::move(expr), SubqueryKind::kExists, start);
    };
    if (PeekQueryStart(2)) return parse_exists();
    // EXISTS ((SELECT 1)) or the function exists((a), ...).
    return ParseEither<ExprPtr>(parse_exists, [&] { return ParsePredicate(); });
  }
  if (!PeekWord("NOT") && !PeekOperator("!")) return ParsePredicate();
  Mark start = Here();
  Next();
  Nesting nesting(this, 1);
  RETURN_NOT_OK(CheckNesting());
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
    return ParseIn(std::move(value), negated, start);
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

Result<ExprPtr> Parser::ParseIn(ExprPtr value, bool negated, const Mark& start) {
  // The node without its value, so that either alternative can be tried from scratch.
  auto parse_list = [&]() -> Result<ExprPtr> {
    ExprPtr in = MakeExpr(ExprKind::kIn);
    RETURN_NOT_OK(ExpectOperator("("));
    do {
      ARROW_ASSIGN_OR_RAISE(ExprPtr item, ParseExpression());
      in->children.push_back(std::move(item));
    } while (AcceptOperator(","));
    RETURN_NOT_OK(ExpectOperator(")"));
    return in;
  };
  auto parse_query = [&]() -> Result<ExprPtr> {
    ExprPtr in = MakeExpr(ExprKind::kIn);
    in->subquery_kind = SubqueryKind::kIn;
    ARROW_ASSIGN_OR_RAISE(in->subquery, ParseParenthesizedQuery());
    return in;
  };
  ExprPtr in;
  if (PeekOperator("(") && PeekQueryStart(1)) {
    ARROW_ASSIGN_OR_RAISE(in, parse_query());
  } else if (PeekOperator("(") && PeekOperator("(", 1)) {
    // x IN ((SELECT 1), 2) is a list and x IN ((SELECT 1) UNION (SELECT 2)) a query; Spark
    // tries the list first.
    ARROW_ASSIGN_OR_RAISE(in, ParseEither<ExprPtr>(parse_list, parse_query));
  } else {
    ARROW_ASSIGN_OR_RAISE(in, parse_list());
  }
  in->children.insert(in->children.begin(), std::move(value));
  in->negated = negated;
  return Close(std::move(in), start);
}

Result<ExprPtr> Parser::ParseBinary(int level) {
  if (level == kBinaryLevels) return ParseUnary();
  Mark start = Here();
  ARROW_ASSIGN_OR_RAISE(ExprPtr left, ParseBinary(level + 1));
  Nesting chain(this, 0);
  // The shift operators are runs of adjacent '<' or '>' tokens: <<, >> and >>>.
  auto shift_operator = [this]() -> std::optional<std::string> {
    const std::string& first = Peek().value;
    if (Peek().kind != TokenKind::kOperator || (first != "<" && first != ">")) return {};
    std::string op = first;
    for (size_t ahead = 1; ahead < 3; ++ahead) {
      const Token& next = Peek(ahead);
      if (next.kind != TokenKind::kOperator || next.value != first ||
          next.begin != Peek(ahead - 1).end || (first == "<" && ahead == 2)) {
        break;
      }
      op += first;
    }
    if (op.size() < 2) return {};
    return op;
  };
  while (std::optional<std::string> op =
             level == kShiftLevel ? shift_operator() : BinaryOperatorAt(Peek(), level)) {
    for (size_t i = 0; i < op->size() && level == kShiftLevel; ++i) Next();
    if (level != kShiftLevel) Next();
    chain.Deepen();
    RETURN_NOT_OK(CheckNesting());
    ARROW_ASSIGN_OR_RAISE(ExprPtr right, ParseBinary(level + 1));
    left = Close(MakeBinary(std::move(*op), std::move(left), std::move(right)), start);
  }
  return left;
}

Result<ExprPtr> Parser::ParseUnary() {
  Mark start = Here();
  if (!PeekOperator("-") && !PeekOperator("+") && !PeekOperator("~")) {
    ARROW_ASSIGN_OR_RAISE(ExprPtr primary, ParsePrimary());
    return ParsePostfix(std::move(primary), start);
  }
  std::string op = Next().value;
  if (op == "-" && IsNumber(Peek().kind)) {
    ARROW_ASSIGN_OR_RAISE(ExprPtr literal, ParseLiteral());
    literal->text.insert(0, "-");
    return ParsePostfix(Close(std::move(literal), start), start);
  }
  Nesting nesting(this, 1);
  RETURN_NOT_OK(CheckNesting());
  ARROW_ASSIGN_OR_RAISE(ExprPtr operand, ParseUnary());
  return Close(MakeUnary(std::move(op), std::move(operand)), start);
}

Result<ExprPtr> Parser::ParsePostfix(ExprPtr expr, const Mark& start) {
  Nesting chain(this, 0);
  while (true) {
    if (PeekOperator("::") || PeekOperator("[") || PeekOperator(".")) {
      chain.Deepen();
      RETURN_NOT_OK(CheckNesting());
    }
    if (PeekOperator(".") && IsIdentifier(Peek(1), /*allow_reserved=*/true)) {
      // value.field: the field of a struct the value is (`get(a, 0).x`, `a[0].x`).
      Next();
      ExprPtr access = MakeExpr(ExprKind::kFunction);
      access->name_parts.push_back("[]");
      access->text = ".";
      access->children.push_back(std::move(expr));
      ExprPtr field = MakeExpr(ExprKind::kLiteral);
      field->literal_kind = LiteralKind::kString;
      field->text = Next().value;
      access->children.push_back(std::move(field));
      expr = Close(std::move(access), start);
    } else if (AcceptOperator("::")) {
      ExprPtr cast = MakeExpr(ExprKind::kCast);
      cast->children.push_back(std::move(expr));
      ARROW_ASSIGN_OR_RAISE(cast->type, ParseType());
      expr = Close(std::move(cast), start);
    } else if (AcceptOperator("[")) {
      ExprPtr subscript = MakeExpr(ExprKind::kFunction);
      subscript->name_parts.push_back("[]");
      subscript->children.push_back(std::move(expr));
      ARROW_ASSIGN_OR_RAISE(auto key, ParseExpression());
      subscript->children.push_back(std::move(key));
      RETURN_NOT_OK(ExpectOperator("]"));
      expr = Close(std::move(subscript), start);
    } else {
      return expr;
    }
  }
}

Result<ExprPtr> Parser::ParsePrimary() {
  const Token& token = Peek();
  switch (token.kind) {
    case TokenKind::kInteger:
    case TokenKind::kDecimal:
    case TokenKind::kDouble:
    case TokenKind::kString:
    case TokenKind::kBinaryString: return ParseLiteral();
    case TokenKind::kQuotedIdentifier: return ParseName();
    case TokenKind::kWord:
      if (token.IsWord("NULL") || token.IsWord("TRUE") || token.IsWord("FALSE")) {
        return ParseLiteral();
      }
      if ((token.IsWord("DATE") || token.IsWord("TIMESTAMP") || token.IsWord("TIMESTAMP_NTZ") ||
           token.IsWord("TIMESTAMP_LTZ")) &&
          Peek(1).kind == TokenKind::kString) {
        return ParseLiteral();
      }
      if (token.IsWord("INTERVAL") && PeekInterval()) return ParseInterval();
      if (token.IsWord("EXTRACT") && PeekOperator("(", 1) && Peek(2).kind == TokenKind::kWord &&
          PeekWord("FROM", 3)) {
        return ParseExtract();
      }
      if ((token.IsWord("SUBSTRING") || token.IsWord("SUBSTR") || token.IsWord("TRIM") ||
           token.IsWord("POSITION")) &&
          PeekOperator("(", 1)) {
        // The plain call form when the keyword form does not parse.
        return ParseEither<ExprPtr>([&] { return ParseKeywordStringCall(); },
                                    [&] { return ParseName(); });
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
      if (token.IsOperator("(")) return ParseParenthesized();
      return Unexpected();
    default: return Unexpected();
  }
}

Result<ExprPtr> Parser::ParseParenthesized() {
  Mark start = Here();
  auto parse_subquery = [&]() -> Result<ExprPtr> {
    ExprPtr expr = MakeExpr(ExprKind::kFunction);
    expr->name_parts.push_back("scalar_subquery");
    return ParseSubqueryExpression(std::move(expr), SubqueryKind::kScalar, start);
  };
  auto parse_expression = [&]() -> Result<ExprPtr> {
    RETURN_NOT_OK(ExpectOperator("("));
    ARROW_ASSIGN_OR_RAISE(ExprPtr inner, ParseExpression());
    if (PeekOperator(",")) {
      // (a, b, ...) is a row: struct(a, b, ...).
      ExprPtr row = MakeExpr(ExprKind::kFunction);
      row->name_parts.push_back("struct");
      row->children.push_back(std::move(inner));
      while (AcceptOperator(",")) {
        ARROW_ASSIGN_OR_RAISE(ExprPtr field, ParseExpression());
        row->children.push_back(std::move(field));
      }
      inner = std::move(row);
    }
    RETURN_NOT_OK(ExpectOperator(")"));
    return Close(std::move(inner), start);
  };
  if (PeekQueryStart(1)) return parse_subquery();
  // ((SELECT 1) UNION (SELECT 2)) against ((SELECT 1) + 1): Spark tries the subquery first.
  if (PeekOperator("(", 1)) return ParseEither<ExprPtr>(parse_subquery, parse_expression);
  struct ParenthesizedExpression {};
  return RememberFailure<ExprPtr, ParenthesizedExpression>(parse_expression);
}

Result<ExprPtr> Parser::ParseSubqueryExpression(ExprPtr expr, SubqueryKind kind,
                                                const Mark& start) {
  expr->subquery_kind = kind;
  ARROW_ASSIGN_OR_RAISE(expr->subquery, ParseParenthesizedQuery());
  return Close(std::move(expr), start);
}

Result<ExprPtr> Parser::ParseLiteral() {
  Mark start = Here();
  ExprPtr expr = MakeExpr(ExprKind::kLiteral);
  const Token& token = Peek();
  switch (token.kind) {
    case TokenKind::kInteger: expr->literal_kind = LiteralKind::kInteger; break;
    case TokenKind::kDecimal: expr->literal_kind = LiteralKind::kDecimal; break;
    case TokenKind::kDouble: expr->literal_kind = LiteralKind::kDouble; break;
    case TokenKind::kBinaryString: expr->literal_kind = LiteralKind::kBinary; break;
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
  // LEFT and RIGHT name columns too where an operand starts, as in Spark's default keyword mode
  // (`(left, right) -> left < right`).
  bool side_word = first.IsWord("LEFT") || first.IsWord("RIGHT");
  if (!function_name && !side_word && !IsIdentifier(first, /*allow_reserved=*/false)) {
    return Unexpected();
  }
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
  } else if (!AcceptOperator(")")) {
    if (AcceptWord("DISTINCT")) {
      function->distinct = true;
    } else {
      AcceptWord("ALL");
    }
    do {
      RETURN_NOT_OK(ParseCallArgument(&function->children, &function->argument_names));
    } while (AcceptOperator(","));
    RETURN_NOT_OK(ExpectOperator(")"));
  }
  RETURN_NOT_OK(ParseCallSuffixes(function.get()));
  return Close(std::move(function), start);
}

Status Parser::ParseCallSuffixes(Expr* function) {
  if (PeekWord("WITHIN") && PeekWord("GROUP", 1)) {
    Next();
    Next();
    RETURN_NOT_OK(ExpectOperator("("));
    RETURN_NOT_OK(ExpectWord("ORDER"));
    RETURN_NOT_OK(ExpectWord("BY"));
    ARROW_ASSIGN_OR_RAISE(function->within_group, ParseOrderItems());
    RETURN_NOT_OK(ExpectOperator(")"));
  }
  if (PeekWord("FILTER") && PeekOperator("(", 1)) {
    Next();
    Next();
    RETURN_NOT_OK(ExpectWord("WHERE"));
    ARROW_ASSIGN_OR_RAISE(function->filter, ParseExpression());
    RETURN_NOT_OK(ExpectOperator(")"));
  }
  if ((PeekWord("IGNORE") || PeekWord("RESPECT")) && PeekWord("NULLS", 1)) {
    function->ignore_nulls = Next().IsWord("IGNORE");
    Next();
  }
  // OVER is not reserved: in `f(x) over FROM t` it is an alias.
  if (PeekWord("OVER") &&
      (PeekOperator("(", 1) || IsIdentifier(Peek(1), /*allow_reserved=*/false))) {
    Next();
    ARROW_ASSIGN_OR_RAISE(WindowSpec window, ParseWindowSpec());
    function->window = std::make_unique<WindowSpec>(std::move(window));
  }
  return Status::OK();
}

Result<ExprPtr> Parser::ParseExtract() {
  // EXTRACT(field FROM source) is the call extract('field', source), as in Spark's AstBuilder.
  Mark start = Here();
  ExprPtr expr = MakeExpr(ExprKind::kFunction);
  expr->name_parts.push_back(Next().value);
  RETURN_NOT_OK(ExpectOperator("("));
  Mark field_start = Here();
  ExprPtr field = MakeExpr(ExprKind::kLiteral);
  field->literal_kind = LiteralKind::kString;
  field->text = Next().value;
  expr->children.push_back(Close(std::move(field), field_start));
  RETURN_NOT_OK(ExpectWord("FROM"));
  ARROW_ASSIGN_OR_RAISE(ExprPtr source, ParseExpression());
  expr->children.push_back(std::move(source));
  RETURN_NOT_OK(ExpectOperator(")"));
  return Close(std::move(expr), start);
}

Result<ExprPtr> Parser::ParseKeywordStringCall() {
  Mark start = Here();
  ExprPtr expr = MakeExpr(ExprKind::kFunction);
  const Token& name = Next();
  RETURN_NOT_OK(ExpectOperator("("));
  if (name.IsWord("POSITION")) {
    expr->name_parts.push_back("locate");
    ARROW_ASSIGN_OR_RAISE(ExprPtr needle, ParseBinary(kComparisonLevel));
    RETURN_NOT_OK(ExpectWord("IN"));
    ARROW_ASSIGN_OR_RAISE(ExprPtr haystack, ParseBinary(kComparisonLevel));
    expr->children.push_back(std::move(needle));
    expr->children.push_back(std::move(haystack));
  } else if (name.IsWord("TRIM")) {
    std::string function = "trim";
    if (AcceptWord("LEADING")) {
      function = "ltrim";
    } else if (AcceptWord("TRAILING")) {
      function = "rtrim";
    } else {
      AcceptWord("BOTH");
    }
    expr->name_parts.push_back(function);
    if (!PeekWord("FROM")) {
      ARROW_ASSIGN_OR_RAISE(ExprPtr characters, ParseExpression());
      expr->children.push_back(std::move(characters));
    }
    RETURN_NOT_OK(ExpectWord("FROM"));
    ARROW_ASSIGN_OR_RAISE(ExprPtr source, ParseExpression());
    expr->children.push_back(std::move(source));
  } else {
    expr->name_parts.push_back("substring");
    ARROW_ASSIGN_OR_RAISE(ExprPtr source, ParseExpression());
    expr->children.push_back(std::move(source));
    RETURN_NOT_OK(ExpectWord("FROM"));
    ARROW_ASSIGN_OR_RAISE(ExprPtr pos, ParseExpression());
    expr->children.push_back(std::move(pos));
    if (AcceptWord("FOR")) {
      ARROW_ASSIGN_OR_RAISE(ExprPtr length, ParseExpression());
      expr->children.push_back(std::move(length));
    }
  }
  RETURN_NOT_OK(ExpectOperator(")"));
  return Close(std::move(expr), start);
}

// ---- INTERVAL ----

bool Parser::PeekIntervalUnit(size_t ahead) const {
  const Token& token = Peek(ahead);
  return token.kind == TokenKind::kWord && IntervalUnit(token.value).has_value();
}

bool Parser::PeekIntervalValue() const {
  size_t i = PeekOperator("-") || PeekOperator("+") ? 1 : 0;
  TokenKind kind = Peek(i).kind;
  bool value =
      kind == TokenKind::kString || kind == TokenKind::kInteger || kind == TokenKind::kDecimal;
  return value && PeekIntervalUnit(i + 1);
}

bool Parser::PeekInterval() const {
  // After INTERVAL: a string alone, or value-unit pairs. Anything else makes `interval` a name.
  if (Peek(1).kind == TokenKind::kString) return true;
  size_t i = PeekOperator("-", 1) || PeekOperator("+", 1) ? 2 : 1;
  TokenKind kind = Peek(i).kind;
  bool value =
      kind == TokenKind::kString || kind == TokenKind::kInteger || kind == TokenKind::kDecimal;
  return value && PeekIntervalUnit(i + 1);
}

Result<ExprPtr> Parser::ParseInterval() {
  Mark start = Here();
  const Token& keyword = Next();
  IntervalLiteral literal;
  if (Peek().kind == TokenKind::kString && !PeekIntervalUnit(1)) {
    literal.parts.push_back(IntervalPart{Next().value, ""});
  } else {
    bool year_month = false;
    bool day_time = false;
    do {
      const Token* sign = (PeekOperator("-") || PeekOperator("+")) ? &Next() : nullptr;
      const Token& value_token = Next();
      bool is_string = value_token.kind == TokenKind::kString;
      // Spark's INTEGER_VALUE and DECIMAL_VALUE: no type suffix (1L, 1.5BD).
      auto is_letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
      const std::string& text = value_token.value;
      if (!is_string && std::any_of(text.begin(), text.end(), is_letter)) {
        return UnexpectedTokenError(text_, value_token);
      }
      std::string value = value_token.value;
      if (sign != nullptr && sign->IsOperator("-")) {
        value = value.starts_with('-') && is_string ? value.substr(1) : "-" + value;
      } else if (sign != nullptr && !is_string) {
        value.insert(0, "+");
      }
      const Token& unit_token = Next();
      std::string unit = *IntervalUnit(unit_token.value);
      // Only a lone pair may have TO, as in Spark: INTERVAL 1 DAY '1-2' YEAR TO MONTH is wrong.
      if (!literal.parts.empty() && PeekWord("TO")) return Unexpected();
      if (PeekWord("TO")) {
        // Spark's unitInUnitToUnit: singular names of the fields of the interval types.
        if (!IsIntervalField(unit_token)) return UnexpectedTokenError(text_, unit_token);
        Next();
        if (!IsIntervalField(Peek())) return Unexpected();
        std::string to_unit = UpperCase(Next().value);
        if (!is_string) {
          return ErrorAt("INVALID_FROM_TO_UNIT_VALUE", value_token,
                         "The value of from-to unit must be a string");
        }
        if (!IsFromToInterval(unit, to_unit)) {
          return ErrorAt("UNSUPPORTED_FROM_TO_INTERVAL", keyword,
                         fmt::format("Intervals FROM {} TO {} are not supported", unit, to_unit));
        }
        literal.parts.push_back(IntervalPart{std::move(value), std::move(unit)});
        literal.to_unit = std::move(to_unit);
        break;
      }
      // Spark checks ahead of joining the pairs into one text that the values hold no units.
      if (is_string && std::any_of(value.begin(), value.end(), is_letter)) {
        return ErrorAt("INVALID_INTERVAL_FORM", value_token,
                       fmt::format("Can only use numbers in the interval value part for multiple "
                                   "unit value pairs interval form, but got invalid value: {}",
                                   value_token.value));
      }
      (unit == "YEAR" || unit == "MONTH" ? year_month : day_time) = true;
      literal.parts.push_back(IntervalPart{std::move(value), std::move(unit)});
    } while (PeekIntervalValue());
    if (year_month && day_time) {
      return ErrorAt(
          "MIXED_INTERVAL_UNITS", keyword,
          fmt::format("Cannot mix year-month and day-time fields: {}", SourceFrom(start)));
    }
  }
  ExprPtr expr = MakeExpr(ExprKind::kFunction);
  expr->name_parts.push_back("interval");
  expr->interval = std::move(literal);
  return Close(std::move(expr), start);
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
  Nesting nesting(this, 1);
  RETURN_NOT_OK(CheckNesting());
  if (Peek().kind != TokenKind::kWord) return Unexpected();
  Token name_token = Next();
  if (name_token.IsWord("INTERVAL")) return ParseIntervalType(name_token);
  TypeName type;
  type.name = ToUpper(name_token.value);
  if ((type.name == "ARRAY" || type.name == "MAP" || type.name == "STRUCT") && PeekOperator("<")) {
    return ParseNestedType(std::move(type));
  }
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

Result<TypeName> Parser::ParseNestedType(TypeName type) {
  RETURN_NOT_OK(ExpectOperator("<"));
  if (type.name == "STRUCT") {
    while (!PeekOperator(">")) {
      if (!IsIdentifier(Peek(), /*allow_reserved=*/true) &&
          Peek().kind != TokenKind::kQuotedIdentifier) {
        return Unexpected();
      }
      type.field_names.push_back(Next().value);
      AcceptOperator(":");
      ARROW_ASSIGN_OR_RAISE(auto field, ParseType());
      if (PeekWord("NOT") && PeekWord("NULL", 1)) {
        Next();
        Next();
      }
      if (AcceptWord("COMMENT")) Next();
      type.children.push_back(std::move(field));
      if (!AcceptOperator(",")) break;
    }
  } else {
    ARROW_ASSIGN_OR_RAISE(auto element, ParseType());
    type.children.push_back(std::move(element));
    if (type.name == "MAP") {
      RETURN_NOT_OK(ExpectOperator(","));
      ARROW_ASSIGN_OR_RAISE(auto value, ParseType());
      type.children.push_back(std::move(value));
    }
  }
  RETURN_NOT_OK(ExpectOperator(">"));
  return type;
}

Result<TypeName> Parser::ParseIntervalType(const Token& interval) {
  // INTERVAL alone, or INTERVAL field [TO field] with Spark's singular field names.
  TypeName type;
  type.name = "INTERVAL";
  auto field = [&]() -> std::optional<std::string> {
    if (!IsIntervalField(Peek())) return std::nullopt;
    return ToUpper(Peek().value);
  };
  std::optional<std::string> from = field();
  if (!from) return type;
  Next();
  type.name += " " + *from;
  if (AcceptWord("TO")) {
    std::optional<std::string> to = field();
    if (!to) return Unexpected();
    if (!IsFromToInterval(*from, *to)) {
      return ErrorAt("UNSUPPORTED_FROM_TO_INTERVAL", interval,
                     fmt::format("Intervals FROM {} TO {} are not supported", *from, *to));
    }
    Next();
    type.name += " TO " + *to;
  }
  return type;
}

}  // namespace parley::sql::internal
