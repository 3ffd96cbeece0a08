"""Generated queries on Parley and DuckDB over the same small tables with NULLs, compared.

A seeded generator writes three small Parquet tables (integers in a narrow range so that joins
and groups collide, strings from a short list, NULLs everywhere) and a few hundred queries:
projections of arithmetic, CASE and COALESCE; filters with comparisons, BETWEEN, IN lists, LIKE,
IS [NOT] NULL, null-safe equality, AND/OR/NOT; inner and outer joins with extra ON conditions;
aggregates (count, count(DISTINCT), sum, min, max, avg) grouped or not, with HAVING; DISTINCT;
ORDER BY over every output column with LIMIT. Each query runs on both engines and the results
must agree (as multisets unless ordered; see duckdb_compare.py). Only constructs whose meaning is
the same in Spark and DuckDB are generated (no division, no overflow, no float formatting).

Reproduce one run: DIFF_SEED (default 20261129) and DIFF_QUERIES (default 300); a failure prints
the seed, the query number and both SQL texts.
Environment: PARLEY_BIN (default build/parley).
"""

import concurrent.futures
import os
import random

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from duckdb_compare import ParleyError, compare, duckdb_query, parley_query

SEED = int(os.environ.get("DIFF_SEED", "20261129"))
QUERIES = int(os.environ.get("DIFF_QUERIES", "300"))
WORDS = ["apple", "banana", "cherry", "date", "Apple", "", "fig"]
TABLES = {"t1": 40, "t2": 30, "t3": 12}
INT_COLUMNS = ["k", "a", "b"]


def random_tables(rng):
    tables = {}
    for name, rows in TABLES.items():
        def ints(low, high):
            return [None if rng.random() < 0.15 else rng.randint(low, high) for _ in range(rows)]
        tables[name] = pa.table({
            "k": pa.array(ints(0, 6), pa.int32()),
            "a": pa.array(ints(-5, 5), pa.int32()),
            "b": pa.array(ints(-100, 100), pa.int64()),
            "s": pa.array([None if rng.random() < 0.15 else rng.choice(WORDS)
                           for _ in range(rows)], pa.string()),
        })
    return tables


