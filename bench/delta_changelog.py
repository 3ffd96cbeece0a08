#!/usr/bin/env python3
"""Change data capture benchmark: net changes with computeUpdates over the 20 commits of random
updates, deletes and inserts that follow the load of a 1M-row row-tracking Delta table, Parley
against Spark (pyspark + delta-spark, local[2]) on the same table.

    .venv/bin/python bench/delta_changelog.py [--build-dir build] [--runs 3] [--warmup 1]
                                              [--scratch-dir DIR] [--json out.json]
                                              [--parley-only]

Run it with the project's Python environment (.venv: pyspark and delta-spark, the versions of
requirements.txt, whose jars scripts/fetch_spark_jars.sh caches), not the bench one.

What it does (see docs/performance.md):
  1. Spark writes the table (once per scratch directory; reused when it is there): 1,000,000
     rows (id BIGINT, grp INT, v DOUBLE, s STRING) in 20 files by id range, with row tracking
     and without deletion vectors (so every DML statement rewrites files copy-on-write: the
     copied rows are carry-overs in the raw change rows), then 20 commits drawn with a fixed
     seed: UPDATE of an id range, DELETE of an id range, INSERT of new rows, MERGE updating
     and inserting.
  2. The query, on each engine:
         SELECT _change_type, count(*), sum(id), sum(grp), sum(v), count(DISTINCT s),
                sum(_metadata.row_id), sum(_commit_version)
         FROM t CHANGES FROM VERSION 2 TO VERSION 21
              WITH (deduplicationMode = 'netChanges', computeUpdates = 'true')
         GROUP BY _change_type
     (every column of every surviving row is read; the aggregate keeps the result small).
     --warmup untimed runs, then --runs timed ones, median reported:
       - Parley: <build-dir>/parley's interactive shell (bench_common.ParleyRepl), each
         statement timed from sending its line to the next prompt;
       - Spark: one local[2] session with spark.databricks.delta.changelogV2.enabled, each
         spark.sql(query).collect() timed.
     The two results must be equal.
  3. Prints a Markdown table; every timed step records the cores other processes used.
     --parley-only times Parley alone (Spark still writes the table when it is missing) and
     prints its median.

Nothing here is a test. It never builds Parley: it runs a copy of <build-dir>/parley.
"""

import argparse
import glob
import importlib.metadata
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_common as bc  # noqa: E402

TARGET = 10.0  # Spark time / Parley time, at least (issue 8)
ROWS = 1_000_000
COMMITS = 20

QUERY = """SELECT _change_type, count(*) AS n, sum(id) AS ids, sum(grp) AS grps, sum(v) AS vs,
       count(DISTINCT s) AS ss, sum(_metadata.row_id) AS row_ids,
       sum(_commit_version) AS versions
FROM {table} CHANGES FROM VERSION 2 TO VERSION {end}
     WITH (deduplicationMode = 'netChanges', computeUpdates = 'true')
GROUP BY _change_type ORDER BY _change_type"""


def history(seed=8):
    """The 20 DML statements on `{t}`, drawn with a fixed seed."""
    rng = random.Random(seed)
    statements, next_id = [], ROWS
    for _ in range(COMMITS):
        kind = rng.choice(["update", "delete", "insert", "merge"])
        lo = rng.randrange(0, ROWS - 20_000)
        if kind == "update":
            statements.append(f"UPDATE {{t}} SET v = v + 1, s = concat(s, 'u') "
                              f"WHERE id BETWEEN {lo} AND {lo + rng.randrange(1000, 20_000)}")
        elif kind == "delete":
            statements.append(f"DELETE FROM {{t}} WHERE id BETWEEN {lo} AND "
                              f"{lo + rng.randrange(500, 10_000)} AND id % 3 = {rng.randrange(3)}")
        elif kind == "insert":
            n = rng.randrange(1000, 20_000)
            statements.append(f"INSERT INTO {{t}} SELECT id, CAST(id % 100 AS INT), id * 0.5D, "
                              f"concat('n', id % 1000) FROM range({next_id}, {next_id + n})")
            next_id += n
        else:
            n = rng.randrange(1000, 10_000)
            statements.append(
                f"MERGE INTO {{t}} t USING (SELECT id FROM range({lo}, {lo + 2 * n}, 2) UNION ALL "
                f"SELECT id FROM range({next_id}, {next_id + n})) s ON t.id = s.id "
                f"WHEN MATCHED THEN UPDATE SET t.v = -t.v "
                f"WHEN NOT MATCHED THEN INSERT (id, grp, v, s) "
                f"VALUES (s.id, 7, 1.0D, 'merged')")
            next_id += n
    return statements


