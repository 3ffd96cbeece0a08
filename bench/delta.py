#!/usr/bin/env python3
"""Delta write benchmark: Parley against delta-rs writing TPC-H lineitem SF1 into a Delta table,
then TPC-H Q6 on the table: Parley against DuckDB reading the table's Parquet files.

    python3 bench/delta.py [--build-dir build] [--runs 3] [--query-runs 5] [--json out.json]
                           [--phases] [--quiet-wait SECONDS [--quiet-cores 0.2]]

What it does, in order (see docs/performance.md):
  1. Creates (once) the bench Python environment from bench/requirements.txt and re-runs
     itself inside it; generates (once) lineitem SF1 as Parquet (bench_common.py, shared with
     scan.py). Reads the source files once so that the page cache is warm for both writers.
  2. Writes the whole of lineitem into a fresh Delta table --runs times per writer, the two
     writers taking turns (Parley, delta-rs, Parley, ...), each run in a new process:
       - Parley: <build-dir>/parley runs
             CREATE TABLE delta.`<dir>` USING delta AS SELECT * FROM parquet.`<lineitem>`
         in its interactive shell on a pseudo-terminal; the statement is timed from sending
         its line to the next prompt (see ParleyRepl), the process from fork to exit.
       - delta-rs: a Python process runs
             write_deltalake(<dir>, pyarrow.dataset.dataset(<lineitem>).scanner().to_reader())
         timed around those calls (opening the dataset, reading and decoding the Parquet,
         writing the new files, the commit); the process from spawn to exit (so including
         the interpreter's start and the imports of pyarrow and deltalake).
     Reports the median of each and rows/s = 6,001,215 / median statement (call) time.
  3. Checks both last tables through delta-rs (its QueryBuilder): 6,001,215 rows and the same
     fingerprint (sums, min/max and cross-column sums over all 16 columns) as the source
     files read by DuckDB.
  4. Runs Q6 (bench_common.Q6) --query-runs times after one warm-up on each written table:
     Parley ``FROM delta.`<dir>` `` (one shell, each statement timed) and DuckDB
     ``FROM read_parquet('<dir>/*.parquet')`` (one connection), and compares the results.
  5. Prints Markdown tables. Every timed step also records how many cores other processes
     used meanwhile (bench_common.OtherLoad); --quiet-wait waits for a quiet machine first.
     --phases adds a split of the write time (see parley_phases).

Nothing here is a test; `make test` never runs it. It never builds Parley: it copies
<build-dir>/parley (and libparley_connector.so) into its scratch directory and runs the copy,
so that every run uses the same build.
"""

import argparse
import datetime
import decimal
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_common as bc  # noqa: E402

# Targets from the Delta issue, on a 2-core machine.
WRITE_TARGET = 1.0  # Parley rows/s / delta-rs rows/s, at least
Q6_TARGET = 1.5  # Parley / DuckDB time, at most

CTAS = "CREATE TABLE delta.`{target}` USING delta AS SELECT * FROM parquet.`{source}`"

# A fingerprint of lineitem's contents, in SQL that DuckDB and DataFusion (delta-rs's
# QueryBuilder) both run: a sum, min/max or length for every column, plus sums across columns
# that change if values move between rows.
FINGERPRINT = """SELECT count(*) AS n, sum(l_orderkey) AS s_orderkey, sum(l_partkey) AS s_partkey,
  sum(l_suppkey) AS s_suppkey, sum(l_linenumber) AS s_linenumber,
  sum(l_quantity) AS s_quantity, sum(l_extendedprice) AS s_extendedprice,
  sum(l_discount) AS s_discount, sum(l_tax) AS s_tax,
  sum(l_orderkey * l_linenumber) AS s_orderkey_x_linenumber,
  sum(CASE WHEN l_returnflag = 'R' AND l_linestatus = 'F' THEN l_extendedprice ELSE 0 END)
    AS s_price_rf,
  sum(CASE WHEN l_shipdate < l_commitdate AND l_receiptdate > l_commitdate THEN l_partkey
      ELSE 0 END) AS s_partkey_by_dates,
  min(l_shipdate) AS min_shipdate, max(l_shipdate) AS max_shipdate,
  min(l_commitdate) AS min_commitdate, max(l_commitdate) AS max_commitdate,
  min(l_receiptdate) AS min_receiptdate, max(l_receiptdate) AS max_receiptdate,
  min(l_returnflag) AS min_returnflag, max(l_returnflag) AS max_returnflag,
  min(l_linestatus) AS min_linestatus, max(l_linestatus) AS max_linestatus,
  min(l_shipinstruct) AS min_shipinstruct, max(l_shipinstruct) AS max_shipinstruct,
  min(l_shipmode) AS min_shipmode, max(l_shipmode) AS max_shipmode,
  min(l_comment) AS min_comment, max(l_comment) AS max_comment,
  sum(length(l_comment)) AS len_comment,
  sum(CASE WHEN l_shipmode = 'AIR' THEN length(l_shipinstruct) + length(l_comment) ELSE 0 END)
    AS len_air_instruct_comment
FROM {table}"""


