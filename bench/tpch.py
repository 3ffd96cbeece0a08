#!/usr/bin/env python3
"""TPC-H benchmark: the 22 queries on Parley and DuckDB over the same Parquet files.

    python3 bench/tpch.py [--scale 1] [--runs 3] [--build-dir build] [--queries 1,6,...]
                          [--conf KEY=VALUE]...

What it does, in order (see docs/performance.md):
  1. Creates (once) the bench Python environment (bench/requirements.txt) and re-runs itself
     inside it (bench_common.ensure_venv).
  2. Generates (once) the eight TPC-H tables at --scale as Parquet with tpchgen-cli and loads
     them into a Parley warehouse as Delta tables (CTAS), under
     ${PARLEY_CACHE:-~/.cache/parley}/tpch-sf<scale>-warehouse/.
  3. Runs the query texts of tests/interop/tpch/ (the standard queries with the usual
     parameters, one dialect for both engines): Parley through <build-dir>/parley_bench_scan
     (one embedded Session per query, on that warehouse), then DuckDB over views of the Delta
     tables' own Parquet files, so both read the same bytes. Each engine does one untimed run
     then --runs timed runs per query; the table shows medians.
  4. Checks that Parley's results agree with DuckDB's (numbers within 1e-6 relative; where
     Parley, as Spark, returns a decimal average or quotient and DuckDB a double, the double is
     first rounded to the decimal's scale).
  5. Prints a Markdown table: median times, Parley/DuckDB per query, their geometric mean
     (target from the query-language issue: at most 2x on 2 cores) and the five worst ratios.

Nothing here is a test; `make test` never runs it.
"""

import argparse
import glob
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_common import (  # noqa: E402
    CACHE, ROOT, compare_tables, ensure_venv, log, markdown_table, warn_if_loaded)

QUERIES_DIR = os.path.join(ROOT, "tests", "interop", "tpch")
TABLES = ["nation", "region", "part", "supplier", "partsupp", "customer", "orders", "lineitem"]
GEOMEAN_TARGET = 2.0  # Parley / DuckDB, at most


def ensure_warehouse(scale, parley_cli, rebuild):
    """The directory holding `warehouse/` with the eight tables as Delta tables."""
    root = os.path.join(CACHE, f"tpch-sf{scale}-warehouse")
    marker = os.path.join(root, ".complete")
    if os.path.exists(marker) and not rebuild:
        return root
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    with tempfile.TemporaryDirectory(prefix=".tpch-data.", dir=root) as data:
        log(f"generating TPC-H SF{scale} Parquet into {data}")
        tpchgen = os.path.join(os.path.dirname(sys.executable), "tpchgen-cli")
        subprocess.run([tpchgen, "parquet", "--scale-factor", str(scale), "--no-progress",
                        "--output-dir", data], check=True)
        log(f"loading it into Parley's warehouse {root}/warehouse (CTAS into Delta)")
        script = "; ".join(f"CREATE TABLE {t} AS SELECT * FROM parquet.`{data}/{t}.parquet`"
                           for t in TABLES)
        subprocess.run([parley_cli, "--warehouse", os.path.join(root, "warehouse"), "-c", script],
                       check=True, stdout=subprocess.DEVNULL)
    open(marker, "w").close()
    return root


def table_files(root, table):
    return sorted(glob.glob(os.path.join(root, "warehouse", "default", table, "*.parquet")))


