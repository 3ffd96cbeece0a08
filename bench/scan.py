#!/usr/bin/env python3
"""Scan benchmark: Parley against DuckDB and pyarrow.dataset on TPC-H lineitem SF1 Parquet.

    python3 bench/scan.py [--build-dir build] [--runs 5] [--explain] [--json out.json]

What it does, in order (see docs/performance.md):
  1. Creates (once) a Python environment with bench/requirements.txt under
     ${PARLEY_CACHE:-~/.cache/parley}/bench-venv-<hash> and re-runs itself inside it.
  2. Generates (once) lineitem at scale factor 1 as Parquet with tpchgen-cli into
     ${PARLEY_CACHE:-~/.cache/parley}/tpch-sf1/lineitem/ (4 files, 7 MiB row groups, Snappy).
  3. Runs TPC-H Q1, Q6 and a point filter (l_orderkey = k) in three processes, one after the
     other: <build-dir>/parley_bench_scan (brought up to date with ninja), DuckDB, and pyarrow's
     dataset scanner. Each engine does one untimed warm-up run then --runs timed runs per query;
     the table shows medians. The OS page cache is warm for every engine.
  4. Checks that Parley's (and pyarrow's) results agree with DuckDB's (numbers within 1e-6
     relative) and prints a warning when they do not.
  5. Prints a Markdown table: median times, Parley/DuckDB, and the bytes Parley read (EXPLAIN
     ANALYZE's "Bytes read") against the minimum: the compressed size of the needed columns'
     chunks in the row groups whose min/max statistics allow a match.

Nothing here is a test; `make test` never runs it.
"""

import argparse
import datetime
import decimal
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_common import (  # noqa: E402
    CACHE, Q1, Q6, ROOT, compare_tables, ensure_data, ensure_venv, log, markdown_table,
    parquet_files, warn_if_loaded)

# Targets from the read-path issue, on a 2-core machine.
TIME_TARGETS = {"Q1": 2.0, "Q6": 1.5}  # Parley / DuckDB, at most
BYTES_TARGETS = {"point": 1.2}  # Parley bytes read / minimum, at most

POINT = "SELECT * FROM {table} WHERE l_orderkey = {key}"

LINEITEM_COLUMNS = [
    "l_orderkey", "l_partkey", "l_suppkey", "l_linenumber", "l_quantity", "l_extendedprice",
    "l_discount", "l_tax", "l_returnflag", "l_linestatus", "l_shipdate", "l_commitdate",
    "l_receiptdate", "l_shipinstruct", "l_shipmode", "l_comment"]

# The columns each query needs, for the minimum-bytes computation.
NEEDED_COLUMNS = {
    "Q1": ["l_returnflag", "l_linestatus", "l_quantity", "l_extendedprice", "l_discount",
           "l_tax", "l_shipdate"],
    "Q6": ["l_shipdate", "l_discount", "l_quantity", "l_extendedprice"],
    "point": LINEITEM_COLUMNS,
}


