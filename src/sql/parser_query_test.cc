// Tests for the query grammar beyond a single SELECT: compatibility of plain SELECTs with the
// original fields, set operations and their precedence, result clauses on parenthesised
// queries, WITH, VALUES, GROUP BY (grouping sets, ROLLUP, CUBE, the Hive forms), HAVING, the
// WINDOW clause, IsBasicSelect, and rendering round trips. FROM is in parser_from_test.cc and
// the new expression forms in parser_expression_test.cc.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sql/ast_printer.h"
#include "sql/parser.h"
#include "testing/gtest_util.h"

namespace parley::sql {
namespace {

using Strings = std::vector<std::string>;

// The query of statement `text`.
Result<SelectStatement> ParseQuery(std::string_view text) {
  ARROW_ASSIGN_OR_RAISE(Statement statement, ParseStatement(text));
  auto* query = std::get_if<SelectStatement>(&statement.node);
  if (query == nullptr) return Status::Invalid("not a query: ", text);
  return std::move(*query);
}

// The canonical rendering of query `text`, or the error message.
std::string Render(std::string_view text) {
  Result<SelectStatement> query = ParseQuery(text);
  if (!query.ok()) return query.status().message();
  return ToString(*query);
}

std::string StatementError(std::string_view text) {
  return ParseStatement(text).status().message();
}

// ---- Compatibility with the original SelectStatement ----

TEST(ParserQueryCompatTest, PlainSelectKeepsTheOriginalFields) {
  ASSERT_OK_AND_ASSIGN(SelectStatement select,
                       ParseQuery("SELECT a FROM cat.db.t AS x WHERE a > 1 ORDER BY a DESC "
                                  "LIMIT 2 OFFSET 1"));
  EXPECT_EQ(select.kind, QueryKind::kSelect);
  ASSERT_TRUE(select.from.has_value());
  EXPECT_EQ(select.from->name.parts, (Strings{"cat", "db", "t"}));
  EXPECT_EQ(select.from->name.pos.column, 15);
  EXPECT_EQ(select.from->alias, "x");
  ASSERT_NE(select.from_item, nullptr);
  EXPECT_EQ(select.from_item->kind, FromItemKind::kTable);
  EXPECT_EQ(select.from_item->name.parts, select.from->name.parts);
  EXPECT_EQ(select.from_item->alias, "x");
  EXPECT_EQ(ToString(*select.where), "(a > 1)");
  ASSERT_EQ(select.order_by.size(), 1u);
  EXPECT_EQ(ToString(*select.limit), "2");
  EXPECT_EQ(ToString(*select.offset), "1");
  EXPECT_TRUE(select.with.empty());
  EXPECT_FALSE(select.group_by.has_value());
  EXPECT_EQ(select.having, nullptr);
  EXPECT_EQ(select.set_operation, nullptr);
  EXPECT_EQ(select.nested, nullptr);
  EXPECT_TRUE(IsBasicSelect(select));

  ASSERT_OK_AND_ASSIGN(SelectStatement no_from, ParseQuery("SELECT 1 + 1"));
  EXPECT_FALSE(no_from.from.has_value());
  EXPECT_EQ(no_from.from_item, nullptr);
  EXPECT_TRUE(IsBasicSelect(no_from));

  // A table in parentheses is still one plain table.
  ASSERT_OK_AND_ASSIGN(SelectStatement parenthesised, ParseQuery("SELECT * FROM (t) u"));
  ASSERT_TRUE(parenthesised.from.has_value());
  EXPECT_EQ(parenthesised.from->alias, "u");
}

TEST(ParserQueryCompatTest, RicherFromClausesLeaveFromUnset) {
  for (std::string text :
       {"SELECT * FROM a, b", "SELECT * FROM a JOIN b ON a.x = b.x", "SELECT * FROM (SELECT 1)",
        "SELECT * FROM t TABLESAMPLE (5 PERCENT)", "SELECT * FROM t AS x(a, b)",
        "SELECT * FROM range(10)", "SELECT * FROM VALUES (1), (2)"}) {
    SCOPED_TRACE(text);
    ASSERT_OK_AND_ASSIGN(SelectStatement select, ParseQuery(text));
    EXPECT_FALSE(select.from.has_value());
    EXPECT_NE(select.from_item, nullptr);
    EXPECT_FALSE(IsBasicSelect(select));
  }
}

TEST(ParserQueryCompatTest, IsBasicSelectRejectsEveryNewForm) {
  for (std::string text : {
           "SELECT a FROM t GROUP BY a",
           "SELECT count(*) FROM t HAVING count(*) > 1",
           "SELECT a FROM t WINDOW w AS (ORDER BY a)",
           "SELECT a FROM t WHERE a IN (SELECT b FROM u)",
           "SELECT (SELECT 1)",
           "SELECT a FROM t ORDER BY EXISTS (SELECT 1)",
           "SELECT a + INTERVAL '1' DAY FROM t",
           "SELECT sum(a) FILTER (WHERE a > 0) FROM t",
           "SELECT rank() OVER (ORDER BY a) FROM t",
           "SELECT first(a) IGNORE NULLS FROM t",
           "SELECT mode() WITHIN GROUP (ORDER BY a) FROM t",
           "SELECT 1 LIMIT (SELECT 1)",
           "SELECT 1 UNION SELECT 2",
           "VALUES (1)",
           "WITH x AS (SELECT 1) SELECT * FROM x",
       }) {
    SCOPED_TRACE(text);
    ASSERT_OK_AND_ASSIGN(SelectStatement select, ParseQuery(text));
    EXPECT_FALSE(IsBasicSelect(select));
  }
  ASSERT_OK_AND_ASSIGN(SelectStatement basic,
                       ParseQuery("SELECT DISTINCT CAST(a AS INT), a::int, extract(YEAR FROM d), "
                                  "count(DISTINCT b) FROM t WHERE a IN (1, 2) ORDER BY 1"));
  EXPECT_TRUE(IsBasicSelect(basic));
}

// ---- Set operations ----

TEST(ParserSetOperationTest, IntersectBindsTighterThanUnionAndExcept) {
  ASSERT_OK_AND_ASSIGN(SelectStatement query,
                       ParseQuery("SELECT 1 UNION SELECT 2 INTERSECT SELECT 3 EXCEPT SELECT 4"));
  // ((1 UNION (2 INTERSECT 3)) EXCEPT 4)
  ASSERT_EQ(query.kind, QueryKind::kSetOperation);
  EXPECT_TRUE(query.items.empty());
  const SetOperation& except = *query.set_operation;
  EXPECT_EQ(except.op, SetOperator::kExcept);
  EXPECT_EQ(ToString(*except.right), "SELECT 4");
  ASSERT_EQ(except.left->kind, QueryKind::kSetOperation);
  const SetOperation& union_op = *except.left->set_operation;
  EXPECT_EQ(union_op.op, SetOperator::kUnion);
  EXPECT_EQ(ToString(*union_op.left), "SELECT 1");
  ASSERT_EQ(union_op.right->kind, QueryKind::kSetOperation);
  EXPECT_EQ(union_op.right->set_operation->op, SetOperator::kIntersect);

  EXPECT_EQ(Render("SELECT 1 INTERSECT SELECT 2 UNION SELECT 3"),
            "((SELECT 1) INTERSECT (SELECT 2)) UNION (SELECT 3)");
  EXPECT_EQ(Render("SELECT 1 INTERSECT SELECT 2 INTERSECT SELECT 3"),
            "((SELECT 1) INTERSECT (SELECT 2)) INTERSECT (SELECT 3)");
  EXPECT_EQ(Render("SELECT 1 EXCEPT SELECT 2 UNION SELECT 3"),
            "((SELECT 1) EXCEPT (SELECT 2)) UNION (SELECT 3)");
  EXPECT_EQ(Render("SELECT 1 UNION (SELECT 2 UNION SELECT 3)"),
            "(SELECT 1) UNION ((SELECT 2) UNION (SELECT 3))");
}

TEST(ParserSetOperationTest, Quantifiers) {
  ASSERT_OK_AND_ASSIGN(SelectStatement query,
                       ParseQuery("SELECT 1 UNION ALL SELECT 2 minus distinct SELECT 3 "
                                  "INTERSECT ALL SELECT 4"));
  const SetOperation& minus = *query.set_operation;
  EXPECT_EQ(minus.op, SetOperator::kExcept);
  EXPECT_FALSE(minus.all);
  EXPECT_EQ(minus.left->set_operation->op, SetOperator::kUnion);
  EXPECT_TRUE(minus.left->set_operation->all);
  EXPECT_EQ(minus.right->set_operation->op, SetOperator::kIntersect);
  EXPECT_TRUE(minus.right->set_operation->all);
  ASSERT_OK_AND_ASSIGN(SelectStatement plain, ParseQuery("SELECT 1 UNION SELECT 2"));
  EXPECT_FALSE(plain.set_operation->all);
}

TEST(ParserSetOperationTest, ResultClausesApplyToTheWholeOperation) {
  ASSERT_OK_AND_ASSIGN(SelectStatement query,
                       ParseQuery("SELECT a FROM t UNION SELECT b FROM u ORDER BY 1 DESC "
                                  "LIMIT 10 OFFSET 2"));
  ASSERT_EQ(query.kind, QueryKind::kSetOperation);
  ASSERT_EQ(query.order_by.size(), 1u);
  EXPECT_FALSE(query.order_by[0].ascending);
  EXPECT_EQ(ToString(*query.limit), "10");
  EXPECT_EQ(ToString(*query.offset), "2");
  const SelectStatement& right = *query.set_operation->right;
  EXPECT_TRUE(right.order_by.empty());
  EXPECT_EQ(right.limit, nullptr);
  ASSERT_TRUE(right.from.has_value());
  EXPECT_EQ(right.from->name.parts, (Strings{"u"}));
}

TEST(ParserSetOperationTest, ParenthesisedOperandsKeepTheirClauses) {
  ASSERT_OK_AND_ASSIGN(
      SelectStatement query,
      ParseQuery("(SELECT a FROM t ORDER BY a LIMIT 1) UNION ALL (SELECT b FROM u LIMIT 2) "
                 "LIMIT 3"));
  EXPECT_EQ(ToString(*query.limit), "3");
  const SetOperation& operation = *query.set_operation;
  EXPECT_EQ(operation.left->order_by.size(), 1u);
  EXPECT_EQ(ToString(*operation.left->limit), "1");
  EXPECT_EQ(ToString(*operation.right->limit), "2");
  EXPECT_EQ(Render("((SELECT 1) UNION (SELECT 2)) INTERSECT SELECT 3"),
            "((SELECT 1) UNION (SELECT 2)) INTERSECT (SELECT 3)");
}

TEST(ParserSetOperationTest, ClausesAfterAParenthesisedQuery) {
  // Merged when they apply after all of the inner query's own (Spark builds the same plan)...
  ASSERT_OK_AND_ASSIGN(SelectStatement merged, ParseQuery("(SELECT a FROM t ORDER BY a) LIMIT 1"));
  EXPECT_EQ(merged.kind, QueryKind::kSelect);
  EXPECT_EQ(merged.order_by.size(), 1u);
  EXPECT_EQ(ToString(*merged.limit), "1");
  ASSERT_OK_AND_ASSIGN(SelectStatement plain, ParseQuery("((SELECT 1))"));
  EXPECT_EQ(plain.kind, QueryKind::kSelect);
  EXPECT_EQ(ParseQuery("(SELECT 1 OFFSET 1) LIMIT 1")->kind, QueryKind::kSelect);

  // ...and nested otherwise: limit-then-sort is not sort-then-limit.
  EXPECT_EQ(ParseQuery("(SELECT 1 LIMIT 2) OFFSET 1")->kind, QueryKind::kNested);
  EXPECT_EQ(ParseQuery("(SELECT 1 ORDER BY 1) ORDER BY 1")->kind, QueryKind::kNested);
  ASSERT_OK_AND_ASSIGN(SelectStatement nested, ParseQuery("(SELECT a FROM t LIMIT 5) ORDER BY a"));
  ASSERT_EQ(nested.kind, QueryKind::kNested);
  EXPECT_EQ(nested.pos.column, 1);
  EXPECT_EQ(nested.order_by.size(), 1u);
  EXPECT_EQ(nested.limit, nullptr);
  ASSERT_NE(nested.nested, nullptr);
  EXPECT_EQ(nested.nested->kind, QueryKind::kSelect);
  EXPECT_EQ(ToString(*nested.nested->limit), "5");
  EXPECT_TRUE(nested.nested->order_by.empty());
  EXPECT_EQ(ToString(nested), "(SELECT a FROM t LIMIT 5) ORDER BY a");
}

TEST(ParserSetOperationTest, Positions) {
  ASSERT_OK_AND_ASSIGN(SelectStatement query, ParseQuery("SELECT 1\nUNION ALL\n  SELECT 2"));
  EXPECT_EQ(query.pos.line, 1);
  EXPECT_EQ(query.pos.column, 1);
  EXPECT_EQ(query.set_operation->pos.line, 2);
  EXPECT_EQ(query.set_operation->pos.column, 1);
  EXPECT_EQ(query.set_operation->right->pos.line, 3);
  EXPECT_EQ(query.set_operation->right->pos.column, 3);
}

TEST(ParserSetOperationTest, SyntaxErrors) {
  // ORDER BY ends a query: a set operation cannot follow it without parentheses.
  EXPECT_EQ(StatementError("SELECT a FROM t ORDER BY a UNION SELECT b FROM u"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near 'UNION'. (line 1, column 28)\n"
            "== SQL (line 1, column 28) ==\n"
            "SELECT a FROM t ORDER BY a UNION SELECT b FROM u\n"
            "                           ^");
  EXPECT_EQ(StatementError("SELECT 1 UNION"),
            "[PARSE_SYNTAX_ERROR] Syntax error at end of input. (line 1, column 15)\n"
            "== SQL (line 1, column 15) ==\n"
            "SELECT 1 UNION\n"
            "              ^");
  for (std::string text : {"SELECT 1 UNION ALL",
                           "SELECT 1 INTERSECT WITH x AS (SELECT 1) "
                           "SELECT 2",
                           "(SELECT 1", "(SELECT 1))",
                           "SELECT 1 UNION DISTINCT ALL "
                           "SELECT 2",
                           "SELECT 1 LIMIT 1 UNION SELECT 2", "()"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement(text));
  }
}

// ---- WITH ----

TEST(ParserWithTest, CommonTableExpressions) {
  ASSERT_OK_AND_ASSIGN(
      SelectStatement query,
      ParseQuery("WITH x (a, b) AS (SELECT 1, 2),\n     y AS (SELECT * FROM x), z (SELECT 3)\n"
                 "SELECT * FROM y"));
  EXPECT_EQ(query.pos.column, 1);
  ASSERT_EQ(query.with.size(), 3u);
  EXPECT_EQ(query.with[0].name, "x");
  EXPECT_EQ(query.with[0].column_aliases, (Strings{"a", "b"}));
  EXPECT_EQ(query.with[0].query->items.size(), 2u);
  EXPECT_EQ(query.with[1].name, "y");
  EXPECT_EQ(query.with[1].pos.line, 2);
  EXPECT_EQ(query.with[1].pos.column, 6);
  EXPECT_TRUE(query.with[1].column_aliases.empty());
  EXPECT_EQ(query.with[1].query->from->name.parts, (Strings{"x"}));
  EXPECT_EQ(query.with[2].name, "z");  // AS is optional
  EXPECT_EQ(query.kind, QueryKind::kSelect);
  EXPECT_EQ(query.from->name.parts, (Strings{"y"}));
}

TEST(ParserWithTest, WithAppliesToSetOperationsAndNestedQueries) {
  ASSERT_OK_AND_ASSIGN(SelectStatement query,
                       ParseQuery("WITH x AS (SELECT 1) SELECT * FROM x UNION SELECT * FROM x "
                                  "ORDER BY 1"));
  EXPECT_EQ(query.kind, QueryKind::kSetOperation);
  EXPECT_EQ(query.with.size(), 1u);
  EXPECT_EQ(query.order_by.size(), 1u);

  // WITH inside a subquery and a CTE body.
  ASSERT_OK_AND_ASSIGN(SelectStatement inner,
                       ParseQuery("WITH x AS (WITH y AS (SELECT 1) SELECT * FROM y) "
                                  "SELECT * FROM (WITH z AS (SELECT 2) SELECT * FROM z)"));
  EXPECT_EQ(inner.with[0].query->with[0].name, "y");
  EXPECT_EQ(inner.from_item->subquery->with[0].name, "z");

  // A WITH before a parenthesised query that has its own WITH nests it.
  ASSERT_OK_AND_ASSIGN(SelectStatement nested,
                       ParseQuery("WITH a AS (SELECT 1) (WITH b AS (SELECT 2) SELECT * FROM b)"));
  ASSERT_EQ(nested.kind, QueryKind::kNested);
  EXPECT_EQ(nested.with[0].name, "a");
  EXPECT_EQ(nested.nested->with[0].name, "b");
  ASSERT_OK_AND_ASSIGN(SelectStatement merged,
                       ParseQuery("WITH a AS (SELECT 1) (SELECT * FROM a) LIMIT 1"));
  EXPECT_EQ(merged.kind, QueryKind::kSelect);
  EXPECT_EQ(merged.with[0].name, "a");
  EXPECT_NE(merged.limit, nullptr);
}

TEST(ParserWithTest, Errors) {
  EXPECT_EQ(StatementError("WITH a AS (SELECT 1), A AS (SELECT 2) SELECT 1"),
            "[DUPLICATED_CTE_NAMES] CTE definition can't have duplicate names: `A`. "
            "(line 1, column 23)\n"
            "== SQL (line 1, column 23) ==\n"
            "WITH a AS (SELECT 1), A AS (SELECT 2) SELECT 1\n"
            "                      ^");
  EXPECT_EQ(StatementError("WITH a AS SELECT 1"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near 'SELECT'. (line 1, column 11)\n"
            "== SQL (line 1, column 11) ==\n"
            "WITH a AS SELECT 1\n"
            "          ^");
  for (std::string text :
       {"WITH a AS (SELECT 1)", "WITH SELECT 1", "WITH a AS (SELECT 1),",
        "WITH a () AS (SELECT 1) SELECT 1", "WITH select AS (SELECT 1) SELECT 1"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement(text));
  }
}

// ---- VALUES ----

TEST(ParserValuesTest, TopLevelValues) {
  ASSERT_OK_AND_ASSIGN(SelectStatement query,
                       ParseQuery("VALUES (1, 'a'), (2, 'b') AS t(c1, c2) ORDER BY c1 LIMIT 1"));
  ASSERT_EQ(query.kind, QueryKind::kValues);
  EXPECT_EQ(query.pos.column, 1);
  EXPECT_EQ(query.values.pos.column, 1);
  ASSERT_EQ(query.values.rows.size(), 2u);
  ASSERT_EQ(query.values.rows[1].size(), 2u);
  EXPECT_EQ(query.values.rows[1][1]->text, "b");
  EXPECT_EQ(query.values.rows[1][1]->pos.column, 22);
  EXPECT_EQ(query.values.alias, "t");
  EXPECT_EQ(query.values.column_aliases, (Strings{"c1", "c2"}));
  EXPECT_EQ(query.order_by.size(), 1u);
  EXPECT_NE(query.limit, nullptr);
  EXPECT_TRUE(query.items.empty());
}

TEST(ParserValuesTest, RowShapes) {
  // Without parentheses each value is a one-column row; a parenthesised expression that goes
  // on is one value.
  ASSERT_OK_AND_ASSIGN(SelectStatement bare, ParseQuery("VALUES 1, 2, -3"));
  ASSERT_EQ(bare.values.rows.size(), 3u);
  EXPECT_EQ(bare.values.rows[2].size(), 1u);
  EXPECT_EQ(bare.values.rows[2][0]->text, "-3");
  ASSERT_OK_AND_ASSIGN(SelectStatement expression, ParseQuery("VALUES (1 + 2) * 3, (4)"));
  ASSERT_EQ(expression.values.rows.size(), 2u);
  EXPECT_EQ(ToString(*expression.values.rows[0][0]), "((1 + 2) * 3)");
  EXPECT_EQ(ToString(*expression.values.rows[1][0]), "4");
  ASSERT_OK_AND_ASSIGN(SelectStatement subquery, ParseQuery("VALUES ((SELECT 1), 2)"));
  ASSERT_EQ(subquery.values.rows[0].size(), 2u);
  EXPECT_EQ(subquery.values.rows[0][0]->subquery_kind, SubqueryKind::kScalar);
}

TEST(ParserValuesTest, ValuesInSetOperationsAndErrors) {
  EXPECT_EQ(Render("VALUES (1) UNION ALL VALUES (2) EXCEPT SELECT 3"),
            "((VALUES (1)) UNION ALL (VALUES (2))) EXCEPT (SELECT 3)");
  for (std::string text : {"VALUES", "VALUES (1,)", "VALUES (1), ", "VALUES ()"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement(text));
  }
}

// ---- GROUP BY and HAVING ----

TEST(ParserGroupByTest, ExpressionsAndOrdinals) {
  ASSERT_OK_AND_ASSIGN(SelectStatement select,
                       ParseQuery("SELECT a, b + 1, count(*) FROM t GROUP BY a, b + 1, 3 "
                                  "HAVING count(*) > 1 ORDER BY a"));
  ASSERT_TRUE(select.group_by.has_value());
  EXPECT_EQ(select.group_by->pos.column, 34);
  EXPECT_FALSE(select.group_by->all);
  ASSERT_EQ(select.group_by->elements.size(), 3u);
  for (const GroupingElement& element : select.group_by->elements) {
    EXPECT_EQ(element.kind, GroupingKind::kExpression);
  }
  EXPECT_EQ(ToString(*select.group_by->elements[1].expr), "(b + 1)");
  EXPECT_EQ(select.group_by->elements[1].pos.column, 46);
  EXPECT_EQ(select.group_by->elements[2].expr->literal_kind, LiteralKind::kInteger);
  EXPECT_EQ(ToString(*select.having), "(count(*) > 1)");
  EXPECT_EQ(select.order_by.size(), 1u);

  ASSERT_OK_AND_ASSIGN(SelectStatement all, ParseQuery("SELECT a, sum(b) FROM t GROUP BY ALL"));
  EXPECT_TRUE(all.group_by->all);
  EXPECT_TRUE(all.group_by->elements.empty());

  ASSERT_OK_AND_ASSIGN(SelectStatement global,
                       ParseQuery("SELECT sum(b) FROM t HAVING sum(b) > 0"));
  EXPECT_FALSE(global.group_by.has_value());
  EXPECT_NE(global.having, nullptr);
}

TEST(ParserGroupByTest, GroupingSetsRollupAndCube) {
  ASSERT_OK_AND_ASSIGN(SelectStatement select,
                       ParseQuery("SELECT 1 FROM t GROUP BY GROUPING SETS ((a, b), (a), c, ()), "
                                  "ROLLUP (a, (b, c)), cube(a), d"));
  const std::vector<GroupingElement>& elements = select.group_by->elements;
  ASSERT_EQ(elements.size(), 4u);
  const GroupingElement& sets = elements[0];
  EXPECT_EQ(sets.kind, GroupingKind::kGroupingSets);
  EXPECT_EQ(sets.pos.column, 26);
  EXPECT_TRUE(sets.items.empty());
  ASSERT_EQ(sets.children.size(), 4u);
  EXPECT_EQ(sets.children[0].kind, GroupingKind::kSet);
  EXPECT_EQ(sets.children[0].items.size(), 2u);
  EXPECT_EQ(sets.children[1].items.size(), 1u);
  EXPECT_EQ(sets.children[2].items.size(), 1u);
  EXPECT_TRUE(sets.children[3].items.empty());  // ()
  const GroupingElement& rollup = elements[1];
  EXPECT_EQ(rollup.kind, GroupingKind::kRollup);
  ASSERT_EQ(rollup.children.size(), 2u);
  EXPECT_EQ(rollup.children[0].items.size(), 1u);
  EXPECT_EQ(rollup.children[1].items.size(), 2u);
  EXPECT_EQ(elements[2].kind, GroupingKind::kCube);
  EXPECT_EQ(elements[3].kind, GroupingKind::kExpression);

  // GROUPING SETS may nest the other forms; a parenthesised expression that goes on is one item.
  ASSERT_OK_AND_ASSIGN(SelectStatement nested,
                       ParseQuery("SELECT 1 FROM t GROUP BY GROUPING SETS (ROLLUP (a, b), (c), "
                                  "GROUPING SETS ((d))), CUBE ((a + b) * 2, (c))"));
  const GroupingElement& outer = nested.group_by->elements[0];
  EXPECT_EQ(outer.children[0].kind, GroupingKind::kRollup);
  EXPECT_EQ(outer.children[1].kind, GroupingKind::kSet);
  EXPECT_EQ(outer.children[2].kind, GroupingKind::kGroupingSets);
  const GroupingElement& cube = nested.group_by->elements[1];
  ASSERT_EQ(cube.children[0].items.size(), 1u);
  EXPECT_EQ(ToString(*cube.children[0].items[0]), "((a + b) * 2)");

  // Names that only look like the keywords.
  ASSERT_OK_AND_ASSIGN(SelectStatement names,
                       ParseQuery("SELECT 1 FROM t GROUP BY rollup, cube + 1, grouping(a)"));
  for (const GroupingElement& element : names.group_by->elements) {
    EXPECT_EQ(element.kind, GroupingKind::kExpression);
  }
}

TEST(ParserGroupByTest, HiveForms) {
  // WITH ROLLUP and WITH CUBE are ROLLUP and CUBE of the listed expressions, as in Spark.
  ASSERT_OK_AND_ASSIGN(SelectStatement rollup,
                       ParseQuery("SELECT a, b FROM t GROUP BY a, b + 1 WITH ROLLUP"));
  ASSERT_EQ(rollup.group_by->elements.size(), 1u);
  const GroupingElement& element = rollup.group_by->elements[0];
  EXPECT_EQ(element.kind, GroupingKind::kRollup);
  EXPECT_EQ(element.pos.column, 29);
  ASSERT_EQ(element.children.size(), 2u);
  EXPECT_EQ(element.children[1].kind, GroupingKind::kSet);
  EXPECT_EQ(ToString(*element.children[1].items[0]), "(b + 1)");
  ASSERT_OK_AND_ASSIGN(SelectStatement cube, ParseQuery("SELECT a FROM t GROUP BY a WITH CUBE"));
  EXPECT_EQ(cube.group_by->elements[0].kind, GroupingKind::kCube);
  EXPECT_EQ(Render("SELECT a FROM t GROUP BY a, b WITH ROLLUP"),
            Render("SELECT a FROM t GROUP BY ROLLUP(a, b)"));

  // GROUPING SETS after the list keeps the list: extra columns, not a cross product.
  ASSERT_OK_AND_ASSIGN(SelectStatement hive,
                       ParseQuery("SELECT a, b, c FROM t GROUP BY a, b, c GROUPING SETS ((a), b)"));
  ASSERT_EQ(hive.group_by->elements.size(), 1u);
  const GroupingElement& sets = hive.group_by->elements[0];
  EXPECT_EQ(sets.kind, GroupingKind::kGroupingSets);
  EXPECT_EQ(sets.pos.column, 40);
  ASSERT_EQ(sets.items.size(), 3u);
  EXPECT_EQ(sets.items[2]->name_parts, (Strings{"c"}));
  EXPECT_EQ(sets.children.size(), 2u);
  EXPECT_EQ(Render("SELECT a FROM t GROUP BY a, b GROUPING SETS ((a), ())"),
            "SELECT a FROM t GROUP BY a, b GROUPING SETS ((a), ())");
  // The standard form with a comma is different.
  ASSERT_OK_AND_ASSIGN(SelectStatement standard,
                       ParseQuery("SELECT a FROM t GROUP BY a, GROUPING SETS ((a), ())"));
  EXPECT_EQ(standard.group_by->elements.size(), 2u);
}

TEST(ParserGroupByTest, Errors) {
  EXPECT_EQ(StatementError("SELECT a FROM t GROUP BY a, ROLLUP (a WITH ROLLUP"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near 'WITH'. (line 1, column 39)\n"
            "== SQL (line 1, column 39) ==\n"
            "SELECT a FROM t GROUP BY a, ROLLUP (a WITH ROLLUP\n"
            "                                      ^");
  for (std::string text :
       {"SELECT a FROM t GROUP BY", "SELECT a FROM t GROUP a", "SELECT a FROM t GROUP BY a,",
        "SELECT a FROM t GROUP BY ROLLUP ()", "SELECT a FROM t GROUP BY GROUPING SETS",
        "SELECT a FROM t GROUP BY GROUPING SETS ((a, ))", "SELECT a FROM t GROUP BY a WITH",
        "SELECT a FROM t GROUP BY ROLLUP (a) WITH ROLLUP", "SELECT a FROM t GROUP BY ALL, a",
        "SELECT a FROM t HAVING", "SELECT a FROM t HAVING a GROUP BY a"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement(text));
  }
}

// ---- The WINDOW clause ----

TEST(ParserWindowClauseTest, NamedWindows) {
  ASSERT_OK_AND_ASSIGN(
      SelectStatement select,
      ParseQuery("SELECT sum(a) OVER w1, rank() OVER w2 FROM t WINDOW w1 AS (PARTITION BY b), "
                 "w2 AS w1, w3 AS (w1) ORDER BY 1"));
  ASSERT_EQ(select.windows.size(), 3u);
  EXPECT_EQ(select.windows[0].name, "w1");
  EXPECT_EQ(select.windows[0].pos.column, 53);
  EXPECT_EQ(select.windows[0].spec.partition_by.size(), 1u);
  EXPECT_EQ(select.windows[1].spec.name, "w1");
  EXPECT_EQ(select.windows[2].spec.name, "w1");
  EXPECT_EQ(select.items[0].expr->window->name, "w1");
  EXPECT_EQ(select.order_by.size(), 1u);
}

TEST(ParserWindowClauseTest, Errors) {
  EXPECT_EQ(StatementError("SELECT 1 FROM t WINDOW w AS (), w AS ()"),
            "[INVALID_SQL_SYNTAX] Invalid SQL syntax: The definition of window `w` is "
            "repetitive. (line 1, column 33)\n"
            "== SQL (line 1, column 33) ==\n"
            "SELECT 1 FROM t WINDOW w AS (), w AS ()\n"
            "                                ^");
  for (std::string text :
       {"SELECT 1 FROM t WINDOW", "SELECT 1 FROM t WINDOW w", "SELECT 1 FROM t WINDOW w AS",
        "SELECT 1 FROM t WINDOW w AS (a)x", "SELECT 1 FROM t WINDOW w AS (ORDER BY a) WHERE a"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement(text));
  }
}

// ---- Statements and round trips ----

TEST(ParserQueryStatementTest, QueriesStartWithSelectWithValuesOrParenthesis) {
  for (std::string text : {"SELECT 1", "WITH a AS (SELECT 1) SELECT * FROM a", "VALUES (1)",
                           "(SELECT 1)", "((SELECT 1) UNION (SELECT 2))"}) {
    SCOPED_TRACE(text);
    ASSERT_OK_AND_ASSIGN(Statement statement, ParseStatement(text + ";"));
    EXPECT_TRUE(std::holds_alternative<SelectStatement>(statement.node));
    ASSERT_OK_AND_ASSIGN(Statement explain, ParseStatement("EXPLAIN " + text));
    EXPECT_TRUE(
        std::holds_alternative<SelectStatement>(std::get<Explain>(explain.node).statement->node));
  }
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("VALUES"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("values x"));
}

TEST(ParserQueryStatementTest, RenderingRoundTrips) {
  for (std::string text : {
           "SELECT DISTINCT a AS `select`, t.* FROM t WHERE a > 1 ORDER BY a DESC NULLS LAST "
           "LIMIT 1 OFFSET 2",
           "SELECT 1 UNION SELECT 2 INTERSECT ALL SELECT 3 MINUS SELECT 4 ORDER BY 1",
           "(SELECT a FROM t LIMIT 5) ORDER BY a LIMIT 2",
           "WITH x (a) AS (SELECT 1), y AS (VALUES (2) AS v(b)) SELECT * FROM x, y",
           "VALUES (1, 'a'), (2, NULL) AS t(c1, c2) ORDER BY c1",
           "SELECT a, b, count(*) FROM t GROUP BY GROUPING SETS ((a, b), a, ()), "
           "ROLLUP (a, (b, c)) HAVING count(*) > 1",
           "SELECT a FROM t GROUP BY a, b WITH CUBE",
           "SELECT a FROM t GROUP BY a, b GROUPING SETS ((a), b)",
           "SELECT a FROM t GROUP BY ALL",
           "SELECT sum(a) OVER w FROM t WINDOW w AS (PARTITION BY b ORDER BY c ROWS 2 "
           "PRECEDING), v AS w",
           "WITH a AS (SELECT 1) (WITH b AS (SELECT 2) SELECT * FROM b) LIMIT 3",
       }) {
    SCOPED_TRACE(text);
    std::string once = Render(text);
    EXPECT_EQ(Render(once), once);
  }
}

}  // namespace
}  // namespace parley::sql
