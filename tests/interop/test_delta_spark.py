"""Parley and Spark (pyspark with delta-spark) on the same Delta tables, in both directions.

Spark -> Parley: Spark writes tables of the shapes its users produce (many types, partitions with
awkward values, classic and multi-part checkpoints, copy-on-write DELETE/UPDATE/MERGE, deletion
vectors, V2 checkpoints with sidecars, column mapping with renames and drops, timestampNtz), and
Parley must return what Spark returns for the same version: the same column names and types and
the same rows as a multiset, at the latest version and at earlier ones (`@v<n>`), and the same rows
for filters whose answers depend on how the log's file statistics are read.

Parley -> Spark: Parley writes tables through its CLI (partitioned, with checkpoints, after
INSERT OVERWRITE and a partition overwrite, with column mapping, CTAS); Spark must read the rows
the statements imply, Parley must read back the same, and Parley must read what Spark then
commits on top (appends, a delete, a rename).

Both: DELETE, UPDATE and MERGE run by Parley on a table and by Spark on a copy of it report the
same metrics and leave the same rows.

One Spark session (local[2]) serves the whole module. delta-spark's jars come from the folder
scripts/fetch_spark_jars.sh fills (run by the bootstrap), passed with spark.jars, so nothing is
resolved from a package repository at run time.

Environment: PARLEY_BIN (the parley executable, default build/parley in this repository);
PARLEY_SPARK_JARS (a folder of jars to use instead of the cached ones); PARLEY_CACHE (the cache
root, default ~/.cache/parley).
"""

import collections
import datetime
import decimal
import glob
import importlib.metadata
import json
import os
import re
import subprocess

import pytest

from delta_compare import PARLEY, compare, rows_multiset

UTC = datetime.timezone.utc
D = decimal.Decimal


# ---- The Spark session.

def spark_jar_folder():
    folder = os.environ.get("PARLEY_SPARK_JARS")
    if folder:
        return folder
    import pyspark

    minor = ".".join(pyspark.__version__.split(".")[:2])
    delta = importlib.metadata.version("delta-spark")
    cache = os.environ.get("PARLEY_CACHE") or os.path.expanduser("~/.cache/parley")
    return os.path.join(cache, "jars", f"delta-spark_{minor}_2.13-{delta}")


LOG4J = """\
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = stderr
appender.stderr.type = Console
appender.stderr.name = stderr
appender.stderr.target = SYSTEM_ERR
appender.stderr.layout.type = PatternLayout
appender.stderr.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n%ex
"""


@pytest.fixture(scope="module")
def spark(tmp_path_factory):
    folder = spark_jar_folder()
    jars = sorted(glob.glob(os.path.join(folder, "*.jar")))
    if not os.path.exists(os.path.join(folder, ".complete")) or not jars:
        pytest.fail(f"delta-spark's jars are missing from {folder}: run scripts/fetch_spark_jars.sh")
    from pyspark.sql import SparkSession

    work = tmp_path_factory.mktemp("spark")
    (work / "log4j2.properties").write_text(LOG4J)
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    # Tuned for many small jobs on two cores: the JIT's first tier only, no whole-stage code
    # generation and no adaptive execution (each costs more CPU on tiny tables than it saves),
    # and one partition for Delta's log replay (its default of 50 dominates every read). The
    # suite's many distinct queries fill the JIT's default code cache (the JVM then fails with
    # "Out of space in CodeCache"), so it is reserved larger.
    java_options = (f"-XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=512m "
                    f"-Dlog4j2.configurationFile={(work / 'log4j2.properties').as_uri()}")
    session = (
        SparkSession.builder.master("local[2]")
        .appName("parley-delta-interop")
        .config("spark.jars", ",".join(jars))
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog",
                "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .config("spark.driver.extraJavaOptions", java_options)
        .config("spark.driver.memory", "2g")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.databricks.delta.snapshotPartitions", "1")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.codegen.wholeStage", "false")
        .config("spark.sql.adaptive.enabled", "false")
        .config("spark.sql.warehouse.dir", str(work / "warehouse"))
        .config("spark.local.dir", str(work / "local"))
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def sql(spark, *statements):
    for statement in statements:
        spark.sql(statement).collect()


def spark_read(spark, path, version=None):
    reader = spark.read.format("delta")
    if version is not None:
        reader = reader.option("versionAsOf", version)
    return reader.load(path).toArrow()


def spark_query(spark, query):
    return spark.sql(query).toArrow()


# ---- The Delta log as written on disk.

def commit_versions(path):
    names = os.listdir(os.path.join(path, "_delta_log"))
    return sorted(int(n[:20]) for n in names if re.fullmatch(r"\d{20}\.json", n))


def commit_actions(path, version):
    with open(os.path.join(path, "_delta_log", f"{version:020d}.json")) as f:
        return [json.loads(line) for line in f if line.strip()]


def log_files(path, pattern):
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(path, "_delta_log", pattern)))


# ---- Parley.

def parley(tmp_path, statements):
    """Runs `statements` (one script) through the CLI; returns the JSON rows of the last one."""
    proc = subprocess.run(
        [PARLEY, "--warehouse", str(tmp_path / "parley-warehouse"), "--output", "json",
         "-c", statements],
        capture_output=True, text=True, timeout=300)
    how = f"killed by signal {-proc.returncode}" if proc.returncode < 0 else "failed"
    assert proc.returncode == 0, f"Parley {how} on:\n{statements}\n{proc.stdout}{proc.stderr}"
    return [json.loads(line, parse_float=decimal.Decimal)
            for line in proc.stdout.splitlines() if line.strip()]


# ---- Comparisons.

def check_versions(spark, path, versions):
    """Parley reads each of `versions` of `path` as Spark does; the newest also without `@v`."""
    latest = commit_versions(path)[-1]
    assert latest in versions, f"{path}: the newest version is {latest}, not in {versions}"
    for version in versions:
        expected = spark_read(spark, path, version)
        assert expected.num_rows > 0, f"{path}@v{version}: Spark read no rows"
        compare(path, version, expected)
        if version == latest:
            compare(path, None, expected)


