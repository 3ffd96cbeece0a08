"""Running a query on Parley's CLI and on DuckDB and comparing the results.

Shared by the TPC-H and the differential suites. DuckDB's result comes as a pyarrow Table, so its
column types are known; Parley's comes from `parley --output json`, read with exact decimals.
Values are compared by DuckDB's column type:

- decimal: both sides rounded (half up) to the smaller of the two scales, then equal. Spark's
  and DuckDB's decimal result types differ in scale (e.g. sums), never in value.
- floating point: equal within 1e-9 relative. Where Spark's type is a decimal and DuckDB's a
  double (the average or quotient of decimals), Parley's decimal must equal DuckDB's double
  rounded half up to that decimal's scale (`decimal_vs_double=True`).
- integers, strings, booleans, dates: equal (dates as ISO text).

Environment: PARLEY_BIN, the parley executable (default build/parley in this repository).
"""

import collections
import datetime
import decimal
import json
import math
import os
import subprocess

import pyarrow as pa

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PARLEY = os.environ.get("PARLEY_BIN", os.path.join(REPO, "build", "parley"))


class ParleyError(Exception):
    """Parley exited with an error; the message is its output."""


def parley_query(sql, warehouse, timeout=600):
    """Runs `sql` (one statement or a script) and returns the JSON rows of its output."""
    proc = subprocess.run([PARLEY, "--warehouse", str(warehouse), "--output", "json", "-c", sql],
                          capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise ParleyError(f"{proc.stdout}{proc.stderr}".strip())
    return [json.loads(line, parse_float=decimal.Decimal,
                       object_pairs_hook=collections.OrderedDict)
            for line in proc.stdout.splitlines() if line.strip()]


def duckdb_query(connection, sql):
    """Runs `sql` on a DuckDB connection and returns its result as a pyarrow Table."""
    return connection.sql(sql).to_arrow_table()


def _scale(value):
    exponent = value.as_tuple().exponent
    return -exponent if isinstance(exponent, int) and exponent < 0 else 0


def _round(value, scale):
    return decimal.Decimal(value).quantize(decimal.Decimal(1).scaleb(-scale),
                                           rounding=decimal.ROUND_HALF_UP)


def values_equal(ours, theirs, arrow_type, decimal_vs_double=False):
    """True when Parley's JSON value `ours` equals DuckDB's `theirs` of type `arrow_type`."""
    if ours is None or theirs is None:
        return ours is None and theirs is None
    if pa.types.is_decimal(arrow_type):
        if not isinstance(ours, (int, decimal.Decimal)):
            return False
        ours = decimal.Decimal(ours)
        scale = min(_scale(ours), arrow_type.scale)
        return _round(ours, scale) == _round(theirs, scale)
    if pa.types.is_floating(arrow_type):
        if isinstance(ours, str):  # NaN and the infinities are JSON strings
            return ours == repr(theirs).replace("inf", "Infinity").replace("nan", "NaN")
        if math.isclose(float(ours), theirs, rel_tol=1e-9, abs_tol=1e-12):
            return True
        return (decimal_vs_double and isinstance(ours, decimal.Decimal)
                and "E" not in str(ours) and ours == _round(theirs, _scale(ours)))
    if pa.types.is_integer(arrow_type):
        return isinstance(ours, int) and not isinstance(ours, bool) and ours == theirs
    if pa.types.is_date(arrow_type):
        return ours == theirs.isoformat()
    if pa.types.is_timestamp(arrow_type):
        text = theirs.strftime("%Y-%m-%d %H:%M:%S.%f").rstrip("0").rstrip(".")
        return str(ours).rstrip("0").rstrip(".") == text
    return ours == theirs


def compare(ours, theirs, ordered, decimal_vs_double=False):
    """Returns a list of differences between Parley's rows and DuckDB's table (empty: equal).

    `ordered` compares row by row; otherwise both sides are compared as multisets (sorted by
    their text form). Column names are not compared: the engines name unaliased expressions
    differently.
    """
    columns = theirs.column_names
    types = [field.type for field in theirs.schema]
    their_rows = [tuple(row[c] for c in columns) for row in theirs.to_pylist()]
    our_rows = [tuple(row.values()) for row in ours]
    problems = []
    if len(our_rows) != len(their_rows):
        problems.append(f"Parley returned {len(our_rows)} rows, DuckDB {len(their_rows)}")
    if our_rows and len(our_rows[0]) != len(columns):
        return problems + [f"Parley returned {len(our_rows[0])} columns, DuckDB {len(columns)}"]
    if not ordered:
        our_rows = sorted(our_rows, key=_sort_key)
        their_rows = sorted(their_rows, key=_sort_key)
    for index, (mine, other) in enumerate(zip(our_rows, their_rows)):
        for column, (a, b, t) in enumerate(zip(mine, other, types)):
            if not values_equal(a, b, t, decimal_vs_double):
                problems.append(f"row {index} column {columns[column]}: Parley {a!r}, "
                                f"DuckDB {b!r} ({t})")
        if len(problems) >= 10:
            break
    return problems


def _sort_key(row):
    key = []
    for value in row:
        if value is None:
            key.append((0, ""))
        elif isinstance(value, (int, float, decimal.Decimal)) and not isinstance(value, bool):
            key.append((1, f"{float(value):+.6e}"))
        elif isinstance(value, (datetime.date, datetime.datetime)):
            key.append((2, value.isoformat()))
        else:
            key.append((2, str(value)))
    return key