def middle_orderkey(files):
    """An l_orderkey that exists: the middle row of the middle row group of the middle file."""
    import pyarrow.parquet as pq
    f = pq.ParquetFile(files[len(files) // 2])
    group = f.metadata.num_row_groups // 2
    keys = f.read_row_group(group, columns=["l_orderkey"]).column(0)
    return keys[len(keys) // 2].as_py()


def queries(key):
    return {"Q1": Q1, "Q6": Q6, "point": POINT.replace("{key}", str(key))}


# ---------------------------------------------------------------------------------------------
# Minimum bytes: the needed column chunks of the row groups that can match


def _can_match(name, stats, key):
    """Whether a row group can hold matching rows, from its min/max statistics by column."""
    def rng(column):
        s = stats.get(column)
        return (s.min, s.max) if s is not None and s.has_min_max else (None, None)

    if name == "Q1":
        lo, _ = rng("l_shipdate")
        return lo is None or lo <= datetime.date(1998, 9, 2)
    if name == "Q6":
        lo, hi = rng("l_shipdate")
        if lo is not None and (hi < datetime.date(1994, 1, 1) or lo >= datetime.date(1995, 1, 1)):
            return False
        lo, hi = rng("l_discount")
        if lo is not None and (hi < decimal.Decimal("0.05") or lo > decimal.Decimal("0.07")):
            return False
        lo, _ = rng("l_quantity")
        return lo is None or lo < 24
    lo, hi = rng("l_orderkey")
    return lo is None or lo <= key <= hi


def minimum_bytes(files, key):
    import pyarrow.parquet as pq
    result = {}
    for name, needed in NEEDED_COLUMNS.items():
        total = groups = matching = 0
        for path in files:
            meta = pq.ParquetFile(path).metadata
            for g in range(meta.num_row_groups):
                rg = meta.row_group(g)
                chunks = {rg.column(c).path_in_schema: rg.column(c)
                          for c in range(rg.num_columns)}
                groups += 1
                if not _can_match(name, {n: c.statistics for n, c in chunks.items()}, key):
                    continue
                matching += 1
                total += sum(chunks[c].total_compressed_size for c in needed)
        result[name] = {"bytes": total, "row_groups": groups, "matching_row_groups": matching}
    return result


# ---------------------------------------------------------------------------------------------
# Engines. Each runs in its own process (this script with --engine), one after the other.


def run_duckdb(qs, lineitem, runs, warmup, results_dir):
    import duckdb
    import pyarrow.feather as feather
    con = duckdb.connect()
    table = f"read_parquet('{lineitem}/*.parquet')"
    out = {"version": duckdb.__version__,
           "threads": con.execute("SELECT current_setting('threads')").fetchone()[0]}
    for i, (name, q) in enumerate(qs.items()):
        sql = q.replace("{table}", table)
        times = []
        for r in range(warmup + runs):
            start = time.perf_counter()
            result = con.execute(sql).to_arrow_table()
            elapsed = (time.perf_counter() - start) * 1000
            if r >= warmup:
                times.append(elapsed)
        feather.write_feather(result, os.path.join(results_dir, f"query_{i}.arrow"),
                              compression="uncompressed")
        out[name] = {"times_ms": times, "median_ms": statistics.median(times),
                     "rows": result.num_rows}
    return out


def _pyarrow_q1(dataset):
    import pyarrow as pa
    import pyarrow.compute as pc
    f = pc.field
    one = pc.scalar(pa.scalar(decimal.Decimal(1), pa.decimal128(15, 2)))
    disc_price = f("l_extendedprice") * (one - f("l_discount"))
    # The exact charge would need decimal precision 49 (> 38): compute it in float64.
    charge = disc_price.cast(pa.float64()) * (one + f("l_tax")).cast(pa.float64())
    t = dataset.to_table(
        columns={"l_returnflag": f("l_returnflag"), "l_linestatus": f("l_linestatus"),
                 "l_quantity": f("l_quantity"), "l_extendedprice": f("l_extendedprice"),
                 "l_discount": f("l_discount"), "disc_price": disc_price,
                 "charge": charge,
                 # pyarrow's decimal mean keeps the input's scale (25.52); SQL's avg does not.
                 "quantity_f": f("l_quantity").cast(pa.float64()),
                 "price_f": f("l_extendedprice").cast(pa.float64()),
                 "discount_f": f("l_discount").cast(pa.float64())},
        filter=f("l_shipdate") <= pc.scalar(pa.scalar(datetime.date(1998, 9, 2), pa.date32())))
    agg = t.group_by(["l_returnflag", "l_linestatus"]).aggregate([
        ("l_quantity", "sum"), ("l_extendedprice", "sum"), ("disc_price", "sum"),
        ("charge", "sum"), ("quantity_f", "mean"), ("price_f", "mean"), ("discount_f", "mean"),
        ("l_returnflag", "count")])
    return agg.sort_by([("l_returnflag", "ascending"), ("l_linestatus", "ascending")])


def _pyarrow_q6(dataset):
    import pyarrow as pa
    import pyarrow.compute as pc
    f = pc.field
    dec = lambda text: pc.scalar(pa.scalar(decimal.Decimal(text), pa.decimal128(15, 2)))  # noqa
    t = dataset.to_table(
        columns={"revenue": f("l_extendedprice") * f("l_discount")},
        filter=((f("l_shipdate") >= pc.scalar(datetime.date(1994, 1, 1)))
                & (f("l_shipdate") < pc.scalar(datetime.date(1995, 1, 1)))
                & (f("l_discount") >= dec("0.05")) & (f("l_discount") <= dec("0.07"))
                & (f("l_quantity") < dec("24"))))
    return pa.table({"revenue": [pc.sum(t.column("revenue")).as_py()]})


def run_pyarrow(qs, lineitem, runs, warmup, results_dir, key):
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.dataset as ds
    import pyarrow.feather as feather
    bodies = {
        "Q1": lambda d: _pyarrow_q1(d),
        "Q6": lambda d: _pyarrow_q6(d),
        "point": lambda d: d.to_table(filter=pc.field("l_orderkey") == key),
    }
    # tpchgen writes string_view columns (in the Arrow schema it stores); pyarrow's compute has
    # no filter kernel for string_view yet, so read them as string.
    schema = ds.dataset(lineitem, format="parquet").schema
    schema = pa.schema([pa.field(f.name, pa.string() if f.type == pa.string_view() else f.type,
                                 f.nullable) for f in schema])
    out = {"version": pa.__version__, "threads": pa.cpu_count()}
    for i, name in enumerate(qs):
        times = []
        for r in range(warmup + runs):
            start = time.perf_counter()
            # Opening the dataset (listing, footers) is part of the query, as in the SQL engines.
            result = bodies[name](ds.dataset(lineitem, format="parquet", schema=schema))
            elapsed = (time.perf_counter() - start) * 1000
            if r >= warmup:
                times.append(elapsed)
        feather.write_feather(result, os.path.join(results_dir, f"query_{i}.arrow"),
                              compression="uncompressed")
        out[name] = {"times_ms": times, "median_ms": statistics.median(times),
                     "rows": result.num_rows}
    return out


def run_parley(binary, qs, lineitem, runs, warmup, results_dir, timeout, env):
    """Run each query in its own parley_bench_scan process (so that one failing or hanging
    query does not lose the others); its result goes to <results_dir>/query_<i>.arrow."""
    table = f"parquet.`{lineitem}`"
    out = {}
    for i, (name, q) in enumerate(qs.items()):
        query_dir = os.path.join(results_dir, name)
        os.makedirs(query_dir)
        args = [binary, "--runs", str(runs), "--warmup", str(warmup), "--results-dir", query_dir,
                q.replace("{table}", table)]
        # A scratch working directory: the Session's default warehouse is ./warehouse.
        with tempfile.TemporaryDirectory(prefix="parley-bench.") as cwd:
            try:
                proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True,
                                      timeout=timeout, env=env)
            except subprocess.TimeoutExpired:
                out[name] = {"error": f"timed out after {timeout} s (hang?)"}
                continue
        if proc.returncode != 0:
            out[name] = {"error": f"exit status {proc.returncode}: {proc.stderr.strip()[-2000:]}"}
            continue
        out[name] = json.loads(proc.stdout)["queries"][0]
        result = os.path.join(query_dir, "query_0.arrow")
        if os.path.exists(result):
            os.rename(result, os.path.join(results_dir, f"query_{i}.arrow"))
    return out


def engine_main(args):
    """The --engine child: run one peer and print its JSON report."""
    qs = json.loads(args.queries_json)
    if args.engine == "duckdb":
        report = run_duckdb(qs, args.lineitem, args.runs, args.warmup, args.results_dir)
    else:
        report = run_pyarrow(qs, args.lineitem, args.runs, args.warmup, args.results_dir,
                             args.key)
    print(json.dumps(report))


def run_peer(engine, qs, lineitem, runs, warmup, results_dir, key):
    proc = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--engine", engine, "--lineitem", lineitem,
         "--runs", str(runs), "--warmup", str(warmup), "--results-dir", results_dir,
         "--key", str(key), "--queries-json", json.dumps(qs)],
        capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{engine} failed: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


# ---------------------------------------------------------------------------------------------
# Result comparison


def check_results(engine, engine_dir, duck_dir, names):
    """Compare an engine's results with DuckDB's: a summary such as "agree on Q6; no result
    for Q1, point", with a warning printed for each disagreement."""
    import pyarrow.feather as feather
    agree, disagree, missing = [], [], []
    for i, name in enumerate(names):
        path = os.path.join(engine_dir, f"query_{i}.arrow")
        if not os.path.exists(path):
            missing.append(name)
            continue
        problems = compare_tables(feather.read_table(path),
                                  feather.read_table(os.path.join(duck_dir, f"query_{i}.arrow")),
                                  ordered=name != "point")
        (disagree if problems else agree).append(name)
        if problems:
            log(f"WARNING: {engine} and DuckDB disagree on {name}:")
            for p in problems[:10]:
                log(f"  {p}")
    parts = [f"{label} {', '.join(group)}" for label, group in
             (("agree on", agree), ("DISAGREE on", disagree), ("no result for", missing))
             if group]
    return "; ".join(parts)


# ---------------------------------------------------------------------------------------------
# Report


def _ms(value):
    return "n/a" if value is None else f"{value:.1f}"


def _ratio(a, b):
    return None if a is None or b in (None, 0) else a / b


def _fmt_ratio(value, target=None):
    if value is None:
        return "n/a"
    text = f"{value:.2f}x"
    if target is not None:
        text += " ok" if value <= target else f" MISS (target <= {target}x)"
    return text


def table_rows(names, parley, duck, pyarrow_, minimum):
    rows = []
    for name in names:
        p = parley.get(name, {})
        p_ms = p.get("median_ms") if not p.get("error") else None
        d_ms = duck[name]["median_ms"]
        bytes_read = sum(p["bytes_read"]) if p.get("bytes_read") else None
        rows.append([
            name, "error" if p.get("error") else _ms(p_ms), _ms(d_ms),
            _ms(pyarrow_[name]["median_ms"]),
            _fmt_ratio(_ratio(p_ms, d_ms), TIME_TARGETS.get(name)),
            "n/a" if bytes_read is None else f"{bytes_read:,}",
            f"{minimum[name]['bytes']:,}",
            _fmt_ratio(_ratio(bytes_read, minimum[name]["bytes"]), BYTES_TARGETS.get(name)),
        ])
    return rows


HEADER = ["query", "Parley ms", "DuckDB ms", "pyarrow ms", "Parley/DuckDB",
          "Parley bytes read", "minimum bytes", "bytes ratio"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"),
                        help="the Ninja build whose parley_bench_scan to build and run")
    parser.add_argument("--no-build", action="store_true",
                        help="run <build-dir>/parley_bench_scan as it is")
    parser.add_argument("--data-dir", default=os.path.join(CACHE, "tpch-sf1"))
    parser.add_argument("--runs", type=int, default=5, help="timed runs per query (median)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed runs first")
    parser.add_argument("--key", type=int, help="l_orderkey for the point filter")
    parser.add_argument("--explain", action="store_true",
                        help="print Parley's EXPLAIN ANALYZE output")
    parser.add_argument("--json", help="also write every measurement to this file")
    parser.add_argument("--timeout", type=float, default=900,
                        help="seconds allowed per Parley query process (all its runs)")
    parser.add_argument("--arrow-threads", type=int,
                        help="OMP_NUM_THREADS for Parley's process: the size of Arrow's CPU "
                             "pool (default: the number of cores)")
    # Internal: run one peer engine in a child process.
    parser.add_argument("--engine", choices=["duckdb", "pyarrow"], help=argparse.SUPPRESS)
    parser.add_argument("--lineitem", help=argparse.SUPPRESS)
    parser.add_argument("--results-dir", help=argparse.SUPPRESS)
    parser.add_argument("--queries-json", help=argparse.SUPPRESS)
    args = parser.parse_args()

    ensure_venv(__file__)
    if args.engine:
        return engine_main(args)

    lineitem = ensure_data(os.path.abspath(args.data_dir))
    files = parquet_files(lineitem)
    key = args.key if args.key is not None else middle_orderkey(files)
    qs = queries(key)
    names = list(qs)

    build_dir = os.path.abspath(args.build_dir)
    binary = os.path.join(build_dir, "parley_bench_scan")
    if not args.no_build:
        if not os.path.exists(os.path.join(build_dir, "build.ninja")):
            sys.exit(f"scan.py: {build_dir} is not a configured build; run `make build` (or "
                     f"cmake -S . -B {args.build_dir} -G Ninja) first, or pass --build-dir")
        # Incremental: a no-op when the binary is up to date.
        build = subprocess.run(["ninja", "-C", build_dir, "parley_bench_scan"], stdout=sys.stderr)
        if build.returncode != 0:
            sys.exit("scan.py: building parley_bench_scan failed; see the compiler output above")
    if not os.path.exists(binary):
        sys.exit(f"scan.py: {binary} does not exist")

    minimum = minimum_bytes(files, key)
    load_before = warn_if_loaded()
    with tempfile.TemporaryDirectory(prefix="parley-scan-bench.") as tmp:
        dirs = {e: os.path.join(tmp, e) for e in ("parley", "duckdb", "pyarrow")}
        for d in dirs.values():
            os.makedirs(d)
        log(f"running Parley ({binary})")
        env = dict(os.environ)
        if args.arrow_threads:
            env["OMP_NUM_THREADS"] = str(args.arrow_threads)
        parley = run_parley(binary, qs, lineitem, args.runs, args.warmup, dirs["parley"],
                            args.timeout, env)
        log("running DuckDB")
        duck = run_peer("duckdb", qs, lineitem, args.runs, args.warmup, dirs["duckdb"], key)
        log("running pyarrow.dataset")
        pyarrow_ = run_peer("pyarrow", qs, lineitem, args.runs, args.warmup, dirs["pyarrow"],
                            key)
        parley_check = check_results("Parley", dirs["parley"], dirs["duckdb"], names)
        pyarrow_check = check_results("pyarrow", dirs["pyarrow"], dirs["duckdb"], names)

    for name in names:
        p = parley[name]
        if p.get("error"):
            log(f"WARNING: Parley failed on {name}: {p['error']}")
        elif not p.get("bytes_read"):
            log(f"note: no 'Bytes read' from Parley's EXPLAIN ANALYZE for {name}"
                f" ({p.get('explain_error') or 'no such line in the output'})")

    rows = table_rows(names, parley, duck, pyarrow_, minimum)
    print(f"TPC-H lineitem SF1 ({len(files)} Parquet files, "
          f"{sum(os.path.getsize(f) for f in files):,} bytes), point key l_orderkey = {key}; "
          f"median of {args.runs} after {args.warmup} warm-up; {os.cpu_count()} cores; "
          f"DuckDB {duck['version']} ({duck['threads']} threads), "
          f"pyarrow {pyarrow_['version']}; load average {load_before:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after")
    print()
    print(markdown_table(HEADER, rows))
    print()
    print("minimum bytes = compressed size of the needed columns' chunks in the row groups "
          "whose statistics allow a match: " + ", ".join(
              f"{n} {m['matching_row_groups']}/{m['row_groups']} row groups"
              for n, m in minimum.items()))
    print(f"results against DuckDB's: Parley {parley_check}; pyarrow {pyarrow_check}")
    if args.explain:
        for name in names:
            print(f"\n--- Parley {parley[name].get('explain_statement') or 'EXPLAIN ANALYZE'}"
                  f" ({name})\n{parley[name].get('explain') or parley[name].get('explain_error') or parley[name].get('error')}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"key": key, "files": files, "minimum": minimum, "parley": parley,
                       "duckdb": duck, "pyarrow": pyarrow_, "rows": rows}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