def check_query(tmp_path, spark, query):
    """Parley's answer to `query` is Spark's, as a multiset of rows (Spark's not empty)."""
    expected = spark_query(spark, query)
    assert expected.num_rows > 0, f"{query}: Spark returned no row; the check would be vacuous"
    rows = parley(tmp_path, query)
    got = rows_multiset(rows, expected.schema, True)
    want = rows_multiset(expected.to_pylist(), expected.schema, False)
    assert got == want, (f"{query}: rows differ; missing {list((want - got).items())[:5]}; "
                         f"unexpected {list((got - want).items())[:5]}")


def plain(value):
    """A Python value from Arrow, in a form literal expectations can spell."""
    if isinstance(value, datetime.datetime) and value.tzinfo is not None:
        return value.astimezone(UTC)
    return value


def assert_rows(table, expected):
    """`table` (a pyarrow Table) holds exactly `expected`, tuples in column order, as a multiset."""
    got = collections.Counter(
        repr(tuple(plain(v) for v in row.values())) for row in table.to_pylist())
    want = collections.Counter(repr(tuple(plain(v) for v in row)) for row in expected)
    assert got == want, (f"rows differ; missing {list((want - got).items())[:5]}; "
                         f"unexpected {list((got - want).items())[:5]}")


def spark_schema(spark, path, version=None):
    reader = spark.read.format("delta")
    if version is not None:
        reader = reader.option("versionAsOf", version)
    return [(f.name, f.dataType.simpleString()) for f in reader.load(path).schema.fields]


# ==== Spark writes, Parley reads.

TYPES_COLUMNS = """
  id BIGINT, flag BOOLEAN, tiny TINYINT, small SMALLINT, num INT, f FLOAT, d DOUBLE,
  amount DECIMAL(10,2), big DECIMAL(38,6), s STRING, raw BINARY, ts TIMESTAMP,
  local TIMESTAMP_NTZ, tags ARRAY<STRING>, point STRUCT<x: INT, y: DOUBLE>,
  attrs MAP<STRING, INT>, region STRING, day DATE, hour TIMESTAMP_NTZ, at TIMESTAMP
"""

WRITE_TIME_ZONE = "America/Los_Angeles"


def utc(local):
    """A TIMESTAMP literal, in UTC, for the instant that `local` names in WRITE_TIME_ZONE."""
    from zoneinfo import ZoneInfo

    instant = datetime.datetime.fromisoformat(local).replace(tzinfo=ZoneInfo(WRITE_TIME_ZONE))
    return instant.astimezone(UTC).strftime("TIMESTAMP'%Y-%m-%d %H:%M:%S.%f'")


LONG_TEXT = "a string well past the thirty-two characters Delta keeps in its statistics"

TYPES_ROWS_1 = f"""
  (1, true, 127, 32767, 2147483647, 1.5, 2.25, 12345678.91,
   12345678901234567890123456789012.123456, 'plain', X'00FF',
   TIMESTAMP'2024-03-10 12:34:56.789012', TIMESTAMP_NTZ'2024-03-10 12:34:56.789012',
   array('a', 'b'), named_struct('x', 1, 'y', 2.5), map('k', 1, 'l', NULL),
   'eu', DATE'2024-02-29', TIMESTAMP_NTZ'2024-02-29 10:00:00', TIMESTAMP'2024-01-01 00:00:00'),
  (2, false, -128, -32768, -2147483648, -0.25, -1e300, -0.01,
   -99999999999999999999999999999999.999999, 'ünïcødé ✓', X'',
   TIMESTAMP'1960-06-15 01:02:03.000001', TIMESTAMP_NTZ'1000-01-01 00:00:00',
   array(), named_struct('x', NULL, 'y', -0.5), map(),
   'x y/z=1%', DATE'1900-01-01', TIMESTAMP_NTZ'1900-01-01 23:59:59.999999',
   TIMESTAMP'1969-12-31 23:59:59.999999'),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
   NULL, NULL, NULL, NULL),
  (4, true, 0, 0, 0, CAST('NaN' AS FLOAT), CAST('Infinity' AS DOUBLE), 0.00, 0.000001,
   '{LONG_TEXT}', X'0102', TIMESTAMP'2024-03-10 12:34:56.789', TIMESTAMP_NTZ'9999-12-31 23:59:59.999999',
   array(NULL, 'c'), NULL, map('z', -1), '', DATE'2024-02-29', NULL, TIMESTAMP'2024-11-03 01:30:00'),
  (5, false, 1, 2, 3, 4.0, 5.0, 6.00, 7.000000, 'a:b#c', X'FF', TIMESTAMP'2038-01-19 03:14:08',
   TIMESTAMP_NTZ'2038-01-19 03:14:08', array('é'), named_struct('x', 2, 'y', 0.0), NULL,
   'é/ü', DATE'2000-01-01', TIMESTAMP_NTZ'2000-01-01 00:00:00', TIMESTAMP'2000-06-30 12:00:00')
"""

TYPES_ROWS_2 = """
  (6, true, 6, 6, 6, 6.5, 6.5, 6.50, 6.500000, 'six', X'06', TIMESTAMP'2024-03-10 12:34:57',
   TIMESTAMP_NTZ'2024-03-10 12:34:57', array('f'), named_struct('x', 6, 'y', 6.0), map('s', 6),
   'eu', DATE'2024-02-29', TIMESTAMP_NTZ'2024-02-29 10:00:00', TIMESTAMP'2024-01-01 00:00:00'),
  (7, false, 7, 7, 7, 7.5, 7.5, -7.50, -7.500000, 'seven', X'07', NULL, NULL, NULL, NULL, NULL,
   'us', DATE'2024-03-01', TIMESTAMP_NTZ'2024-03-01 00:00:00', NULL)
"""


