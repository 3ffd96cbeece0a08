// Tests for the FROM clause: join types and criteria, join associativity and the comma list,
// parenthesised joins, subqueries and LATERAL, inline tables, table-valued functions, path
// tables, TABLESAMPLE, aliases with column lists, positions, Spark's parse-time join checks and
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

// The FROM clause of `SELECT * FROM <from>`.
Result<std::unique_ptr<FromItem>> ParseFrom(std::string_view from) {
  std::string text = "SELECT * FROM " + std::string(from);
  ARROW_ASSIGN_OR_RAISE(Statement statement, ParseStatement(text));
  auto& select = std::get<SelectStatement>(statement.node);
  if (!select.from_item) return Status::Invalid("no FROM item");
  return std::move(select.from_item);
}

// The rendering of `SELECT * FROM <from>`'s FROM clause, or the error message.
std::string Render(std::string_view from) {
  Result<std::unique_ptr<FromItem>> item = ParseFrom(from);
  if (!item.ok()) return item.status().message();
  return ToString(**item);
}

std::string StatementError(std::string_view text) {
  return ParseStatement(text).status().message();
}

TEST(ParserJoinTest, JoinTypes) {
  struct Case {
    std::string keywords;
    JoinType type;
  };
  std::vector<Case> cases = {
      {"JOIN", JoinType::kInner},
      {"INNER JOIN", JoinType::kInner},
      {"CROSS JOIN", JoinType::kCross},
      {"LEFT JOIN", JoinType::kLeftOuter},
      {"left outer join", JoinType::kLeftOuter},
      {"RIGHT JOIN", JoinType::kRightOuter},
      {"RIGHT OUTER JOIN", JoinType::kRightOuter},
      {"FULL JOIN", JoinType::kFullOuter},
      {"FULL OUTER JOIN", JoinType::kFullOuter},
      {"LEFT SEMI JOIN", JoinType::kLeftSemi},
      {"SEMI JOIN", JoinType::kLeftSemi},
      {"LEFT ANTI JOIN", JoinType::kLeftAnti},
      {"anti join", JoinType::kLeftAnti},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.keywords);
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> join,
                         ParseFrom("a x " + c.keywords + " b ON x.k = b.k"));
    ASSERT_EQ(join->kind, FromItemKind::kJoin);
    EXPECT_EQ(join->join_type, c.type);
    EXPECT_FALSE(join->natural);
    EXPECT_EQ(join->left->name.parts, (Strings{"a"}));
    EXPECT_EQ(join->left->alias, "x");
    EXPECT_EQ(join->right->name.parts, (Strings{"b"}));
    EXPECT_EQ(ToString(*join->condition), "(x.k = b.k)");
    EXPECT_TRUE(join->using_columns.empty());
    EXPECT_TRUE(join->alias.empty());
  }
}

TEST(ParserJoinTest, CriteriaAndNaturalJoins) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> using_join, ParseFrom("a JOIN b USING (k, `l`)"));
  EXPECT_EQ(using_join->using_columns, (Strings{"k", "l"}));
  EXPECT_EQ(using_join->condition, nullptr);

  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> no_criteria, ParseFrom("a JOIN b"));
  EXPECT_EQ(no_criteria->condition, nullptr);
  EXPECT_TRUE(no_criteria->using_columns.empty());

  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> natural, ParseFrom("a NATURAL LEFT JOIN b"));
  EXPECT_TRUE(natural->natural);
  EXPECT_EQ(natural->join_type, JoinType::kLeftOuter);
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> natural_inner, ParseFrom("a natural join b"));
  EXPECT_TRUE(natural_inner->natural);
  EXPECT_EQ(natural_inner->join_type, JoinType::kInner);
}