# ---------------------------------------------------------------------------------------------
# Child processes (this script with --engine): one peer operation, printing JSON.


def deltars_write(source, target):
    import pyarrow.dataset as ds
    import deltalake
    from deltalake import write_deltalake
    start = time.perf_counter()
    reader = ds.dataset(source, format="parquet").scanner().to_reader()
    write_deltalake(target, reader)
    elapsed = time.perf_counter() - start
    return {"call_s": elapsed, "version": deltalake.__version__}


def duckdb_q6(table_dir, runs, warmup):
    import duckdb
    con = duckdb.connect()
    sql = bc.Q6.replace("{table}", f"read_parquet('{table_dir}/*.parquet')")
    times = []
    for r in range(warmup + runs):
        start = time.perf_counter()
        result = con.execute(sql).to_arrow_table()
        elapsed = time.perf_counter() - start
        if r >= warmup:
            times.append(elapsed * 1000)
    return {"times_ms": times, "median_ms": statistics.median(times),
            "revenue": str(result.column(0)[0].as_py()), "version": duckdb.__version__,
            "threads": con.execute("SELECT current_setting('threads')").fetchone()[0]}


def engine_main(args):
    if args.engine == "delta-rs-write":
        report = deltars_write(args.source, args.target)
    elif args.engine == "pyarrow-read":
        report = pyarrow_read(args.source)
    else:
        report = duckdb_q6(args.target, args.runs, args.warmup)
    print(json.dumps(report))


def run_child(*arguments):
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, os.path.abspath(__file__), *arguments],
                          capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{arguments[1]} failed: {proc.stderr.strip()[-3000:]}")
    return json.loads(proc.stdout), elapsed


# ---------------------------------------------------------------------------------------------
# Parley


def parley_shell(binary, scratch):
    """A parley shell with a scratch warehouse, working directory and HOME."""
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.path.dirname(binary)  # its copy of libparley_connector.so
    return bc.ParleyRepl(binary, ["--warehouse", os.path.join(scratch, "warehouse"),
                                  "--output", "csv"], cwd=scratch, home=scratch, env=env)