@pytest.fixture(scope="module")
def types_table(spark, tmp_path_factory):
    """Every primitive type, nested types, timestampNtz, four partition columns (string, date,
    timestamp_ntz, timestamp) with null, empty and escaped values; two appends, written in a
    session time zone other than UTC (the module reads in UTC). Each row of the first append has
    a partition of its own, so each data file holds one row and its statistics are exact bounds
    of that row (as exact as Spark writes them)."""
    path = str(tmp_path_factory.mktemp("spark-types") / "types")
    spark.conf.set("spark.sql.session.timeZone", WRITE_TIME_ZONE)
    try:
        sql(spark,
            f"CREATE TABLE delta.`{path}` ({TYPES_COLUMNS}) USING delta "
            f"PARTITIONED BY (region, day, hour, at)",
            f"INSERT INTO delta.`{path}` VALUES {TYPES_ROWS_1}",
            f"INSERT INTO delta.`{path}` VALUES {TYPES_ROWS_2}")
    finally:
        spark.conf.set("spark.sql.session.timeZone", "UTC")
    return path


def test_spark_types_partitions_and_timestamp_ntz(spark, types_table):
    protocol = [a["protocol"] for a in commit_actions(types_table, 0) if "protocol" in a][0]
    assert "timestampNtz" in protocol.get("readerFeatures", []), protocol
    check_versions(spark, types_table, [1, 2])


def test_spark_file_statistics_filters(spark, types_table, tmp_path):
    """Filters whose answers depend on reading Spark's file statistics right: timestamps whose
    statistics Spark truncates to milliseconds, strings it truncates to 32 characters, NaN and
    infinities, and partition values with escapes or nulls. Files of one row, so a file skipped
    wrongly loses its row. (No condition that NaN satisfies: Spark orders NaN above every number,
    which is a question for Parley's expressions, not for its Delta reader.)"""
    adds = [a["add"] for a in commit_actions(types_table, 1) if "add" in a]
    assert len(adds) == 5 and all(json.loads(a["stats"])["numRecords"] == 1 for a in adds), adds
    for condition in [
        f"ts >= {utc('2024-03-10 12:34:56.789012')}",
        f"ts > {utc('2024-03-10 12:34:56.789')}",
        f"ts = {utc('1960-06-15 01:02:03.000001')}",
        "local = TIMESTAMP_NTZ'2024-03-10 12:34:56.789012'",
        "local >= TIMESTAMP_NTZ'9999-12-31 23:59:59.999999'",
        f"s = '{LONG_TEXT}'",
        f"s > '{LONG_TEXT[:32]}'",
        "s >= 'ünïcødé'",
        "amount < -0.005",
        "big > 12345678901234567890123456789012",
        "d > 1e308",
        "f BETWEEN 1.5 AND 4.5",
        "region = 'x y/z=1%'",
        "region IS NULL",
        "day < DATE'1900-01-02'",
        "hour > TIMESTAMP_NTZ'1900-01-01 23:59:59.999998'",
        f"at <= {utc('1969-12-31 23:59:59.999999')}",
        f"at = {utc('2024-11-03 01:30:00')}",
        "flag IS NULL",
    ]:
        check_query(tmp_path, spark, f"SELECT id FROM delta.`{types_table}` WHERE {condition}")


def test_spark_checkpoints_classic_and_multipart(spark, tmp_path):
    """checkpointInterval=2: a single-file checkpoint at version 2, a DELETE (remove tombstones),
    then a checkpoint in several parts at version 4; every version read. The checkpoints keep
    file statistics only as a struct (stats_parsed), which filters then depend on."""
    path = str(tmp_path / "checkpoints")
    table = f"delta.`{path}`"
    sql(spark,
        f"CREATE TABLE {table} USING delta PARTITIONED BY (part) "
        f"TBLPROPERTIES ('delta.checkpointInterval'='2', 'delta.enableDeletionVectors'='false', "
        f"'delta.checkpoint.writeStatsAsJson'='false', "
        f"'delta.checkpoint.writeStatsAsStruct'='true') "
        f"AS SELECT id, CAST(id % 2 AS INT) AS part, concat('r', id) AS label FROM range(0, 10)",
        f"INSERT INTO {table} SELECT id, CAST(id % 2 AS INT), concat('r', id) FROM range(10, 20)",
        f"INSERT INTO {table} SELECT id, CAST(id % 2 AS INT), concat('r', id) FROM range(20, 30)",
        f"DELETE FROM {table} WHERE id % 3 = 0")
    spark.conf.set("spark.databricks.delta.checkpoint.partSize", "3")
    try:
        sql(spark, f"INSERT INTO {table} SELECT id, CAST(id % 2 AS INT), concat('r', id) "
                   f"FROM range(30, 40)")
    finally:
        spark.conf.unset("spark.databricks.delta.checkpoint.partSize")
    assert log_files(path, "00000000000000000002.checkpoint.parquet"), "no checkpoint at 2"
    parts = log_files(path, "00000000000000000004.checkpoint.*.*.parquet")
    assert len(parts) > 1, f"no multi-part checkpoint at 4: {parts}"
    with open(os.path.join(path, "_delta_log", "_last_checkpoint")) as f:
        assert json.load(f)["version"] == 4
    check_versions(spark, path, [0, 1, 2, 3, 4])
    for condition in ["id >= 35", "id < 2", "label = 'r17'", "label > 'r38'", "part = 1 AND id > 20"]:
        check_query(tmp_path, spark, f"SELECT id, label FROM {table} WHERE {condition}")