TEST(ParserJoinTest, JoinsAreLeftDeepAndCommasAreCrossJoins) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> chain,
                       ParseFrom("a JOIN b ON p LEFT JOIN c ON q"));
  // ((a JOIN b) LEFT JOIN c)
  EXPECT_EQ(chain->join_type, JoinType::kLeftOuter);
  EXPECT_EQ(chain->right->name.parts, (Strings{"c"}));
  ASSERT_EQ(chain->left->kind, FromItemKind::kJoin);
  EXPECT_EQ(chain->left->left->name.parts, (Strings{"a"}));
  EXPECT_EQ(ToString(*chain->left->condition), "p");

  // `a, b JOIN c` is a CROSS JOIN (b JOIN c): a join binds tighter than the comma.
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> comma, ParseFrom("a, b JOIN c ON p, d"));
  EXPECT_EQ(comma->join_type, JoinType::kCross);
  EXPECT_EQ(comma->right->name.parts, (Strings{"d"}));
  const FromItem& inner = *comma->left;
  EXPECT_EQ(inner.join_type, JoinType::kCross);
  EXPECT_EQ(inner.left->name.parts, (Strings{"a"}));
  ASSERT_EQ(inner.right->kind, FromItemKind::kJoin);
  EXPECT_EQ(inner.right->join_type, JoinType::kInner);
  EXPECT_EQ(Render("a, b JOIN c ON p, d"), "a CROSS JOIN (b JOIN c ON p) CROSS JOIN d");
}

TEST(ParserJoinTest, ParenthesisedJoins) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> right_deep,
                       ParseFrom("a JOIN (b JOIN c ON q) ON p"));
  EXPECT_EQ(right_deep->left->name.parts, (Strings{"a"}));
  ASSERT_EQ(right_deep->right->kind, FromItemKind::kJoin);
  EXPECT_EQ(ToString(*right_deep->right->condition), "q");
  EXPECT_EQ(ToString(*right_deep->condition), "p");

  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> aliased, ParseFrom("(a JOIN b) AS j, c"));
  EXPECT_EQ(aliased->left->kind, FromItemKind::kJoin);
  EXPECT_EQ(aliased->left->alias, "j");
  EXPECT_EQ(Render("(a JOIN b) AS j, c"), "(a JOIN b) AS j CROSS JOIN c");

  // ((a JOIN b) JOIN c) is tried as a query first, then read as a relation.
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> doubled, ParseFrom("((a JOIN b) JOIN c)"));
  EXPECT_EQ(doubled->kind, FromItemKind::kJoin);
  EXPECT_EQ(doubled->right->name.parts, (Strings{"c"}));
  EXPECT_EQ(Render("(((a)))"), "a");
}

TEST(ParserJoinTest, Positions) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> join, ParseFrom("a\n  LEFT JOIN b ON a.k = b.k"));
  EXPECT_EQ(join->pos.line, 1);
  EXPECT_EQ(join->pos.column, 15);
  EXPECT_EQ(join->right->pos.line, 2);
  EXPECT_EQ(join->right->pos.column, 13);
  EXPECT_EQ(join->right->name.pos.column, 13);
  EXPECT_EQ(join->condition->pos.line, 2);
  EXPECT_EQ(join->condition->pos.column, 18);
}

TEST(ParserJoinTest, SparkJoinChecks) {
  EXPECT_EQ(StatementError("SELECT * FROM a NATURAL CROSS JOIN b"),
            "[UNSUPPORTED_FEATURE.NATURAL_CROSS_JOIN] The feature is not supported: NATURAL "
            "CROSS JOIN. (line 1, column 17)\n"
            "== SQL (line 1, column 17) ==\n"
            "SELECT * FROM a NATURAL CROSS JOIN b\n"
            "                ^");
  ASSERT_RAISES_CONDITION("UNSUPPORTED_FEATURE.LATERAL_NATURAL_JOIN",
                          ParseStatement("SELECT * FROM a NATURAL JOIN LATERAL (SELECT 1)"));
  ASSERT_RAISES_CONDITION("UNSUPPORTED_FEATURE.LATERAL_JOIN_USING",
                          ParseStatement("SELECT * FROM a JOIN LATERAL (SELECT 1) USING (k)"));
  ASSERT_RAISES_CONDITION("INVALID_LATERAL_JOIN_TYPE",
                          ParseStatement("SELECT * FROM a FULL JOIN LATERAL (SELECT 1) ON true"));
  ASSERT_RAISES_CONDITION("INVALID_SQL_SYNTAX", ParseStatement("SELECT * FROM LATERAL t"));
  // A NATURAL join takes no criteria.
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR",
                          ParseStatement("SELECT * FROM a NATURAL JOIN b ON true"));
}

