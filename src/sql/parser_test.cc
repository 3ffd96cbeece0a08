// Tests for the Spark SQL parser: expression shapes and precedence (through the fully
// parenthesised printer), literal kinds, positions and source text, each statement form, the
// raw SET/RESET arguments, syntax-error messages and script splitting.
#include "sql/parser.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "sql/ast_printer.h"
#include "testing/gtest_util.h"

namespace parley::sql {
namespace {

// The fully parenthesised rendering of `text` parsed as an expression, or the error message.
std::string Render(std::string_view text) {
  Result<ExprPtr> result = ParseExpression(text);
  if (!result.ok()) return result.status().message();
  return ToString(**result);
}

// The message of the error parsing `text` as a statement (empty if it parses).
std::string StatementError(std::string_view text, SourcePosition origin = {}) {
  return ParseStatement(text, origin).status().message();
}

// ---- Expressions: shapes and precedence ----

TEST(ParserExpressionTest, BooleanPrecedence) {
  EXPECT_EQ(Render("a OR b AND c"), "(a OR (b AND c))");
  EXPECT_EQ(Render("a AND b OR c"), "((a AND b) OR c)");
  EXPECT_EQ(Render("NOT a = b"), "(NOT (a = b))");
  EXPECT_EQ(Render("NOT a AND b"), "((NOT a) AND b)");
  EXPECT_EQ(Render("NOT NOT a"), "(NOT (NOT a))");
  EXPECT_EQ(Render("!a OR b"), "((NOT a) OR b)");
  EXPECT_EQ(Render("a or b or c"), "((a OR b) OR c)");
}

TEST(ParserExpressionTest, ArithmeticPrecedence) {
  EXPECT_EQ(Render("-a * b"), "((- a) * b)");
  EXPECT_EQ(Render("a + b * c"), "(a + (b * c))");
  EXPECT_EQ(Render("a - b - c"), "((a - b) - c)");
  EXPECT_EQ(Render("a * b / c % d DIV e"), "((((a * b) / c) % d) DIV e)");
  EXPECT_EQ(Render("a || b + c"), "((a || b) + c)");
  EXPECT_EQ(Render("a | b ^ c & d + e"), "(a | (b ^ (c & (d + e))))");
  EXPECT_EQ(Render("a & b | c"), "((a & b) | c)");
  EXPECT_EQ(Render("~a + +b"), "((~ a) + (+ b))");
  EXPECT_EQ(Render("(a + b) * c"), "((a + b) * c)");
  EXPECT_EQ(Render("- - a"), "(- (- a))");
}

TEST(ParserExpressionTest, Comparisons) {
  EXPECT_EQ(Render("a = b"), "(a = b)");
  EXPECT_EQ(Render("a == b"), "(a = b)");
  EXPECT_EQ(Render("a != b"), "(a <> b)");
  EXPECT_EQ(Render("a <> b"), "(a <> b)");
  EXPECT_EQ(Render("a <=> b"), "(a <=> b)");
  EXPECT_EQ(Render("a < b + 1"), "(a < (b + 1))");
  EXPECT_EQ(Render("a <= b AND c >= d"), "((a <= b) AND (c >= d))");
  EXPECT_EQ(Render("a > b = c"), "((a > b) = c)");
}

TEST(ParserExpressionTest, Predicates) {
  EXPECT_EQ(Render("a IS NULL"), "(a IS NULL)");
  EXPECT_EQ(Render("a + 1 IS NOT NULL"), "((a + 1) IS NOT NULL)");
  EXPECT_EQ(Render("a = b IS NULL"), "((a = b) IS NULL)");
  EXPECT_EQ(Render("a IS TRUE"), "(a IS TRUE)");
  EXPECT_EQ(Render("a IS NOT false"), "(a IS NOT FALSE)");
  EXPECT_EQ(Render("a IS DISTINCT FROM b"), "(NOT (a <=> b))");
  EXPECT_EQ(Render("a IS NOT DISTINCT FROM b"), "(a <=> b)");
  EXPECT_EQ(Render("a IN (1, 2, b + 1)"), "(a IN (1, 2, (b + 1)))");
  EXPECT_EQ(Render("a NOT IN (1)"), "(a NOT IN (1))");
  EXPECT_EQ(Render("a + 1 BETWEEN 2 AND 3 AND c"), "(((a + 1) BETWEEN 2 AND 3) AND c)");
  EXPECT_EQ(Render("a NOT BETWEEN b - 1 AND b + 1"), "(a NOT BETWEEN (b - 1) AND (b + 1))");
  EXPECT_EQ(Render("a LIKE 'x%'"), "(a LIKE 'x%')");
  EXPECT_EQ(Render("a NOT ILIKE b || '%'"), "(a NOT ILIKE (b || '%'))");
  EXPECT_EQ(Render("a RLIKE '^x'"), "(a RLIKE '^x')");
  EXPECT_EQ(Render("a regexp '^x'"), "(a RLIKE '^x')");
  EXPECT_EQ(Render("a LIKE 'x!%' ESCAPE '!'"), "(a LIKE 'x!%' ESCAPE '!')");
  EXPECT_EQ(Render("NOT a LIKE b"), "(NOT (a LIKE b))");
}

TEST(ParserExpressionTest, PredicateNodeFields) {
  ASSERT_OK_AND_ASSIGN(ExprPtr in, ParseExpression("x NOT IN (1, 2)"));
  EXPECT_EQ(in->kind, ExprKind::kIn);
  EXPECT_TRUE(in->negated);
  EXPECT_EQ(in->children.size(), 3u);

  ASSERT_OK_AND_ASSIGN(ExprPtr like, ParseExpression("x ilike 'a|_' escape '|'"));
  EXPECT_EQ(like->kind, ExprKind::kLike);
  EXPECT_EQ(like->op, "ILIKE");
  EXPECT_EQ(like->text, "|");
  EXPECT_FALSE(like->negated);

  ASSERT_OK_AND_ASSIGN(ExprPtr is_bool, ParseExpression("x IS NOT TRUE"));
  EXPECT_EQ(is_bool->kind, ExprKind::kIsBool);
  EXPECT_EQ(is_bool->text, "true");
  EXPECT_TRUE(is_bool->negated);
}

TEST(ParserExpressionTest, EscapeMustBeOneCharacter) {
  ASSERT_RAISES_CONDITION("INVALID_ESC", ParseExpression("a LIKE 'x' ESCAPE '!!'"));
  ASSERT_RAISES_CONDITION("INVALID_ESC", ParseExpression("a LIKE 'x' ESCAPE ''"));
  ASSERT_OK(ParseExpression("a LIKE 'x' ESCAPE '\xC3\xA9'"));
}

TEST(ParserExpressionTest, ColumnsAndStars) {
  ASSERT_OK_AND_ASSIGN(ExprPtr column, ParseExpression("db.t.`my col`"));
  EXPECT_EQ(column->kind, ExprKind::kColumn);
  EXPECT_EQ(column->name_parts, (std::vector<std::string>{"db", "t", "my col"}));
  EXPECT_EQ(Render("t.a"), "t.a");
  EXPECT_EQ(Render("Tab.MixedCase"), "Tab.MixedCase");
  EXPECT_EQ(Render("`a``b`"), "`a``b`");
  EXPECT_EQ(Render("t.from"), "t.from");                        // any word may follow a dot
  EXPECT_EQ(Render("date + timestamp"), "(date + timestamp)");  // non-reserved keywords

  ASSERT_OK_AND_ASSIGN(ExprPtr star, ParseExpression("t.*"));
  EXPECT_EQ(star->kind, ExprKind::kStar);
  EXPECT_EQ(star->name_parts, (std::vector<std::string>{"t"}));
  ASSERT_OK_AND_ASSIGN(ExprPtr bare, ParseExpression("*"));
  EXPECT_EQ(bare->kind, ExprKind::kStar);
  EXPECT_TRUE(bare->name_parts.empty());
}

TEST(ParserExpressionTest, FunctionCalls) {
  ASSERT_OK_AND_ASSIGN(ExprPtr count_star, ParseExpression("count(*)"));
  EXPECT_EQ(count_star->kind, ExprKind::kFunction);
  EXPECT_TRUE(count_star->star);
  EXPECT_TRUE(count_star->children.empty());

  ASSERT_OK_AND_ASSIGN(ExprPtr distinct, ParseExpression("COUNT(DISTINCT x)"));
  EXPECT_TRUE(distinct->distinct);
  EXPECT_EQ(distinct->name_parts, (std::vector<std::string>{"COUNT"}));
  ASSERT_EQ(distinct->children.size(), 1u);

  EXPECT_EQ(Render("db.f(a, b + 1)"), "db.f(a, (b + 1))");
  EXPECT_EQ(Render("now()"), "now()");
  EXPECT_EQ(Render("sum(ALL x)"), "sum(x)");
  EXPECT_EQ(Render("f(g(x), *)"), "f(g(x), *)");
  // Reserved words name functions when a parenthesis follows.
  EXPECT_EQ(Render("left('abc', 2) || right('abc', 1)"), "(left('abc', 2) || right('abc', 1))");
}

TEST(ParserExpressionTest, Casts) {
  ASSERT_OK_AND_ASSIGN(ExprPtr cast, ParseExpression("CAST(a AS decimal(10, 2))"));
  EXPECT_EQ(cast->kind, ExprKind::kCast);
  EXPECT_FALSE(cast->is_try);
  EXPECT_EQ(cast->type.name, "DECIMAL");
  EXPECT_EQ(cast->type.parameters, (std::vector<int>{10, 2}));

  ASSERT_OK_AND_ASSIGN(ExprPtr try_cast, ParseExpression("try_cast(a || 'x' AS Int)"));
  EXPECT_TRUE(try_cast->is_try);
  EXPECT_EQ(try_cast->type.name, "INT");
  EXPECT_EQ(ToString(*try_cast), "TRY_CAST((a || 'x') AS INT)");

  for (std::string type :
       {"INT",     "INTEGER",   "BIGINT",        "LONG",          "SMALLINT",   "SHORT",
        "TINYINT", "BYTE",      "BOOLEAN",       "FLOAT",         "REAL",       "DOUBLE",
        "DECIMAL", "DEC(5)",    "NUMERIC(5,1)",  "STRING",        "VARCHAR(3)", "CHAR(2)",
        "DATE",    "TIMESTAMP", "TIMESTAMP_NTZ", "TIMESTAMP_LTZ", "BINARY"}) {
    ASSERT_OK_AND_ASSIGN(ExprPtr expr, ParseExpression("CAST(x AS " + type + ")"));
    EXPECT_EQ(ToString(expr->type), type);
  }
}

TEST(ParserExpressionTest, BadCastTypes) {
  ASSERT_RAISES_CONDITION("UNSUPPORTED_DATATYPE", ParseExpression("CAST(a AS foo)"));
  ASSERT_RAISES_CONDITION("UNSUPPORTED_DATATYPE", ParseExpression("CAST(a AS INT(3))"));
  ASSERT_RAISES_CONDITION("UNSUPPORTED_DATATYPE", ParseExpression("CAST(a AS DECIMAL(1,2,3))"));
  ASSERT_RAISES_CONDITION("DATATYPE_MISSING_SIZE", ParseExpression("CAST(a AS varchar)"));
  EXPECT_EQ(Render("CAST(a AS foo)"),
            "[UNSUPPORTED_DATATYPE] Unsupported data type \"FOO\". (line 1, column 11)\n"
            "== SQL (line 1, column 11) ==\n"
            "CAST(a AS foo)\n"
            "          ^");
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseExpression("CAST(a AS DECIMAL(x))"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseExpression("CAST(a INT)"));
}

TEST(ParserExpressionTest, CaseExpressions) {
  ASSERT_OK_AND_ASSIGN(ExprPtr simple, ParseExpression("CASE x WHEN 1 THEN 'a' ELSE 'b' END"));
  EXPECT_EQ(simple->kind, ExprKind::kCase);
  EXPECT_TRUE(simple->has_operand);
  EXPECT_TRUE(simple->has_else);
  EXPECT_EQ(simple->children.size(), 4u);

  ASSERT_OK_AND_ASSIGN(ExprPtr searched,
                       ParseExpression("case when a > 1 then 1 when a < 0 then -1 end"));
  EXPECT_FALSE(searched->has_operand);
  EXPECT_FALSE(searched->has_else);
  EXPECT_EQ(searched->children.size(), 4u);
  EXPECT_EQ(ToString(*searched), "CASE WHEN (a > 1) THEN 1 WHEN (a < 0) THEN -1 END");

  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseExpression("CASE x END"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseExpression("CASE WHEN a THEN b"));
}

// ---- Literals ----

struct LiteralCase {
  std::string text;
  LiteralKind kind;
  std::string value;
};

TEST(ParserLiteralTest, KindsAndText) {
  std::vector<LiteralCase> cases = {
      {"NULL", LiteralKind::kNull, ""},
      {"true", LiteralKind::kBoolean, "true"},
      {"FALSE", LiteralKind::kBoolean, "false"},
      {"42", LiteralKind::kInteger, "42"},
      {"42L", LiteralKind::kInteger, "42L"},
      {"7S", LiteralKind::kInteger, "7S"},
      {"7y", LiteralKind::kInteger, "7y"},
      {"-5", LiteralKind::kInteger, "-5"},
      {"1.5", LiteralKind::kDecimal, "1.5"},
      {".5", LiteralKind::kDecimal, ".5"},
      {"1.5BD", LiteralKind::kDecimal, "1.5BD"},
      {"1e3", LiteralKind::kDouble, "1e3"},
      {"1.5E-2", LiteralKind::kDouble, "1.5E-2"},
      {"1.5D", LiteralKind::kDouble, "1.5D"},
      {"1.5F", LiteralKind::kDouble, "1.5F"},
      {"'it''s'", LiteralKind::kString, "it's"},  // a doubled quote is one, as in Spark
      {"'a' \"b\"\n'c'", LiteralKind::kString, "abc"},
      {R"('tab\there')", LiteralKind::kString, "tab\there"},
      {"\"double\"", LiteralKind::kString, "double"},
      {"DATE '2024-01-31'", LiteralKind::kDate, "2024-01-31"},
      {"timestamp '2024-01-31 10:00:00'", LiteralKind::kTimestamp, "2024-01-31 10:00:00"},
      {"TIMESTAMP_LTZ '2024-01-31'", LiteralKind::kTimestamp, "2024-01-31"},
      {"TIMESTAMP_NTZ '2024-01-31'", LiteralKind::kTimestampNtz, "2024-01-31"},
      {"X'0aFF'", LiteralKind::kBinary, "0aFF"},
  };
  for (const LiteralCase& c : cases) {
    SCOPED_TRACE(c.text);
    ASSERT_OK_AND_ASSIGN(ExprPtr expr, ParseExpression(c.text));
    EXPECT_EQ(expr->kind, ExprKind::kLiteral);
    EXPECT_EQ(expr->literal_kind, c.kind);
    EXPECT_EQ(expr->text, c.value);
  }
}

TEST(ParserLiteralTest, MinusBelongsToANumberButNotToAName) {
  EXPECT_EQ(Render("-1 * b"), "(-1 * b)");
  EXPECT_EQ(Render("- 1.5"), "-1.5");
  EXPECT_EQ(Render("a-1"), "(a - 1)");
  EXPECT_EQ(Render("- -1"), "(- -1)");
  EXPECT_EQ(Render("-a"), "(- a)");
}

TEST(ParserLiteralTest, TypeWordsAreNamesWithoutAString) {
  EXPECT_EQ(Render("date"), "date");
  EXPECT_EQ(Render("timestamp(x)"), "timestamp(x)");
}

// ---- Positions and source text ----

TEST(ParserPositionTest, SourceTextIsTheExactTrimmedSubstring) {
  ASSERT_OK_AND_ASSIGN(ExprPtr paren, ParseExpression("  (i + 1) "));
  EXPECT_EQ(paren->source_text, "(i + 1)");
  EXPECT_EQ(paren->pos.column, 3);
  ASSERT_OK_AND_ASSIGN(ExprPtr bare, ParseExpression("i+1"));
  EXPECT_EQ(bare->source_text, "i+1");
  ASSERT_OK_AND_ASSIGN(ExprPtr call, ParseExpression("count( DISTINCT  x ) + 1"));
  EXPECT_EQ(call->children[0]->source_text, "count( DISTINCT  x )");
  EXPECT_EQ(call->children[1]->source_text, "1");
}

TEST(ParserPositionTest, SelectItemsAcrossLines) {
  ASSERT_OK_AND_ASSIGN(Statement statement,
                       ParseStatement("SELECT a,\n       b + 1 AS c\nFROM t\nWHERE x > 1"));
  auto& select = std::get<SelectStatement>(statement.node);
  EXPECT_EQ(statement.pos.line, 1);
  EXPECT_EQ(statement.pos.column, 1);
  const Expr& sum = *select.items[1].expr;
  EXPECT_EQ(sum.pos.line, 2);
  EXPECT_EQ(sum.pos.column, 8);
  EXPECT_EQ(sum.source_text, "b + 1");
  EXPECT_EQ(sum.children[1]->pos.column, 12);
  EXPECT_EQ(select.from->name.pos.line, 3);
  EXPECT_EQ(select.from->name.pos.column, 6);
  EXPECT_EQ(select.where->pos.line, 4);
  EXPECT_EQ(select.where->pos.column, 7);
  EXPECT_EQ(select.where->children[1]->pos.column, 11);
}

TEST(ParserPositionTest, OriginMakesPositionsScriptRelative) {
  ASSERT_OK_AND_ASSIGN(Statement statement,
                       ParseStatement("SELECT x,\n  y", SourcePosition{5, 20}));
  auto& select = std::get<SelectStatement>(statement.node);
  EXPECT_EQ(statement.pos.line, 5);
  EXPECT_EQ(statement.pos.column, 20);
  EXPECT_EQ(select.pos.column, 20);
  EXPECT_EQ(select.items[0].expr->pos.line, 5);
  EXPECT_EQ(select.items[0].expr->pos.column, 27);
  EXPECT_EQ(select.items[1].expr->pos.line, 6);
  EXPECT_EQ(select.items[1].expr->pos.column, 3);
}

// ---- SELECT ----

TEST(ParserSelectTest, FullQuery) {
  ASSERT_OK_AND_ASSIGN(
      Statement statement,
      ParseStatement("select distinct a, b AS x, c y, `d`, t.*, * FROM cat.db.tbl AS t "
                     "WHERE a > 1 ORDER BY a DESC NULLS FIRST, b, c ASC NULLS LAST "
                     "LIMIT 10 OFFSET 5;"));
  auto& select = std::get<SelectStatement>(statement.node);
  EXPECT_TRUE(select.distinct);
  ASSERT_EQ(select.items.size(), 6u);
  EXPECT_EQ(select.items[0].alias, "");
  EXPECT_EQ(select.items[1].alias, "x");
  EXPECT_EQ(select.items[2].alias, "y");
  EXPECT_EQ(select.items[3].expr->name_parts, (std::vector<std::string>{"d"}));
  EXPECT_EQ(select.items[4].expr->kind, ExprKind::kStar);
  EXPECT_EQ(select.items[5].expr->kind, ExprKind::kStar);
  ASSERT_TRUE(select.from.has_value());
  EXPECT_EQ(select.from->name.parts, (std::vector<std::string>{"cat", "db", "tbl"}));
  EXPECT_EQ(select.from->alias, "t");
  EXPECT_EQ(ToString(*select.where), "(a > 1)");
  ASSERT_EQ(select.order_by.size(), 3u);
  EXPECT_FALSE(select.order_by[0].ascending);
  EXPECT_EQ(select.order_by[0].nulls_first, true);
  EXPECT_TRUE(select.order_by[1].ascending);
  EXPECT_FALSE(select.order_by[1].nulls_first.has_value());
  EXPECT_EQ(select.order_by[2].nulls_first, false);
  EXPECT_EQ(ToString(*select.limit), "10");
  EXPECT_EQ(ToString(*select.offset), "5");
}

TEST(ParserSelectTest, Minimal) {
  ASSERT_OK_AND_ASSIGN(Statement statement, ParseStatement("SELECT 1"));
  auto& select = std::get<SelectStatement>(statement.node);
  EXPECT_FALSE(select.distinct);
  EXPECT_FALSE(select.from.has_value());
  EXPECT_EQ(select.where, nullptr);
  EXPECT_EQ(select.limit, nullptr);
  EXPECT_EQ(select.offset, nullptr);
  ASSERT_EQ(select.items.size(), 1u);
}

TEST(ParserSelectTest, AliasesWithoutAs) {
  ASSERT_OK_AND_ASSIGN(Statement statement, ParseStatement("SELECT ALL a b FROM t u LIMIT ALL"));
  auto& select = std::get<SelectStatement>(statement.node);
  EXPECT_FALSE(select.distinct);
  EXPECT_EQ(select.items[0].alias, "b");
  EXPECT_EQ(select.from->alias, "u");
  EXPECT_EQ(select.limit, nullptr);

  // Clause keywords are not aliases.
  ASSERT_OK_AND_ASSIGN(Statement limited, ParseStatement("SELECT a FROM t LIMIT 1"));
  auto& limited_select = std::get<SelectStatement>(limited.node);
  EXPECT_EQ(limited_select.from->alias, "");
  ASSERT_NE(limited_select.limit, nullptr);
}

TEST(ParserSelectTest, ExpressionItemsKeepSourceText) {
  ASSERT_OK_AND_ASSIGN(Statement statement, ParseStatement("SELECT (i + 1), i + 1, i+1 x FROM t"));
  auto& select = std::get<SelectStatement>(statement.node);
  EXPECT_EQ(select.items[0].expr->source_text, "(i + 1)");
  EXPECT_EQ(select.items[1].expr->source_text, "i + 1");
  EXPECT_EQ(select.items[2].expr->source_text, "i+1");
}

// ---- Commands ----

TEST(ParserCommandTest, ShowCatalogs) {
  ASSERT_OK_AND_ASSIGN(Statement all, ParseStatement("SHOW CATALOGS"));
  EXPECT_FALSE(std::get<ShowCatalogs>(all.node).pattern.has_value());
  ASSERT_OK_AND_ASSIGN(Statement like, ParseStatement("show catalogs like 'spark*'"));
  EXPECT_EQ(std::get<ShowCatalogs>(like.node).pattern, "spark*");
  ASSERT_OK_AND_ASSIGN(Statement bare, ParseStatement("SHOW CATALOGS 'x|y'"));
  EXPECT_EQ(std::get<ShowCatalogs>(bare.node).pattern, "x|y");
}

TEST(ParserCommandTest, ShowNamespaces) {
  for (std::string keyword : {"NAMESPACES", "DATABASES", "SCHEMAS"}) {
    ASSERT_OK_AND_ASSIGN(Statement statement, ParseStatement("SHOW " + keyword));
    auto& show = std::get<ShowNamespaces>(statement.node);
    EXPECT_FALSE(show.parent.has_value());
    EXPECT_FALSE(show.pattern.has_value());
  }
  ASSERT_OK_AND_ASSIGN(Statement statement, ParseStatement("SHOW NAMESPACES IN cat.ns LIKE 'a*'"));
  auto& show = std::get<ShowNamespaces>(statement.node);
  EXPECT_EQ(show.parent->parts, (std::vector<std::string>{"cat", "ns"}));
  EXPECT_EQ(show.parent->pos.column, 20);
  EXPECT_EQ(show.pattern, "a*");
  ASSERT_OK_AND_ASSIGN(Statement from, ParseStatement("SHOW SCHEMAS FROM cat 'b'"));
  EXPECT_EQ(std::get<ShowNamespaces>(from.node).pattern, "b");
}

TEST(ParserCommandTest, ShowTables) {
  ASSERT_OK_AND_ASSIGN(Statement all, ParseStatement("SHOW TABLES"));
  EXPECT_FALSE(std::get<ShowTables>(all.node).namespace_name.has_value());
  ASSERT_OK_AND_ASSIGN(Statement in, ParseStatement("SHOW TABLES FROM cat.db LIKE 't*'"));
  auto& show = std::get<ShowTables>(in.node);
  EXPECT_EQ(show.namespace_name->parts, (std::vector<std::string>{"cat", "db"}));
  EXPECT_EQ(show.pattern, "t*");
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("SHOW TABLES LIKE"));
  EXPECT_FALSE(show.views);
  ASSERT_OK_AND_ASSIGN(Statement views, ParseStatement("SHOW VIEWS IN db 'v*'"));
  EXPECT_TRUE(std::get<ShowTables>(views.node).views);
  EXPECT_EQ(std::get<ShowTables>(views.node).pattern, "v*");
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("SHOW VIEW"));
}