def test_spark_copy_on_write_dml(spark, tmp_path):
    """DELETE, UPDATE and MERGE (with a delete clause) rewriting files, deletion vectors off, on a
    table that also records its change data (`cdc` actions and _change_data files, which a read
    ignores) and in-commit timestamps; then OPTIMIZE (files rewritten with dataChange=false)."""
    path = str(tmp_path / "dml")
    table = f"delta.`{path}`"
    sql(spark,
        f"CREATE TABLE {table} USING delta TBLPROPERTIES ('delta.enableDeletionVectors'='false', "
        f"'delta.enableChangeDataFeed'='true', 'delta.enableInCommitTimestamps'='true') "
        f"AS SELECT id, CAST(id % 3 AS STRING) AS grp, id * 1.5D AS score "
        f"FROM range(0, 30, 1, 3)",
        f"DELETE FROM {table} WHERE id % 5 = 0",
        f"UPDATE {table} SET score = -score, grp = 'u' WHERE grp = '1'",
        f"MERGE INTO {table} t USING (SELECT * FROM VALUES (1L, 'm', 100.0D), (2L, 'd', 0.0D), "
        f"(100L, 'n', 7.0D) AS s(id, op, score)) s ON t.id = s.id "
        f"WHEN MATCHED AND s.op = 'd' THEN DELETE "
        f"WHEN MATCHED THEN UPDATE SET t.score = s.score "
        f"WHEN NOT MATCHED THEN INSERT (id, grp, score) VALUES (s.id, s.op, s.score)",
        f"OPTIMIZE {table}")
    for version in (1, 2, 3):
        actions = commit_actions(path, version)
        assert any("remove" in a for a in actions), f"version {version} removed no file"
        assert any("cdc" in a for a in actions), f"version {version} recorded no change data"
        assert not any(a.get("add", {}).get("deletionVector") for a in actions)
    optimized = commit_actions(path, 4)
    assert any("add" in a and not a["add"]["dataChange"] for a in optimized), optimized
    check_versions(spark, path, [0, 2, 3, 4])


def test_spark_deletion_vectors_and_v2_checkpoints(spark, tmp_path):
    """Deletion vectors from DELETE, UPDATE and MERGE (and a second DELETE on files that already
    have one), on a table with V2 checkpoints every 2 commits: a JSON one at version 2 and a
    Parquet one at version 4, their file actions in sidecars; every version read."""
    path = str(tmp_path / "dv")
    table = f"delta.`{path}`"
    sql(spark,
        f"CREATE TABLE {table} USING delta PARTITIONED BY (grp) "
        f"TBLPROPERTIES ('delta.enableDeletionVectors'='true', 'delta.checkpointPolicy'='v2', "
        f"'delta.checkpointInterval'='2') "
        f"AS SELECT id, CAST(id % 2 AS STRING) AS grp, concat('v', id) AS val FROM range(0, 200)",
        f"DELETE FROM {table} WHERE id % 7 = 0",
        f"UPDATE {table} SET val = 'updated' WHERE id % 11 = 0",
        f"MERGE INTO {table} t USING (SELECT id, IF(id % 2 = 0, 'd', 'u') AS op FROM range(0, 60, 3)"
        f" UNION ALL SELECT 500L, 'i') s ON t.id = s.id "
        f"WHEN MATCHED AND s.op = 'd' THEN DELETE "
        f"WHEN MATCHED THEN UPDATE SET t.val = 'merged' "
        f"WHEN NOT MATCHED THEN INSERT (id, grp, val) VALUES (s.id, 'new', 'inserted')")
    spark.conf.set("spark.databricks.delta.checkpointV2.topLevelFileFormat", "parquet")
    try:
        sql(spark, f"DELETE FROM {table} WHERE id % 13 = 0")
    finally:
        spark.conf.unset("spark.databricks.delta.checkpointV2.topLevelFileFormat")
    for version in (1, 2, 3, 4):
        assert any(a.get("add", {}).get("deletionVector") for a in commit_actions(path, version)), (
            f"version {version} wrote no deletion vector")
    protocol = [a["protocol"] for a in commit_actions(path, 0) if "protocol" in a][0]
    assert {"deletionVectors", "v2Checkpoint"} <= set(protocol["readerFeatures"]), protocol
    assert log_files(path, "00000000000000000002.checkpoint.*.json"), "no JSON V2 checkpoint at 2"
    assert log_files(path, "00000000000000000004.checkpoint.*.parquet"), "no Parquet V2 checkpoint"
    assert log_files(path, "_sidecars/*.parquet"), "no sidecar files"
    check_versions(spark, path, [0, 1, 2, 3, 4])


def test_spark_column_mapping_name_mode(spark, tmp_path):
    """Column mapping by name: a column with a space, then a rename, a drop, an added column and
    an append; each version read with that version's names."""
    path = str(tmp_path / "column-mapping")
    table = f"delta.`{path}`"
    sql(spark,
        f"CREATE TABLE {table} USING delta PARTITIONED BY (region) "
        f"TBLPROPERTIES ('delta.columnMapping.mode'='name') AS SELECT * FROM VALUES "
        f"(1L, 'Ann', CAST(10.50 AS DECIMAL(8,2)), 'eu'), (2L, 'Bo', CAST(-3.25 AS DECIMAL(8,2)), 'us'),"
        f" (3L, NULL, NULL, 'eu') AS t(id, `first name`, amount, region)",
        f"ALTER TABLE {table} RENAME COLUMN amount TO total",
        f"ALTER TABLE {table} DROP COLUMN `first name`",
        f"ALTER TABLE {table} ADD COLUMNS (note STRING)",
        f"INSERT INTO {table} (id, total, region, note) VALUES (4, 4.00, 'us', 'added')")
    schema = json.loads([a for a in commit_actions(path, 0) if "metaData" in a][0]
                        ["metaData"]["schemaString"])
    physical = [f["metadata"]["delta.columnMapping.physicalName"] for f in schema["fields"]]
    assert all(p.startswith("col-") for p in physical), physical
    check_versions(spark, path, [0, 1, 2, 4])


