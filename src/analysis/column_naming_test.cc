// Spark's names of unaliased select items. Every expected name below is what pyspark 4.2
// printed as the column name of the same item (SELECT <item> FROM VALUES ... AS t(a, b)).
#include "analysis/column_naming.h"

#include <gtest/gtest.h>

#include "sql/parser.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

std::string Named(const std::string& text) {
  auto expr = sql::ParseExpression(text);
  EXPECT_TRUE(expr.ok()) << text << ": " << expr.status().ToString();
  if (!expr.ok()) return "<parse error>";
  return SparkItemName(**expr).value_or("<none>");
}

struct NamingCase {
  const char* item;
  const char* spark_name;
};

TEST(ColumnNamingTest, NamesItemsAsSparkDoes) {
  const NamingCase cases[] = {
      {"a + 1", "(a + 1)"},
      {"upper(b)", "upper(b)"},
      {"a*2", "(a * 2)"},
      {"-a", "(- a)"},
      {"+a", "(+ a)"},
      {"-(a + 1)", "(- (a + 1))"},
      {"NOT true", "(NOT true)"},
      {"a IS NULL", "(a IS NULL)"},
      {"a IS NOT NULL", "(a IS NOT NULL)"},
      {"a = 1", "(a = 1)"},
      {"a <> 1", "(NOT (a = 1))"},
      {"a != 1", "(NOT (a = 1))"},
      {"a <=> 1", "(a <=> 1)"},
      {"a IS DISTINCT FROM 1", "(NOT (a <=> 1))"},
      {"a IS NOT DISTINCT FROM 1", "(a <=> 1)"},
      {"1", "1"},
      {"'x'", "x"},
      {"'it''s'", "it's"},
      {"1.5", "1.5"},
      {"1L", "1"},
      {"1.0D", "1.0"},
      {"1e3", "1000.0"},
      {"NULL", "NULL"},
      {"true", "true"},
      {"DATE '2020-01-01'", "DATE '2020-01-01'"},
      {"TIMESTAMP '2020-01-01 00:00:00'", "TIMESTAMP '2020-01-01 00:00:00'"},
      {"TIMESTAMP '2020-01-01'", "TIMESTAMP '2020-01-01 00:00:00'"},
      {"X'0A'", "X'0A'"},
      {"1.50", "1.50"},
      {"-1", "-1"},
      {"1 - -1", "(1 - -1)"},
      {"2.5E0", "2.5"},
      {"100000000000", "100000000000"},
      {"10.0", "10.0"},
      {"1.5E10", "1.5E10"},
      {"1e7", "1.0E7"},
      {"1e-3", "0.001"},
      {"1e-4", "1.0E-4"},
      {"123456789.0D", "1.23456789E8"},
      {"1.5F", "1.5"},
      {"-1.5D", "-1.5"},
      {"-0.0D", "-0.0"},
      {"1.5BD", "1.5"},
      {".5", "0.5"},
      {"00012", "12"},
      {"1e308", "1.0E308"},
      {"12345678901234567890", "12345678901234567890"},
      {"count(*)", "count(1)"},
      {"count(a)", "count(a)"},
      {"count(DISTINCT a)", "count(DISTINCT a)"},
      {"COUNT(1)", "count(1)"},
      {"Sum(A)", "sum(A)"},
      {"count(DISTINCT a, b)", "count(DISTINCT a, b)"},
      {"sum(a) FILTER (WHERE a > 0)", "sum(a) FILTER (WHERE (a > 0))"},
      {"percentile(a, 0.5)", "percentile(a, 0.5, 1)"},
      {"percentile_approx(a, 0.5)", "percentile_approx(a, 0.5, 10000)"},
      {"bool_and(a > 0)", "bool_and((a > 0))"},
      {"first(a, true)", "first(a)"},
      {"last(a) IGNORE NULLS", "last(a)"},
      {"CAST(a AS STRING)", "a"},
      {"try_cast(b AS INT)", "b"},
      {"b::int", "b"},
      {"CAST(b AS INT) + 1", "(CAST(b AS INT) + 1)"},
      {"try_cast(b AS INT) + 1", "(TRY_CAST(b AS INT) + 1)"},
      {"CAST(1.5 AS DECIMAL(10, 2))", "CAST(1.5 AS DECIMAL(10,2))"},
      {"CAST(NULL AS INT)", "CAST(NULL AS INT)"},
      {"CAST(1 AS VARCHAR(3))", "CAST(1 AS STRING)"},
      {"CAST(1 AS INTEGER) + CAST(1 AS LONG)", "(CAST(1 AS INT) + CAST(1 AS BIGINT))"},
      {"CAST(1 AS DEC)", "CAST(1 AS DECIMAL(10,0))"},
      {"CAST(1 AS DOUBLE) + 1", "(CAST(1 AS DOUBLE) + 1)"},
      {"CASE WHEN a = 1 THEN 'x' ELSE 'y' END", "CASE WHEN (a = 1) THEN x ELSE y END"},
      {"CASE a WHEN 1 THEN 2 END", "CASE WHEN (a = 1) THEN 2 END"},
      {"CASE WHEN a > 0 THEN 1 WHEN a < 0 THEN -1 ELSE 0 END",
       "CASE WHEN (a > 0) THEN 1 WHEN (a < 0) THEN -1 ELSE 0 END"},
      {"IF(a = 1, 2, 3)", "(IF((a = 1), 2, 3))"},
      {"coalesce(a, 1)", "coalesce(a, 1)"},
      {"coalesce(a, 1) + 1", "(coalesce(a, 1) + 1)"},
      {"a IN (1, 2)", "(a IN (1, 2))"},
      {"a NOT IN (1)", "(NOT (a IN (1)))"},
      {"a BETWEEN 1 AND 2", "between(a, 1, 2)"},
      {"a NOT BETWEEN 1 AND 2", "(NOT between(a, 1, 2))"},
      {"b LIKE 'x%'", "b LIKE x%"},
      {"b NOT LIKE 'x'", "(NOT b LIKE x)"},
      {"b LIKE 'x' ESCAPE '!'", "b LIKE x ESCAPE '!'"},
      {"b ILIKE 'x'", "ilike(b, x)"},
      {"b NOT ILIKE 'x'", "(NOT ilike(b, x))"},
      {"b RLIKE 'x'", "RLIKE(b, x)"},
      {"a IS TRUE", "(a <=> true)"},
      {"a IS NOT FALSE", "(NOT (a <=> false))"},
      {"NOT (a = 1)", "(NOT (a = 1))"},
      {"a > 1 AND a < 3", "((a > 1) AND (a < 3))"},
      {"a = 1 OR a = 2", "((a = 1) OR (a = 2))"},
      {"a % 2", "(a % 2)"},
      {"a DIV 2", "(a div 2)"},
      {"a & 1", "(a & 1)"},
      {"a | 1", "(a | 1)"},
      {"a ^ 1", "(a ^ 1)"},
      {"~a", "~a"},
      {"b || 'y'", "concat(b, y)"},
      {"'a' || 'b' || 'c'", "concat(concat(a, b), c)"},
      {"(a + 1) * 2", "((a + 1) * 2)"},
      {"a + 1 * 2", "(a + (1 * 2))"},
      {"1 + 2 + 3", "((1 + 2) + 3)"},
      {"t.a", "a"},
      {"A", "A"},
      {"`a b` + 1", "(a b + 1)"},
      {"substr(b, 1, 2)", "substr(b, 1, 2)"},
      {"substring(b, 1)", "substring(b, 1, 2147483647)"},
      {"round(a, 2)", "round(a, 2)"},
      {"round(a)", "round(a, 0)"},
      {"abs(-a)", "abs((- a))"},
      {"locate('x', b)", "locate(x, b, 1)"},
      {"position('x' IN b)", "locate(x, b, 1)"},
      {"lpad(b, 3, '0')", "lpad(b, 3, 0)"},
      {"rpad(b, 3)", "rpad(b, 3,  )"},
      {"split(b, ',')", "split(b, ,, -1)"},
      {"regexp_replace(b, 'x', 'y')", "regexp_replace(b, x, y, 1)"},
      {"trim(BOTH 'x' FROM b)", "TRIM(BOTH x FROM b)"},
      {"concat_ws(',', b, b)", "concat_ws(,, b, b)"},
      {"ceil(a)", "CEIL(a)"},
      {"CEILING(a)", "ceiling(a)"},
      {"floor(a)", "FLOOR(a)"},
      {"ln(a)", "ln(a)"},
      {"log10(a)", "LOG10(a)"},
      {"log(2, a)", "LOG(2, a)"},
      {"exp(a)", "EXP(a)"},
      {"sqrt(a)", "SQRT(a)"},
      {"pow(a, 2)", "pow(a, 2)"},
      {"power(a, 2)", "POWER(a, 2)"},
      {"sign(a)", "sign(a)"},
      {"signum(a)", "SIGNUM(a)"},
      {"atan2(a, 2)", "ATAN2(a, 2)"},
      {"current_date()", "current_date()"},
      {"date_add(DATE '2020-01-01', 1)", "date_add(DATE '2020-01-01', 1)"},
      {"extract(year FROM DATE '2020-01-01')", "extract(year FROM DATE '2020-01-01')"},
      {"months_between(DATE '2020-01-02', DATE '2020-01-01')",
       "months_between(DATE '2020-01-02', DATE '2020-01-01', true)"},
      {"unix_timestamp(TIMESTAMP '2020-01-01 00:00:00')",
       "unix_timestamp(TIMESTAMP '2020-01-01 00:00:00', yyyy-MM-dd HH:mm:ss)"},
      {"date_trunc('month', DATE '2020-01-01')", "date_trunc(month, DATE '2020-01-01')"},
      {"array(1, 2)[0]", "array(1, 2)[0]"},
      {"map('k', 1)", "map(k, 1)"},
      {"(SELECT 1)", "scalarsubquery()"},
      {"EXISTS (SELECT 1)", "exists()"},
      {"NOT EXISTS (SELECT 1)", "(NOT exists())"},
      {"a IN (SELECT 1)", "(a IN (listquery()))"},
      {"a NOT IN (SELECT 1)", "(NOT (a IN (listquery())))"},
      {"row_number() OVER (ORDER BY a)",
       "row_number() OVER (ORDER BY a ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND "
       "CURRENT ROW)"},
      {"sum(a) OVER (PARTITION BY b)",
       "sum(a) OVER (PARTITION BY b ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)"},
      {"rank() OVER (PARTITION BY b ORDER BY a DESC)",
       "RANK() OVER (PARTITION BY b ORDER BY a DESC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING "
       "AND CURRENT ROW)"},
      {"dense_rank() OVER (ORDER BY a)",
       "DENSE_RANK() OVER (ORDER BY a ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND "
       "CURRENT ROW)"},
      {"cume_dist() OVER (ORDER BY a)",
       "cume_dist() OVER (ORDER BY a ASC NULLS FIRST RANGE BETWEEN UNBOUNDED PRECEDING AND "
       "CURRENT ROW)"},
      {"lag(a) OVER (ORDER BY a)",
       "lag(a, 1, NULL) OVER (ORDER BY a ASC NULLS FIRST ROWS BETWEEN -1 FOLLOWING AND -1 "
       "FOLLOWING)"},
      {"lead(a, 2) OVER (ORDER BY a)",
       "lead(a, 2, NULL) OVER (ORDER BY a ASC NULLS FIRST ROWS BETWEEN 2 FOLLOWING AND 2 "
       "FOLLOWING)"},
      {"sum(a) OVER (ORDER BY a)",
       "sum(a) OVER (ORDER BY a ASC NULLS FIRST RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT "
       "ROW)"},
      {"count(1) OVER (PARTITION BY a)",
       "count(1) OVER (PARTITION BY a ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED "
       "FOLLOWING)"},
      {"sum(a) OVER (ORDER BY a ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)",
       "sum(a) OVER (ORDER BY a ASC NULLS FIRST ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)"},
      {"sum(a) OVER (ORDER BY a NULLS LAST)",
       "sum(a) OVER (ORDER BY a ASC NULLS LAST RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT "
       "ROW)"},
  };
  for (const auto& c : cases) EXPECT_EQ(Named(c.item), c.spark_name) << c.item;
}

TEST(ColumnNamingTest, LeavesFormsItCannotPrintToTheCaller) {
  for (const char* item :
       {"INTERVAL 1 DAY", "sum(a) OVER w", "percentile_cont(0.5) WITHIN GROUP (ORDER BY a)"}) {
    EXPECT_EQ(Named(item), "<none>") << item;
  }
}

}  // namespace
}  // namespace parley
