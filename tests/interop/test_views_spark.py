"""Views on Parley and on Spark: the same statements give the same rows or the same error.

One Spark session (local[1], ANSI mode) runs the statements below in order: tables of Spark's
session catalog (USING parquet), views over them, the view DDL and its errors. Its answers become
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
