#!/usr/bin/env python3
"""Delta MERGE benchmark: Parley against delta-rs merging 1% changed rows into TPC-H lineitem SF1.

    python3 bench/delta_merge.py [--build-dir build] [--runs 3] [--json out.json]

What it does, in order (see docs/performance.md, "Delta DML"):
  1. Creates (once) the bench Python environment and lineitem SF1 as Parquet (bench_common.py).
     Writes the base Delta table once with delta-rs, and the source: the lineitem rows with
     l_orderkey % 100 = 7 (1% of the rows), l_quantity + 1, as one Parquet file.
  2. --runs times per engine, taking turns (Parley, delta-rs, ...), each on a fresh copy of the
     base table and in a new process:
       - Parley: <build-dir>/parley's shell runs
             MERGE INTO delta.`<copy>` t USING parquet.`<source>` s
             ON t.l_orderkey = s.l_orderkey AND t.l_linenumber = s.l_linenumber
             WHEN MATCHED THEN UPDATE SET *
         timed from sending the line to the next prompt (bench_common.ParleyRepl).
       - delta-rs: a Python process reads the source file with pyarrow and runs
             DeltaTable(<copy>).merge(source, predicate, "s", "t").when_matched_update_all()
             .execute()
         timed around those calls.
     Reports the median of each and the ratio.
  3. Checks every merged copy through delta-rs: as many rows as lineitem, and the sum of
     l_quantity grown by exactly the number of source rows.

Nothing here is a test. It never builds Parley: it runs a copy of <build-dir>/parley.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_common as bc  # noqa: E402

MERGE = ("MERGE INTO delta.`{target}` t USING parquet.`{source}` s "
         "ON t.l_orderkey = s.l_orderkey AND t.l_linenumber = s.l_linenumber "
         "WHEN MATCHED THEN UPDATE SET *")
PREDICATE = "t.l_orderkey = s.l_orderkey AND t.l_linenumber = s.l_linenumber"


# ---- Child processes (this script with --engine), printing JSON.

def prepare(lineitem, base, source):
    """The base Delta table (delta-rs) and the source file (DuckDB)."""
    import duckdb
    import pyarrow.dataset as ds
    from deltalake import write_deltalake
    write_deltalake(base, ds.dataset(lineitem, format="parquet").scanner().to_reader())
    con = duckdb.connect()
    rows = con.execute(
        f"SELECT * FROM read_parquet('{lineitem}/*.parquet') WHERE l_orderkey % 100 = 7"
    ).to_arrow_table()
    quantity = rows.schema.get_field_index("l_quantity")
    changed = con.execute(
        "SELECT CAST(l_quantity + 1 AS " + str(rows.schema.field(quantity).type).upper()
        .replace("DECIMAL128", "DECIMAL") + ") AS q FROM rows").to_arrow_table().column(0)
    import pyarrow.parquet as pq
    pq.write_table(rows.set_column(quantity, rows.schema.field(quantity), changed), source)
    return {"source_rows": rows.num_rows}


def deltars_merge(target, source):
    import deltalake
    import pyarrow.parquet as pq
    from deltalake import DeltaTable
    start = time.perf_counter()
    metrics = (DeltaTable(target)
               .merge(pq.read_table(source), PREDICATE, source_alias="s", target_alias="t")
               .when_matched_update_all().execute())
    return {"call_s": time.perf_counter() - start, "version": deltalake.__version__,
            "updated": metrics.get("num_target_rows_updated")}


def check(target):
    import pyarrow.compute as pc
    from deltalake import DeltaTable
    table = DeltaTable(target).to_pyarrow_dataset().to_table(columns=["l_quantity"])
    return {"rows": table.num_rows, "quantity": str(pc.sum(table.column(0)).as_py())}


def run_child(*arguments):
    proc = subprocess.run([sys.executable, os.path.abspath(__file__), *arguments],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{arguments[1]} failed: {proc.stderr.strip()[-3000:]}")
    return json.loads(proc.stdout)


# ---- Parley.

def copy_parley(build_dir, scratch):
    bin_dir = os.path.join(scratch, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    for name in ("parley", "libparley_connector.so"):
        shutil.copy2(os.path.join(build_dir, name), os.path.join(bin_dir, name))
    return os.path.join(bin_dir, "parley")


def parley_merge(binary, target, source, scratch):
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.dirname(binary))
    shell = bc.ParleyRepl(binary, ["--warehouse", os.path.join(scratch, "warehouse"),
                                   "--output", "csv"], cwd=scratch, home=scratch, env=env)
    try:
        seconds, output = shell.run(MERGE.format(target=target, source=source))
    finally:
        code, _ = shell.close()
    if code != 0:
        raise RuntimeError(f"parley exited with status {code}")
    return {"statement_s": seconds, "output": output.strip()}


def main():
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--build-dir", default=os.path.join(bc.ROOT, "build"))
    parser.add_argument("--data-dir", default=os.path.join(bc.CACHE, "tpch-sf1"))
    parser.add_argument("--runs", type=int, default=3, help="merges per engine (median)")
    parser.add_argument("--json", help="also write every measurement to this file")
    parser.add_argument("--engine", choices=["prepare", "delta-rs-merge", "check"],
                        help=argparse.SUPPRESS)
    parser.add_argument("--lineitem", help=argparse.SUPPRESS)
    parser.add_argument("--source", help=argparse.SUPPRESS)
    parser.add_argument("--target", help=argparse.SUPPRESS)
    args = parser.parse_args()

    bc.ensure_venv(__file__)
    if args.engine == "prepare":
        print(json.dumps(prepare(args.lineitem, args.target, args.source)))
        return 0
    if args.engine == "delta-rs-merge":
        print(json.dumps(deltars_merge(args.target, args.source)))
        return 0
    if args.engine == "check":
        print(json.dumps(check(args.target)))
        return 0

    build_dir = os.path.abspath(args.build_dir)
    lineitem = bc.ensure_data(os.path.abspath(args.data_dir))
    scratch = tempfile.mkdtemp(prefix="parley-delta-merge-bench.")
    report = {"load": {"before": bc.warn_if_loaded()}, "parley": [], "delta-rs": []}
    try:
        binary = copy_parley(build_dir, scratch)
        base, source = os.path.join(scratch, "base"), os.path.join(scratch, "source.parquet")
        bc.log("writing the base table and the source")
        report["prepare"] = run_child("--engine", "prepare", "--lineitem", lineitem,
                                      "--target", base, "--source", source)
        expected = run_child("--engine", "check", "--target", base)
        for run in range(args.runs):
            for engine in ("parley", "delta-rs"):
                target = os.path.join(scratch, f"{engine}-{run}")
                shutil.copytree(base, target)
                bc.log(f"run {run + 1}: {engine}")
                if engine == "parley":
                    result = parley_merge(binary, target, source, scratch)
                    result["seconds"] = result["statement_s"]
                else:
                    result = run_child("--engine", "delta-rs-merge", "--target", target,
                                       "--source", source)
                    result["seconds"] = result["call_s"]
                got = run_child("--engine", "check", "--target", target)
                want_quantity = (float(expected["quantity"]) +
                                 report["prepare"]["source_rows"])
                if got["rows"] != expected["rows"] or abs(
                        float(got["quantity"]) - want_quantity) > 1e-6 * want_quantity:
                    raise RuntimeError(f"{engine} run {run + 1}: merged table has {got}, "
                                       f"expected {expected['rows']} rows and quantity "
                                       f"{want_quantity}")
                report[engine].append(result)
                shutil.rmtree(target)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    report["load"]["after"] = os.getloadavg()[0]
    parley_s = statistics.median(r["seconds"] for r in report["parley"])
    deltars_s = statistics.median(r["seconds"] for r in report["delta-rs"])
    print(f"MERGE of {report['prepare']['source_rows']:,} changed rows into lineitem SF1 "
          f"({expected['rows']:,} rows), median of {args.runs}:\n")
    print(bc.markdown_table(
        ["engine", "median s", "runs s"],
        [["Parley", f"{parley_s:.2f}",
          ", ".join(f"{r['seconds']:.2f}" for r in report["parley"])],
         [f"delta-rs {report['delta-rs'][0]['version']}", f"{deltars_s:.2f}",
          ", ".join(f"{r['seconds']:.2f}" for r in report["delta-rs"])]]))
    print(f"\nParley / delta-rs time: {parley_s / deltars_s:.2f}x "
          f"(load before {report['load']['before']}, after {report['load']['after']:.2f})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