TEST(ParserJoinTest, SyntaxErrors) {
  EXPECT_EQ(StatementError("SELECT * FROM a JOIN b ON"),
            "[PARSE_SYNTAX_ERROR] Syntax error at end of input. (line 1, column 26)\n"
            "== SQL (line 1, column 26) ==\n"
            "SELECT * FROM a JOIN b ON\n"
            "                         ^");
  EXPECT_EQ(StatementError("SELECT * FROM a LEFT b"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near 'b'. (line 1, column 22)\n"
            "== SQL (line 1, column 22) ==\n"
            "SELECT * FROM a LEFT b\n"
            "                     ^");
  for (std::string text :
       {"SELECT * FROM a JOIN", "SELECT * FROM a JOIN b USING ()", "SELECT * FROM a JOIN b USING k",
        "SELECT * FROM a NATURAL b", "SELECT * FROM a, ", "SELECT * FROM (a JOIN b",
        "SELECT * FROM a JOIN b ON x USING (y)", "SELECT * FROM (a, b)",
        "SELECT * FROM a JOIN b JOIN c ON x ON y"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement(text));
  }
}

TEST(ParserFromItemTest, Subqueries) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> item,
                       ParseFrom("(SELECT a, b FROM t) AS s(x, y)"));
  ASSERT_EQ(item->kind, FromItemKind::kSubquery);
  EXPECT_EQ(item->pos.column, 15);
  EXPECT_EQ(item->alias, "s");
  EXPECT_EQ(item->column_aliases, (Strings{"x", "y"}));
  EXPECT_FALSE(item->lateral);
  ASSERT_NE(item->subquery, nullptr);
  EXPECT_EQ(item->subquery->items.size(), 2u);
  EXPECT_EQ(item->subquery->from->name.parts, (Strings{"t"}));

  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> bare, ParseFrom("(SELECT 1)"));
  EXPECT_TRUE(bare->alias.empty());
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> set_operation,
                       ParseFrom("((SELECT 1) UNION (SELECT 2)) u"));
  ASSERT_EQ(set_operation->kind, FromItemKind::kSubquery);
  EXPECT_EQ(set_operation->subquery->kind, QueryKind::kSetOperation);
  EXPECT_EQ(set_operation->alias, "u");
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> with, ParseFrom("(WITH c AS (SELECT 1) "
                                                                 "SELECT * FROM c) w"));
  EXPECT_EQ(with->subquery->with.size(), 1u);

  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> lateral,
                       ParseFrom("t, LATERAL (SELECT t.a) l JOIN LATERAL (SELECT 1) m ON true"));
  EXPECT_TRUE(lateral->right->kind == FromItemKind::kJoin);
  EXPECT_TRUE(lateral->right->left->lateral);
  EXPECT_EQ(lateral->right->left->alias, "l");
  EXPECT_TRUE(lateral->right->right->lateral);
}

TEST(ParserFromItemTest, InlineTables) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> item,
                       ParseFrom("VALUES (1, 'a'), (2, 'b') AS t(c1, c2)"));
  ASSERT_EQ(item->kind, FromItemKind::kSubquery);
  EXPECT_EQ(item->alias, "t");
  EXPECT_EQ(item->column_aliases, (Strings{"c1", "c2"}));
  const SelectStatement& values = *item->subquery;
  EXPECT_EQ(values.kind, QueryKind::kValues);
  EXPECT_EQ(values.values.rows.size(), 2u);
  EXPECT_TRUE(values.values.alias.empty());  // the alias belongs to the FROM item
  EXPECT_EQ(Render("VALUES (1), (2) v"), "(VALUES (1), (2)) AS v");
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> parenthesised, ParseFrom("(VALUES 1, 2) AS v(x)"));
  EXPECT_EQ(parenthesised->subquery->values.rows.size(), 2u);
  EXPECT_EQ(parenthesised->column_aliases, (Strings{"x"}));

  // VALUES is not reserved: without a row it names a table.
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> table, ParseFrom("values v"));
  EXPECT_EQ(table->kind, FromItemKind::kTable);
  EXPECT_EQ(table->name.parts, (Strings{"values"}));
  EXPECT_EQ(table->alias, "v");
}

