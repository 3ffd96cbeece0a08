// Tests for the DDL and data-changing statements: CREATE|REPLACE TABLE with its column
// definitions, clauses (in any order, each once), partition transforms and CTAS; DROP and ALTER
// TABLE with every action; CREATE|DROP|ALTER NAMESPACE; SHOW CREATE TABLE and SHOW
// TBLPROPERTIES; INSERT INTO|OVERWRITE with partition specs, column lists, BY NAME and any
// query; TRUNCATE; EXPLAIN over them; Spark's parse-time checks (DUPLICATE_CLAUSES,
// DUPLICATE_KEY, _LEGACY_ERROR_TEMP_0035, ...), syntax errors and positions.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "sql/ast_printer.h"
#include "sql/parser.h"
#include "testing/gtest_util.h"

namespace parley::sql {
namespace {

using Strings = std::vector<std::string>;
using Properties = PropertyList;

// Statement `text`, which must be a `T`.
template <typename T>
Result<T> Parse(std::string_view text) {
  ARROW_ASSIGN_OR_RAISE(Statement statement, ParseStatement(text));
  auto* node = std::get_if<T>(&statement.node);
  if (node == nullptr) return Status::Invalid("unexpected statement kind: ", text);
  return std::move(*node);
}

std::string StatementError(std::string_view text, SourcePosition origin = {}) {
  return ParseStatement(text, origin).status().message();
}

// The rendering of each expression of `exprs`.
Strings Rendered(const std::vector<ExprPtr>& exprs) {
  Strings out;
  for (const ExprPtr& expr : exprs) out.push_back(ToString(*expr));
  return out;
}

Strings ColumnNames(const std::vector<ColumnDefinition>& columns) {
  Strings out;
  for (const ColumnDefinition& column : columns) {
    std::string name;
    for (const std::string& part : column.name) name += (name.empty() ? "" : ".") + part;
    out.push_back(name);
  }
  return out;
}

// ---- CREATE TABLE ----

TEST(ParserCreateTableTest, EveryClause) {
  ASSERT_OK_AND_ASSIGN(
      CreateTable table,
      Parse<CreateTable>("CREATE TABLE IF NOT EXISTS cat.db.t (\n"
                         "  id BIGINT NOT NULL COMMENT 'the key',\n"
                         "  name STRING DEFAULT 'n/a',\n"
                         "  price DECIMAL(10, 2) DEFAULT  1 +  2 NOT NULL,\n"
                         "  ts TIMESTAMP)\n"
                         "USING parquet OPTIONS (path '/tmp/x', 'compression'='snappy')\n"
                         "PARTITIONED BY (name, bucket(4, id), days(ts))\n"
                         "LOCATION '/data/t' COMMENT 'a table'\n"
                         "TBLPROPERTIES (a.b.c = 1, 'Key' = TRUE, x = y, d = 1.5)"));
  EXPECT_EQ(table.name.parts, (Strings{"cat", "db", "t"}));
  EXPECT_EQ(table.name.pos.column, 28);
  EXPECT_TRUE(table.create);
  EXPECT_FALSE(table.replace);
  EXPECT_TRUE(table.if_not_exists);
  EXPECT_FALSE(table.external);

  ASSERT_EQ(table.columns.size(), 4u);
  EXPECT_EQ(ColumnNames(table.columns), (Strings{"id", "name", "price", "ts"}));
  const ColumnDefinition& id = table.columns[0];
  EXPECT_EQ(id.type.name, "BIGINT");
  EXPECT_TRUE(id.not_null);
  EXPECT_EQ(id.comment, "the key");
  EXPECT_EQ(id.default_value, nullptr);
  EXPECT_EQ(id.pos.line, 2);
  EXPECT_EQ(id.pos.column, 3);
  const ColumnDefinition& name = table.columns[1];
  EXPECT_FALSE(name.not_null);
  EXPECT_FALSE(name.comment.has_value());
  ASSERT_NE(name.default_value, nullptr);
  EXPECT_EQ(name.default_value->kind, ExprKind::kLiteral);
  EXPECT_EQ(name.default_text, "'n/a'");
  const ColumnDefinition& price = table.columns[2];
  EXPECT_EQ(price.type.name, "DECIMAL");
  EXPECT_EQ(price.type.parameters, (std::vector<int>{10, 2}));
  EXPECT_EQ(ToString(*price.default_value), "(1 + 2)");
  EXPECT_EQ(price.default_text, "1 +  2");  // as written, inner spacing kept
  EXPECT_EQ(price.default_value->pos.line, 4);
  EXPECT_EQ(price.default_value->pos.column, 33);
  EXPECT_TRUE(price.not_null);
  EXPECT_EQ(table.columns[3].type.name, "TIMESTAMP");

  EXPECT_EQ(table.provider, "parquet");
  EXPECT_EQ(table.options, (Properties{{"path", "/tmp/x"}, {"compression", "snappy"}}));
  EXPECT_EQ(Rendered(table.partitioning), (Strings{"name", "bucket(4, id)", "days(ts)"}));
  EXPECT_EQ(table.partitioning[1]->kind, ExprKind::kFunction);
  EXPECT_EQ(table.partitioning[1]->source_text, "bucket(4, id)");
  EXPECT_EQ(table.partitioning[1]->pos.line, 7);
  EXPECT_EQ(table.partitioning[1]->pos.column, 23);
  EXPECT_EQ(table.location, "/data/t");
  EXPECT_EQ(table.comment, "a table");
  EXPECT_EQ(table.properties,
            (Properties{{"a.b.c", "1"}, {"Key", "true"}, {"x", "y"}, {"d", "1.5"}}));
  EXPECT_EQ(table.query, nullptr);
}

TEST(ParserCreateTableTest, MinimalForms) {
  ASSERT_OK_AND_ASSIGN(CreateTable bare, Parse<CreateTable>("create table t;"));
  EXPECT_EQ(bare.name.parts, (Strings{"t"}));
  EXPECT_TRUE(bare.columns.empty());
  EXPECT_FALSE(bare.provider.has_value());
  EXPECT_FALSE(bare.if_not_exists);

  ASSERT_OK_AND_ASSIGN(CreateTable external,
                       Parse<CreateTable>("CREATE EXTERNAL TABLE t (a INT) LOCATION '/x'"));
  EXPECT_TRUE(external.external);
  EXPECT_TRUE(external.create);

  ASSERT_OK_AND_ASSIGN(CreateTable provider,
                       Parse<CreateTable>("CREATE TABLE t (a INT) USING org.apache.Delta"));
  EXPECT_EQ(provider.provider, "org.apache.Delta");  // case kept

  // A path-like name and a keyword as a name.
  ASSERT_OK_AND_ASSIGN(CreateTable path, Parse<CreateTable>("CREATE TABLE parquet.`/tmp/p`"));
  EXPECT_EQ(path.name.parts, (Strings{"parquet", "/tmp/p"}));
}

TEST(ParserCreateTableTest, OrReplaceAndReplace) {
  ASSERT_OK_AND_ASSIGN(CreateTable create_or_replace,
                       Parse<CreateTable>("CREATE OR REPLACE TABLE t (a INT) USING parquet"));
  EXPECT_TRUE(create_or_replace.create);
  EXPECT_TRUE(create_or_replace.replace);
  EXPECT_FALSE(create_or_replace.if_not_exists);

  ASSERT_OK_AND_ASSIGN(CreateTable replace,
                       Parse<CreateTable>("REPLACE TABLE db.t USING parquet AS SELECT 1 AS a"));
  EXPECT_FALSE(replace.create);
  EXPECT_TRUE(replace.replace);
  EXPECT_EQ(replace.name.parts, (Strings{"db", "t"}));
  ASSERT_NE(replace.query, nullptr);
  EXPECT_EQ(ToString(*replace.query), "SELECT 1 AS a");

  // Spark's grammar has no IF NOT EXISTS after OR REPLACE: `if` is read as the table's name.
  EXPECT_EQ(StatementError("CREATE OR REPLACE TABLE IF NOT EXISTS t (a INT)"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near 'NOT'. (line 1, column 28)\n"
            "== SQL (line 1, column 28) ==\n"
            "CREATE OR REPLACE TABLE IF NOT EXISTS t (a INT)\n"
            "                           ^");
  ASSERT_OK_AND_ASSIGN(CreateTable named_if,
                       Parse<CreateTable>("CREATE OR REPLACE TABLE if (a INT)"));
  EXPECT_EQ(named_if.name.parts, (Strings{"if"}));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR",
                          ParseStatement("CREATE OR REPLACE EXTERNAL TABLE t (a INT)"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("REPLACE TABLE IF NOT EXISTS t"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CREATE OR TABLE t"));
}

TEST(ParserCreateTableTest, ClausesInAnyOrder) {
  std::vector<std::string> clauses = {"USING csv",          "OPTIONS (k = 'v')",
                                      "PARTITIONED BY (a)", "LOCATION '/l'",
                                      "COMMENT 'c'",        "TBLPROPERTIES (p = 'q')"};
  std::vector<std::vector<int>> orders = {
      {0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}, {3, 0, 5, 1, 4, 2}, {2, 5, 0, 4, 3, 1}};
  for (const std::vector<int>& order : orders) {
    std::string text = "CREATE TABLE t (a INT, b INT)";
    for (int index : order) text += " " + clauses[index];
    SCOPED_TRACE(text);
    ASSERT_OK_AND_ASSIGN(CreateTable table, Parse<CreateTable>(text));
    EXPECT_EQ(table.provider, "csv");
    EXPECT_EQ(table.options, (Properties{{"k", "v"}}));
    EXPECT_EQ(Rendered(table.partitioning), (Strings{"a"}));
    EXPECT_EQ(table.location, "/l");
    EXPECT_EQ(table.comment, "c");
    EXPECT_EQ(table.properties, (Properties{{"p", "q"}}));
  }
}

TEST(ParserCreateTableTest, DuplicateClauses) {
  std::vector<std::pair<std::string, std::string>> cases = {
      {"USING a USING b", "USING"},
      {"OPTIONS (a = 1) OPTIONS (b = 2)", "OPTIONS"},
      {"PARTITIONED BY (a) PARTITIONED BY (b)", "PARTITIONED BY"},
      {"LOCATION '/x' COMMENT 'c' LOCATION '/y'", "LOCATION"},
      {"COMMENT 'x' COMMENT 'x'", "COMMENT"},
      {"TBLPROPERTIES (a = 1) USING p TBLPROPERTIES (b = 1)", "TBLPROPERTIES"}};
  for (const auto& [clauses, name] : cases) {
    std::string text = "CREATE TABLE t (a INT, b INT) " + clauses;
    SCOPED_TRACE(text);
    Status status = ParseStatement(text).status();
    ASSERT_RAISES_CONDITION("DUPLICATE_CLAUSES", status);
    EXPECT_NE(status.message().find("Found duplicate clauses: " + name + ". "), std::string::npos)
        << status.message();
  }
  EXPECT_EQ(StatementError("CREATE TABLE t COMMENT 'x'\nCOMMENT 'y'"),
            "[DUPLICATE_CLAUSES] Found duplicate clauses: COMMENT. Please, remove one of them. "
            "(line 2, column 1)\n"
            "== SQL (line 2, column 1) ==\n"
            "COMMENT 'y'\n"
            "^");
}

TEST(ParserCreateTableTest, ColumnOptions) {
  ASSERT_OK_AND_ASSIGN(
      CreateTable table,
      Parse<CreateTable>("CREATE TABLE t (a INT COMMENT 'c' DEFAULT concat('x',  'y') NOT NULL, "
                         "b STRING NOT NULL DEFAULT current_date() COMMENT 'd', "
                         "c DOUBLE DEFAULT -1.5, d INT DEFAULT NULL)"));
  ASSERT_EQ(table.columns.size(), 4u);
  EXPECT_EQ(table.columns[0].comment, "c");
  EXPECT_EQ(table.columns[0].default_text, "concat('x',  'y')");
  EXPECT_TRUE(table.columns[0].not_null);
  EXPECT_EQ(table.columns[1].default_text, "current_date()");
  EXPECT_EQ(table.columns[1].comment, "d");
  EXPECT_TRUE(table.columns[1].not_null);
  EXPECT_EQ(table.columns[2].default_text, "-1.5");
  EXPECT_EQ(table.columns[2].default_value->literal_kind, LiteralKind::kDecimal);
  EXPECT_EQ(table.columns[3].default_text, "NULL");

  for (std::string text :
       {"CREATE TABLE t (a INT NOT NULL NOT NULL)", "CREATE TABLE t (a INT DEFAULT 1 DEFAULT 2)",
        "CREATE TABLE t (a INT COMMENT 'x' NOT NULL COMMENT 'y')"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("DUPLICATE_CLAUSES", ParseStatement(text));
  }
  // FIRST and AFTER belong to ALTER TABLE ADD COLUMN only.
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CREATE TABLE t (a INT FIRST)"));
  // A nested name belongs to ALTER TABLE ADD COLUMN only.
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CREATE TABLE t (s.a INT)"));
}

TEST(ParserCreateTableTest, KeywordsAreNames) {
  ASSERT_OK_AND_ASSIGN(
      CreateTable table,
      Parse<CreateTable>("CREATE TABLE comment (location STRING, comment STRING COMMENT "
                         "'comment', options INT, default INT DEFAULT 1, type INT) "
                         "COMMENT 'location'"));
  EXPECT_EQ(table.name.parts, (Strings{"comment"}));
  EXPECT_EQ(ColumnNames(table.columns),
            (Strings{"location", "comment", "options", "default", "type"}));
  EXPECT_EQ(table.comment, "location");
  EXPECT_EQ(table.columns[3].default_text, "1");
}

TEST(ParserCreateTableTest, MissingTypes) {
  EXPECT_EQ(StatementError("CREATE TABLE t (a, b INT)"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near ','. (line 1, column 18)\n"
            "== SQL (line 1, column 18) ==\n"
            "CREATE TABLE t (a, b INT)\n"
            "                 ^");
  EXPECT_EQ(StatementError("CREATE TABLE t (a)"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near ')'. (line 1, column 18)\n"
            "== SQL (line 1, column 18) ==\n"
            "CREATE TABLE t (a)\n"
            "                 ^");
  ASSERT_RAISES_CONDITION("UNSUPPORTED_DATATYPE", ParseStatement("CREATE TABLE t (a WHATEVER)"));
  ASSERT_RAISES_CONDITION("DATATYPE_MISSING_SIZE", ParseStatement("CREATE TABLE t (a VARCHAR)"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CREATE TABLE t ()"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CREATE TABLE t (a INT,)"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CREATE TABLE t (a INT"));
}

TEST(ParserCreateTableTest, Partitioning) {
  ASSERT_OK_AND_ASSIGN(
      CreateTable table,
      Parse<CreateTable>("CREATE TABLE t (a INT, ts TIMESTAMP, s STRING) PARTITIONED BY "
                         "(years(ts), bucket(16, a, s), truncate(s, -3), s, n.x, "
                         "f(DATE '2024-01-02', 'x', NULL))"));
  EXPECT_EQ(Rendered(table.partitioning),
            (Strings{"years(ts)", "bucket(16, a, s)", "truncate(s, -3)", "s", "n.x",
                     "f(DATE '2024-01-02', 'x', NULL)"}));
  const Expr& bucket = *table.partitioning[1];
  EXPECT_EQ(bucket.name_parts, (Strings{"bucket"}));
  ASSERT_EQ(bucket.children.size(), 3u);
  EXPECT_EQ(bucket.children[0]->kind, ExprKind::kLiteral);
  EXPECT_EQ(bucket.children[1]->kind, ExprKind::kColumn);
  EXPECT_EQ(table.partitioning[2]->children[1]->text, "-3");
  EXPECT_EQ(table.partitioning[4]->kind, ExprKind::kColumn);
  EXPECT_EQ(table.partitioning[4]->name_parts, (Strings{"n", "x"}));
  EXPECT_EQ(table.partitioning[4]->source_text, "n.x");
  EXPECT_EQ(table.columns.size(), 3u);  // no column defined by PARTITIONED BY

  // Transform arguments are columns and constants, not expressions.
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR",
                          ParseStatement("CREATE TABLE t PARTITIONED BY (bucket(4, a + 1))"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR",
                          ParseStatement("CREATE TABLE t PARTITIONED BY (a + 1)"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CREATE TABLE t PARTITIONED (a)"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CREATE TABLE t PARTITIONED BY a"));
}

TEST(ParserCreateTableTest, HiveStylePartitionColumns) {
  ASSERT_OK_AND_ASSIGN(
      CreateTable table,
      Parse<CreateTable>("CREATE TABLE t (a INT) PARTITIONED BY (p STRING COMMENT 'part', "
                         "q DATE NOT NULL, a)"));
  EXPECT_EQ(ColumnNames(table.columns), (Strings{"a", "p", "q"}));
  EXPECT_EQ(table.columns[1].type.name, "STRING");
  EXPECT_EQ(table.columns[1].comment, "part");
  EXPECT_TRUE(table.columns[2].not_null);
  EXPECT_EQ(table.columns[1].pos.column, 40);
  EXPECT_EQ(Rendered(table.partitioning), (Strings{"p", "q", "a"}));
  EXPECT_EQ(table.partitioning[0]->source_text, "p");
  EXPECT_EQ(table.partitioning[0]->pos.column, 40);
}

TEST(ParserCreateTableTest, CreateTableAsSelect) {
  std::vector<std::pair<std::string, std::string>> cases = {
      {"CREATE TABLE t USING parquet AS SELECT 1 AS a", "SELECT 1 AS a"},
      {"CREATE TABLE t SELECT a FROM s", "SELECT a FROM s"},
      {"CREATE TABLE t AS VALUES (1, 'x')", "VALUES (1, 'x')"},
      {"CREATE TABLE t AS (SELECT 1) UNION ALL (SELECT 2)", "(SELECT 1) UNION ALL (SELECT 2)"},
      {"CREATE TABLE t (SELECT 1)", "SELECT 1"},
      {"CREATE TABLE t PARTITIONED BY (a) COMMENT 'c' AS WITH c AS (SELECT 1 AS a) "
       "SELECT * FROM c",
       "WITH c AS (SELECT 1 AS a) SELECT * FROM c"}};
  for (const auto& [text, query] : cases) {
    SCOPED_TRACE(text);
    ASSERT_OK_AND_ASSIGN(CreateTable table, Parse<CreateTable>(text));
    ASSERT_NE(table.query, nullptr);
    EXPECT_EQ(ToString(*table.query), query);
    EXPECT_TRUE(table.columns.empty());
  }
  EXPECT_EQ(StatementError("CREATE TABLE t (a INT) AS SELECT 1"),
            "[_LEGACY_ERROR_TEMP_0035] Operation not allowed: Schema may not be specified in a "
            "Create Table As Select (CTAS) statement. (line 1, column 1)\n"
            "== SQL (line 1, column 1) ==\n"
            "CREATE TABLE t (a INT) AS SELECT 1\n"
            "^");
  Status typed_partition =
      ParseStatement("CREATE TABLE t PARTITIONED BY (p INT) AS SELECT 1 AS p").status();
  ASSERT_RAISES_CONDITION("_LEGACY_ERROR_TEMP_0035", typed_partition);
  EXPECT_NE(typed_partition.message().find("Partition column types may not be specified"),
            std::string::npos);
  // The query must be complete.
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CREATE TABLE t AS"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CREATE TABLE t AS SELECT"));
}

TEST(ParserCreateTableTest, TemporaryTablesAreRefused) {
  EXPECT_EQ(StatementError("CREATE TEMPORARY TABLE t (a INT) USING parquet"),
            "[_LEGACY_ERROR_TEMP_0035] Operation not allowed: CREATE TEMPORARY TABLE ..., use "
            "CREATE TEMPORARY VIEW instead. (line 1, column 1)\n"
            "== SQL (line 1, column 1) ==\n"
            "CREATE TEMPORARY TABLE t (a INT) USING parquet\n"
            "^");
  Status as_select = ParseStatement("CREATE TEMPORARY TABLE t USING parquet AS SELECT 1").status();
  ASSERT_RAISES_CONDITION("_LEGACY_ERROR_TEMP_0035", as_select);
  EXPECT_NE(as_select.message().find("CREATE TEMPORARY TABLE ... AS ..., use"), std::string::npos);
  // As in Spark, a syntax error anywhere in the statement is reported first.
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CREATE TEMPORARY TABLE t (a)"));
}

TEST(ParserCreateViewTest, ViewsWithTheirClauses) {
  ASSERT_OK_AND_ASSIGN(Statement statement,
                       ParseStatement("CREATE OR REPLACE TEMPORARY VIEW v (x COMMENT 'the x', y) "
                                      "COMMENT 'a view' TBLPROPERTIES ('k' = 'v') AS "
                                      "SELECT a, b FROM t WHERE a > 1"));
  const auto& view = std::get<CreateView>(statement.node);
  EXPECT_TRUE(view.replace);
  EXPECT_TRUE(view.temporary);
  EXPECT_FALSE(view.global);
  EXPECT_EQ(view.name.parts, (std::vector<std::string>{"v"}));
  ASSERT_EQ(view.columns.size(), 2u);
  EXPECT_EQ(view.columns[0], (std::pair<std::string, std::string>{"x", "the x"}));
  EXPECT_EQ(view.columns[1].second, "");
  EXPECT_EQ(view.comment, "a view");
  EXPECT_EQ(view.properties.size(), 1u);
  EXPECT_EQ(view.query_text, "SELECT a, b FROM t WHERE a > 1");
  ASSERT_OK_AND_ASSIGN(Statement global,
                       ParseStatement("CREATE GLOBAL TEMPORARY VIEW g AS SELECT 1"));
  EXPECT_TRUE(std::get<CreateView>(global.node).global);
  ASSERT_OK_AND_ASSIGN(Statement plain, ParseStatement("CREATE VIEW IF NOT EXISTS p AS SELECT 1"));
  EXPECT_FALSE(std::get<CreateView>(plain.node).temporary);
  EXPECT_TRUE(std::get<CreateView>(plain.node).if_not_exists);
  ASSERT_OK_AND_ASSIGN(Statement drop, ParseStatement("DROP VIEW IF EXISTS db.v"));
  EXPECT_TRUE(std::get<DropView>(drop.node).if_exists);
  EXPECT_EQ(std::get<DropView>(drop.node).name.parts, (std::vector<std::string>{"db", "v"}));
  ASSERT_OK_AND_ASSIGN(Statement as, ParseStatement("ALTER VIEW db.v AS SELECT a FROM t"));
  EXPECT_EQ(std::get<AlterView>(as.node).kind, AlterViewKind::kQuery);
  EXPECT_EQ(std::get<AlterView>(as.node).query_text, "SELECT a FROM t");
  ASSERT_OK_AND_ASSIGN(Statement rename, ParseStatement("ALTER VIEW v RENAME TO db.w"));
  EXPECT_EQ(std::get<AlterView>(rename.node).new_name.parts, (std::vector<std::string>{"db", "w"}));
  ASSERT_OK_AND_ASSIGN(Statement set, ParseStatement("ALTER VIEW v SET TBLPROPERTIES ('k'='v')"));
  EXPECT_EQ(std::get<AlterView>(set.node).properties.size(), 1u);
  ASSERT_OK_AND_ASSIGN(Statement unset,
                       ParseStatement("ALTER VIEW v UNSET TBLPROPERTIES IF EXISTS ('k', 'j')"));
  EXPECT_TRUE(std::get<AlterView>(unset.node).if_exists);
  EXPECT_EQ(std::get<AlterView>(unset.node).property_keys, (std::vector<std::string>{"k", "j"}));
  for (const char* text :
       {"CREATE VIEW v", "CREATE VIEW v SELECT 1", "CREATE GLOBAL VIEW v AS SELECT 1",
        "CREATE TEMPORARY VIEW v (a,) AS SELECT 1", "DROP VIEW", "ALTER VIEW v",
        "ALTER VIEW v RENAME w", "ALTER VIEW v SET ('k'='v')",
        "ALTER VIEW v ADD COLUMNS (a INT)"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement(text));
  }
}

TEST(ParserCreateTableTest, PropertyLists) {
  ASSERT_OK_AND_ASSIGN(
      CreateTable table,
      Parse<CreateTable>("CREATE TABLE t TBLPROPERTIES (`quoted key`.Part = 'v', 'a.b' 2, "
                         "MixedCase = false, order.by = 1e3) OPTIONS (k 'v')"));
  EXPECT_EQ(
      table.properties,
      (Properties{
          {"quoted key.Part", "v"}, {"a.b", "2"}, {"MixedCase", "false"}, {"order.by", "1e3"}}));
  EXPECT_EQ(table.options, (Properties{{"k", "v"}}));
  // Without '=', a bare name cannot be a value.
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CREATE TABLE t OPTIONS (k v)"));

  for (std::string text : {"CREATE TABLE t TBLPROPERTIES a = 1", "CREATE TABLE t TBLPROPERTIES ()",
                           "CREATE TABLE t TBLPROPERTIES (a = )", "CREATE TABLE t OPTIONS (a = 1,)",
                           "CREATE TABLE t TBLPROPERTIES (a = 1", "CREATE TABLE t OPTIONS (1 = 2)",
                           "CREATE TABLE t TBLPROPERTIES (a = -1)"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement(text));
  }
  EXPECT_EQ(StatementError("CREATE TABLE t TBLPROPERTIES (a = )"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near ')'. (line 1, column 35)\n"
            "== SQL (line 1, column 35) ==\n"
            "CREATE TABLE t TBLPROPERTIES (a = )\n"
            "                                  ^");
  EXPECT_EQ(StatementError("CREATE TABLE t TBLPROPERTIES ('a' = 1, b, c.d)"),
            "[_LEGACY_ERROR_TEMP_0035] Operation not allowed: Values must be specified for "
            "key(s): [b,c.d]. (line 1, column 40)\n"
            "== SQL (line 1, column 40) ==\n"
            "CREATE TABLE t TBLPROPERTIES ('a' = 1, b, c.d)\n"
            "                                       ^");
  EXPECT_EQ(StatementError("CREATE TABLE t OPTIONS (a.b = 1, 'a.b' = 2)"),
            "[DUPLICATE_KEY] Found duplicate keys `a`.`b`. (line 1, column 34)\n"
            "== SQL (line 1, column 34) ==\n"
            "CREATE TABLE t OPTIONS (a.b = 1, 'a.b' = 2)\n"
            "                                 ^");
  // Keys are case-sensitive.
  ASSERT_OK(ParseStatement("CREATE TABLE t OPTIONS (k = 1, K = 2)"));
}

TEST(ParserCreateTableTest, TrailingGarbage) {
  EXPECT_EQ(StatementError("CREATE TABLE t (a INT) USING parquet garbage"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near 'garbage'. (line 1, column 38)\n"
            "== SQL (line 1, column 38) ==\n"
            "CREATE TABLE t (a INT) USING parquet garbage\n"
            "                                     ^");
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR",
                          ParseStatement("CREATE TABLE t (a INT) CLUSTERED BY (a) INTO 4 BUCKETS"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CREATE TABLE t (a INT) (b INT)"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CREATE TABLE"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CREATE t"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CREATE TABLE t LOCATION 5"));
}

// ---- DROP TABLE ----

TEST(ParserDropTableTest, Forms) {
  ASSERT_OK_AND_ASSIGN(DropTable plain, Parse<DropTable>("DROP TABLE t"));
  EXPECT_EQ(plain.name.parts, (Strings{"t"}));
  EXPECT_FALSE(plain.if_exists);
  EXPECT_FALSE(plain.purge);

  ASSERT_OK_AND_ASSIGN(DropTable full, Parse<DropTable>("drop table if exists cat.db.t purge;"));
  EXPECT_EQ(full.name.parts, (Strings{"cat", "db", "t"}));
  EXPECT_EQ(full.name.pos.column, 22);
  EXPECT_TRUE(full.if_exists);
  EXPECT_TRUE(full.purge);

  // IF alone is a name.
  ASSERT_OK_AND_ASSIGN(DropTable named_if, Parse<DropTable>("DROP TABLE if"));
  EXPECT_EQ(named_if.name.parts, (Strings{"if"}));
  EXPECT_FALSE(named_if.if_exists);

  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("DROP TABLE"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("DROP TABLE t CASCADE"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("DROP t"));
}

// ---- ALTER TABLE ----

TEST(ParserAlterTableTest, AddColumns) {
  ASSERT_OK_AND_ASSIGN(AlterTable one, Parse<AlterTable>("ALTER TABLE db.t ADD COLUMN c INT"));
  EXPECT_EQ(one.name.parts, (Strings{"db", "t"}));
  EXPECT_EQ(one.kind, AlterTableKind::kAddColumns);
  ASSERT_EQ(one.columns.size(), 1u);
  EXPECT_EQ(one.columns[0].name, (Strings{"c"}));
  EXPECT_EQ(one.columns[0].type.name, "INT");
  EXPECT_EQ(one.columns[0].pos.column, 29);

  ASSERT_OK_AND_ASSIGN(
      AlterTable many,
      Parse<AlterTable>("ALTER TABLE t ADD COLUMNS (a INT NOT NULL FIRST, s.b STRING COMMENT 'x' "
                        "AFTER a, d DOUBLE DEFAULT 0.5)"));
  ASSERT_EQ(many.columns.size(), 3u);
  EXPECT_EQ(ColumnNames(many.columns), (Strings{"a", "s.b", "d"}));
  EXPECT_TRUE(many.columns[0].not_null);
  EXPECT_TRUE(many.columns[0].first);
  EXPECT_EQ(many.columns[1].comment, "x");
  EXPECT_EQ(many.columns[1].after, "a");
  EXPECT_FALSE(many.columns[1].first);
  EXPECT_EQ(many.columns[2].default_text, "0.5");

  ASSERT_OK_AND_ASSIGN(AlterTable unparenthesized,
                       Parse<AlterTable>("ALTER TABLE t ADD COLUMNS a INT AFTER b, c INT FIRST"));
  EXPECT_EQ(ColumnNames(unparenthesized.columns), (Strings{"a", "c"}));
  EXPECT_EQ(unparenthesized.columns[0].after, "b");
  EXPECT_TRUE(unparenthesized.columns[1].first);

  ASSERT_RAISES_CONDITION("DUPLICATE_CLAUSES",
                          ParseStatement("ALTER TABLE t ADD COLUMN a INT FIRST AFTER b"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("ALTER TABLE t ADD COLUMN a"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("ALTER TABLE t ADD COLUMNS (a INT"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("ALTER TABLE t ADD a INT"));
}

TEST(ParserAlterTableTest, DropColumns) {
  ASSERT_OK_AND_ASSIGN(AlterTable one, Parse<AlterTable>("ALTER TABLE t DROP COLUMN a"));
  EXPECT_EQ(one.kind, AlterTableKind::kDropColumns);
  EXPECT_EQ(one.column_names, (std::vector<Strings>{{"a"}}));
  EXPECT_FALSE(one.if_exists);

  ASSERT_OK_AND_ASSIGN(AlterTable list,
                       Parse<AlterTable>("ALTER TABLE t DROP COLUMNS IF EXISTS (a, s.b)"));
  EXPECT_EQ(list.column_names, (std::vector<Strings>{{"a"}, {"s", "b"}}));
  EXPECT_TRUE(list.if_exists);

  ASSERT_OK_AND_ASSIGN(AlterTable bare, Parse<AlterTable>("ALTER TABLE t DROP COLUMNS a, b"));
  EXPECT_EQ(bare.column_names, (std::vector<Strings>{{"a"}, {"b"}}));

  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("ALTER TABLE t DROP COLUMNS (a, b"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("ALTER TABLE t DROP COLUMN"));
}

TEST(ParserAlterTableTest, RenameColumnAndTable) {
  ASSERT_OK_AND_ASSIGN(AlterTable column,
                       Parse<AlterTable>("ALTER TABLE t RENAME COLUMN s.a TO b"));
  EXPECT_EQ(column.kind, AlterTableKind::kRenameColumn);
  EXPECT_EQ(column.column_names, (std::vector<Strings>{{"s", "a"}}));
  EXPECT_EQ(column.new_name, "b");

  ASSERT_OK_AND_ASSIGN(AlterTable table, Parse<AlterTable>("ALTER TABLE a.t RENAME TO b.u"));
  EXPECT_EQ(table.kind, AlterTableKind::kRenameTable);
  EXPECT_EQ(table.new_table.parts, (Strings{"b", "u"}));
  EXPECT_EQ(table.new_table.pos.column, 27);

  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("ALTER TABLE t RENAME COLUMN a b"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR",
                          ParseStatement("ALTER TABLE t RENAME COLUMN a TO b.c"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("ALTER TABLE t RENAME u"));
}

TEST(ParserAlterTableTest, AlterColumnActions) {
  using Kind = AlterColumnChange::Kind;
  struct Case {
    std::string action;
    Kind kind;
  };
  std::vector<Case> cases = {{"TYPE BIGINT", Kind::kType},
                             {"COMMENT 'new'", Kind::kComment},
                             {"SET NOT NULL", Kind::kSetNotNull},
                             {"DROP NOT NULL", Kind::kDropNotNull},
                             {"SET DEFAULT 40 +  2", Kind::kSetDefault},
                             {"DROP DEFAULT", Kind::kDropDefault},
                             {"FIRST", Kind::kFirst},
                             {"AFTER b", Kind::kAfter}};
  for (std::string prefix : {"ALTER COLUMN", "ALTER", "CHANGE COLUMN", "change"}) {
    for (const Case& c : cases) {
      std::string text = "ALTER TABLE t " + prefix + " s.a " + c.action;
      SCOPED_TRACE(text);
      ASSERT_OK_AND_ASSIGN(AlterTable alter, Parse<AlterTable>(text));
      EXPECT_EQ(alter.kind, AlterTableKind::kAlterColumn);
      EXPECT_EQ(alter.column_names, (std::vector<Strings>{{"s", "a"}}));
      EXPECT_EQ(alter.column_change.kind, c.kind);
    }
  }
  ASSERT_OK_AND_ASSIGN(AlterTable type, Parse<AlterTable>("ALTER TABLE t ALTER a TYPE DECIMAL(5)"));
  EXPECT_EQ(type.column_change.type.name, "DECIMAL");
  EXPECT_EQ(type.column_change.type.parameters, (std::vector<int>{5}));
  ASSERT_OK_AND_ASSIGN(AlterTable comment, Parse<AlterTable>("ALTER TABLE t ALTER a COMMENT 'c'"));
  EXPECT_EQ(comment.column_change.comment, "c");
  ASSERT_OK_AND_ASSIGN(AlterTable after, Parse<AlterTable>("ALTER TABLE t ALTER a AFTER b"));
  EXPECT_EQ(after.column_change.after, "b");
  ASSERT_OK_AND_ASSIGN(AlterTable set_default,
                       Parse<AlterTable>("ALTER TABLE t ALTER a SET DEFAULT 40 +  2"));
  EXPECT_EQ(set_default.column_change.default_text, "40 +  2");
  EXPECT_EQ(ToString(*set_default.column_change.default_value), "(40 + 2)");

  // COLUMN is a name when nothing else could be.
  ASSERT_OK_AND_ASSIGN(AlterTable named,
                       Parse<AlterTable>("ALTER TABLE t ALTER COLUMN column TYPE INT"));
  EXPECT_EQ(named.column_names, (std::vector<Strings>{{"column"}}));
}

TEST(ParserAlterTableTest, UnknownActions) {
  EXPECT_EQ(StatementError("ALTER TABLE t FROB a"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near 'FROB'. (line 1, column 15)\n"
            "== SQL (line 1, column 15) ==\n"
            "ALTER TABLE t FROB a\n"
            "              ^");
  EXPECT_EQ(StatementError("ALTER TABLE t ALTER COLUMN a"),
            "[PARSE_SYNTAX_ERROR] Syntax error at end of input. (line 1, column 29)\n"
            "== SQL (line 1, column 29) ==\n"
            "ALTER TABLE t ALTER COLUMN a\n"
            "                            ^");
  for (std::string text :
       {"ALTER TABLE t", "ALTER TABLE t ALTER COLUMN a SET",
        "ALTER TABLE t ALTER COLUMN a DROP NULL", "ALTER TABLE t ALTER a RENAME",
        "ALTER TABLE t ADD PARTITION (p = 1)", "ALTER TABLE t SET LOCATION",
        "ALTER TABLE t SET TBLPROPERTIES", "ALTER TABLE t ALTER a TYPE", "ALTER t"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement(text));
  }
}

TEST(ParserAlterTableTest, SetLocation) {
  ASSERT_OK_AND_ASSIGN(AlterTable alter, Parse<AlterTable>("ALTER TABLE t SET LOCATION '/x'"));
  EXPECT_EQ(alter.kind, AlterTableKind::kSetLocation);
  EXPECT_EQ(alter.location, "/x");
}

TEST(ParserAlterTableTest, TableProperties) {
  ASSERT_OK_AND_ASSIGN(AlterTable set,
                       Parse<AlterTable>("ALTER TABLE t SET TBLPROPERTIES ('a' = 'b', c.D = 2)"));
  EXPECT_EQ(set.kind, AlterTableKind::kSetProperties);
  EXPECT_EQ(set.properties, (Properties{{"a", "b"}, {"c.D", "2"}}));

  ASSERT_OK_AND_ASSIGN(AlterTable unset,
                       Parse<AlterTable>("ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('a', c.D)"));
  EXPECT_EQ(unset.kind, AlterTableKind::kUnsetProperties);
  EXPECT_TRUE(unset.if_exists);
  EXPECT_EQ(unset.property_keys, (Strings{"a", "c.D"}));

  ASSERT_OK_AND_ASSIGN(AlterTable plain_unset,
                       Parse<AlterTable>("ALTER TABLE t UNSET TBLPROPERTIES (k)"));
  EXPECT_FALSE(plain_unset.if_exists);
  EXPECT_EQ(plain_unset.property_keys, (Strings{"k"}));

  EXPECT_EQ(StatementError("ALTER TABLE t UNSET TBLPROPERTIES (a, b = 1)"),
            "[_LEGACY_ERROR_TEMP_0035] Operation not allowed: Values should not be specified "
            "for key(s): [b]. (line 1, column 39)\n"
            "== SQL (line 1, column 39) ==\n"
            "ALTER TABLE t UNSET TBLPROPERTIES (a, b = 1)\n"
            "                                      ^");
  ASSERT_RAISES_CONDITION("_LEGACY_ERROR_TEMP_0035",
                          ParseStatement("ALTER TABLE t SET TBLPROPERTIES (a)"));
  ASSERT_RAISES_CONDITION("DUPLICATE_KEY",
                          ParseStatement("ALTER TABLE t UNSET TBLPROPERTIES (a, a)"));
}

// ---- Namespaces ----

TEST(ParserNamespaceTest, Create) {
  for (std::string keyword : {"NAMESPACE", "SCHEMA", "database"}) {
    ASSERT_OK_AND_ASSIGN(CreateNamespace create,
                         Parse<CreateNamespace>("CREATE " + keyword + " cat.ns"));
    EXPECT_EQ(create.name.parts, (Strings{"cat", "ns"}));
    EXPECT_FALSE(create.if_not_exists);
    EXPECT_FALSE(create.comment.has_value());
    EXPECT_FALSE(create.location.has_value());
    EXPECT_TRUE(create.properties.empty());
  }
  std::vector<std::string> orders = {
      "COMMENT 'c' LOCATION '/l' WITH DBPROPERTIES (a = 1, 'b' = 'x')",
      "WITH PROPERTIES (a = 1, 'b' = 'x') LOCATION '/l' COMMENT 'c'",
      "LOCATION '/l' WITH DBPROPERTIES (a = 1, 'b' = 'x') COMMENT 'c'"};
  for (const std::string& clauses : orders) {
    std::string text = "CREATE NAMESPACE IF NOT EXISTS ns " + clauses;
    SCOPED_TRACE(text);
    ASSERT_OK_AND_ASSIGN(CreateNamespace create, Parse<CreateNamespace>(text));
    EXPECT_TRUE(create.if_not_exists);
    EXPECT_EQ(create.comment, "c");
    EXPECT_EQ(create.location, "/l");
    EXPECT_EQ(create.properties, (Properties{{"a", "1"}, {"b", "x"}}));
  }
}

TEST(ParserNamespaceTest, CreateChecks) {
  for (std::string clauses : {"COMMENT 'a' COMMENT 'b'", "LOCATION 'a' COMMENT 'c' LOCATION 'b'",
                              "WITH PROPERTIES (a = 1) WITH PROPERTIES (b = 1)",
                              "WITH DBPROPERTIES (a = 1) WITH DBPROPERTIES (b = 1)"}) {
    SCOPED_TRACE(clauses);
    ASSERT_RAISES_CONDITION("DUPLICATE_CLAUSES", ParseStatement("CREATE SCHEMA s " + clauses));
  }
  EXPECT_EQ(StatementError("CREATE SCHEMA s WITH DBPROPERTIES (a = 1) WITH DBPROPERTIES (b = 1)"),
            "[DUPLICATE_CLAUSES] Found duplicate clauses: WITH DBPROPERTIES. Please, remove one "
            "of them. (line 1, column 43)\n"
            "== SQL (line 1, column 43) ==\n"
            "CREATE SCHEMA s WITH DBPROPERTIES (a = 1) WITH DBPROPERTIES (b = 1)\n"
            "                                          ^");
  ASSERT_RAISES_CONDITION(
      "UNSUPPORTED_FEATURE.SET_PROPERTIES_AND_DBPROPERTIES",
      ParseStatement("CREATE SCHEMA s WITH PROPERTIES (a = 1) WITH DBPROPERTIES (b = 1)"));
  ASSERT_RAISES_CONDITION("_LEGACY_ERROR_TEMP_0035",
                          ParseStatement("CREATE SCHEMA s WITH PROPERTIES (a)"));
  for (std::string text : {"CREATE SCHEMA s WITH (a = 1)", "CREATE SCHEMA", "CREATE SCHEMA s x",
                           "CREATE SCHEMA s COMMENT c", "CREATE OR REPLACE SCHEMA s"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement(text));
  }
}

TEST(ParserNamespaceTest, Drop) {
  ASSERT_OK_AND_ASSIGN(DropNamespace plain, Parse<DropNamespace>("DROP DATABASE db"));
  EXPECT_EQ(plain.name.parts, (Strings{"db"}));
  EXPECT_FALSE(plain.if_exists);
  EXPECT_FALSE(plain.cascade);
  ASSERT_OK_AND_ASSIGN(DropNamespace cascade,
                       Parse<DropNamespace>("DROP NAMESPACE IF EXISTS cat.ns CASCADE"));
  EXPECT_TRUE(cascade.if_exists);
  EXPECT_TRUE(cascade.cascade);
  EXPECT_EQ(cascade.name.parts, (Strings{"cat", "ns"}));
  ASSERT_OK_AND_ASSIGN(DropNamespace restricted, Parse<DropNamespace>("DROP SCHEMA s RESTRICT"));
  EXPECT_FALSE(restricted.cascade);
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("DROP SCHEMA s RESTRICT CASCADE"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("DROP SCHEMA s PURGE"));
}

TEST(ParserNamespaceTest, Alter) {
  for (std::string keyword : {"DBPROPERTIES", "PROPERTIES"}) {
    ASSERT_OK_AND_ASSIGN(
        AlterNamespace alter,
        Parse<AlterNamespace>("ALTER SCHEMA cat.s SET " + keyword + " ('k' = 'v', a.b = true)"));
    EXPECT_EQ(alter.name.parts, (Strings{"cat", "s"}));
    EXPECT_EQ(alter.properties, (Properties{{"k", "v"}, {"a.b", "true"}}));
    EXPECT_FALSE(alter.location.has_value());
  }
  ASSERT_OK_AND_ASSIGN(AlterNamespace unset,
                       Parse<AlterNamespace>("ALTER NAMESPACE n UNSET DBPROPERTIES (a, 'b.c')"));
  EXPECT_EQ(unset.unset_keys, (Strings{"a", "b.c"}));
  ASSERT_RAISES_CONDITION("_LEGACY_ERROR_TEMP_0035",
                          ParseStatement("ALTER NAMESPACE n UNSET PROPERTIES (a = 1)"));
  EXPECT_TRUE(unset.properties.empty());
  ASSERT_OK_AND_ASSIGN(DescribeNamespace describe,
                       Parse<DescribeNamespace>("DESCRIBE SCHEMA EXTENDED cat.s"));
  EXPECT_EQ(describe.name.parts, (Strings{"cat", "s"}));
  EXPECT_TRUE(describe.extended);
  ASSERT_OK_AND_ASSIGN(DescribeTable table_named_schema, Parse<DescribeTable>("DESCRIBE schema"));
  EXPECT_EQ(table_named_schema.table.parts, (Strings{"schema"}));
  ASSERT_OK_AND_ASSIGN(AlterNamespace location,
                       Parse<AlterNamespace>("ALTER DATABASE d SET LOCATION '/new'"));
  EXPECT_EQ(location.location, "/new");
  EXPECT_TRUE(location.properties.empty());
  for (std::string text :
       {"ALTER NAMESPACE n SET OWNER u", "ALTER NAMESPACE n", "ALTER NAMESPACE n SET LOCATION",
        "ALTER NAMESPACE n SET PROPERTIES", "ALTER NAMESPACE n UNSET"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement(text));
  }
}

// ---- SHOW ----

TEST(ParserShowDdlTest, ShowCreateTable) {
  ASSERT_OK_AND_ASSIGN(ShowCreateTable plain, Parse<ShowCreateTable>("SHOW CREATE TABLE db.t"));
  EXPECT_EQ(plain.name.parts, (Strings{"db", "t"}));
  EXPECT_FALSE(plain.as_serde);
  ASSERT_OK_AND_ASSIGN(ShowCreateTable serde,
                       Parse<ShowCreateTable>("show create table t as serde"));
  EXPECT_TRUE(serde.as_serde);
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("SHOW CREATE TABLE t AS"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("SHOW CREATE t"));
}

TEST(ParserShowDdlTest, ShowTblProperties) {
  ASSERT_OK_AND_ASSIGN(ShowTblProperties all, Parse<ShowTblProperties>("SHOW TBLPROPERTIES t"));
  EXPECT_EQ(all.name.parts, (Strings{"t"}));
  EXPECT_FALSE(all.key.has_value());
  ASSERT_OK_AND_ASSIGN(ShowTblProperties quoted,
                       Parse<ShowTblProperties>("SHOW TBLPROPERTIES db.t ('Some.Key')"));
  EXPECT_EQ(quoted.key, "Some.Key");
  ASSERT_OK_AND_ASSIGN(ShowTblProperties dotted,
                       Parse<ShowTblProperties>("SHOW TBLPROPERTIES t (a.B.c)"));
  EXPECT_EQ(dotted.key, "a.B.c");
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("SHOW TBLPROPERTIES t (a, b)"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("SHOW TBLPROPERTIES t ()"));
}

// ---- INSERT ----

TEST(ParserInsertTest, IntoAndOverwrite) {
  ASSERT_OK_AND_ASSIGN(Insert into, Parse<Insert>("INSERT INTO t VALUES (1, 'a'), (2, 'b')"));
  EXPECT_EQ(into.table.parts, (Strings{"t"}));
  EXPECT_EQ(into.table.pos.column, 13);
  EXPECT_FALSE(into.overwrite);
  EXPECT_FALSE(into.by_name);
  EXPECT_FALSE(into.if_not_exists);
  EXPECT_TRUE(into.columns.empty());
  EXPECT_TRUE(into.partition_spec.empty());
  ASSERT_NE(into.query, nullptr);
  EXPECT_EQ(into.query->kind, QueryKind::kValues);
  EXPECT_EQ(into.query->pos.column, 15);

  ASSERT_OK_AND_ASSIGN(Insert table, Parse<Insert>("insert into table cat.db.t select * from s"));
  EXPECT_EQ(table.table.parts, (Strings{"cat", "db", "t"}));
  EXPECT_EQ(ToString(*table.query), "SELECT * FROM s");

  ASSERT_OK_AND_ASSIGN(Insert overwrite, Parse<Insert>("INSERT OVERWRITE TABLE t SELECT 1"));
  EXPECT_TRUE(overwrite.overwrite);

  // A table called `table`: TABLE is a keyword only when a name follows it.
  ASSERT_OK_AND_ASSIGN(Insert named, Parse<Insert>("INSERT INTO table SELECT 1"));
  EXPECT_EQ(named.table.parts, (Strings{"table"}));

  ASSERT_OK_AND_ASSIGN(Insert path, Parse<Insert>("INSERT INTO parquet.`/tmp/x` SELECT 1"));
  EXPECT_EQ(path.table.parts, (Strings{"parquet", "/tmp/x"}));
}

TEST(ParserInsertTest, AnyQuery) {
  std::vector<std::pair<std::string, std::string>> cases = {
      {"(SELECT 1) UNION ALL (SELECT 2)", "(SELECT 1) UNION ALL (SELECT 2)"},
      {"(SELECT a FROM s)", "SELECT a FROM s"},
      {"WITH c AS (SELECT 1 AS a) SELECT a FROM c", "WITH c AS (SELECT 1 AS a) SELECT a FROM c"},
      {"SELECT a FROM s ORDER BY a LIMIT 3", "SELECT a FROM s ORDER BY a LIMIT 3"},
      {"VALUES 1, 2", "VALUES (1), (2)"}};
  for (const auto& [query, rendered] : cases) {
    std::string text = "INSERT INTO t " + query;
    SCOPED_TRACE(text);
    ASSERT_OK_AND_ASSIGN(Insert insert, Parse<Insert>(text));
    EXPECT_TRUE(insert.columns.empty());
    EXPECT_EQ(ToString(*insert.query), rendered);
  }
}

TEST(ParserInsertTest, ColumnListsAndByName) {
  ASSERT_OK_AND_ASSIGN(Insert columns, Parse<Insert>("INSERT INTO t (b, `a c`) SELECT 1, 2"));
  EXPECT_EQ(columns.columns, (Strings{"b", "a c"}));
  EXPECT_FALSE(columns.by_name);

  // A column called `values` is not an inline table.
  ASSERT_OK_AND_ASSIGN(Insert values, Parse<Insert>("INSERT INTO t (values) VALUES (1)"));
  EXPECT_EQ(values.columns, (Strings{"values"}));
  EXPECT_EQ(values.query->kind, QueryKind::kValues);

  ASSERT_OK_AND_ASSIGN(Insert by_name, Parse<Insert>("INSERT OVERWRITE t BY NAME SELECT 1 AS a"));
  EXPECT_TRUE(by_name.by_name);
  EXPECT_TRUE(by_name.columns.empty());

  EXPECT_EQ(StatementError("INSERT INTO t (a) BY NAME SELECT 1 AS a"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near 'BY'. (line 1, column 19)\n"
            "== SQL (line 1, column 19) ==\n"
            "INSERT INTO t (a) BY NAME SELECT 1 AS a\n"
            "                  ^");
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR",
                          ParseStatement("INSERT INTO t BY NAME (a) SELECT 1 AS a"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("INSERT INTO t (a, b)"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("INSERT INTO t BY SELECT 1"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("INSERT INTO t () SELECT 1"));
}

TEST(ParserInsertTest, PartitionSpecs) {
  ASSERT_OK_AND_ASSIGN(
      Insert insert,
      Parse<Insert>("INSERT INTO t PARTITION (p = 1, q, d = DATE '2024-01-02', n = -5, s = 'x') "
                    "SELECT 1"));
  ASSERT_EQ(insert.partition_spec.size(), 5u);
  EXPECT_EQ(insert.partition_spec[0].column, "p");
  EXPECT_EQ(insert.partition_spec[0].pos.column, 26);
  EXPECT_EQ(ToString(*insert.partition_spec[0].value), "1");
  EXPECT_EQ(insert.partition_spec[1].column, "q");
  EXPECT_EQ(insert.partition_spec[1].value, nullptr);  // dynamic
  EXPECT_EQ(insert.partition_spec[2].value->literal_kind, LiteralKind::kDate);
  EXPECT_EQ(insert.partition_spec[3].value->text, "-5");
  EXPECT_EQ(insert.partition_spec[4].value->text, "x");

  ASSERT_OK_AND_ASSIGN(
      Insert overwrite,
      Parse<Insert>("INSERT OVERWRITE t PARTITION (p = 1) IF NOT EXISTS (a) SELECT 1"));
  EXPECT_TRUE(overwrite.if_not_exists);
  EXPECT_EQ(overwrite.columns, (Strings{"a"}));

  EXPECT_EQ(StatementError("INSERT OVERWRITE t PARTITION (p = 1, q, r) IF NOT EXISTS SELECT 1"),
            "[_LEGACY_ERROR_TEMP_0035] Operation not allowed: IF NOT EXISTS with dynamic "
            "partitions: q, r. (line 1, column 44)\n"
            "== SQL (line 1, column 44) ==\n"
            "INSERT OVERWRITE t PARTITION (p = 1, q, r) IF NOT EXISTS SELECT 1\n"
            "                                           ^");
  EXPECT_EQ(StatementError("INSERT INTO t PARTITION (p = 1, p = 2) SELECT 1"),
            "[DUPLICATE_KEY] Found duplicate keys `p`. (line 1, column 33)\n"
            "== SQL (line 1, column 33) ==\n"
            "INSERT INTO t PARTITION (p = 1, p = 2) SELECT 1\n"
            "                                ^");
  for (std::string text :
       {"INSERT INTO t PARTITION (p = 1) IF NOT EXISTS SELECT 1",
        "INSERT OVERWRITE t IF NOT EXISTS SELECT 1", "INSERT INTO t PARTITION (p = a) SELECT 1",
        "INSERT INTO t PARTITION (p = 1 + 1) SELECT 1", "INSERT INTO t PARTITION () SELECT 1",
        "INSERT INTO t PARTITION p SELECT 1",
        "INSERT OVERWRITE t PARTITION (p = 1) IF EXISTS SELECT 1"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement(text));
  }
}

TEST(ParserInsertTest, SyntaxErrors) {
  EXPECT_EQ(StatementError("INSERT INTO t"),
            "[PARSE_SYNTAX_ERROR] Syntax error at end of input. (line 1, column 14)\n"
            "== SQL (line 1, column 14) ==\n"
            "INSERT INTO t\n"
            "             ^");
  EXPECT_EQ(StatementError("INSERT INTO t SELECT 1 garbage here"),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near 'here'. (line 1, column 32)\n"
            "== SQL (line 1, column 32) ==\n"
            "INSERT INTO t SELECT 1 garbage here\n"
            "                               ^");
  for (std::string text :
       {"INSERT t SELECT 1", "INSERT INTO SELECT 1", "INSERT", "INSERT INTO t SHOW TABLES"}) {
    SCOPED_TRACE(text);
    ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement(text));
  }
}

// ---- TRUNCATE ----

TEST(ParserTruncateTest, Forms) {
  ASSERT_OK_AND_ASSIGN(TruncateTable plain, Parse<TruncateTable>("TRUNCATE TABLE db.t"));
  EXPECT_EQ(plain.name.parts, (Strings{"db", "t"}));
  EXPECT_TRUE(plain.partition_spec.empty());
  ASSERT_OK_AND_ASSIGN(TruncateTable partition,
                       Parse<TruncateTable>("truncate table t partition (p = 'x', q = 2)"));
  ASSERT_EQ(partition.partition_spec.size(), 2u);
  EXPECT_EQ(partition.partition_spec[1].column, "q");
  EXPECT_EQ(ToString(*partition.partition_spec[1].value), "2");
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("TRUNCATE t"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("TRUNCATE TABLE t PURGE"));
}

// ---- EXPLAIN and positions ----

TEST(ParserDdlExplainTest, WrapsEveryStatement) {
  std::vector<std::string> texts = {"CREATE TABLE t (a INT) USING parquet",
                                    "REPLACE TABLE t AS SELECT 1",
                                    "DROP TABLE t",
                                    "ALTER TABLE t RENAME TO u",
                                    "CREATE NAMESPACE n",
                                    "DROP NAMESPACE n",
                                    "ALTER NAMESPACE n SET LOCATION '/x'",
                                    "SHOW CREATE TABLE t",
                                    "SHOW TBLPROPERTIES t",
                                    "INSERT INTO t SELECT 1",
                                    "TRUNCATE TABLE t"};
  for (const std::string& text : texts) {
    SCOPED_TRACE(text);
    ASSERT_OK_AND_ASSIGN(Statement direct, ParseStatement(text));
    ASSERT_OK_AND_ASSIGN(Statement explained, ParseStatement("EXPLAIN EXTENDED " + text));
    auto& explain = std::get<Explain>(explained.node);
    EXPECT_EQ(explain.mode, ExplainMode::kExtended);
    EXPECT_EQ(explain.statement->node.index(), direct.node.index());
    EXPECT_EQ(explain.statement->pos.column, 18);
  }
  ASSERT_OK_AND_ASSIGN(Statement insert, ParseStatement("EXPLAIN INSERT INTO t (a) SELECT 1"));
  auto& inner = std::get<Insert>(std::get<Explain>(insert.node).statement->node);
  EXPECT_EQ(inner.columns, (Strings{"a"}));
}

TEST(ParserDdlPositionTest, ScriptRelative) {
  ASSERT_OK_AND_ASSIGN(Statement statement,
                       ParseStatement("ALTER TABLE t\n  ADD COLUMN c INT DEFAULT 1", {5, 3}));
  EXPECT_EQ(statement.pos.line, 5);
  EXPECT_EQ(statement.pos.column, 3);
  auto& alter = std::get<AlterTable>(statement.node);
  EXPECT_EQ(alter.name.pos.line, 5);
  EXPECT_EQ(alter.name.pos.column, 15);
  EXPECT_EQ(alter.columns[0].pos.line, 6);
  EXPECT_EQ(alter.columns[0].pos.column, 14);
  EXPECT_EQ(alter.columns[0].default_value->pos.column, 28);

  EXPECT_EQ(StatementError("CREATE TABLE t\n  (a INT) COMMENT 'x' COMMENT 'y'", {3, 1}),
            "[DUPLICATE_CLAUSES] Found duplicate clauses: COMMENT. Please, remove one of them. "
            "(line 4, column 23)\n"
            "== SQL (line 4, column 23) ==\n"
            "  (a INT) COMMENT 'x' COMMENT 'y'\n"
            "                      ^");
}

}  // namespace
}  // namespace parley::sql

namespace parley::sql {
namespace {

TEST(ParserCreateFunctionTest, ScalarAndTableFunctions) {
  ASSERT_OK_AND_ASSIGN(
      Statement statement,
      ParseStatement("CREATE OR REPLACE TEMPORARY FUNCTION f(a INT, b STRING DEFAULT 'x' "
                     "COMMENT 'the b') RETURNS STRING COMMENT 'joins' NOT DETERMINISTIC "
                     "READS SQL DATA RETURN concat(b, a)"));
  const auto& scalar = std::get<CreateFunction>(statement.node);
  EXPECT_TRUE(scalar.replace);
  EXPECT_TRUE(scalar.temporary);
  ASSERT_EQ(scalar.parameters.size(), 2u);
  EXPECT_EQ(scalar.parameters[1].default_text, "'x'");
  EXPECT_EQ(scalar.parameters[1].comment, "the b");
  ASSERT_TRUE(scalar.return_type.has_value());
  EXPECT_EQ(scalar.return_type->name, "STRING");
  EXPECT_EQ(scalar.comment, "joins");
  EXPECT_EQ(scalar.deterministic, false);
  EXPECT_EQ(scalar.data_access, "READS SQL DATA");
  EXPECT_NE(scalar.body_expr, nullptr);
  EXPECT_EQ(scalar.body_text, "concat(b, a)");

  ASSERT_OK_AND_ASSIGN(Statement table,
                       ParseStatement("CREATE FUNCTION IF NOT EXISTS db.t(n INT) RETURNS TABLE "
                                      "(x INT, y STRING) RETURN SELECT n, 'a'"));
  const auto& function = std::get<CreateFunction>(table.node);
  EXPECT_TRUE(function.if_not_exists);
  EXPECT_TRUE(function.returns_table);
  EXPECT_EQ(function.return_columns.size(), 2u);
  EXPECT_NE(function.body_query, nullptr);
  EXPECT_EQ(function.body_text, "SELECT n, 'a'");

  ASSERT_OK_AND_ASSIGN(Statement drop, ParseStatement("DROP TEMPORARY FUNCTION IF EXISTS f"));
  EXPECT_TRUE(std::get<DropFunction>(drop.node).temporary);
  EXPECT_TRUE(std::get<DropFunction>(drop.node).if_exists);
  ASSERT_RAISES_CONDITION("INVALID_SQL_SYNTAX.CREATE_TEMP_FUNC_WITH_IF_NOT_EXISTS",
                          ParseStatement("CREATE TEMPORARY FUNCTION IF NOT EXISTS f() RETURN 1"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseStatement("CREATE FUNCTION f() RETURNS INT"));
}

TEST(ParserCreateFunctionTest, NamedArgumentsOfCalls) {
  ASSERT_OK_AND_ASSIGN(Statement statement, ParseStatement("SELECT f(1, b => 2, c => 3)"));
  const auto& select = std::get<SelectStatement>(statement.node);
  const Expr& call = *select.items[0].expr;
  EXPECT_EQ(call.children.size(), 3u);
  EXPECT_EQ(call.argument_names, (std::vector<std::string>{"", "b", "c"}));
  ASSERT_OK_AND_ASSIGN(Statement plain, ParseStatement("SELECT f(1, 2)"));
  EXPECT_TRUE(std::get<SelectStatement>(plain.node).items[0].expr->argument_names.empty());
  ASSERT_OK_AND_ASSIGN(Statement from, ParseStatement("SELECT * FROM t(n => 2)"));
  EXPECT_EQ(std::get<SelectStatement>(from.node).from_item->argument_names,
            (std::vector<std::string>{"n"}));
}

}  // namespace
}  // namespace parley::sql
