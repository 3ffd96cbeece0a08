"""Views and SQL functions on Parley and on Spark: the same statements give the same rows or
the same error.

One Spark session (local[1], ANSI mode) runs the statements below in order: tables of Spark's
session catalog (USING parquet), views over them, the view DDL and its errors, then SQL
functions (temporary and persistent, scalar and table) with their calls and errors. Its answers become
a SQL logic test file that parley_slt runs on Parley's warehouse catalog (tables USING delta), so
each statement must succeed where Spark's did, return Spark's rows, or fail with Spark's
condition.

Environment: PARLEY_SLT (the parley_slt executable, default build/tests/parley_slt),
PARLEY_BUILD_DIR (its --build-dir, default build).
"""

import os
import subprocess

import spark_session

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
BUILD = os.environ.get("PARLEY_BUILD_DIR", os.path.join(REPO, "build"))
SLT = os.environ.get("PARLEY_SLT", os.path.join(BUILD, "tests", "parley_slt"))

# {fmt} is parquet for Spark and delta for Parley.
STATEMENTS = [
    "CREATE TABLE t (a INT, b STRING) USING {fmt}",
    "INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'z')",
    "CREATE VIEW v (a COMMENT 'the a', bb) COMMENT 'c' AS SELECT a, b FROM t WHERE a > 1",
    "SELECT * FROM v",
    "SELECT v.a, default.v.bb FROM v WHERE a = 3",
    "CREATE VIEW v AS SELECT 1 AS one",
    "CREATE VIEW IF NOT EXISTS v AS SELECT 1 AS one",
    "CREATE VIEW t AS SELECT 1 AS one",
    "CREATE OR REPLACE VIEW t AS SELECT 1 AS one",
    "CREATE TABLE v (x INT) USING {fmt}",
    "ALTER VIEW t AS SELECT 1 AS one",
    "ALTER VIEW t RENAME TO w",
    "ALTER TABLE v ADD COLUMNS (c INT)",
    "ALTER TABLE v SET TBLPROPERTIES ('k' = 'v')",
    "INSERT INTO v VALUES (4, 'w')",
    "TRUNCATE TABLE v",
    "DROP VIEW t",
    "CREATE VIEW computed AS SELECT a + 1 FROM t",
    "CREATE VIEW arity (x, y, z) AS SELECT 1, 2",
    "CREATE VIEW twice AS SELECT 1 AS x, 2 AS x",
    "CREATE OR REPLACE VIEW IF NOT EXISTS both_ AS SELECT 1 AS x",
    "ALTER VIEW v SET TBLPROPERTIES ('k1' = 'v1', 'k2' = 'v2')",
    "ALTER VIEW v UNSET TBLPROPERTIES ('k2')",
    "SHOW TBLPROPERTIES v",
    "ALTER VIEW v RENAME TO w",
    "SELECT * FROM w",
    "SELECT * FROM v",
    "ALTER VIEW w RENAME TO t",
    "ALTER VIEW nope RENAME TO x",
    "CREATE VIEW ww AS SELECT a FROM w",
    "ALTER VIEW w AS SELECT a, 'q' AS bb FROM ww",
    "ALTER VIEW w AS SELECT a * 10 AS a, b AS bb FROM t",
    "SELECT * FROM ww",
    "CREATE TEMPORARY VIEW tv AS SELECT 1 AS one",
    "CREATE VIEW reads_temp AS SELECT * FROM tv",
    "CREATE TABLE s (a INT, b STRING) USING {fmt}",
    "INSERT INTO s VALUES (5, 'five')",
    "CREATE VIEW over_s AS SELECT * FROM s",
    "DROP TABLE s",
    "CREATE TABLE s (a STRING, b STRING) USING {fmt}",
    "INSERT INTO s VALUES ('7', 'seven')",
    "SELECT * FROM over_s",
    "INSERT INTO s VALUES ('x', 'ex')",
    "SELECT * FROM over_s",
    "DROP TABLE s",
    "CREATE TABLE s (b STRING) USING {fmt}",
    "SELECT * FROM over_s",
    "DROP TABLE s",
    "CREATE TABLE s (c INT, B STRING, A BIGINT) USING {fmt}",
    "INSERT INTO s VALUES (1, 'bee', 2)",
    "SELECT * FROM over_s",
    "INSERT INTO s VALUES (1, 'big', 3000000000)",
    "SELECT * FROM over_s",
    "CREATE DATABASE d2",
    "USE d2",
    "SELECT * FROM default.w",
    "CREATE TABLE t (z INT) USING {fmt}",
    "SELECT * FROM default.w",
    "USE default",
    "DROP TABLE w",
    "SELECT * FROM w",
    "DROP VIEW IF EXISTS w",
    "DROP VIEW w",
    "SHOW VIEWS",
    # SQL functions.
    "CREATE TEMPORARY FUNCTION greet(a INT, b STRING DEFAULT 'x') RETURNS STRING "
    "RETURN concat(b, a)",
    "SELECT greet(1), greet(2, 'y'), greet(b => 'z', a => 3), greet(NULL)",
    "SELECT greet()",
    "SELECT greet(1, 'a', 'b')",
    "SELECT greet(c => 1)",
    "SELECT greet('abc')",
    "SELECT greet(1.7), greet('12'), greet(true)",
    "SELECT greet(DATE'2020-01-01')",
    "SELECT greet(1, a => 2)",
    "SELECT greet(a => 1, a => 2)",
    "SELECT greet(a => 1, 'p')",
    "SELECT greet(b => 'p')",
    "CREATE TEMPORARY FUNCTION greet(a INT) RETURNS INT RETURN a",
    "CREATE OR REPLACE TEMPORARY FUNCTION greet(a INT) RETURNS INT RETURN a + 1",
    "SELECT greet(1), greet(-1)",
    "SELECT greet(2147483647)",
    "CREATE TEMPORARY FUNCTION narrow(a INT) RETURNS TINYINT RETURN a",
    "SELECT narrow(100), narrow(NULL)",
    "SELECT narrow(1000)",
    "CREATE TEMPORARY FUNCTION third(a DECIMAL(10, 2)) RETURNS DOUBLE RETURN a / 3",
    "SELECT third(10), third(1.005), third(NULL)",
    "CREATE TEMPORARY FUNCTION twice(a BIGINT) RETURN a * 2",
    "SELECT twice(5), twice(4000000000)",
    "CREATE TEMPORARY FUNCTION qualified(a INT) RETURNS INT RETURN qualified.a + 1",
    "SELECT a, qualified(a * 10) FROM t",
    "CREATE TEMPORARY FUNCTION plus_one(a INT) RETURNS INT RETURN SELECT a + 1",
    "SELECT a FROM t WHERE plus_one(a) > 2",
    "CREATE TEMPORARY FUNCTION biggest() RETURNS INT RETURN (SELECT max(a) FROM t)",
    "SELECT biggest()",
    "CREATE TEMPORARY FUNCTION below(n INT) RETURNS INT "
    "RETURN (SELECT max(a) FROM t WHERE a < n)",
    "SELECT below(3), below(1)",
    "CREATE TEMPORARY FUNCTION rows_below(n INT) RETURNS TABLE (x INT, y STRING) "
    "RETURN SELECT a, b FROM t WHERE a < n",
    "SELECT * FROM rows_below(3)",
    "SELECT * FROM rows_below(n => 2)",
    "SELECT q.x FROM rows_below(4) AS q WHERE q.y = 'z'",
    "CREATE TEMPORARY FUNCTION shadowed(a INT) RETURNS TABLE RETURN SELECT a FROM t",
    "SELECT * FROM shadowed(100)",
    "CREATE TEMPORARY FUNCTION not_a_number() RETURNS TABLE (x BIGINT) RETURN SELECT 'abc'",
    "SELECT * FROM not_a_number()",
    "SELECT rows_below(3)",
    "SELECT * FROM greet(3)",
    "CREATE TEMPORARY FUNCTION bad(a INT) RETURNS TABLE (x INT) RETURN SELECT 1, 2",
    "CREATE TEMPORARY FUNCTION bad(a INT) RETURNS TABLE RETURN SELECT 1 AS x, 2 AS x",
    "CREATE TEMPORARY FUNCTION bad(a INT) RETURNS TABLE (x INT) RETURN 1",
    "CREATE TEMPORARY FUNCTION bad(a INT) RETURNS INT RETURN a + count(1)",
    "CREATE TEMPORARY FUNCTION bad(a INT, a STRING) RETURNS INT RETURN 1",
    "CREATE TEMPORARY FUNCTION bad(a INT DEFAULT 1, b INT) RETURNS INT RETURN 1",
    "CREATE TEMPORARY FUNCTION bad(a INT) RETURNS INT RETURN b",
    "CREATE TEMPORARY FUNCTION bad(a INT) RETURNS DATE RETURN a",
    "CREATE TEMPORARY FUNCTION IF NOT EXISTS bad(a INT) RETURNS INT RETURN 1",
    "CREATE TEMPORARY FUNCTION default.bad(a INT) RETURNS INT RETURN a",
    "CREATE OR REPLACE TEMPORARY FUNCTION greet(a INT) RETURNS INT RETURN greet(a)",
    "SELECT abs(x => 1)",
    "DROP TEMPORARY FUNCTION greet",
    "DROP TEMPORARY FUNCTION greet",
    "DROP TEMPORARY FUNCTION IF EXISTS greet",
    "SELECT greet(1)",
    "CREATE FUNCTION times_ten(a INT) RETURNS INT RETURN a * 10",
    "SELECT times_ten(4), default.times_ten(5), spark_catalog.default.times_ten(6)",
    "CREATE FUNCTION times_ten(a INT) RETURNS INT RETURN a",
    "CREATE FUNCTION IF NOT EXISTS times_ten(a INT) RETURNS INT RETURN a + 1",
    "SELECT times_ten(1)",
    "CREATE OR REPLACE FUNCTION times_ten(a INT) RETURNS INT RETURN times_ten(a) + 1",
    "CREATE FUNCTION uses_temp(a INT) RETURNS INT RETURN twice(a)",
    "CREATE FUNCTION reads_temp() RETURNS TABLE RETURN SELECT * FROM tv",
    "CREATE FUNCTION rows_of_t(lo INT) RETURNS TABLE (a INT, b STRING) "
    "RETURN SELECT a, b FROM t WHERE a >= lo",
    "SELECT * FROM rows_of_t(2)",
    "CREATE DATABASE d3",
    "USE d3",
    "SELECT * FROM default.rows_of_t(3)",
    "SELECT default.times_ten(7)",
    "USE default",
    "DESCRIBE FUNCTION times_ten",
    "DESCRIBE FUNCTION rows_below",
    "DROP FUNCTION twice",
    "DROP FUNCTION times_ten",
    "DROP FUNCTION times_ten",
    "DROP FUNCTION IF EXISTS times_ten",
    "SELECT times_ten(1)",
    "DROP FUNCTION rows_of_t",
]