def run_parley(binary, root, names, texts, runs, timeout, results_dir, conf):
    """Each query in its own parley_bench_scan process (cwd: the warehouse's parent, so that
    the Session's default ./warehouse is it)."""
    out = {}
    for name in names:
        query_dir = os.path.join(results_dir, name)
        os.makedirs(query_dir)
        args = [binary, "--runs", str(runs), "--warmup", "1", "--no-explain",
                "--results-dir", query_dir]
        for setting in conf:
            args += ["--conf", setting]
        args.append(texts[name])
        try:
            proc = subprocess.run(args, cwd=root, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            out[name] = {"error": f"timed out after {timeout} s"}
            log(f"Parley {name}: timed out")
            continue
        if proc.returncode != 0:
            out[name] = {"error": f"exit status {proc.returncode}: {proc.stderr.strip()[-500:]}"}
            continue
        report = json.loads(proc.stdout)["queries"][0]
        out[name] = report
        log(f"Parley {name}: {report.get('median_ms', report.get('error'))}")
    return out


def run_duckdb(root, names, texts, runs, results_dir):
    import duckdb
    import pyarrow.feather as feather
    connection = duckdb.connect()
    for table in TABLES:
        files = ", ".join(f"'{f}'" for f in table_files(root, table))
        connection.sql(f"CREATE VIEW {table} AS SELECT * FROM read_parquet([{files}])")
    out = {"version": duckdb.__version__,
           "threads": connection.sql("SELECT current_setting('threads')").fetchall()[0][0]}
    for name in names:
        times = []
        for run in range(runs + 1):
            start = time.perf_counter()
            result = connection.sql(texts[name]).to_arrow_table()
            if run > 0:
                times.append((time.perf_counter() - start) * 1000)
        feather.write_feather(result, os.path.join(results_dir, f"{name}.arrow"),
                              compression="uncompressed")
        out[name] = {"median_ms": statistics.median(times), "times_ms": times}
        log(f"DuckDB {name}: {out[name]['median_ms']:.1f}")
    return out


def as_parley_types(theirs, ours):
    """DuckDB's result with each double column that Parley (as Spark) types as a decimal -- an
    average or quotient of decimals -- rounded half up to that decimal's scale."""
    import pyarrow as pa
    import pyarrow.compute as pc
    columns = []
    for mine, column in zip(ours.schema, theirs.columns):
        if pa.types.is_decimal(mine.type) and pa.types.is_floating(column.type):
            rounded = pc.round(column, ndigits=mine.type.scale, round_mode="half_up")
            column = pc.cast(rounded, pa.decimal128(38, mine.type.scale))
        columns.append(column)
    return pa.table(columns, names=theirs.column_names)


def check(name, parley_dir, duck_dir):
    import pyarrow.feather as feather
    ours = os.path.join(parley_dir, name, "query_0.arrow")
    if not os.path.exists(ours):
        return "no result"
    ours = feather.read_table(ours)
    theirs = feather.read_table(os.path.join(duck_dir, f"{name}.arrow"))
    if ours.num_columns == theirs.num_columns:
        theirs = as_parley_types(theirs, ours)
    problems = compare_tables(ours, theirs, ordered=True)
    for problem in problems[:5]:
        log(f"WARNING: {name} differs from DuckDB: {problem}")
    return "DIFFERS" if problems else "agrees"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--scale", default="1", help="TPC-H scale factor")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per query (median)")
    parser.add_argument("--queries", help="comma-separated query numbers (default: all 22)")
    parser.add_argument("--timeout", type=float, default=1800,
                        help="seconds allowed per Parley query process (all its runs)")
    parser.add_argument("--rebuild-warehouse", action="store_true",
                        help="generate the data and load the warehouse again")
    parser.add_argument("--json", help="also write every measurement to this file")
    parser.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                        help="a Parley session setting, e.g. "
                             "parley.sql.optimizer.runtimeFilter.enabled=false (repeatable)")
    args = parser.parse_args()
    ensure_venv(__file__)

    build_dir = os.path.abspath(args.build_dir)
    if subprocess.run(["ninja", "-C", build_dir, "parley_bench_scan", "parley_cli"],
                      stdout=sys.stderr).returncode != 0:
        sys.exit("tpch.py: building parley_bench_scan and parley failed")
    numbers = ([int(n) for n in args.queries.split(",")] if args.queries else range(1, 23))
    names = [f"Q{n}" for n in numbers]
    texts = {f"Q{n}": open(os.path.join(QUERIES_DIR, f"q{n:02d}.sql")).read() for n in numbers}
    root = ensure_warehouse(args.scale, os.path.join(build_dir, "parley"),
                            args.rebuild_warehouse)

    load_before = warn_if_loaded()
    with tempfile.TemporaryDirectory(prefix="parley-tpch-bench.") as tmp:
        parley_dir, duck_dir = os.path.join(tmp, "parley"), os.path.join(tmp, "duckdb")
        os.makedirs(parley_dir)
        os.makedirs(duck_dir)
        log("running Parley")
        parley = run_parley(os.path.join(build_dir, "parley_bench_scan"), root, names, texts,
                            args.runs, args.timeout, parley_dir, args.conf)
        log("running DuckDB")
        duck = run_duckdb(root, names, texts, args.runs, duck_dir)
        checks = {name: check(name, parley_dir, duck_dir) for name in names}

    rows, ratios = [], {}
    for name in names:
        ours = parley[name].get("median_ms")
        theirs = duck[name]["median_ms"]
        if ours is not None:
            ratios[name] = ours / theirs
        rows.append([name, "n/a" if ours is None else f"{ours:.1f}", f"{theirs:.1f}",
                     "n/a" if ours is None else f"{ours / theirs:.2f}x",
                     (parley[name].get("error") or checks[name])[:80]])
    geomean = (math.exp(statistics.mean(math.log(r) for r in ratios.values()))
               if ratios else float("nan"))
    verdict = "met" if len(ratios) == len(names) and geomean <= GEOMEAN_TARGET else "MISSED"
    print(f"TPC-H SF{args.scale}, Delta tables written by Parley (DuckDB reads their Parquet "
          f"files); median of {args.runs} after 1 warm-up; {os.cpu_count()} cores; DuckDB "
          f"{duck['version']} ({duck['threads']} threads); load average {load_before:.2f} "
          f"before, {os.getloadavg()[0]:.2f} after")
    print()
    print(markdown_table(["query", "Parley ms", "DuckDB ms", "Parley/DuckDB", "result"], rows))
    print()
    print(f"geometric mean of Parley/DuckDB over {len(ratios)} of {len(names)} queries: "
          f"{geomean:.2f}x ({verdict}: target <= {GEOMEAN_TARGET}x)")
    worst = sorted(ratios, key=ratios.get, reverse=True)[:5]
    print("worst five: " + ", ".join(f"{n} {ratios[n]:.2f}x" for n in worst))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"parley": parley, "duckdb": duck, "checks": checks,
                       "geomean": geomean}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