def test_spark_row_tracking_metadata(spark, tmp_path):
    """Row tracking written by Spark: fresh ids from two appends, a DELETE that writes deletion
    vectors, an UPDATE and a MERGE that materialize row ids and commit versions in the files they
    write. Parley's _metadata.row_id and row_commit_version are Spark's at every version."""
    path = str(tmp_path / "row-tracking")
    table = f"delta.`{path}`"
    sql(spark,
        f"CREATE TABLE {table} (id BIGINT, grp STRING) USING delta TBLPROPERTIES "
        f"('delta.enableRowTracking'='true', 'delta.enableDeletionVectors'='true')",
        f"INSERT INTO {table} SELECT id, CAST(id % 3 AS STRING) FROM range(0, 40, 1, 2)",
        f"INSERT INTO {table} SELECT id, 'second' FROM range(100, 110)",
        f"DELETE FROM {table} WHERE id % 7 = 0",
        f"UPDATE {table} SET grp = 'u' WHERE id % 5 = 1",
        f"MERGE INTO {table} t USING (SELECT id FROM range(0, 200, 9)) s ON t.id = s.id "
        f"WHEN MATCHED THEN UPDATE SET t.grp = 'm' "
        f"WHEN NOT MATCHED THEN INSERT (id, grp) VALUES (s.id, 'new')")
    configuration = [a["metaData"]["configuration"] for a in commit_actions(path, 0)
                     if "metaData" in a][0]
    assert configuration["delta.enableRowTracking"] == "true", configuration
    assert any(a.get("add", {}).get("deletionVector") for a in commit_actions(path, 3))
    for suffix in [f" VERSION AS OF {v}" for v in range(1, 5)] + [""]:
        check_query(tmp_path, spark,
                    f"SELECT id, grp, _metadata.row_id AS row_id, "
                    f"_metadata.row_commit_version AS row_commit_version FROM {table}{suffix}")


def test_spark_change_data_feed(spark, tmp_path):
    """Spark's change data feed (copy-on-write DELETE, UPDATE and MERGE writing change files,
    and appends inferred from add actions) read by Parley's table_changes as Spark reads it."""
    path = str(tmp_path / "feed")
    table = f"delta.`{path}`"
    sql(spark,
        f"CREATE TABLE {table} (id BIGINT, grp STRING) USING delta PARTITIONED BY (grp) "
        f"TBLPROPERTIES ('delta.enableChangeDataFeed'='true', 'delta.enableDeletionVectors'='false')",
        f"INSERT INTO {table} SELECT id, CAST(id % 3 AS STRING) FROM range(0, 30)",
        f"DELETE FROM {table} WHERE id % 5 = 0",
        f"UPDATE {table} SET id = id + 1000 WHERE id % 4 = 1",
        f"MERGE INTO {table} t USING (SELECT id FROM range(0, 60, 7)) s ON t.id = s.id "
        f"WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT (id, grp) VALUES (s.id, 'n')")
    assert any("cdc" in a for a in commit_actions(path, 3)), "UPDATE recorded no change files"
    expected = spark_query(spark, f"SELECT id, grp, _change_type, _commit_version, "
                                  f"_commit_timestamp FROM table_changes_by_path('{path}', 0)")
    rows = parley(tmp_path, f"""
        CREATE TABLE feed USING delta LOCATION '{path}';
        SELECT id, grp, _change_type, _commit_version, _commit_timestamp
          FROM table_changes('feed', 0)""")
    got = rows_multiset(rows, expected.schema, True)
    want = rows_multiset(expected.to_pylist(), expected.schema, False)
    assert got == want, (f"change rows differ; missing {list((want - got).items())[:5]}; "
                         f"unexpected {list((got - want).items())[:5]}")
    assert {row["_change_type"] for row in rows} == {
        "insert", "delete", "update_preimage", "update_postimage"}


# ==== Parley writes, Spark reads (and writes on top, and Parley reads that).

def test_parley_partitioned_table_to_spark(spark, tmp_path):
    path = str(tmp_path / "parley-partitioned")
    table = f"delta.`{path}`"
    parley(tmp_path, f"""
        CREATE TABLE {table} (id BIGINT, name STRING, p STRING) USING delta PARTITIONED BY (p);
        INSERT INTO {table} VALUES (1, 'a', 'x'), (2, 'b', 'y'), (3, NULL, 'x'), (4, 'd', NULL);
        INSERT INTO {table} SELECT id + 10, upper(name), p FROM {table} WHERE id < 3""")
    v1 = [(1, "a", "x"), (2, "b", "y"), (3, None, "x"), (4, "d", None)]
    v2 = v1 + [(11, "A", "x"), (12, "B", "y")]
    assert_rows(spark_read(spark, path, 1), v1)
    assert_rows(spark_read(spark, path), v2)
    assert spark_schema(spark, path) == [("id", "bigint"), ("name", "string"), ("p", "string")]
    detail = spark.sql(f"DESCRIBE DETAIL {table}").collect()[0]
    assert detail["partitionColumns"] == ["p"]
    assert (detail["minReaderVersion"], detail["minWriterVersion"]) == (1, 2)
    check_versions(spark, path, [1, 2])

    # Spark appends and deletes; Parley reads Spark's commits on Parley's table.
    sql(spark, f"INSERT INTO {table} VALUES (20, 'spark', 'z'), (21, 'spark', 'x')",
        f"DELETE FROM {table} WHERE id = 2")
    v4 = [r for r in v2 if r[0] != 2] + [(20, "spark", "z"), (21, "spark", "x")]
    assert_rows(spark_read(spark, path), v4)
    check_versions(spark, path, [2, 3, 4])


def test_parley_checkpoints_to_spark(spark, tmp_path):
    path = str(tmp_path / "parley-checkpoints")
    table = f"delta.`{path}`"
    inserts = "; ".join(f"INSERT INTO {table} VALUES ({i}, 'n{i}', 'p{i % 2}')"
                        for i in range(1, 6))
    parley(tmp_path, f"""
        CREATE TABLE {table} (id BIGINT, name STRING, p STRING) USING delta PARTITIONED BY (p)
          TBLPROPERTIES ('delta.checkpointInterval'='2');
        {inserts}""")
    assert commit_versions(path) == [0, 1, 2, 3, 4, 5]
    assert log_files(path, "00000000000000000002.checkpoint*.parquet"), "no checkpoint at 2"
    assert log_files(path, "00000000000000000004.checkpoint*.parquet"), "no checkpoint at 4"
    with open(os.path.join(path, "_delta_log", "_last_checkpoint")) as f:
        assert json.load(f)["version"] == 4
    rows = [(i, f"n{i}", f"p{i % 2}") for i in range(1, 6)]
    assert_rows(spark_read(spark, path, 3), rows[:3])
    assert_rows(spark_read(spark, path), rows)
    check_versions(spark, path, [1, 3, 4, 5])

    # Spark's commit 6 brings its own checkpoint of Parley's table; Parley reads through it.
    sql(spark, f"INSERT INTO {table} VALUES (6, 'spark', 'p0')")
    assert log_files(path, "00000000000000000006.checkpoint*.parquet"), "Spark wrote no checkpoint"
    assert_rows(spark_read(spark, path), rows + [(6, "spark", "p0")])
    check_versions(spark, path, [5, 6])


