"""The 22 TPC-H queries at scale factor 0.1 on Parley and on DuckDB, compared exactly.

tpchgen-cli writes the eight tables as Parquet once per run; Parley loads them into Delta tables
of a fresh warehouse (CTAS), DuckDB reads the same Parquet files through views. Each query text
in tests/interop/tpch/ is the standard one with the usual substitution parameters, written in the
dialect both engines accept. Results are compared row by row (every query orders its output),
decimals to their scale and Spark's decimal averages and quotients against DuckDB's doubles
rounded to Parley's scale (see duckdb_compare.py).

Environment: PARLEY_BIN (default build/parley), TPCH_SCALE (default 0.1).
"""

import os
import pathlib

import duckdb
import pytest

from duckdb_compare import compare, duckdb_query, parley_query
from tpch_data import TABLES, generate, load_warehouse

QUERIES = pathlib.Path(__file__).parent / "tpch"
SCALE = os.environ.get("TPCH_SCALE", "0.1")


@pytest.fixture(scope="module")
def tpch(tmp_path_factory):
    root = tmp_path_factory.mktemp("tpch")
    data = root / "data"
    generate(SCALE, data)
    warehouse = root / "warehouse"
    load_warehouse(data, warehouse)
    connection = duckdb.connect()
    for t in TABLES:
        connection.sql(f"CREATE VIEW {t} AS SELECT * FROM read_parquet('{data / t}.parquet')")
    yield warehouse, connection
    connection.close()


@pytest.mark.parametrize("number", range(1, 23))
def test_tpch_query(tpch, number):
    warehouse, connection = tpch
    text = (QUERIES / f"q{number:02d}.sql").read_text()
    expected = duckdb_query(connection, text)
    assert expected.num_rows > 0, f"Q{number} returns no rows at this scale: a weak test"
    actual = parley_query(text, warehouse)
    problems = compare(actual, expected, ordered=True, decimal_vs_double=True)
    assert not problems, f"Q{number} differs from DuckDB:\n" + "\n".join(problems)


def test_every_query_is_present():
    assert sorted(p.name for p in QUERIES.glob("q*.sql")) == [f"q{n:02d}.sql" for n in range(1, 23)]
