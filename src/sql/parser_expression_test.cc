// Tests for the expression forms of the full query grammar: aggregate calls with DISTINCT,
// FILTER, WITHIN GROUP and IGNORE|RESPECT NULLS; window calls with OVER and frames; scalar,
// EXISTS and IN subqueries (including the ambiguous parenthesised forms); INTERVAL literals and
// Spark's checks on them; EXTRACT; `::` casts and interval types; positions, source text and
// syntax errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sql/ast_printer.h"
#include "sql/parser.h"
#include "testing/gtest_util.h"

namespace parley::sql {
namespace {

using Strings = std::vector<std::string>;

std::string Render(std::string_view text) {
  Result<ExprPtr> result = ParseExpression(text);
  if (!result.ok()) return result.status().message();
  return ToString(**result);
}

// ---- Aggregate calls ----

TEST(ParserAggregateTest, CountForms) {
  ASSERT_OK_AND_ASSIGN(ExprPtr star, ParseExpression("count(*) FILTER (WHERE x > 0)"));
  EXPECT_EQ(star->kind, ExprKind::kFunction);
  EXPECT_TRUE(star->star);
  ASSERT_NE(star->filter, nullptr);
  EXPECT_EQ(ToString(*star->filter), "(x > 0)");
  EXPECT_EQ(star->filter->pos.column, 24);
  EXPECT_EQ(star->source_text, "count(*) FILTER (WHERE x > 0)");

  ASSERT_OK_AND_ASSIGN(ExprPtr distinct, ParseExpression("count(DISTINCT a, b + 1)"));
  EXPECT_TRUE(distinct->distinct);
  ASSERT_EQ(distinct->children.size(), 2u);
  EXPECT_EQ(ToString(*distinct->children[1]), "(b + 1)");
  EXPECT_EQ(distinct->filter, nullptr);
  EXPECT_EQ(distinct->window, nullptr);
  EXPECT_FALSE(distinct->ignore_nulls.has_value());
  EXPECT_EQ(distinct->subquery_kind, SubqueryKind::kNone);
}

TEST(ParserAggregateTest, Suffixes) {
  ASSERT_OK_AND_ASSIGN(ExprPtr within,
                       ParseExpression("percentile_cont(0.25) WITHIN GROUP (ORDER BY x DESC)"));
  ASSERT_EQ(within->within_group.size(), 1u);
  EXPECT_FALSE(within->within_group[0].ascending);
  ASSERT_OK_AND_ASSIGN(ExprPtr ignore, ParseExpression("first(x) IGNORE NULLS"));
  EXPECT_EQ(ignore->ignore_nulls, true);
  ASSERT_OK_AND_ASSIGN(ExprPtr respect, ParseExpression("last(x) respect nulls OVER w"));
  EXPECT_EQ(respect->ignore_nulls, false);
  EXPECT_EQ(respect->window->name, "w");
  EXPECT_EQ(Render("sum(DISTINCT x) FILTER (WHERE y) + 1"),
            "(sum(DISTINCT x) FILTER (WHERE y) + 1)");

  // The suffix words are not reserved: without their continuation they are aliases.
  ASSERT_OK_AND_ASSIGN(Statement statement,
                       ParseStatement("SELECT count(*) filter, f(x) over, g(y) ignore FROM t"));
  auto& select = std::get<SelectStatement>(statement.node);
  EXPECT_EQ(select.items[0].alias, "filter");
  EXPECT_EQ(select.items[0].expr->filter, nullptr);
  EXPECT_EQ(select.items[1].alias, "over");
  EXPECT_EQ(select.items[1].expr->window, nullptr);
  EXPECT_EQ(select.items[2].alias, "ignore");
}

// ---- Window calls ----

TEST(ParserWindowTest, InlineSpecifications) {
  ASSERT_OK_AND_ASSIGN(ExprPtr call,
                       ParseExpression("sum(x) OVER (PARTITION BY a, b ORDER BY c DESC NULLS "
                                       "LAST, d ROWS BETWEEN UNBOUNDED PRECEDING AND 1 "
                                       "FOLLOWING)"));
  ASSERT_NE(call->window, nullptr);
  const WindowSpec& window = *call->window;
  EXPECT_EQ(window.pos.column, 13);
  EXPECT_TRUE(window.name.empty());
  ASSERT_EQ(window.partition_by.size(), 2u);
  EXPECT_EQ(window.partition_by[1]->name_parts, (Strings{"b"}));
  ASSERT_EQ(window.order_by.size(), 2u);
  EXPECT_FALSE(window.order_by[0].ascending);
  EXPECT_EQ(window.order_by[0].nulls_first, false);
  ASSERT_TRUE(window.frame.has_value());
  EXPECT_EQ(window.frame->type, FrameType::kRows);
  EXPECT_EQ(window.frame->start.type, FrameBoundType::kUnboundedPreceding);
  EXPECT_EQ(window.frame->start.offset, nullptr);
  EXPECT_EQ(window.frame->end.type, FrameBoundType::kFollowing);
  EXPECT_EQ(ToString(*window.frame->end.offset), "1");

  ASSERT_OK_AND_ASSIGN(ExprPtr empty, ParseExpression("row_number() OVER ()"));
  EXPECT_TRUE(empty->window->partition_by.empty());
  EXPECT_FALSE(empty->window->frame.has_value());

  // DISTRIBUTE BY and SORT BY are PARTITION BY and ORDER BY.
  EXPECT_EQ(Render("lag(x) OVER (DISTRIBUTE BY a SORT BY b)"),
            "lag(x) OVER (PARTITION BY a ORDER BY b)");
}

TEST(ParserWindowTest, Frames) {
  struct Case {
    std::string frame;
    FrameType type;
    FrameBoundType start;
    FrameBoundType end;
  };
  std::vector<Case> cases = {
      {"ROWS UNBOUNDED PRECEDING", FrameType::kRows, FrameBoundType::kUnboundedPreceding,
       FrameBoundType::kCurrentRow},
      {"rows 3 preceding", FrameType::kRows, FrameBoundType::kPreceding,
       FrameBoundType::kCurrentRow},
      {"RANGE CURRENT ROW", FrameType::kRange, FrameBoundType::kCurrentRow,
       FrameBoundType::kCurrentRow},
      {"RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING", FrameType::kRange,
       FrameBoundType::kCurrentRow, FrameBoundType::kUnboundedFollowing},
      {"ROWS BETWEEN 2 FOLLOWING AND 5 FOLLOWING", FrameType::kRows, FrameBoundType::kFollowing,
       FrameBoundType::kFollowing},
      {"RANGE BETWEEN INTERVAL 1 DAY PRECEDING AND CURRENT ROW", FrameType::kRange,
       FrameBoundType::kPreceding, FrameBoundType::kCurrentRow},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.frame);
    ASSERT_OK_AND_ASSIGN(ExprPtr call, ParseExpression("f() OVER (ORDER BY x " + c.frame + ")"));
    const WindowFrame& frame = *call->window->frame;
    EXPECT_EQ(frame.pos.column, 22);
    EXPECT_EQ(frame.type, c.type);
    EXPECT_EQ(frame.start.type, c.start);
    EXPECT_EQ(frame.end.type, c.end);
  }
  ASSERT_OK_AND_ASSIGN(ExprPtr interval,
                       ParseExpression("f() OVER (ORDER BY d RANGE INTERVAL '1' DAY PRECEDING)"));
  EXPECT_TRUE(interval->window->frame->start.offset->interval.has_value());
}

TEST(ParserWindowTest, NamedWindowsAndErrors) {
  ASSERT_OK_AND_ASSIGN(ExprPtr bare, ParseExpression("rank() OVER w"));
  EXPECT_EQ(bare->window->name, "w");
  ASSERT_OK_AND_ASSIGN(ExprPtr parenthesised, ParseExpression("rank() OVER (w)"));
  EXPECT_EQ(parenthesised->window->name, "w");
  EXPECT_TRUE(parenthesised->window->order_by.empty());
  EXPECT_EQ(Render("rank() over (w)"), "rank() OVER w");

  EXPECT_EQ(Render("sum(a) OVER (ROWS 1)"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near ')'. (line 1, column 20)\n"
            "== SQL (line 1, column 20) ==\n"
            "sum(a) OVER (ROWS 1)\n"
            "                   ^");
  for (std::string text : {"f() OVER (PARTITION a)", "f() OVER (ORDER BY)", "f() OVER (",
                           "f() OVER (ROWS BETWEEN 1 PRECEDING)", "f() OVER (w ORDER BY a)",
                           "f() OVER (ROWS BETWEEN UNBOUNDED AND CURRENT ROW)", "f() FILTER (x)",
                           "f() FILTER (WHERE x", "f() WITHIN GROUP (x)"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseExpression(text));
  }
}

// ---- Subquery expressions ----

TEST(ParserSubqueryTest, Scalar) {
  ASSERT_OK_AND_ASSIGN(ExprPtr sum, ParseExpression("1 + (SELECT max(a) FROM t WHERE t.b = x)"));
  const Expr& subquery = *sum->children[1];
  EXPECT_EQ(subquery.kind, ExprKind::kFunction);
  EXPECT_EQ(subquery.name_parts, (Strings{"scalar_subquery"}));
  EXPECT_TRUE(subquery.children.empty());
  EXPECT_EQ(subquery.subquery_kind, SubqueryKind::kScalar);
  ASSERT_NE(subquery.subquery, nullptr);
  EXPECT_EQ(subquery.subquery->from->name.parts, (Strings{"t"}));
  EXPECT_EQ(subquery.pos.column, 5);
  EXPECT_EQ(subquery.source_text, "(SELECT max(a) FROM t WHERE t.b = x)");

  ASSERT_OK_AND_ASSIGN(ExprPtr with, ParseExpression("(WITH c AS (SELECT 1) SELECT * FROM c)"));
  EXPECT_EQ(with->subquery_kind, SubqueryKind::kScalar);
  EXPECT_EQ(with->subquery->with.size(), 1u);
  ASSERT_OK_AND_ASSIGN(ExprPtr values, ParseExpression("(VALUES 1)"));
  EXPECT_EQ(values->subquery->kind, QueryKind::kValues);
}

TEST(ParserSubqueryTest, ExistsAndIn) {
  ASSERT_OK_AND_ASSIGN(ExprPtr exists,
                       ParseExpression("NOT EXISTS (SELECT 1 FROM u WHERE u.a = t.a) AND b"));
  const Expr& negation = *exists->children[0];
  EXPECT_EQ(negation.op, "NOT");
  const Expr& test = *negation.children[0];
  EXPECT_EQ(test.kind, ExprKind::kFunction);
  EXPECT_EQ(test.name_parts, (Strings{"exists"}));
  EXPECT_EQ(test.subquery_kind, SubqueryKind::kExists);
  EXPECT_EQ(test.pos.column, 5);
  EXPECT_EQ(test.source_text, "EXISTS (SELECT 1 FROM u WHERE u.a = t.a)");

  ASSERT_OK_AND_ASSIGN(ExprPtr in, ParseExpression("a + 1 NOT IN (SELECT b FROM u)"));
  EXPECT_EQ(in->kind, ExprKind::kIn);
  EXPECT_TRUE(in->negated);
  EXPECT_EQ(in->subquery_kind, SubqueryKind::kIn);
  ASSERT_EQ(in->children.size(), 1u);
  EXPECT_EQ(ToString(*in->children[0]), "(a + 1)");
  EXPECT_EQ(in->subquery->items.size(), 1u);
  EXPECT_EQ(Render("a IN (SELECT b FROM u UNION SELECT c FROM v)"),
            "(a IN ((SELECT b FROM u) UNION (SELECT c FROM v)))");

  // exists(...) without a query is an ordinary call.
  ASSERT_OK_AND_ASSIGN(ExprPtr call, ParseExpression("exists(arr, x)"));
  EXPECT_EQ(call->subquery_kind, SubqueryKind::kNone);
  EXPECT_EQ(call->children.size(), 2u);
}

TEST(ParserSubqueryTest, AmbiguousParentheses) {
  // A '(' that opens both a query and an expression: Spark's alternative order decides.
  ASSERT_OK_AND_ASSIGN(ExprPtr plus, ParseExpression("((SELECT 1) + 1)"));
  EXPECT_EQ(plus->kind, ExprKind::kBinary);
  EXPECT_EQ(plus->children[0]->subquery_kind, SubqueryKind::kScalar);
  ASSERT_OK_AND_ASSIGN(ExprPtr set_operation, ParseExpression("((SELECT 1) UNION (SELECT 2))"));
  EXPECT_EQ(set_operation->subquery_kind, SubqueryKind::kScalar);
  EXPECT_EQ(set_operation->subquery->kind, QueryKind::kSetOperation);
  ASSERT_OK_AND_ASSIGN(ExprPtr doubled, ParseExpression("((SELECT 1))"));
  EXPECT_EQ(doubled->subquery_kind, SubqueryKind::kScalar);

  ASSERT_OK_AND_ASSIGN(ExprPtr list, ParseExpression("x IN ((SELECT 1), 2)"));
  EXPECT_EQ(list->subquery_kind, SubqueryKind::kNone);
  ASSERT_EQ(list->children.size(), 3u);
  EXPECT_EQ(list->children[1]->subquery_kind, SubqueryKind::kScalar);
  ASSERT_OK_AND_ASSIGN(ExprPtr query, ParseExpression("x IN ((SELECT 1) UNION (SELECT 2))"));
  EXPECT_EQ(query->subquery_kind, SubqueryKind::kIn);
  ASSERT_OK_AND_ASSIGN(ExprPtr exists, ParseExpression("EXISTS ((SELECT 1))"));
  EXPECT_EQ(exists->subquery_kind, SubqueryKind::kExists);
}

TEST(ParserSubqueryTest, ErrorsReportTheFurthestAlternative) {
  // The query alternative gets further than the expression one, so its error is reported.
  EXPECT_EQ(Render("((SELECT 1) UNION (SELECT FROM t))"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near 'FROM'. (line 1, column 27)\n"
            "== SQL (line 1, column 27) ==\n"
            "((SELECT 1) UNION (SELECT FROM t))\n"
            "                          ^");
  // And the other way round.
  EXPECT_EQ(Render("((SELECT 1) + )"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near ')'. (line 1, column 15)\n"
            "== SQL (line 1, column 15) ==\n"
            "((SELECT 1) + )\n"
            "              ^");
  for (std::string text : {"(SELECT 1", "EXISTS (SELECT 1", "x IN (SELECT 1",
                           "(SELECT 1) IN (SELECT 2", "EXISTS SELECT 1", "x = EXISTS (SELECT 1)"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseExpression(text));
  }
}

// ---- INTERVAL ----

struct IntervalCase {
  std::string text;
  std::vector<IntervalPart> parts;
  std::string to_unit;
};

TEST(ParserIntervalTest, Forms) {
  std::vector<IntervalCase> cases = {
      {"INTERVAL '1' DAY", {{"1", "DAY"}}, ""},
      {"interval 3 months", {{"3", "MONTH"}}, ""},
      {"INTERVAL -1.5 HOURS", {{"-1.5", "HOUR"}}, ""},
      {"INTERVAL +2 WEEKS", {{"+2", "WEEK"}}, ""},
      {"INTERVAL -'1' MINUTE", {{"-1", "MINUTE"}}, ""},
      {"INTERVAL -'-1' SECOND", {{"1", "SECOND"}}, ""},
      {"INTERVAL 1 DAY 2 HOURS 3 milliseconds 4 microsecond",
       {{"1", "DAY"}, {"2", "HOUR"}, {"3", "MILLISECOND"}, {"4", "MICROSECOND"}},
       ""},
      {"INTERVAL 1 YEAR -2 MONTH", {{"1", "YEAR"}, {"-2", "MONTH"}}, ""},
      {"INTERVAL '1-2' YEAR TO MONTH", {{"1-2", "YEAR"}}, "MONTH"},
      {"INTERVAL -'10 11:12:13.5' DAY TO SECOND", {{"-10 11:12:13.5", "DAY"}}, "SECOND"},
      {"INTERVAL '12:30' HOUR TO MINUTE", {{"12:30", "HOUR"}}, "MINUTE"},
      {"INTERVAL '1 day 2 hours'", {{"1 day 2 hours", ""}}, ""},
  };
  for (const IntervalCase& c : cases) {
    SCOPED_TRACE(c.text);
    ASSERT_OK_AND_ASSIGN(ExprPtr expr, ParseExpression(c.text));
    EXPECT_EQ(expr->kind, ExprKind::kFunction);
    EXPECT_EQ(expr->name_parts, (Strings{"interval"}));
    EXPECT_TRUE(expr->children.empty());
    EXPECT_EQ(expr->source_text, c.text);
    ASSERT_TRUE(expr->interval.has_value());
    ASSERT_EQ(expr->interval->parts.size(), c.parts.size());
    for (size_t i = 0; i < c.parts.size(); ++i) {
      EXPECT_EQ(expr->interval->parts[i].value, c.parts[i].value);
      EXPECT_EQ(expr->interval->parts[i].unit, c.parts[i].unit);
    }
    EXPECT_EQ(expr->interval->to_unit, c.to_unit);
    std::string rendered = ToString(*expr);
    EXPECT_EQ(Render(rendered), rendered);
  }
}

TEST(ParserIntervalTest, InExpressions) {
  EXPECT_EQ(Render("d + INTERVAL 1 DAY - INTERVAL '2' HOUR"),
            "((d + INTERVAL '1' DAY) - INTERVAL '2' HOUR)");
  // A value after a pair is another pair only when a unit follows it.
  EXPECT_EQ(Render("INTERVAL 1 DAY - 1"), "(INTERVAL '1' DAY - 1)");
  EXPECT_EQ(Render("INTERVAL 1 DAY - 1 HOUR"), "INTERVAL '1' DAY '-1' HOUR");
  EXPECT_EQ(Render("-INTERVAL '1' DAY"), "(- INTERVAL '1' DAY)");
  // Without a value and unit, `interval` is a name.
  EXPECT_EQ(Render("interval"), "interval");
  EXPECT_EQ(Render("interval - 1"), "(interval - 1)");
  EXPECT_EQ(Render("interval(1)"), "interval(1)");
}

TEST(ParserIntervalTest, SparkChecks) {
  EXPECT_EQ(Render("INTERVAL 1 YEAR 2 DAYS"),
            "[MIXED_INTERVAL_UNITS] Cannot mix year-month and day-time fields: INTERVAL 1 YEAR "
            "2 DAYS. (line 1, column 1)\n"
            "== SQL (line 1, column 1) ==\n"
            "INTERVAL 1 YEAR 2 DAYS\n"
            "^");
  EXPECT_EQ(Render("x + INTERVAL '1' YEAR TO DAY"),
            "[UNSUPPORTED_FROM_TO_INTERVAL] Intervals FROM YEAR TO DAY are not supported. "
            "(line 1, column 5)\n"
            "== SQL (line 1, column 5) ==\n"
            "x + INTERVAL '1' YEAR TO DAY\n"
            "    ^");
  EXPECT_EQ(Render("INTERVAL -1 YEAR TO MONTH"),
            "[INVALID_FROM_TO_UNIT_VALUE] The value of from-to unit must be a string. "
            "(line 1, column 11)\n"
            "== SQL (line 1, column 11) ==\n"
            "INTERVAL -1 YEAR TO MONTH\n"
            "          ^");
  ASSERT_RAISES_CONDITION("INVALID_INTERVAL_FORM", ParseExpression("INTERVAL '1 DAY 2' HOUR"));
  ASSERT_RAISES_CONDITION("UNSUPPORTED_FROM_TO_INTERVAL",
                          ParseExpression("INTERVAL '1' SECOND TO MINUTE"));
  ASSERT_RAISES_CONDITION("MIXED_INTERVAL_UNITS", ParseExpression("INTERVAL 1 MONTH 1 WEEK"));
  for (std::string text :
       {"INTERVAL '1' DAY TO", "INTERVAL '1' DAY TO WEEK", "INTERVAL 1 DAY '1-2' YEAR TO MONTH",
        "INTERVAL 1L DAY", "INTERVAL 1 DAY 2"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseExpression(text));
  }
}

// ---- EXTRACT and :: casts ----

TEST(ParserExtractTest, IsACallWithTheFieldAsAString) {
  ASSERT_OK_AND_ASSIGN(ExprPtr extract, ParseExpression("EXTRACT(year FROM d + 1)"));
  EXPECT_EQ(extract->kind, ExprKind::kFunction);
  EXPECT_EQ(extract->name_parts, (Strings{"EXTRACT"}));
  ASSERT_EQ(extract->children.size(), 2u);
  EXPECT_EQ(extract->children[0]->literal_kind, LiteralKind::kString);
  EXPECT_EQ(extract->children[0]->text, "year");
  EXPECT_EQ(extract->children[0]->pos.column, 9);
  EXPECT_EQ(ToString(*extract->children[1]), "(d + 1)");
  EXPECT_EQ(ToString(*extract), "EXTRACT(year FROM (d + 1))");
  // The plain call form is an ordinary call.
  EXPECT_EQ(Render("extract('DAY', d)"), "extract(DAY FROM d)");
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseExpression("EXTRACT(YEAR FROM)"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseExpression("EXTRACT(YEAR d)"));
}

// ---- SUBSTRING, TRIM and POSITION keyword forms ----

TEST(ParserKeywordStringCallTest, BecomeOrdinaryCalls) {
  EXPECT_EQ(Render("SUBSTRING(s FROM 2 FOR 3)"), "substring(s, 2, 3)");
  EXPECT_EQ(Render("substr(s FROM a + 1)"), "substring(s, (a + 1))");
  EXPECT_EQ(Render("TRIM(BOTH 'x' FROM s)"), "trim('x', s)");
  EXPECT_EQ(Render("TRIM(LEADING FROM s)"), "ltrim(s)");
  EXPECT_EQ(Render("trim(TRAILING 'ab' FROM s)"), "rtrim('ab', s)");
  EXPECT_EQ(Render("TRIM('x' FROM s)"), "trim('x', s)");
  EXPECT_EQ(Render("POSITION('a' IN s)"), "locate('a', s)");
  // The plain call forms stay plain calls.
  EXPECT_EQ(Render("substring(s, 1, 2)"), "substring(s, 1, 2)");
  EXPECT_EQ(Render("trim(s)"), "trim(s)");
  EXPECT_EQ(Render("position('a', s)"), "position('a', s)");
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseExpression("SUBSTRING(s FROM)"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseExpression("TRIM(BOTH 'x' s)"));
}

TEST(ParserCastTest, DoubleColon) {
  ASSERT_OK_AND_ASSIGN(ExprPtr cast, ParseExpression("a.b::decimal(10, 2)"));
  EXPECT_EQ(cast->kind, ExprKind::kCast);
  EXPECT_FALSE(cast->is_try);
  EXPECT_EQ(ToString(cast->type), "DECIMAL(10,2)");
  EXPECT_EQ(cast->source_text, "a.b::decimal(10, 2)");
  // `::` binds tighter than every operator, and applies to a negative literal as a whole.
  EXPECT_EQ(Render("-a::int"), "(- CAST(a AS INT))");
  EXPECT_EQ(Render("-1::string"), "CAST(-1 AS STRING)");
  EXPECT_EQ(Render("a + b::bigint * 2"), "(a + (CAST(b AS BIGINT) * 2))");
  EXPECT_EQ(Render("(a + b)::string::int"), "CAST(CAST((a + b) AS STRING) AS INT)");
  EXPECT_EQ(Render("f(x)::date"), "CAST(f(x) AS DATE)");
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseExpression("a::"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseExpression("a:int"));
  ASSERT_RAISES_CONDITION("UNSUPPORTED_DATATYPE", ParseExpression("a::foo"));
}

TEST(ParserCastTest, IntervalTypes) {
  for (std::string type : {"INTERVAL", "INTERVAL YEAR", "INTERVAL YEAR TO MONTH", "INTERVAL DAY",
                           "INTERVAL DAY TO SECOND", "INTERVAL HOUR TO MINUTE"}) {
    SCOPED_TRACE(type);
    ASSERT_OK_AND_ASSIGN(ExprPtr cast, ParseExpression("CAST(x AS " + type + ")"));
    EXPECT_EQ(cast->type.name, type);
    EXPECT_TRUE(cast->type.parameters.empty());
  }
  EXPECT_EQ(Render("x::interval minute to second"), "CAST(x AS INTERVAL MINUTE TO SECOND)");
  ASSERT_RAISES_CONDITION("UNSUPPORTED_FROM_TO_INTERVAL",
                          ParseExpression("CAST(x AS INTERVAL MONTH TO YEAR)"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseExpression("CAST(x AS INTERVAL DAYS)"));
}

// ---- Round trips ----

TEST(ParserExpressionFormsTest, RenderingRoundTrips) {
  for (std::string text : {
           "count(*) FILTER (WHERE a > 0) + sum(DISTINCT b) OVER (PARTITION BY c)",
           "percentile_cont(0.5) WITHIN GROUP (ORDER BY x NULLS FIRST) FILTER (WHERE y)",
           "first_value(x) IGNORE NULLS OVER (ORDER BY t RANGE BETWEEN INTERVAL '1' DAY "
           "PRECEDING AND INTERVAL 2 HOURS FOLLOWING)",
           "(SELECT max(a) FROM t) > ALL_ROWS AND NOT EXISTS (SELECT 1 FROM u)",
           "x NOT IN (SELECT y FROM u WHERE u.z IN (SELECT 1)) OR x IN ((SELECT 1), 2)",
           "EXTRACT(HOUR FROM ts::timestamp) + INTERVAL '1-2' YEAR TO MONTH",
       }) {
    SCOPED_TRACE(text);
    std::string once = Render(text);
    EXPECT_EQ(Render(once), once);
  }
}

}  // namespace
}  // namespace parley::sql
