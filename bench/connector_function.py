#!/usr/bin/env python3
"""Connector function benchmark: a connector's scalar function against the same expression
written with built-in functions, over TPC-H lineitem SF1 (6,001,215 rows).

    python3 bench/connector_function.py [--build-dir build] [--warehouse DIR] [--runs 5]

One <build-dir>/parley shell, with the example range plugin loaded as catalog `ex`, runs in turn
    SELECT sum(ex.default.scale(l_linenumber, 3)) FROM lineitem    (the connector function)
    SELECT sum(l_linenumber * 3) FROM lineitem                     (built-ins)
timing each statement from sending its line to the next prompt (bench_common.ParleyRepl), after
one warm-up of each. Both compute the same checked INT product of every row and sum it; the
answers must agree. Reports each median and the ratio function / built-in (acceptance 3 of the
catalog-extensions issue asks for at most 1.5).

The warehouse is the TPC-H SF1 one bench/tpch.py builds (default
${PARLEY_CACHE:-~/.cache/parley}/tpch-sf1-warehouse/warehouse). Nothing here is a test.
"""

import argparse
import os
import statistics
import sys
import tempfile

import bench_common

QUERIES = {
    "function": "SELECT sum(ex.default.scale(l_linenumber, 3)) AS s FROM lineitem",
    "built-in": "SELECT sum(l_linenumber * 3) AS s FROM lineitem",
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", default=os.path.join(bench_common.ROOT, "build"))
    parser.add_argument("--warehouse", default=os.path.join(bench_common.CACHE,
                                                            "tpch-sf1-warehouse", "warehouse"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    binary = os.path.join(args.build_dir, "parley")
    plugin = os.path.join(args.build_dir, "examples", "libparley_example_range.so")
    if not os.path.isdir(os.path.join(args.warehouse, "default", "lineitem")):
        sys.exit(f"no lineitem in {args.warehouse}: run python3 bench/tpch.py once to build it")
    bench_common.warn_if_loaded()
    home = tempfile.mkdtemp(prefix="parley-bench-home-")
    shell = bench_common.ParleyRepl(binary, ["--warehouse", args.warehouse, "--conf",
                                             f"spark.sql.catalog.ex={plugin}"],
                                    cwd=bench_common.ROOT, home=home)
    times = {name: [] for name in QUERIES}
    answers = {}
    try:
        for name, sql in QUERIES.items():  # warm-up: the file cache and the plugin
            _, answers[name] = shell.run(sql)
        if answers["function"] != answers["built-in"]:
            sys.exit(f"the answers differ:\n{answers['function']}\n{answers['built-in']}")
        for _ in range(args.runs):
            for name, sql in QUERIES.items():
                seconds, _ = shell.run(sql)
                times[name].append(seconds)
    finally:
        shell.close()
    medians = {name: statistics.median(values) for name, values in times.items()}
    rows = [[name, f"{medians[name] * 1000:.0f}",
             " ".join(f"{t * 1000:.0f}" for t in times[name])] for name in QUERIES]
    print(bench_common.markdown_table(["query", "median ms", "runs ms"], rows))
    print(f"\nratio function / built-in: {medians['function'] / medians['built-in']:.2f}")


if __name__ == "__main__":
    main()