def test_parley_overwrites_to_spark(spark, tmp_path):
    path = str(tmp_path / "parley-overwrite")
    table = f"delta.`{path}`"
    parley(tmp_path, f"""
        CREATE TABLE {table} (id BIGINT, name STRING, p STRING) USING delta PARTITIONED BY (p);
        INSERT INTO {table} VALUES (1, 'a', 'x'), (2, 'b', 'y'), (3, 'c', 'z');
        INSERT OVERWRITE {table} SELECT id * 10, name, p FROM {table} WHERE p <> 'z';
        INSERT OVERWRITE {table} PARTITION (p='x') SELECT 100, 'only x'""")
    v1 = [(1, "a", "x"), (2, "b", "y"), (3, "c", "z")]
    v2 = [(10, "a", "x"), (20, "b", "y")]
    v3 = [(100, "only x", "x"), (20, "b", "y")]
    assert_rows(spark_read(spark, path, 1), v1)
    assert_rows(spark_read(spark, path, 2), v2)
    assert_rows(spark_read(spark, path), v3)
    operations = [row["operation"] for row in
                  spark.sql(f"DESCRIBE HISTORY {table}").orderBy("version").collect()]
    assert len(operations) == 4, operations
    check_versions(spark, path, [1, 2, 3])


def test_parley_column_mapping_to_spark(spark, tmp_path):
    path = str(tmp_path / "parley-column-mapping")
    table = f"delta.`{path}`"
    parley(tmp_path, f"""
        CREATE TABLE {table} (id BIGINT, name STRING, p STRING) USING delta PARTITIONED BY (p)
          TBLPROPERTIES ('delta.columnMapping.mode'='name');
        INSERT INTO {table} VALUES (1, 'a', 'x'), (2, NULL, 'y')""")
    detail = spark.sql(f"DESCRIBE DETAIL {table}").collect()[0]
    assert detail["properties"].get("delta.columnMapping.mode") == "name", detail["properties"]
    rows = [(1, "a", "x"), (2, None, "y")]
    assert_rows(spark_read(spark, path), rows)
    check_versions(spark, path, [1])

    # Spark renames a column (only column mapping allows it) and appends; Parley follows.
    sql(spark, f"ALTER TABLE {table} RENAME COLUMN name TO label",
        f"INSERT INTO {table} VALUES (3, 'spark', 'x')")
    assert spark_schema(spark, path) == [("id", "bigint"), ("label", "string"), ("p", "string")]
    assert_rows(spark_read(spark, path), rows + [(3, "spark", "x")])
    check_versions(spark, path, [1, 2, 3])


def test_parley_ctas_to_spark(spark, tmp_path):
    path = str(tmp_path / "parley-ctas")
    table = f"delta.`{path}`"
    parley(tmp_path, f"""
        CREATE TABLE {table} USING delta AS
        SELECT CAST(id AS BIGINT) AS id, CAST(amount AS DECIMAL(10,2)) AS amount,
               CAST(day AS DATE) AS day, CAST(at AS TIMESTAMP) AS at, flag, CAST(f AS DOUBLE) AS f
        FROM VALUES (1, '12.50', '2024-02-29', '2024-03-10 12:34:56.789012', true, 0.5),
                    (2, '-0.01', '1900-01-01', '1960-06-15 01:02:03', false, -2.0),
                    (3, NULL, NULL, NULL, NULL, NULL) AS t(id, amount, day, at, flag, f)""")
    assert spark_schema(spark, path) == [
        ("id", "bigint"), ("amount", "decimal(10,2)"), ("day", "date"), ("at", "timestamp"),
        ("flag", "boolean"), ("f", "double")]
    assert_rows(spark_read(spark, path), [
        (1, D("12.50"), datetime.date(2024, 2, 29),
         datetime.datetime(2024, 3, 10, 12, 34, 56, 789012, tzinfo=UTC), True, 0.5),
        (2, D("-0.01"), datetime.date(1900, 1, 1),
         datetime.datetime(1960, 6, 15, 1, 2, 3, tzinfo=UTC), False, -2.0),
        (3, None, None, None, None, None)])
    check_versions(spark, path, [0])


# ==== The same DML run by Parley and by Spark on copies of one table.

DML_STATEMENTS = [
    # partition column only (Parley: metadata-only), then data columns (copy-on-write)
    "DELETE FROM {t} WHERE grp = 'g0'",
    "DELETE FROM {t} WHERE score > 40 AND grp = 'g1'",
    "UPDATE {t} SET score = score * 2, label = upper(label) WHERE id % 4 = 1 OR label IS NULL",
    "UPDATE {t} SET grp = 'moved' WHERE id IN (5, 7, 11)",
    "MERGE INTO {t} t USING {s} s ON t.id = s.id "
    "WHEN MATCHED AND s.op = 'd' THEN DELETE "
    "WHEN MATCHED THEN UPDATE SET t.score = s.score, t.label = s.op "
    "WHEN NOT MATCHED AND s.id IS NOT NULL THEN INSERT (id, label, score, grp) "
    "VALUES (s.id, s.op, s.score, 'new') "
    "WHEN NOT MATCHED BY SOURCE AND t.score < 5 THEN DELETE",
    "MERGE INTO {t} t USING (SELECT id, score FROM {s} WHERE id > 10) s ON t.id = s.id "
    "WHEN MATCHED THEN UPDATE SET t.score = -s.score "
    "WHEN NOT MATCHED BY SOURCE THEN UPDATE SET t.label = 'untouched'",
]