TEST(ParserCommandTest, Describe) {
  ASSERT_OK_AND_ASSIGN(Statement plain, ParseStatement("DESCRIBE t"));
  EXPECT_EQ(std::get<DescribeTable>(plain.node).table.parts, (std::vector<std::string>{"t"}));
  EXPECT_FALSE(std::get<DescribeTable>(plain.node).extended);
  ASSERT_OK_AND_ASSIGN(Statement extended, ParseStatement("desc table extended a.b.c"));
  auto& describe = std::get<DescribeTable>(extended.node);
  EXPECT_TRUE(describe.extended);
  EXPECT_EQ(describe.table.parts, (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_OK_AND_ASSIGN(Statement formatted, ParseStatement("DESCRIBE FORMATTED t"));
  EXPECT_TRUE(std::get<DescribeTable>(formatted.node).extended);
  // A keyword with nothing after it is the table's name.
  ASSERT_OK_AND_ASSIGN(Statement named, ParseStatement("DESCRIBE extended"));
  EXPECT_EQ(std::get<DescribeTable>(named.node).table.parts,
            (std::vector<std::string>{"extended"}));
  EXPECT_FALSE(std::get<DescribeTable>(named.node).extended);
}

// The named arguments of a call, as name -> literal text.
std::map<std::string, std::string> NamedLiterals(const Call& call) {
  std::map<std::string, std::string> out;
  for (const auto& arg : call.args) out[arg.name.value_or("?")] = arg.value->text;
  return out;
}

TEST(ParserCommandTest, DeltaCommandsAreCallsOfTheTablesCatalog) {
  ASSERT_OK_AND_ASSIGN(Statement history, ParseStatement("DESCRIBE HISTORY db.t LIMIT 3"));
  const auto& history_call = std::get<Call>(history.node);
  EXPECT_EQ(history_call.procedure.parts, (std::vector<std::string>{"system", "describe_history"}));
  ASSERT_TRUE(history_call.table.has_value());
  EXPECT_EQ(history_call.table->parts, (std::vector<std::string>{"db", "t"}));
  EXPECT_EQ(history_call.command, "DESCRIBE HISTORY");
  EXPECT_EQ(NamedLiterals(history_call), (std::map<std::string, std::string>{{"limit", "3"}}));
  ASSERT_OK_AND_ASSIGN(Statement detail, ParseStatement("DESC DETAIL t"));
  EXPECT_EQ(std::get<Call>(detail.node).table->parts, (std::vector<std::string>{"t"}));
  EXPECT_EQ(std::get<Call>(detail.node).procedure.parts[1], "describe_detail");
  EXPECT_TRUE(std::get<Call>(detail.node).args.empty());
  // Alone, the keyword is a table's name.
  ASSERT_OK_AND_ASSIGN(Statement named, ParseStatement("DESCRIBE history"));
  EXPECT_EQ(std::get<DescribeTable>(named.node).table.parts, (std::vector<std::string>{"history"}));
  ASSERT_OK_AND_ASSIGN(Statement vacuum, ParseStatement("VACUUM t RETAIN 1.5 HOURS DRY RUN"));
  EXPECT_EQ(std::get<Call>(vacuum.node).procedure.parts[1], "vacuum");
  EXPECT_EQ(NamedLiterals(std::get<Call>(vacuum.node)),
            (std::map<std::string, std::string>{{"retention_hours", "1.5"}, {"dry_run", "true"}}));
  ASSERT_OK_AND_ASSIGN(Statement plain, ParseStatement("VACUUM t"));
  EXPECT_TRUE(std::get<Call>(plain.node).args.empty());
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("VACUUM t RETAIN 5"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("DESCRIBE HISTORY t LIMIT x"));
}

TEST(ParserCommandTest, CallWithPositionalAndNamedArguments) {
  ASSERT_OK_AND_ASSIGN(Statement statement,
                       ParseStatement("CALL cat.ns.sum(1 + 1, in2 => 'x', `table` => 3)"));
  const auto& call = std::get<Call>(statement.node);
  EXPECT_EQ(call.procedure.parts, (std::vector<std::string>{"cat", "ns", "sum"}));
  EXPECT_FALSE(call.table.has_value());
  ASSERT_EQ(call.args.size(), 3u);
  EXPECT_FALSE(call.args[0].name.has_value());
  EXPECT_EQ(call.args[0].value->kind, ExprKind::kBinary);
  EXPECT_EQ(call.args[1].name, "in2");
  EXPECT_EQ(call.args[1].value->text, "x");
  EXPECT_EQ(call.args[2].name, "table");
  ASSERT_OK_AND_ASSIGN(Statement empty, ParseStatement("CALL p()"));
  EXPECT_TRUE(std::get<Call>(empty.node).args.empty());
  // `=>` is one token: a comparison with a greater-than sign does not become a named argument.
  ASSERT_OK_AND_ASSIGN(Statement compare, ParseStatement("CALL p(a >= 1)"));
  EXPECT_FALSE(std::get<Call>(compare.node).args[0].name.has_value());
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CALL p"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CALL p(a =>)"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CALL p(1,)"));
}

TEST(ParserCommandTest, ShowAndDescribeFunctions) {
  ASSERT_OK_AND_ASSIGN(Statement all, ParseStatement("SHOW FUNCTIONS"));
  EXPECT_EQ(std::get<ShowFunctions>(all.node).scope, ShowFunctions::Scope::kAll);
  ASSERT_OK_AND_ASSIGN(Statement user, ParseStatement("SHOW USER FUNCTIONS IN cat.ns LIKE 'f*'"));
  const auto& show = std::get<ShowFunctions>(user.node);
  EXPECT_EQ(show.scope, ShowFunctions::Scope::kUser);
  EXPECT_EQ(show.namespace_name->parts, (std::vector<std::string>{"cat", "ns"}));
  EXPECT_EQ(show.pattern, "f*");
  ASSERT_OK_AND_ASSIGN(Statement system, ParseStatement("SHOW SYSTEM FUNCTIONS 'up*'"));
  EXPECT_EQ(std::get<ShowFunctions>(system.node).scope, ShowFunctions::Scope::kSystem);
  ASSERT_OK_AND_ASSIGN(Statement describe, ParseStatement("DESCRIBE FUNCTION EXTENDED cat.ns.f"));
  EXPECT_TRUE(std::get<DescribeFunction>(describe.node).extended);
  EXPECT_EQ(std::get<DescribeFunction>(describe.node).function.parts.size(), 3u);
  // DESCRIBE function: a table named `function`.
  ASSERT_OK_AND_ASSIGN(Statement table, ParseStatement("DESCRIBE function"));
  EXPECT_TRUE(std::holds_alternative<DescribeTable>(table.node));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("SHOW USER"));
}

TEST(ParserCommandTest, ShowAndDescribeProcedures) {
  ASSERT_OK_AND_ASSIGN(Statement all, ParseStatement("SHOW PROCEDURES"));
  EXPECT_FALSE(std::get<ShowProcedures>(all.node).namespace_name.has_value());
  ASSERT_OK_AND_ASSIGN(Statement in, ParseStatement("SHOW PROCEDURES IN cat.ns"));
  EXPECT_EQ(std::get<ShowProcedures>(in.node).namespace_name->parts,
            (std::vector<std::string>{"cat", "ns"}));
  ASSERT_OK_AND_ASSIGN(Statement describe, ParseStatement("DESC PROCEDURE cat.system.vacuum"));
  EXPECT_EQ(std::get<DescribeProcedure>(describe.node).procedure.parts,
            (std::vector<std::string>{"cat", "system", "vacuum"}));
  ASSERT_OK_AND_ASSIGN(Statement table, ParseStatement("DESCRIBE procedure"));
  EXPECT_EQ(std::get<DescribeTable>(table.node).table.parts,
            (std::vector<std::string>{"procedure"}));
}

TEST(ParserCommandTest, TimeTravelAndReplaceWhere) {
  ASSERT_OK_AND_ASSIGN(Statement version, ParseStatement("SELECT * FROM t VERSION AS OF 3 x"));
  const auto& item = *std::get<SelectStatement>(version.node).from_item;
  ASSERT_TRUE(item.time_travel.has_value());
  EXPECT_TRUE(item.time_travel->by_version);
  EXPECT_EQ(item.time_travel->value->text, "3");
  EXPECT_EQ(item.alias, "x");
  ASSERT_OK_AND_ASSIGN(Statement time,
                       ParseStatement("SELECT * FROM t FOR SYSTEM_TIME AS OF '2024-01-01'"));
  EXPECT_FALSE(std::get<SelectStatement>(time.node).from_item->time_travel->by_version);
  // Without AS OF, TIMESTAMP is an alias.
  ASSERT_OK_AND_ASSIGN(Statement alias, ParseStatement("SELECT * FROM t timestamp"));
  EXPECT_FALSE(std::get<SelectStatement>(alias.node).from_item->time_travel.has_value());
  ASSERT_OK_AND_ASSIGN(Statement replace,
                       ParseStatement("INSERT INTO t REPLACE WHERE d = 1 SELECT * FROM s"));
  EXPECT_NE(std::get<Insert>(replace.node).replace_where, nullptr);
}

TEST(ParserCommandTest, Use) {
  for (std::string text :
       {"USE cat.db", "USE NAMESPACE cat.db", "use database cat.db", "USE SCHEMA cat.db"}) {
    ASSERT_OK_AND_ASSIGN(Statement statement, ParseStatement(text));
    EXPECT_EQ(std::get<Use>(statement.node).name.parts, (std::vector<std::string>{"cat", "db"}));
  }
  ASSERT_OK_AND_ASSIGN(Statement named, ParseStatement("USE namespace"));
  EXPECT_EQ(std::get<Use>(named.node).name.parts, (std::vector<std::string>{"namespace"}));
}

TEST(ParserCommandTest, SetTakesRawText) {
  ASSERT_OK_AND_ASSIGN(Statement path, ParseStatement("SET spark.sql.catalog.ex=build/examples/"
                                                      "libparley_example_range.so"));
  auto& set = std::get<SetConfig>(path.node);
  EXPECT_EQ(set.key, "spark.sql.catalog.ex");
  EXPECT_EQ(set.value, "build/examples/libparley_example_range.so");
  EXPECT_FALSE(set.verbose);

  ASSERT_OK_AND_ASSIGN(Statement spaced, ParseStatement("SET  a.b  =  some value  ; "));
  EXPECT_EQ(std::get<SetConfig>(spaced.node).key, "a.b");
  EXPECT_EQ(std::get<SetConfig>(spaced.node).value, "some value");

  ASSERT_OK_AND_ASSIGN(Statement odd, ParseStatement("SET x=/tmp/$HOME/it's -- note"));
  EXPECT_EQ(std::get<SetConfig>(odd.node).value, "/tmp/$HOME/it's -- note");

  ASSERT_OK_AND_ASSIGN(Statement comment, ParseStatement("SET x = 1 -- note"));
  EXPECT_EQ(std::get<SetConfig>(comment.node).value, "1");

  ASSERT_OK_AND_ASSIGN(Statement empty_value, ParseStatement("SET x="));
  EXPECT_EQ(std::get<SetConfig>(empty_value.node).value, "");

  ASSERT_OK_AND_ASSIGN(Statement quoted, ParseStatement("SET `my key=1`=2"));
  EXPECT_EQ(std::get<SetConfig>(quoted.node).key, "my key=1");
  EXPECT_EQ(std::get<SetConfig>(quoted.node).value, "2");
}

TEST(ParserCommandTest, SetForms) {
  ASSERT_OK_AND_ASSIGN(Statement all, ParseStatement("SET"));
  auto& list = std::get<SetConfig>(all.node);
  EXPECT_FALSE(list.key.has_value());
  EXPECT_FALSE(list.value.has_value());
  EXPECT_FALSE(list.verbose);

  ASSERT_OK_AND_ASSIGN(Statement verbose, ParseStatement("set -v;"));
  EXPECT_TRUE(std::get<SetConfig>(verbose.node).verbose);

  ASSERT_OK_AND_ASSIGN(Statement one, ParseStatement("SET spark.sql.ansi.enabled"));
  EXPECT_EQ(std::get<SetConfig>(one.node).key, "spark.sql.ansi.enabled");
  EXPECT_FALSE(std::get<SetConfig>(one.node).value.has_value());
}

TEST(ParserCommandTest, SetRejectsBadKeysAndSecondStatements) {
  ASSERT_RAISES_CONDITION("INVALID_PROPERTY_KEY", ParseStatement("SET a b=c"));
  ASSERT_RAISES_CONDITION("INVALID_PROPERTY_KEY", ParseStatement("SET =c"));
  EXPECT_EQ(StatementError("SET a b=c"),
            "[INVALID_PROPERTY_KEY] \"a b\" is an invalid property key, please use quotes, e.g. "
            "SET `a b`=`value`. (line 1, column 5)\n"
            "== SQL (line 1, column 5) ==\n"
            "SET a b=c\n"
            "    ^");
  EXPECT_EQ(StatementError("SET a=b; SELECT 1"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near ';'. (line 1, column 8)\n"
            "== SQL (line 1, column 8) ==\n"
            "SET a=b; SELECT 1\n"
            "       ^");
}

TEST(ParserCommandTest, Reset) {
  ASSERT_OK_AND_ASSIGN(Statement all, ParseStatement("RESET"));
  EXPECT_FALSE(std::get<ResetConfig>(all.node).key.has_value());
  ASSERT_OK_AND_ASSIGN(Statement one, ParseStatement("RESET spark.sql.x ;"));
  EXPECT_EQ(std::get<ResetConfig>(one.node).key, "spark.sql.x");
  ASSERT_RAISES_CONDITION("INVALID_PROPERTY_KEY", ParseStatement("RESET a b"));
}

TEST(ParserCommandTest, Explain) {
  ASSERT_OK_AND_ASSIGN(Statement simple, ParseStatement("EXPLAIN SELECT 1"));
  auto& explain = std::get<Explain>(simple.node);
  EXPECT_EQ(explain.mode, ExplainMode::kSimple);
  EXPECT_TRUE(std::holds_alternative<SelectStatement>(explain.statement->node));
  EXPECT_EQ(explain.statement->pos.column, 9);

  std::vector<std::pair<std::string, ExplainMode>> modes = {{"EXTENDED", ExplainMode::kExtended},
                                                            {"formatted", ExplainMode::kFormatted},
                                                            {"CODEGEN", ExplainMode::kCodegen},
                                                            {"COST", ExplainMode::kCost},
                                                            {"ANALYZE", ExplainMode::kAnalyze}};
  for (const auto& [keyword, mode] : modes) {
    ASSERT_OK_AND_ASSIGN(Statement statement,
                         ParseStatement("EXPLAIN " + keyword + " SELECT a FROM t"));
    EXPECT_EQ(std::get<Explain>(statement.node).mode, mode);
  }
  ASSERT_OK_AND_ASSIGN(Statement show, ParseStatement("EXPLAIN SHOW TABLES"));
  EXPECT_TRUE(std::holds_alternative<ShowTables>(std::get<Explain>(show.node).statement->node));
}

// ---- Syntax errors ----

TEST(ParserErrorTest, MissingExpression) {
  EXPECT_EQ(StatementError("SELECT FROM t"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near 'FROM'. (line 1, column 8)\n"
            "== SQL (line 1, column 8) ==\n"
            "SELECT FROM t\n"
            "       ^");
}

TEST(ParserErrorTest, EndOfInput) {
  EXPECT_EQ(StatementError("SELECT a +\n"),
            "[PARSE_SYNTAX_ERROR] Syntax error at end of input. (line 1, column 11)\n"
            "== SQL (line 1, column 11) ==\n"
            "SELECT a +\n"
            "          ^");
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("SELECT a FROM t WHERE"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement(""));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement(";"));
}

TEST(ParserErrorTest, UnexpectedTokenOnALaterLine) {
  EXPECT_EQ(StatementError("SELECT a,\n  b c d\nFROM t"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near 'd'. (line 2, column 7)\n"
            "== SQL (line 2, column 7) ==\n"
            "  b c d\n"
            "      ^");
}

TEST(ParserErrorTest, TrailingGarbage) {
  EXPECT_EQ(StatementError("SELECT 1 FROM t 'oops'"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near ''oops''. (line 1, column 17)\n"
            "== SQL (line 1, column 17) ==\n"
            "SELECT 1 FROM t 'oops'\n"
            "                ^");
  EXPECT_EQ(Render("a b c"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near 'b'. (line 1, column 3)\n"
            "== SQL (line 1, column 3) ==\n"
            "a b c\n"
            "  ^");
}

TEST(ParserErrorTest, UnterminatedLiterals) {
  EXPECT_EQ(StatementError("SELECT 'abc FROM t"),
            "[PARSE_SYNTAX_ERROR] Unterminated string literal: missing closing quote. "
            "(line 1, column 8)\n"
            "== SQL (line 1, column 8) ==\n"
            "SELECT 'abc FROM t\n"
            "       ^");
  EXPECT_EQ(StatementError("SELECT `abc FROM t"),
            "[PARSE_SYNTAX_ERROR] Unterminated quoted identifier: missing closing backquote. "
            "(line 1, column 8)\n"
            "== SQL (line 1, column 8) ==\n"
            "SELECT `abc FROM t\n"
            "       ^");
  EXPECT_EQ(StatementError("SELECT 1 /* open"),
            "[PARSE_SYNTAX_ERROR] Unterminated comment: '/*' has no matching '*/'. "
            "(line 1, column 10)\n"
            "== SQL (line 1, column 10) ==\n"
            "SELECT 1 /* open\n"
            "         ^");
}

TEST(ParserErrorTest, ReportsTheFirstProblem) {
  // The syntax error comes before the unterminated string, so it is the one reported.
  EXPECT_EQ(StatementError("SELECT a FROM WHERE 'x"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near 'WHERE'. (line 1, column 15)\n"
            "== SQL (line 1, column 15) ==\n"
            "SELECT a FROM WHERE 'x\n"
            "              ^");
}

TEST(ParserErrorTest, ScriptRelativePositions) {
  EXPECT_EQ(StatementError("SELECT\n  1 +", SourcePosition{10, 5}),
            "[PARSE_SYNTAX_ERROR] Syntax error at end of input. (line 11, column 6)\n"
            "== SQL (line 11, column 6) ==\n"
            "  1 +\n"
            "     ^");
}

TEST(ParserErrorTest, MisplacedTokens) {
  for (std::string text : {"SELECT a IN ()", "SELECT a BETWEEN 1", "SELECT (a", "SELECT a,",
                           "SELECT * FROM", "SELECT a ORDER a", "SELECT a FROM t ORDER BY a NULLS",
                           "SELECT a AS FROM t", "SELECT a IS 1", "SELECT f(a,)", "SELECT #",
                           "DROP VIEW", "SELECT 1 2", "SELECT a FROM t.", "SELECT t.1"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement(text));
  }
}

// ---- Splitting scripts ----

// `open` `count` times, `middle`, then `close` `count` times.
std::string Nested(std::string_view open, int count, std::string_view middle,
                   std::string_view close) {
  std::string out;
  for (int i = 0; i < count; ++i) out += open;
  out += middle;
  for (int i = 0; i < count; ++i) out += close;
  return out;
}

TEST(ParserErrorTest, DeepNestingIsTooComplexNotAStackOverflow) {
  // Spark parses 300 nested parentheses and 700 chained operators, and reports 400 and 1000
  // as FAILED_TO_PARSE_TOO_COMPLEX.
  EXPECT_OK(ParseStatement("SELECT " + Nested("(", 300, "1", ")")));
  EXPECT_OK(ParseStatement("SELECT 1" + Nested(" + 1", 700, "", "")));
  EXPECT_OK(ParseStatement("SELECT 1 FROM t" + Nested(" JOIN t", 300, "", "")));
  for (const std::string& text :
       {"SELECT " + Nested("(", 400, "1", ")"), "SELECT " + Nested("(", 100000, "1", ")"),
        "SELECT 1" + Nested(" + 1", 1000, "", ""), "SELECT 1" + Nested(" OR 1", 1000, "", ""),
        "SELECT 1" + Nested(" AND 1", 1000, "", ""), "SELECT " + Nested("- ", 1001, "a", ""),
        "SELECT " + Nested("NOT ", 1001, "a", ""), "SELECT a" + Nested("::int", 1001, "", ""),
        "SELECT a" + Nested("[0]", 1001, "", ""),
        "SELECT 1" + Nested(" UNION SELECT 1", 1001, "", ""),
        "SELECT 1 FROM t" + Nested(", t", 1001, "", ""),
        "SELECT 1 FROM t" + Nested(" JOIN t", 1001, "", ""), Nested("(", 400, "SELECT 1", ")"),
        "SELECT * FROM " + Nested("(", 400, "t", ")"), "SELECT " + Nested("f(", 400, "1", ")"),
        "SELECT " + Nested("(SELECT ", 400, "1", ")")}) {
    SCOPED_TRACE(text.substr(0, 40));
    ASSERT_RAISES_CONDITION("FAILED_TO_PARSE_TOO_COMPLEX", ParseStatement(text));
  }
}

TEST(ParserErrorTest, NestedChoicesThatFailAreNotReparsed) {
  // Each "((" is a choice between a subquery and an expression; when everything inside fails,
  // both alternatives fail at every level. Parsing them again made this take 2^n steps.
  for (const std::string& text :
       {"SELECT " + Nested("((SELECT ", 300, "1 +", ""), "SELECT " + Nested("(", 300, "SELECT", ""),
        "SELECT * FROM " + Nested("((SELECT * FROM ", 300, "t WHERE", "")}) {
    SCOPED_TRACE(text.substr(0, 40));
    auto parsed = ParseStatement(text);
    ASSERT_FALSE(parsed.ok());
    EXPECT_TRUE(ErrorCondition(parsed.status()) == "PARSE_SYNTAX_ERROR" ||
                ErrorCondition(parsed.status()) == "FAILED_TO_PARSE_TOO_COMPLEX")
        << parsed.status().ToString();
  }
}

TEST(SplitStatementsTest, RespectsQuotesAndComments) {
  std::string script =
      "SELECT ';' AS a;  -- one; still a comment\n"
      "SELECT \"x;y\", `c;d` /* ; */ FROM t ;;\n"
      "  ;  /* only a comment; */ ;\n"
      "SET k=v;\n"
      "  SELECT 'it\\';s'";
  ASSERT_OK_AND_ASSIGN(std::vector<StatementText> statements, SplitStatements(script));
  ASSERT_EQ(statements.size(), 4u);
  EXPECT_EQ(statements[0].text, "SELECT ';' AS a");
  EXPECT_EQ(statements[0].start.line, 1);
  EXPECT_EQ(statements[0].start.column, 1);
  EXPECT_EQ(statements[1].text, "SELECT \"x;y\", `c;d` /* ; */ FROM t");
  EXPECT_EQ(statements[1].start.line, 2);
  EXPECT_EQ(statements[1].start.column, 1);
  EXPECT_EQ(statements[2].text, "SET k=v");
  EXPECT_EQ(statements[2].start.line, 4);
  EXPECT_EQ(statements[3].text, "SELECT 'it\\';s'");
  EXPECT_EQ(statements[3].start.line, 5);
  EXPECT_EQ(statements[3].start.column, 3);
}

TEST(SplitStatementsTest, EmptyScripts) {
  ASSERT_OK_AND_ASSIGN(std::vector<StatementText> none, SplitStatements(" ; -- x\n /* y */ ;"));
  EXPECT_TRUE(none.empty());
  ASSERT_OK_AND_ASSIGN(std::vector<StatementText> empty, SplitStatements(""));
  EXPECT_TRUE(empty.empty());
}

TEST(SplitStatementsTest, ErrorsPointIntoTheScript) {
  ASSERT_OK_AND_ASSIGN(std::vector<StatementText> statements,
                       SplitStatements("SELECT 1;\nSELECT 2; SELECT FROM t; SELECT 'open; x"));
  ASSERT_EQ(statements.size(), 4u);
  EXPECT_EQ(statements[2].start.line, 2);
  EXPECT_EQ(statements[2].start.column, 11);
  for (const StatementText& statement : statements) {
    ASSERT_OK_AND_ASSIGN(std::vector<StatementText> again, SplitStatements(statement.text));
    EXPECT_EQ(again.size(), 1u);
  }
  EXPECT_EQ(StatementError(statements[2].text, statements[2].start),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near 'FROM'. (line 2, column 18)\n"
            "== SQL (line 2, column 18) ==\n"
            "SELECT FROM t\n"
            "       ^");
  // The unterminated string swallows the rest of the script, semicolon included.
  EXPECT_EQ(statements[3].text, "SELECT 'open; x");
  EXPECT_EQ(StatementError(statements[3].text, statements[3].start),
            "[PARSE_SYNTAX_ERROR] Unterminated string literal: missing closing quote. "
            "(line 2, column 33)\n"
            "== SQL (line 2, column 33) ==\n"
            "SELECT 'open; x\n"
            "       ^");
}

// ---- Printer round trip ----

TEST(AstPrinterTest, RenderingParsesBackToTheSameTree) {
  for (std::string text :
       {"a OR b AND NOT c = d", "CASE WHEN x IS NULL THEN 'it''s' ELSE `odd name` END",
        "-a * - -1 + ~b", "x NOT BETWEEN 1 AND 2 OR y IN (1.5BD, 2e3, 3L)",
        "CAST(a AS DECIMAL(10, 2)) || TRY_CAST(b AS STRING)", "f(DISTINCT a, b) / t.`from`",
        "DATE '2024-01-01' < TIMESTAMP_NTZ '2024-01-01 00:00:00'", "X'0A' <=> NULL",
        "a LIKE 'x\\\\%' ESCAPE '\\\\' AND b NOT RLIKE 'q\\n'", "count(*) IS NOT TRUE"}) {
    SCOPED_TRACE(text);
    std::string once = Render(text);
    EXPECT_EQ(Render(once), once);
  }
}

}  // namespace
}  // namespace parley::sql