def spark_answers(work):
    """Spark's answer to each statement, in order: ("rows", [row of cells]) or ("error",
    condition)."""
    spark = spark_session.start_spark(work, "parley-views")
    answers = []
    try:
        for statement in STATEMENTS:
            try:
                rows = spark.sql(statement.format(fmt="parquet")).collect()
                answers.append(("rows", [tuple(cell(v) for v in row) for row in rows]))
            except Exception as error:  # Spark's errors carry their condition
                condition = getattr(error, "getCondition", lambda: None)()
                answers.append(("error", condition or type(error).__name__))
    finally:
        spark.stop()
    return answers


def cell(value):
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return "(empty)" if text == "" else text


def write_slt(answers, path):
    lines = ["statement ok", "SET spark.sql.catalog.spark_catalog=delta", ""]
    for statement, (kind, value) in zip(STATEMENTS, answers):
        sql = statement.format(fmt="delta")
        if kind == "error":
            lines += [f"statement error {value}", sql, ""]
        elif not value:
            lines += ["statement ok", sql, ""]
        else:
            lines += [f"query {'T' * len(value[0])} rowsort", sql, "----"]
            lines += ["\t".join(row) for row in value]
            lines.append("")
    with open(path, "w") as out:
        out.write("\n".join(lines))


def test_views_agree_with_spark(tmp_path):
    answers = spark_answers(str(tmp_path))
    path = tmp_path / "views_spark.slt"
    write_slt(answers, path)
    proc = subprocess.run([SLT, "--build-dir", BUILD, str(path)], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr + "\n" + path.read_text()