def spark_session():
    from pyspark.sql import SparkSession

    minor = ".".join(__import__("pyspark").__version__.split(".")[:2])
    delta = importlib.metadata.version("delta-spark")
    folder = os.environ.get("PARLEY_SPARK_JARS") or os.path.join(
        bc.CACHE, "jars", f"delta-spark_{minor}_2.13-{delta}")
    jars = sorted(glob.glob(os.path.join(folder, "*.jar")))
    if not jars:
        sys.exit(f"delta_changelog.py: no delta-spark jars in {folder}: run "
                 "scripts/fetch_spark_jars.sh")
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    session = (
        SparkSession.builder.master("local[2]").appName("parley-changelog-bench")
        .config("spark.jars", ",".join(jars))
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog",
                "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .config("spark.databricks.delta.changelogV2.enabled", "true")
        .config("spark.driver.memory", "4g")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    return session


def write_table(spark, path):
    """Spark writes the table and its 20 commits; returns the last version."""
    t = f"delta.`{path}`"
    spark.sql(f"CREATE TABLE {t} (id BIGINT, grp INT, v DOUBLE, s STRING) USING delta "
              f"TBLPROPERTIES ('delta.enableRowTracking' = 'true', "
              f"'delta.enableDeletionVectors' = 'false')").collect()
    spark.sql(f"INSERT INTO {t} SELECT id, CAST(id % 100 AS INT), id * 0.5D, "
              f"concat('s', id % 1000) FROM range(0, {ROWS}, 1, 20)").collect()
    for i, statement in enumerate(history()):
        bc.log(f"commit {i + 2}/{COMMITS + 1}: {statement[:70]}...")
        spark.sql(statement.format(t=t)).collect()
    return spark.sql(f"DESCRIBE HISTORY {t}").agg({"version": "max"}).collect()[0][0]


def copy_parley(build_dir, scratch):
    bin_dir = os.path.join(scratch, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    for name in ("parley", "libparley_connector.so"):
        shutil.copy2(os.path.join(build_dir, name), os.path.join(bin_dir, name))
    return os.path.join(bin_dir, "parley")


def canonical(rows):
    """Result rows as comparable tuples (floats rounded to 6 significant digits)."""
    out = []
    for row in rows:
        out.append(tuple(float(f"{float(v):.6g}") if isinstance(v, float) or (
            isinstance(v, str) and v.replace(".", "", 1).replace("-", "", 1).replace(
                "E", "", 1).isdigit() and "." in v) else str(v) for v in row))
    return sorted(out)


def parley_runs(binary, scratch, path, end, runs, warmup):
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.dirname(binary))
    shell = bc.ParleyRepl(binary, ["--warehouse", os.path.join(scratch, "warehouse"),
                                   "--output", "csv"], cwd=scratch, home=scratch, env=env)
    times, rows = [], None
    try:
        shell.run(f"CREATE TABLE IF NOT EXISTS bench_changes USING delta LOCATION '{path}'")
        for r in range(warmup + runs):
            with bc.OtherLoad() as load:
                elapsed, output = shell.run(QUERY.format(table="bench_changes", end=end))
            if r >= warmup:
                times.append({"s": elapsed, "other_cores": load.cores})
            lines = [line for line in output.strip().splitlines() if line.strip()]
            rows = [line.split(",") for line in lines[1:]]
    finally:
        shell.close()
    return times, rows


def spark_runs(spark, path, end, runs, warmup):
    spark.sql(f"CREATE TABLE IF NOT EXISTS bench_changes USING delta LOCATION '{path}'")
    times, rows = [], None
    for r in range(warmup + runs):
        with bc.OtherLoad() as load:
            start = time.perf_counter()
            result = spark.sql(QUERY.format(table="bench_changes", end=end)).collect()
            elapsed = time.perf_counter() - start
        if r >= warmup:
            times.append({"s": elapsed, "other_cores": load.cores})
        rows = [list(row) for row in result]
    return times, rows


def main():
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--build-dir", default=os.path.join(bc.ROOT, "build"))
    parser.add_argument("--scratch-dir", help="where the table is written (and reused on the "
                        "next run); default: a temporary directory, removed at the end")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per engine (median)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed runs first")
    parser.add_argument("--json", help="also write every measurement to this file")
    parser.add_argument("--parley-only", action="store_true",
                        help="time Parley alone (Spark still writes a missing table)")
    args = parser.parse_args()

    build_dir = os.path.abspath(args.build_dir)
    scratch = os.path.abspath(args.scratch_dir) if args.scratch_dir else tempfile.mkdtemp(
        prefix="parley-changelog-bench.")
    os.makedirs(scratch, exist_ok=True)
    path = os.path.join(scratch, "table")
    report = {"load_before": bc.warn_if_loaded()}
    binary = copy_parley(build_dir, scratch)
    written = os.path.exists(os.path.join(path, "_delta_log"))
    spark = None if written and args.parley_only else spark_session()
    try:
        if not written:
            bc.log(f"Spark writes the table into {path}")
            write_table(spark, path)
        end = max(int(name[:20]) for name in os.listdir(os.path.join(path, "_delta_log"))
                  if name.endswith(".json") and name[:20].isdigit())
        report["end_version"] = end
        bc.log("Parley runs")
        report["parley"], parley_rows = parley_runs(binary, scratch, path, end, args.runs,
                                                    args.warmup)
        if not args.parley_only:
            bc.log("Spark runs")
            report["spark"], spark_rows = spark_runs(spark, path, end, args.runs, args.warmup)
    finally:
        if spark is not None:
            spark.stop()
        if not args.scratch_dir:
            shutil.rmtree(scratch, ignore_errors=True)
    parley_s = statistics.median(t["s"] for t in report["parley"])
    if args.parley_only:
        runs = ", ".join(f"{t['s']:.3f}" for t in report["parley"])
        print(f"Parley median {parley_s:.3f} s, runs {runs}; result rows: {parley_rows}")
        return 0
    report["parley_rows"], report["spark_rows"] = parley_rows, spark_rows
    if canonical(parley_rows) != canonical(spark_rows):
        sys.exit(f"delta_changelog.py: results differ:\nParley {parley_rows}\nSpark  {spark_rows}")
    spark_s = statistics.median(t["s"] for t in report["spark"])
    report["ratio"] = spark_s / parley_s
    print(bc.markdown_table(
        ["engine", "median s", "runs (s)", "other processes' cores"],
        [["Parley", f"{parley_s:.3f}", ", ".join(f"{t['s']:.3f}" for t in report["parley"]),
          ", ".join(f"{t['other_cores']:.2f}" for t in report["parley"])],
         ["Spark + delta-spark local[2]", f"{spark_s:.3f}",
          ", ".join(f"{t['s']:.3f}" for t in report["spark"]),
          ", ".join(f"{t['other_cores']:.2f}" for t in report["spark"])]]))
    print(f"\nSpark / Parley: {report['ratio']:.1f}x (target >= {TARGET:.0f}x); "
          f"result rows: {parley_rows}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
