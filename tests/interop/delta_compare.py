"""Running Parley's CLI on Delta tables and comparing what it returns with a peer's Arrow table.

Shared by the interop suites (delta-rs, Spark). A peer's result is a pyarrow Table; Parley's is
read from `parley --output json` and `DESCRIBE`. Both sides are normalized by the peer's column
types (decimals to their scale, timestamps to microseconds since the epoch in UTC, floats to a
relative precision) and compared as multisets, with column names and types checked first.

Environment: PARLEY_BIN, the parley executable (default build/parley in this repository).
"""

import collections
import datetime
import decimal
import json
import math
import os
import re
import struct
import subprocess

import pyarrow as pa
import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PARLEY = os.environ.get("PARLEY_BIN", os.path.join(REPO, "build", "parley"))

def run_parley(sql):
    proc = subprocess.run([PARLEY, "--output", "json", "-c", sql], capture_output=True,
                          text=True, timeout=300)
    return proc


def parley_rows(path):
    proc = run_parley(f"SELECT * FROM delta.`{path}`")
    assert proc.returncode == 0, f"Parley failed on {path}: {proc.stdout}{proc.stderr}"
    rows = []
    for line in proc.stdout.splitlines():
        if line.strip():
            rows.append(json.loads(line, parse_float=decimal.Decimal,
                                   object_pairs_hook=collections.OrderedDict))
    return rows


def parley_schema(path):
    proc = run_parley(f"DESCRIBE delta.`{path}`")
    assert proc.returncode == 0, f"Parley DESCRIBE failed on {path}: {proc.stdout}{proc.stderr}"
    columns = []
    for line in proc.stdout.splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if not row["col_name"] or row["col_name"].startswith("#"):
            break
        columns.append((row["col_name"], row["data_type"]))
    return columns


def parley_error(path):
    proc = run_parley(f"SELECT * FROM delta.`{path}`")
    return proc.returncode, proc.stdout + proc.stderr


# ---- Types and values, normalized the same way on both sides.

def spark_type(t):
    """The type name DESCRIBE prints: Spark's catalog form (array<t>, map<k,v>, struct<f:t>)."""
    if pa.types.is_int8(t):
        return "tinyint"
    if pa.types.is_int16(t):
        return "smallint"
    if pa.types.is_int32(t):
        return "int"
    if pa.types.is_int64(t):
        return "bigint"
    if pa.types.is_float32(t):
        return "float"
    if pa.types.is_float64(t):
        return "double"
    if pa.types.is_boolean(t):
        return "boolean"
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return "string"
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        return "binary"
    if pa.types.is_date32(t):
        return "date"
    if pa.types.is_timestamp(t):
        return "timestamp" if t.tz else "timestamp_ntz"
    if pa.types.is_decimal(t):
        return f"decimal({t.precision},{t.scale})"
    if pa.types.is_map(t):
        return f"map<{spark_type(t.key_type)},{spark_type(t.item_type)}>"
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_list_view(t):
        return f"array<{spark_type(t.value_type)}>"
    if pa.types.is_struct(t):
        return "struct<" + ",".join(f"{f.name}:{spark_type(f.type)}" for f in t) + ">"
    return str(t)


TS_RE = re.compile(r"^(\d{4,})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?$")
EPOCH = datetime.datetime(1970, 1, 1)
WIDE_DECIMALS = decimal.Context(prec=80)


def micros_of_text(text):
    m = TS_RE.match(text)
    assert m, f"not a timestamp: {text}"
    y, mo, d, h, mi, s, frac = m.groups()
    days = (datetime.date(int(y), int(mo), int(d)) - EPOCH.date()).days
    micros = int((frac or "").ljust(6, "0")[:6] or 0)
    return ((days * 24 + int(h)) * 60 + int(mi)) * 60_000_000 + int(s) * 1_000_000 + micros


def micros_of_datetime(value):
    if value.tzinfo is not None:
        value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    delta = value - EPOCH
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


def norm_float(value, single):
    if isinstance(value, str):
        return value  # NaN, Infinity, -Infinity
    x = float(value)
    if math.isnan(x) or math.isinf(x):
        return "NaN" if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity")
    if single:
        x = struct.unpack("f", struct.pack("f", x))[0]
        return float(f"{x:.7g}")
    return float(f"{x:.10g}")  # 1e-9 relative