TEST(ParserFromItemTest, TableFunctionsAndPathTables) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> range, ParseFrom("range(0, 10, 2) AS r(id)"));
  ASSERT_EQ(range->kind, FromItemKind::kTableFunction);
  EXPECT_EQ(range->name.parts, (Strings{"range"}));
  ASSERT_EQ(range->arguments.size(), 3u);
  EXPECT_EQ(ToString(*range->arguments[2]), "2");
  EXPECT_EQ(range->alias, "r");
  EXPECT_EQ(range->column_aliases, (Strings{"id"}));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> empty, ParseFrom("db.fn()"));
  EXPECT_EQ(empty->name.parts, (Strings{"db", "fn"}));
  EXPECT_TRUE(empty->arguments.empty());

  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> path, ParseFrom("parquet.`/data/x.parquet` p"));
  EXPECT_EQ(path->kind, FromItemKind::kTable);
  EXPECT_EQ(path->name.parts, (Strings{"parquet", "/data/x.parquet"}));
  EXPECT_EQ(path->alias, "p");
}

TEST(ParserFromItemTest, TableSamples) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> percent,
                       ParseFrom("t TABLESAMPLE (12.5 PERCENT) REPEATABLE (42) AS s"));
  ASSERT_TRUE(percent->sample.has_value());
  EXPECT_EQ(percent->sample->method, SampleMethod::kPercent);
  EXPECT_DOUBLE_EQ(percent->sample->percent, 12.5);
  EXPECT_EQ(percent->sample->seed, 42);
  EXPECT_EQ(percent->sample->pos.column, 17);
  EXPECT_EQ(percent->alias, "s");

  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> negative, ParseFrom("t TABLESAMPLE (-1 PERCENT)"));
  EXPECT_DOUBLE_EQ(negative->sample->percent, -1);
  EXPECT_FALSE(negative->sample->seed.has_value());

  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> bucket,
                       ParseFrom("t TABLESAMPLE (BUCKET 3 OUT OF 16)"));
  EXPECT_EQ(bucket->sample->method, SampleMethod::kBucket);
  EXPECT_EQ(bucket->sample->numerator, 3);
  EXPECT_EQ(bucket->sample->denominator, 16);

  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> rows, ParseFrom("t TABLESAMPLE (10 + 5 ROWS)"));
  EXPECT_EQ(rows->sample->method, SampleMethod::kRows);
  EXPECT_EQ(ToString(*rows->sample->rows), "(10 + 5)");

  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> subquery,
                       ParseFrom("(SELECT 1) TABLESAMPLE (50 PERCENT) s"));
  EXPECT_EQ(subquery->kind, FromItemKind::kSubquery);
  EXPECT_TRUE(subquery->sample.has_value());

  for (std::string text :
       {"SELECT * FROM t TABLESAMPLE", "SELECT * FROM t TABLESAMPLE ()",
        "SELECT * FROM t TABLESAMPLE (10)", "SELECT * FROM t TABLESAMPLE (1L PERCENT)",
        "SELECT * FROM t TABLESAMPLE (BUCKET 1.5 OUT OF 2)",
        "SELECT * FROM t TABLESAMPLE "
        "(BUCKET 1 OF 2)",
        "SELECT * FROM t TABLESAMPLE (1 PERCENT) REPEATABLE (x)",
        "SELECT * FROM t s TABLESAMPLE (1 PERCENT)"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement(text));
  }
}

TEST(ParserFromItemTest, AliasesAreNotClauseKeywords) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> semi, ParseFrom("t SEMI JOIN u"));
  EXPECT_TRUE(semi->left->alias.empty());
  EXPECT_EQ(semi->join_type, JoinType::kLeftSemi);
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<FromItem> quoted, ParseFrom("t AS `join`"));
  EXPECT_EQ(quoted->alias, "join");
  EXPECT_EQ(Render("t AS `join`"), "t AS `join`");
}

TEST(ParserFromItemTest, RenderingRoundTrips) {
  for (std::string text : {
           "a JOIN b ON a.k = b.k LEFT JOIN c USING (k) NATURAL FULL OUTER JOIN d",
           "a, b JOIN (c CROSS JOIN d) AS cd ON true, LATERAL (SELECT a.x) AS l(y)",
           "(SELECT 1) s(x) RIGHT JOIN range(5) r ON x = id",
           "VALUES (1, 'a') AS t(c1, c2) LEFT ANTI JOIN u TABLESAMPLE (BUCKET 1 OUT OF 2) ON "
           "true",
           "t TABLESAMPLE (0.5 PERCENT) REPEATABLE (7) x SEMI JOIN `odd name`.`from` ON true",
       }) {
    SCOPED_TRACE(text);
    std::string once = Render(text);
    EXPECT_EQ(Render(once), once);
  }
}

}  // namespace
}  // namespace parley::sql