def test_parley_dml_matches_spark(spark, tmp_path):
    """DELETE, UPDATE and MERGE run by Parley on a table equal what Spark + delta-spark do on a
    copy of it: the metrics rows of each statement and the rows after each one. Spark then
    reads every version Parley wrote, and Parley reads Spark's copy."""
    import shutil

    ours, theirs = str(tmp_path / "dml-parley"), str(tmp_path / "dml-spark")
    source = str(tmp_path / "dml-source")
    ids = ", ".join(f"({i}L)" for i in range(30))
    parley(tmp_path, f"""
        CREATE TABLE delta.`{ours}` (id BIGINT, label STRING, score DOUBLE, grp STRING)
          USING delta PARTITIONED BY (grp);
        INSERT INTO delta.`{ours}` SELECT id, CASE WHEN id % 5 = 0 THEN NULL ELSE concat('l', id) END,
          id * 1.5D, concat('g', id % 3) FROM VALUES {ids} AS r(id);
        INSERT INTO delta.`{ours}` VALUES (100, 'x', 2.0D, NULL), (101, NULL, 70.0D, 'g2');
        CREATE TABLE delta.`{source}` (id BIGINT, op STRING, score DOUBLE) USING delta;
        INSERT INTO delta.`{source}` VALUES (2, 'd', 0.0D), (4, 'u', 44.0D), (13, 'u', 13.5D),
          (200, 'i', 1.0D), (NULL, 'i', 9.0D), (101, 'd', 0.0D)""")
    shutil.copytree(ours, theirs)
    for statement in DML_STATEMENTS:
        got = parley(tmp_path, statement.format(t=f"delta.`{ours}`", s=f"delta.`{source}`"))
        want = [row.asDict() for row in
                spark.sql(statement.format(t=f"delta.`{theirs}`", s=f"delta.`{source}`")).collect()]
        assert got == want, f"{statement}: Parley reported {got}, Spark {want}"
        expected = spark_read(spark, theirs)
        assert_rows(spark_read(spark, ours), [tuple(r.values()) for r in expected.to_pylist()])
    history = spark.sql(f"DESCRIBE HISTORY delta.`{ours}`").orderBy("version").collect()
    assert [row["operation"] for row in history][-4:] == ["UPDATE", "UPDATE", "MERGE", "MERGE"]
    check_versions(spark, ours, commit_versions(ours)[1:])
    check_versions(spark, theirs, [commit_versions(theirs)[-1]])


CDF_DML = [
    "DELETE FROM {t} WHERE id = 2",
    "UPDATE {t} SET id = id + 100 WHERE id = 3 OR id IS NULL",
    "MERGE INTO {t} t USING (SELECT * FROM VALUES (1, 'a'), (4, 'x'), (9, 'z') AS v(id, grp)) s "
    "ON t.id = s.id "
    "WHEN MATCHED AND s.grp = 'a' THEN DELETE WHEN MATCHED THEN UPDATE SET grp = s.grp "
    "WHEN NOT MATCHED THEN INSERT * WHEN NOT MATCHED BY SOURCE THEN UPDATE SET id = -1",
]


def test_parley_dml_change_data_feed_to_spark(spark, tmp_path):
    """The change files Parley's DELETE, UPDATE and MERGE write are read by Spark's
    table_changes as by Parley's, row for row, and hold the rows Spark's own DML writes on a copy
    of the table."""
    import shutil

    ours, theirs = str(tmp_path / "feed-parley"), str(tmp_path / "feed-spark")
    parley(tmp_path, f"""
        CREATE TABLE delta.`{ours}` (id BIGINT, grp STRING) USING delta PARTITIONED BY (grp)
          TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true');
        INSERT INTO delta.`{ours}` VALUES (1, 'a'), (2, 'a'), (3, 'b'), (4, NULL), (NULL, 'c')""")
    shutil.copytree(ours, theirs)
    parley(tmp_path, ";\n".join(s.format(t=f"delta.`{ours}`") for s in CDF_DML))
    sql(spark, *(s.format(t=f"delta.`{theirs}`") for s in CDF_DML))
    assert all(any("cdc" in a for a in commit_actions(ours, v)) for v in (2, 3, 4))
    rows = parley(tmp_path, f"""
        CREATE TABLE feed USING delta LOCATION '{ours}';
        SELECT id, grp, _change_type, _commit_version FROM table_changes('feed', 2)""")
    assert {row["_change_type"] for row in rows} == {
        "insert", "delete", "update_preimage", "update_postimage"}
    for path in (ours, theirs):
        expected = spark_query(spark, f"SELECT id, grp, _change_type, _commit_version "
                                      f"FROM table_changes_by_path('{path}', 2)")
        got = rows_multiset(rows, expected.schema, True)
        want = rows_multiset(expected.to_pylist(), expected.schema, False)
        assert got == want, (f"{path}: change rows differ; missing {list((want - got).items())[:5]}"
                             f"; unexpected {list((got - want).items())[:5]}")