class Generator:
    """Random SQL over tables t1, t2, t3, rendered for either engine."""

    def __init__(self, rng):
        self.rng = rng

    def column(self, aliases, kind="int"):
        alias = self.rng.choice(aliases)
        name = self.rng.choice(INT_COLUMNS) if kind == "int" else "s"
        return f"{alias}.{name}"

    def int_expr(self, aliases, depth=0):
        choice = self.rng.random()
        if depth > 1 or choice < 0.4:
            return self.column(aliases)
        if choice < 0.55:
            return str(self.rng.randint(-3, 3))
        if choice < 0.8:
            op = self.rng.choice(["+", "-", "*"])
            return (f"({self.int_expr(aliases, depth + 1)} {op} "
                    f"{self.int_expr(aliases, depth + 1)})")
        if choice < 0.9:
            return (f"CASE WHEN {self.predicate(aliases, depth + 1)} THEN "
                    f"{self.int_expr(aliases, depth + 1)} ELSE {self.int_expr(aliases, depth + 1)} END")
        return f"coalesce({self.column(aliases)}, {self.rng.randint(-3, 3)})"

    def predicate(self, aliases, depth=0):
        choice = self.rng.random()
        if depth < 2 and choice < 0.25:
            op = self.rng.choice(["AND", "OR"])
            return f"({self.predicate(aliases, depth + 1)} {op} {self.predicate(aliases, depth + 1)})"
        if depth < 2 and choice < 0.32:
            return f"NOT ({self.predicate(aliases, depth + 1)})"
        if choice < 0.55:
            op = self.rng.choice(["=", "<>", "<", "<=", ">", ">="])
            return f"{self.int_expr(aliases, depth + 1)} {op} {self.int_expr(aliases, depth + 1)}"
        if choice < 0.63:
            low = self.rng.randint(-5, 2)
            return f"{self.column(aliases)} BETWEEN {low} AND {low + self.rng.randint(0, 5)}"
        if choice < 0.71:
            items = [str(self.rng.randint(-3, 6)) for _ in range(self.rng.randint(1, 4))]
            if self.rng.random() < 0.3:
                items.append("NULL")
            negate = "NOT " if self.rng.random() < 0.4 else ""
            return f"{self.column(aliases)} {negate}IN ({', '.join(items)})"
        if choice < 0.79:
            negate = "NOT " if self.rng.random() < 0.5 else ""
            kind = self.rng.choice(["int", "string"])
            return f"{self.column(aliases, kind)} IS {negate}NULL"
        if choice < 0.87:
            pattern = self.rng.choice(["a%", "%an%", "_a%", "%e", "", "%"])
            negate = "NOT " if self.rng.random() < 0.3 else ""
            return f"{self.column(aliases, 'string')} {negate}LIKE '{pattern}'"
        if choice < 0.93:
            word = self.rng.choice(WORDS)
            op = self.rng.choice(["=", "<", ">="])
            return f"{self.column(aliases, 'string')} {op} '{word}'"
        return f"{self.column(aliases)} <=> {self.column(aliases)}"

    def from_clause(self):
        if self.rng.random() < 0.4:
            table = self.rng.choice(list(TABLES))
            return f"{{{table}}} AS x", ["x"]
        left, right = self.rng.sample(list(TABLES), 2)
        kind = self.rng.choice(["JOIN", "JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"])
        condition = "x.k = y.k"
        if self.rng.random() < 0.3:
            condition += f" AND {self.predicate(['x', 'y'], 1)}"
        return f"{{{left}}} AS x {kind} {{{right}}} AS y ON {condition}", ["x", "y"]

    def query(self):
        source, aliases = self.from_clause()
        where = f" WHERE {self.predicate(aliases)}" if self.rng.random() < 0.7 else ""
        shape = self.rng.random()
        if shape < 0.4:
            items = [self.int_expr(aliases) for _ in range(self.rng.randint(1, 3))]
            if self.rng.random() < 0.3:
                items.append(self.column(aliases, "string"))
            distinct = "DISTINCT " if self.rng.random() < 0.2 else ""
            select = ", ".join(f"{item} AS c{i}" for i, item in enumerate(items))
            text = f"SELECT {distinct}{select} FROM {source}{where}"
            if self.rng.random() < 0.3:
                # Spark sorts NULLs first in ascending order, DuckDB last: say it explicitly.
                order = ", ".join(f"c{i} {self.rng.choice(['ASC NULLS FIRST', 'DESC NULLS LAST'])}"
                                  for i in range(len(items)))
                return f"{text} ORDER BY {order} LIMIT {self.rng.randint(1, 10)}", True
            return text, False
        group = [self.column(aliases, self.rng.choice(["int", "int", "string"]))
                 for _ in range(self.rng.randint(0, 2))]
        measure = self.int_expr(aliases, 1)
        functions = ["count(*)", f"count({measure})", f"sum({measure})", f"min({measure})",
                     f"max({measure})", f"avg({measure})", f"count(DISTINCT {measure})"]
        chosen = self.rng.sample(functions, self.rng.randint(1, 3))
        select = ", ".join(f"{item} AS c{i}" for i, item in enumerate(group + chosen))
        text = f"SELECT {select} FROM {source}{where}"
        if group:
            text += f" GROUP BY {', '.join(group)}"
            if self.rng.random() < 0.3:
                text += f" HAVING count(*) > {self.rng.randint(0, 2)}"
        return text, False


def render(text, dialect, paths):
    if dialect == "parley":
        return text.format(**{t: f"parquet.`{paths[t]}`" for t in TABLES})
    return text.replace("<=>", "IS NOT DISTINCT FROM").format(**{t: t for t in TABLES})


@pytest.fixture(scope="module")
def engines(tmp_path_factory):
    root = tmp_path_factory.mktemp("differential")
    rng = random.Random(SEED)
    paths = {}
    connection = duckdb.connect()
    for name, table in random_tables(rng).items():
        paths[name] = root / f"{name}.parquet"
        pq.write_table(table, paths[name])
        connection.sql(f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{paths[name]}')")
    generator = Generator(rng)
    queries = [generator.query() for _ in range(QUERIES)]
    yield root, paths, connection, queries
    connection.close()


def test_generated_queries_agree_with_duckdb(engines):
    root, paths, connection, queries = engines

    def run(item):
        number, (text, _) = item
        try:
            return parley_query(render(text, "parley", paths), root / "warehouse")
        except ParleyError as error:
            return error

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        ours = list(pool.map(run, enumerate(queries)))
    failures = []
    for number, ((text, ordered), result) in enumerate(zip(queries, ours)):
        theirs = duckdb_query(connection, render(text, "duckdb", paths))
        if isinstance(result, ParleyError):
            problems = [f"Parley failed: {result}"]
        else:
            problems = compare(result, theirs, ordered)
        if problems:
            failures.append(f"query {number} (DIFF_SEED={SEED}):\n  Parley: "
                            f"{render(text, 'parley', paths)}\n  DuckDB: "
                            f"{render(text, 'duckdb', paths)}\n  " + "\n  ".join(problems[:3]))
    assert not failures, f"{len(failures)} of {len(queries)} queries differ:\n" + \
        "\n".join(failures[:10])
    assert len(queries) == QUERIES