def copy_parley(build_dir, scratch):
    """Copy parley and the connector library it loads into <scratch>/bin, so that every run
    uses one build even if <build-dir> is rebuilt meanwhile; return the copy's path."""
    bin_dir = os.path.join(scratch, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    for attempt in range(10):
        for name in ("parley", "libparley_connector.so"):
            shutil.copy2(os.path.join(build_dir, name), os.path.join(bin_dir, name))
        binary = os.path.join(bin_dir, "parley")
        check = subprocess.run([binary, "--output", "csv", "-c", "SELECT 1 AS ok"],
                               capture_output=True, text=True, cwd=scratch,
                               env=dict(os.environ, LD_LIBRARY_PATH=bin_dir))
        if check.returncode == 0 and check.stdout.split() == ["ok", "1"]:
            return binary
        bc.log(f"the copied parley does not run ({check.stderr.strip()[:200]}); being "
               "rebuilt? retrying in 60 s")
        time.sleep(60)
    sys.exit("delta.py: could not get a working copy of parley")


def parley_write(binary, source, target, scratch):
    shell = parley_shell(binary, scratch)
    try:
        statement_s, _ = shell.run(CTAS.format(target=target, source=source))
    finally:
        code, process_s = shell.close()
    if code != 0:
        raise RuntimeError(f"parley exited with status {code}")
    return {"statement_s": statement_s, "process_s": process_s,
            "startup_s": shell.ready - shell.started}


def parley_phases(binary, source, scratch):
    """Where Parley's write time goes, in one shell: the same rows appended to an empty Delta
    table under EXPLAIN ANALYZE (whose "Time" is the write job: the tasks writing the files and
    their statistics, and the commit; the rest of the statement is planning and running the
    scan, whose output the job receives whole), and written as plain Parquet through the
    files connector (no Delta statistics or log)."""
    delta_target = os.path.join(scratch, "phases-delta")
    parquet_target = os.path.join(scratch, "phases-parquet")
    shell = parley_shell(binary, scratch)
    try:
        shell.run(f"CREATE TABLE delta.`{delta_target}` USING delta AS "
                  f"SELECT * FROM parquet.`{source}` LIMIT 0")
        explain_s, output = shell.run(f"EXPLAIN ANALYZE INSERT INTO delta.`{delta_target}` "
                                      f"SELECT * FROM parquet.`{source}`")
        match = re.search(r"Time: ([0-9.]+) ms", output)
        parquet_s, _ = shell.run(f"INSERT INTO parquet.`{parquet_target}` "
                                 f"SELECT * FROM parquet.`{source}`")
    finally:
        shell.close()
    shutil.rmtree(delta_target, ignore_errors=True)
    shutil.rmtree(parquet_target, ignore_errors=True)
    write_job_s = float(match.group(1)) / 1000 if match else None
    return {"explain_insert_s": explain_s, "write_job_s": write_job_s,
            "parquet_insert_s": parquet_s, "explain": output}


def pyarrow_read(source):
    """The read delta-rs's writer consumes, alone: the whole dataset into memory."""
    import pyarrow.dataset as ds
    start = time.perf_counter()
    table = ds.dataset(source, format="parquet").to_table()
    return {"read_s": time.perf_counter() - start, "rows": table.num_rows}


def parley_q6(binary, table_dir, runs, warmup, scratch):
    shell = parley_shell(binary, scratch)
    times, revenue = [], None
    try:
        for r in range(warmup + runs):
            elapsed, output = shell.run(bc.Q6.replace("{table}", f"delta.`{table_dir}`"))
            if r >= warmup:
                times.append(elapsed * 1000)
            lines = output.strip().splitlines()
            if len(lines) != 2 or lines[0].strip() != "revenue":
                raise RuntimeError(f"unexpected Q6 output from Parley: {output!r}")
            revenue = lines[1].strip()
    finally:
        shell.close()
    return {"times_ms": times, "median_ms": statistics.median(times), "revenue": revenue}


# ---------------------------------------------------------------------------------------------
# Checking the written tables


def table_layout(table_dir):
    """Data files, bytes, row groups and codecs of a Delta table's live files, from its log."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from deltalake import DeltaTable
    dt = DeltaTable(table_dir)
    adds = pa.table(dt.get_add_actions(flatten=True))
    paths = [os.path.join(table_dir, p) for p in adds.column("path").to_pylist()]
    row_groups, codecs = 0, set()
    for path in paths:
        meta = pq.ParquetFile(path).metadata
        row_groups += meta.num_row_groups
        for g in range(meta.num_row_groups):
            codecs.update(meta.row_group(g).column(c).compression
                          for c in range(meta.num_columns))
    return {"version": dt.version(), "files": len(paths),
            "bytes": sum(adds.column("size_bytes").to_pylist()),
            "rows_in_log": sum(adds.column("num_records").to_pylist()),
            "row_groups": row_groups, "codecs": sorted(codecs),
            "protocol": [dt.protocol().min_reader_version, dt.protocol().min_writer_version],
            "schema": [(f.name, str(f.type)) for f in dt.schema().fields]}


def deltars_fingerprint(table_dir):
    import pyarrow as pa
    from deltalake import DeltaTable, QueryBuilder
    reader = QueryBuilder().register("t", DeltaTable(table_dir)).execute(
        FINGERPRINT.replace("{table}", "t"))
    return pa.table(reader.read_all()).to_pylist()[0]


def duckdb_fingerprint(source):
    import duckdb
    cursor = duckdb.connect().execute(
        FINGERPRINT.replace("{table}", f"read_parquet('{source}/*.parquet')"))
    return dict(zip([d[0] for d in cursor.description], cursor.fetchone()))


def _canonical(value):
    """Exact comparison across engines: integers and decimals as Decimal, dates as dates."""
    if isinstance(value, (int, decimal.Decimal)) and not isinstance(value, bool):
        return decimal.Decimal(value)
    if isinstance(value, datetime.datetime):
        return value.date()
    return value


def fingerprint_differences(actual, expected):
    problems = []
    for (name, e), a in zip(expected.items(), actual.values()):
        if _canonical(a) != _canonical(e):
            problems.append(f"{name}: {a!r}, expected {e!r}")
    return problems


# ---------------------------------------------------------------------------------------------
# Report


def _median(values):
    return statistics.median(values) if values else None


def _fmt(value, digits=2):
    return "n/a" if value is None else f"{value:.{digits}f}"


def main():
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--build-dir", default=os.path.join(bc.ROOT, "build"),
                        help="the build whose parley program to run (it is not rebuilt; a "
                             "copy is run, so that a rebuild during the run does not mix "
                             "builds)")
    parser.add_argument("--data-dir", default=os.path.join(bc.CACHE, "tpch-sf1"))
    parser.add_argument("--scratch-dir", help="where to write the tables (default: a new "
                        "temporary directory, removed at the end)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the scratch directory and print its path")
    parser.add_argument("--runs", type=int, default=3, help="writes per writer (median)")
    parser.add_argument("--query-runs", type=int, default=5, help="timed Q6 runs (median)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed Q6 runs first")
    parser.add_argument("--skip-write", metavar="PARLEY_TABLE,DELTA_RS_TABLE",
                        help="time only Q6, on these existing tables")
    parser.add_argument("--json", help="also write every measurement to this file")
    parser.add_argument("--phases", action="store_true",
                        help="also split the write time: Parley's EXPLAIN ANALYZE of the same "
                             "INSERT into an empty table (write job vs. the rest), Parley "
                             "writing plain Parquet, pyarrow reading the source alone")
    parser.add_argument("--quiet-wait", type=float, default=0, metavar="SECONDS",
                        help="before each timed step, wait up to this long for other processes "
                             "to use at most --quiet-cores (for shared machines; default: "
                             "do not wait)")
    parser.add_argument("--quiet-cores", type=float, default=0.2,
                        help="see --quiet-wait (default 0.2)")
    # Internal: one peer operation in a child process.
    parser.add_argument("--engine", choices=["delta-rs-write", "pyarrow-read", "duckdb-q6"],
                        help=argparse.SUPPRESS)
    parser.add_argument("--source", help=argparse.SUPPRESS)
    parser.add_argument("--target", help=argparse.SUPPRESS)
    args = parser.parse_args()

    bc.ensure_venv(__file__)
    if args.engine:
        return engine_main(args)

    build_dir = os.path.abspath(args.build_dir)
    if not os.path.exists(os.path.join(build_dir, "parley")):
        sys.exit(f"delta.py: {build_dir}/parley does not exist; build it first (make build)")
    lineitem = bc.ensure_data(os.path.abspath(args.data_dir))
    files = bc.parquet_files(lineitem)
    for path in files:  # warm the page cache for both writers
        with open(path, "rb") as f:
            while f.read(1 << 24):
                pass

    scratch = os.path.abspath(args.scratch_dir) if args.scratch_dir else tempfile.mkdtemp(
        prefix="parley-delta-bench.")
    os.makedirs(scratch, exist_ok=True)
    binary = copy_parley(build_dir, scratch)
    report = {"files": files, "load": {"before": bc.warn_if_loaded()},
              "parley build": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(
                  os.path.getmtime(binary)))}
    try:
        if args.skip_write:
            tables = dict(zip(["parley", "delta-rs"], args.skip_write.split(",")))
        else:
            tables = write_phase(args, binary, lineitem, scratch, report)
            if args.phases:
                phases_phase(args, binary, lineitem, scratch, report)
        check_phase(lineitem, tables, report)
        query_phase(args, binary, lineitem, tables, scratch, report)
    finally:
        if args.keep or args.scratch_dir:
            bc.log(f"tables kept under {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    report["load"]["after"] = os.getloadavg()[0]
    print_report(args, report)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2, default=str)
    return 0


def quiet(args):
    if args.quiet_wait > 0:
        bc.wait_for_quiet(args.quiet_cores, args.quiet_wait)


def write_phase(args, binary, lineitem, scratch, report):
    runs = {"parley": [], "delta-rs": []}
    tables = {}
    for i in range(args.runs):
        for writer in ("parley", "delta-rs"):
            target = os.path.join(scratch, f"{writer}-{i}")
            quiet(args)
            bc.log(f"write run {i + 1}/{args.runs}: {writer} -> {target}")
            with bc.OtherLoad() as load:
                if writer == "parley":
                    run = parley_write(binary, lineitem, target, scratch)
                else:
                    child, process_s = run_child("--engine", "delta-rs-write", "--source",
                                                 lineitem, "--target", target)
                    report["delta-rs version"] = child["version"]
                    run = {"statement_s": child["call_s"], "process_s": process_s}
            run["other_cores"] = load.cores
            layout = table_layout(target)
            run["rows_in_log"] = layout["rows_in_log"]
            if layout["rows_in_log"] != bc.LINEITEM_ROWS:
                bc.log(f"WARNING: {writer} run {i + 1} wrote {layout['rows_in_log']:,} rows "
                       f"(per its log), expected {bc.LINEITEM_ROWS:,}")
            runs[writer].append(run)
            bc.log(f"  statement/call {run['statement_s']:.2f} s, process "
                   f"{run['process_s']:.2f} s; other processes used {load.cores:.2f} cores")
            previous = tables.get(writer)
            tables[writer] = target
            if previous:  # keep only the latest table of each writer
                shutil.rmtree(previous)
    report["write"] = runs
    return tables


def phases_phase(args, binary, lineitem, scratch, report):
    quiet(args)
    bc.log("phases: Parley EXPLAIN ANALYZE INSERT, Parley plain Parquet INSERT")
    with bc.OtherLoad() as load:
        phases = parley_phases(binary, lineitem, scratch)
    phases["other_cores"] = load.cores
    quiet(args)
    bc.log("phases: pyarrow reading the source")
    with bc.OtherLoad() as load:
        read, _ = run_child("--engine", "pyarrow-read", "--source", lineitem)
    phases["pyarrow_read_s"] = read["read_s"]
    phases["pyarrow_other_cores"] = load.cores
    report["phases"] = phases


def check_phase(lineitem, tables, report):
    bc.log("checking the tables through delta-rs")
    expected = duckdb_fingerprint(lineitem)
    report["fingerprint"] = {"source (DuckDB)": expected}
    report["layout"], report["check"] = {}, {}
    for writer, table in tables.items():
        report["layout"][writer] = table_layout(table)
        actual = deltars_fingerprint(table)
        report["fingerprint"][writer] = actual
        problems = fingerprint_differences(actual, expected)
        report["check"][writer] = problems
        for p in problems:
            bc.log(f"WARNING: {writer}'s table differs from the source: {p}")


def query_phase(args, binary, lineitem, tables, scratch, report):
    import duckdb
    report["q6"] = {}
    report["q6 source revenue"] = str(duckdb.connect().execute(bc.Q6.replace(
        "{table}", f"read_parquet('{lineitem}/*.parquet')")).fetchone()[0])
    for writer, table in tables.items():
        quiet(args)
        bc.log(f"Q6 on {writer}'s table: Parley")
        with bc.OtherLoad() as load:
            try:
                parley = parley_q6(binary, table, args.query_runs, args.warmup, scratch)
            except (RuntimeError, bc.ParleyError) as e:
                bc.log(f"WARNING: Parley's Q6 on {writer}'s table failed: {e}")
                parley = {"error": str(e)}
        parley["other_cores"] = load.cores
        quiet(args)
        bc.log(f"Q6 on {writer}'s table: DuckDB")
        with bc.OtherLoad() as load:
            duck, _ = run_child("--engine", "duckdb-q6", "--target", table, "--runs",
                                str(args.query_runs), "--warmup", str(args.warmup))
        duck["other_cores"] = load.cores
        report["duckdb version"] = f"{duck.pop('version')} ({duck.pop('threads')} threads)"
        report["q6"][writer] = {"parley": parley, "duckdb": duck}


def print_report(args, report):
    write = report.get("write")
    layout = report["layout"]
    print(f"TPC-H lineitem SF1 ({bc.LINEITEM_ROWS:,} rows, {len(report['files'])} Parquet files, "
          f"{sum(os.path.getsize(f) for f in report['files']):,} bytes); {os.cpu_count()} cores; "
          f"delta-rs {report.get('delta-rs version', 'n/a')}, DuckDB "
          f"{report.get('duckdb version', 'n/a')}; parley built {report['parley build']}; "
          f"load average "
          f"{report['load']['before']:.2f} before, {report['load']['after']:.2f} after")
    if write:
        print()
        print(f"Write (median of {args.runs}, fresh table each run, writers taking turns):")
        print()
        rows = []
        rates = {}
        for writer, runs in write.items():
            stmt = _median([r["statement_s"] for r in runs])
            proc = _median([r["process_s"] for r in runs])
            rates[writer] = bc.LINEITEM_ROWS / stmt
            lay = layout[writer]
            rows.append([
                "Parley" if writer == "parley" else "delta-rs", _fmt(stmt),
                ", ".join(_fmt(r["statement_s"]) for r in runs), f"{rates[writer]:,.0f}",
                _fmt(proc), f"{bc.LINEITEM_ROWS / proc:,.0f}",
                f"{lay['files']} / {lay['row_groups']}", f"{lay['bytes']:,}",
                ", ".join(_fmt(r["other_cores"]) for r in runs)])
        print(bc.markdown_table(
            ["writer", "statement s", "runs s", "rows/s", "process s", "rows/s (process)",
             "files / row groups", "bytes", "others' cores"], rows))
        ratio = rates["parley"] / rates["delta-rs"]
        verdict = "ok" if ratio >= WRITE_TARGET else f"MISS (target >= {WRITE_TARGET:.1f}x)"
        print()
        print(f"Parley rows/s / delta-rs rows/s: {ratio:.2f}x {verdict}")
    phases = report.get("phases")
    if phases:
        rest = (None if phases["write_job_s"] is None
                else phases["explain_insert_s"] - phases["write_job_s"])
        print()
        print(f"Phases (one run each): Parley EXPLAIN ANALYZE INSERT of the same rows into an "
              f"empty Delta table {_fmt(phases['explain_insert_s'])} s = write job (files, "
              f"statistics, commit) {_fmt(phases['write_job_s'])} s + planning and scan "
              f"{_fmt(rest)} s; Parley INSERT as plain Parquet {_fmt(phases['parquet_insert_s'])}"
              f" s (others' cores {_fmt(phases['other_cores'])}); pyarrow reading the source "
              f"alone {_fmt(phases['pyarrow_read_s'])} s (others' cores "
              f"{_fmt(phases['pyarrow_other_cores'])})")
    print()
    print(f"Q6 (median of {args.query_runs} after {args.warmup} warm-up; Parley FROM "
          "delta.`<table>`, DuckDB FROM read_parquet('<table>/*.parquet')):")
    print()
    rows = []
    reference = report["q6 source revenue"]
    for writer, q in report["q6"].items():
        p, d = q["parley"], q["duckdb"]
        p_ms = p.get("median_ms")
        ratio = p_ms / d["median_ms"] if p_ms else None
        verdict = "" if ratio is None or writer != "parley" else (  # the target: Parley's table
            " ok" if ratio <= Q6_TARGET else f" MISS (target <= {Q6_TARGET}x)")
        same = (p.get("revenue") is not None
                and decimal.Decimal(p["revenue"]) == decimal.Decimal(d["revenue"])
                and decimal.Decimal(d["revenue"]) == decimal.Decimal(reference))
        rows.append([f"{'Parley' if writer == 'parley' else 'delta-rs'}'s table",
                     "error" if p.get("error") else _fmt(p_ms, 1), _fmt(d["median_ms"], 1),
                     "n/a" if ratio is None else f"{ratio:.2f}x{verdict}",
                     p.get("revenue", "n/a"), d["revenue"], "yes" if same else "NO",
                     f"{_fmt(p.get('other_cores'))} / {_fmt(d.get('other_cores'))}"])
    print(bc.markdown_table(["table", "Parley ms", "DuckDB ms", "Parley/DuckDB",
                             "Parley revenue", "DuckDB revenue", "agree",
                             "others' cores"], rows))
    print()
    print(f"agree: both equal DuckDB's Q6 on the source files ({reference}). others' cores: "
          "the CPU other processes on the machine used during each timed step, in cores")
    for writer, lay in layout.items():
        problems = report["check"][writer]
        status = ("same fingerprint as the source" if not problems
                  else f"DIFFERS from the source in {len(problems)} values")
        print(f"{writer}'s table: version {lay['version']}, protocol {lay['protocol']}, "
              f"{lay['rows_in_log']:,} rows in its log, {report['fingerprint'][writer]['n']:,} "
              f"rows read by delta-rs, {status}; codecs {', '.join(lay['codecs'])}")
    schemas = {w: lay["schema"] for w, lay in layout.items()}
    if len({json.dumps(s) for s in schemas.values()}) > 1:
        print("schemas differ: " + "; ".join(f"{w}: {s}" for w, s in schemas.items()))


if __name__ == "__main__":
    sys.exit(main())
