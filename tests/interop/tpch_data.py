"""TPC-H data for the interop suites: tpchgen-cli's Parquet files loaded into a Parley warehouse."""

import os
import shutil
import subprocess
import sys

from duckdb_compare import parley_query

TABLES = ["nation", "region", "part", "supplier", "partsupp", "customer", "orders", "lineitem"]


def tpchgen():
    """The tpchgen-cli of the project's Python environment, else the one on PATH."""
    found = shutil.which("tpchgen-cli", path=os.path.dirname(sys.executable))
    return found or "tpchgen-cli"


def generate(scale, data):
    """The eight tables at `scale` as Parquet files data/<table>.parquet."""
    subprocess.run([tpchgen(), "parquet", "--scale-factor", str(scale), "--output-dir", str(data)],
                   check=True, capture_output=True, timeout=600)


def load_warehouse(data, warehouse):
    """A Parley warehouse holding each table of `data` as a Delta table (CTAS)."""
    parley_query("; ".join(f"CREATE TABLE {t} AS SELECT * FROM parquet.`{data / t}.parquet`"
                           for t in TABLES), warehouse)