@pytest.mark.parametrize("partitioned", [False, True], ids=["unpartitioned", "partitioned"])
def test_parley_dml_preserves_row_tracking_like_spark(spark, tmp_path, partitioned):
    """Row tracking across copy-on-write DML: Spark writes a row-tracking table; Parley runs an
    UPDATE, a DELETE and a MERGE (update, delete, insert) on one copy and Spark the same on
    another. Read by Spark, both copies give every surviving row the same row id and row commit
    version (commit versions are equal as both made the same commits); MERGE-inserted rows get
    fresh ids above every id before and the MERGE's version. Parley reads its copy as Spark
    does, and its rewrites say commitInfo.tags delta.rowTracking.preserved = true."""
    import shutil

    ours, theirs = str(tmp_path / "rt-parley"), str(tmp_path / "rt-spark")
    partitioning = "PARTITIONED BY (part)" if partitioned else ""
    sql(spark,
        f"CREATE TABLE delta.`{theirs}` (id BIGINT, grp STRING, part INT) USING delta "
        f"{partitioning} TBLPROPERTIES ('delta.enableRowTracking'='true', "
        f"'delta.enableDeletionVectors'='false')",
        f"INSERT INTO delta.`{theirs}` SELECT id, CAST(id % 3 AS STRING), CAST(id % 2 AS INT) "
        f"FROM range(0, 40, 1, 2)",
        f"INSERT INTO delta.`{theirs}` SELECT id, 'second', 0 FROM range(100, 110)")
    shutil.copytree(theirs, ours)
    source = ", ".join(f"({i}L)" for i in range(0, 200, 9))
    statements = [
        "UPDATE {t} SET grp = 'u' WHERE id % 5 = 1",
        "DELETE FROM {t} WHERE id % 7 = 0",
        "MERGE INTO {t} t USING (SELECT * FROM VALUES " + source + " AS s(id)) s ON t.id = s.id "
        "WHEN MATCHED AND t.id % 4 = 1 THEN DELETE "
        "WHEN MATCHED THEN UPDATE SET t.grp = 'm' "
        "WHEN NOT MATCHED THEN INSERT (id, grp, part) VALUES (s.id, 'new', 1)",
    ]
    for statement in statements:
        parley(tmp_path, statement.format(t=f"delta.`{ours}`"))
        sql(spark, statement.format(t=f"delta.`{theirs}`"))
    for version in commit_versions(ours)[3:]:
        tags = [a["commitInfo"].get("tags", {}) for a in commit_actions(ours, version)
                if "commitInfo" in a][0]
        assert tags.get("delta.rowTracking.preserved") == "true", (version, tags)
    assert commit_versions(ours) == commit_versions(theirs)
    merge_version = commit_versions(ours)[-1]
    query = ("SELECT id, grp, part, _metadata.row_id AS row_id, "
             "_metadata.row_commit_version AS row_commit_version FROM delta.`{p}`")

    def rows(path):
        return spark_query(spark, query.format(p=path)).to_pylist()

    ours_rows, theirs_rows = rows(ours), rows(theirs)
    old = lambda rs: sorted(tuple(r.values()) for r in rs if r["grp"] != "new")
    assert old(ours_rows) == old(theirs_rows)
    assert any(r["row_commit_version"] == merge_version for r in ours_rows if r["grp"] == "m")
    assert any(r["row_commit_version"] < merge_version for r in ours_rows)
    before = max(r["row_id"] for r in ours_rows if r["grp"] != "new")
    inserted = [r for r in ours_rows if r["grp"] == "new"]
    assert len(inserted) == len([r for r in theirs_rows if r["grp"] == "new"]) > 0
    assert all(r["row_id"] > before and r["row_commit_version"] == merge_version
               for r in inserted), inserted
    assert len({r["row_id"] for r in ours_rows}) == len(ours_rows)
    check_query(tmp_path, spark, query.format(p=ours))


NESTED_COLUMNS = ("id INT, a ARRAY<STRUCT<x: INT, tags: ARRAY<STRING>>>, "
                  "m MAP<STRING, ARRAY<INT>>, s STRUCT<name: STRING, at: MAP<INT, DOUBLE>>")


def test_parley_nested_types_to_spark_and_delta_rs(spark, tmp_path):
    """ARRAY, MAP and STRUCT columns, nested in each other and holding NULLs at every level:
    written by Parley, read by Spark and delta-rs; Spark's append read back by Parley."""
    from deltalake import DeltaTable

    path = str(tmp_path / "parley-nested")
    table = f"delta.`{path}`"
    parley(tmp_path, f"""
        CREATE TABLE {table} ({NESTED_COLUMNS}) USING delta;
        INSERT INTO {table} VALUES
          (1, array(named_struct('x', 1, 'tags', array('a', NULL)), NULL),
              map('k', array(1, NULL), 'e', array()), named_struct('name', 'n', 'at', map(1, 0.5D))),
          (2, array(), map(), named_struct('name', NULL, 'at', NULL)),
          (3, NULL, NULL, NULL)""")
    expected = [
        (1, [{"x": 1, "tags": ["a", None]}, None], [("k", [1, None]), ("e", [])],
         {"name": "n", "at": [(1, 0.5)]}),
        (2, [], [], {"name": None, "at": None}),
        (3, None, None, None),
    ]
    assert_rows(spark_read(spark, path), expected)
    assert spark_schema(spark, path) == [
        ("id", "int"), ("a", "array<struct<x:int,tags:array<string>>>"),
        ("m", "map<string,array<int>>"), ("s", "struct<name:string,at:map<int,double>>")]
    assert_rows(DeltaTable(path).to_pyarrow_table(), expected)

    sql(spark, f"INSERT INTO {table} VALUES (4, array(named_struct('x', NULL, 'tags', NULL)), "
               f"map('z', NULL), named_struct('name', 'spark', 'at', map(2, NULL)))")
    check_versions(spark, path, [1, 2])
    check_query(tmp_path, spark, f"SELECT id, get(a, 0).x AS x, m['k'] AS k, s.name, s.at[1] AS at1 "
                                   f"FROM {table}")


def test_spark_nested_parquet_to_parley(spark, tmp_path):
    """A Parquet directory Spark writes with nested columns reads in Parley as in Spark."""
    path = str(tmp_path / "spark-nested-parquet")
    spark.sql(f"""SELECT * FROM VALUES
        (1, array(named_struct('x', 1, 'tags', array('a', NULL))), map('k', array(1)),
            named_struct('name', 'n', 'at', map(1, 0.5D))),
        (2, NULL, map('e', CAST(NULL AS ARRAY<INT>)), named_struct('name', NULL, 'at', NULL))
        AS t(id, a, m, s)""").write.parquet(path)
    check_query(tmp_path, spark, f"SELECT id, a, m, s FROM parquet.`{path}`")