def norm(value, t, from_parley):
    """A hashable, comparable form of a value of pyarrow type `t`."""
    if value is None:
        return None
    if pa.types.is_integer(t):
        return int(value)
    if pa.types.is_floating(t):
        return norm_float(value, pa.types.is_float32(t))
    if pa.types.is_boolean(t):
        return bool(value)
    if pa.types.is_decimal(t):
        exponent = decimal.Decimal(1).scaleb(-t.scale)
        return str(decimal.Decimal(str(value)).quantize(exponent, context=WIDE_DECIMALS))
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return str(value)
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        if from_parley:
            return value
        return "[" + " ".join(f"{b:02X}" for b in value) + "]"
    if pa.types.is_date32(t):
        return value if from_parley else value.isoformat()
    if pa.types.is_timestamp(t):
        return micros_of_text(value) if from_parley else micros_of_datetime(value)
    if pa.types.is_map(t):
        items = value.items() if from_parley else value
        out = []
        for k, v in items:
            key = k if from_parley else key_text(norm(k, t.key_type, False), t.key_type)
            out.append((str(key), norm(v, t.item_type, from_parley)))
        return tuple(sorted(out, key=repr))
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_list_view(t):
        return tuple(norm(v, t.value_type, from_parley) for v in value)
    if pa.types.is_struct(t):
        return tuple(norm(value.get(f.name), f.type, from_parley) for f in t)
    return repr(value)


def key_text(value, t):
    """How Parley's JSON output renders a map key: its text form."""
    if pa.types.is_boolean(t):
        return "true" if value else "false"
    return str(value)


def rows_multiset(rows, schema, from_parley):
    out = collections.Counter()
    for row in rows:
        out[repr(tuple(norm(row.get(f.name), f.type, from_parley) for f in schema))] += 1
    return out


# Above this many rows, tables are compared by aggregates (row count, and per column the count
# of values, minimum, maximum and, for exact types, the sum) to keep the suite fast.
FULL_COMPARE_MAX_ROWS = 50_000


def compare_aggregates(target, expected):
    import pyarrow.compute as pc

    selects, want = ["count(*)"], [expected.num_rows]
    for field in expected.schema:
        column, t = f"`{field.name}`", field.type
        values = expected[field.name]
        selects.append(f"count({column})")
        want.append(len(values) - values.null_count)
        if pa.types.is_nested(t) or pa.types.is_binary(t) or pa.types.is_boolean(t):
            continue
        selects += [f"min({column})", f"max({column})"]
        want += [norm(pc.min(values).as_py(), t, False), norm(pc.max(values).as_py(), t, False)]
        if pa.types.is_integer(t) or pa.types.is_decimal(t):
            selects.append(f"sum({column})")
            total = pc.sum(values).as_py()
            want.append(None if total is None else str(total))
    aliased = ", ".join(f"{expr} AS a{i}" for i, expr in enumerate(selects))
    proc = run_parley(f"SELECT {aliased} FROM delta.`{target}`")
    assert proc.returncode == 0, f"{target}: {proc.stdout}{proc.stderr}"
    row = json.loads(proc.stdout.splitlines()[0], parse_float=decimal.Decimal)
    got, index = [row["a0"]], 1
    for field in expected.schema:
        t = field.type
        got.append(row[f"a{index}"])
        index += 1
        if pa.types.is_nested(t) or pa.types.is_binary(t) or pa.types.is_boolean(t):
            continue
        got += [norm(row[f"a{index}"], t, True), norm(row[f"a{index + 1}"], t, True)]
        index += 2
        if pa.types.is_integer(t) or pa.types.is_decimal(t):
            total = row[f"a{index}"]
            got.append(None if total is None else str(total))
            index += 1
    assert [str(g) for g in got] == [str(w) for w in want], f"{target}: aggregates differ"


def compare(path, version, expected):
    target = path if version is None else f"{path}@v{version}"
    schema = expected.schema
    got_schema = parley_schema(target)
    want_schema = [(f.name, spark_type(f.type)) for f in schema]
    assert got_schema == want_schema, f"{target}: schema {got_schema} != {want_schema}"
    if expected.num_rows > FULL_COMPARE_MAX_ROWS:
        compare_aggregates(target, expected)
        return
    got = rows_multiset(parley_rows(target), schema, True)
    want = rows_multiset(expected.to_pylist(), schema, False)
    if got != want:
        missing = list((want - got).items())[:3]
        extra = list((got - want).items())[:3]
        pytest.fail(f"{target}: rows differ; missing {missing}; unexpected {extra}")
