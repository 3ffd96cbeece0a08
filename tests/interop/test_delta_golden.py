"""Delta reader conformance on the golden tables (shared/testdata/delta-golden, written by Spark).

For every table delta-rs (`deltalake`) reads, Parley must return the same schema and the same
rows (compared as multisets, values normalized by the column types) at the latest version and at
every earlier version delta-rs reads. Tables delta-rs cannot read are listed below with what
Parley does instead: either it rejects them with the named condition (exit code 1 and an
`Error: [CONDITION]` line naming the file or feature), or it reads them because it supports what
delta-rs lacks. Parley never crashes and never returns partial data.

Environment: PARLEY_BIN (the parley executable) and DELTA_GOLDEN_DIR (the golden tables); both
default to paths relative to this repository (build/parley, ../shared/testdata/delta-golden).
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
from deltalake import DeltaTable

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PARLEY = os.environ.get("PARLEY_BIN", os.path.join(REPO, "build", "parley"))
GOLDEN = os.environ.get(
    "DELTA_GOLDEN_DIR", os.path.join(REPO, "..", "shared", "testdata", "delta-golden")
)

# A commit or checkpoint that does not parse or lacks a required field; the message names the file.
CORRUPT = "FAILED_READ_FILE.NO_HINT"

# Tables (or folders) Parley rejects, with the condition it must raise and why.
REJECTED = {
    "checkpoint": ("FAILED_READ_FILE.FILE_NOT_EXIST", "the log references data files that were never written"),
    "delete-re-add-same-file-different-transactions": (
        "FAILED_READ_FILE.FILE_NOT_EXIST", "a log-replay fixture whose data files do not exist"),
    "canonicalized-paths-normal-a": (CORRUPT, "a log-replay fixture: its metaData has no schemaString"),
    "canonicalized-paths-normal-b": (CORRUPT, "a log-replay fixture: its metaData has no schemaString"),
    "canonicalized-paths-special-a": (CORRUPT, "a log-replay fixture: its metaData has no schemaString"),
    "canonicalized-paths-special-b": (CORRUPT, "a log-replay fixture: its metaData has no schemaString"),
    "corrupted-last-checkpoint": (CORRUPT, "its checkpoint's metaData has no schemaString"),
    "deltalog-commit-info": (CORRUPT, "a commitInfo fixture: its metaData has no schemaString"),
    "deltalog-invalid-protocol-version": ("DELTA_INVALID_PROTOCOL_VERSION", "reader version 99"),
    "deltalog-state-reconstruction-from-checkpoint-missing-metadata": (
        "DELTA_STATE_RECOVER_ERROR", "the checkpoint has no metaData"),
    "deltalog-state-reconstruction-from-checkpoint-missing-protocol": (
        CORRUPT, "the checkpoint's metaData has no schemaString"),
    "deltalog-state-reconstruction-without-metadata": ("DELTA_STATE_RECOVER_ERROR", "no metaData action"),
    "deltalog-state-reconstruction-without-protocol": ("DELTA_STATE_RECOVER_ERROR", "no protocol action"),
    "data-reader-absolute-paths-escaped-chars": ("DELTA_STATE_RECOVER_ERROR", "a path fixture without metadata"),
    "data-reader-date-types-America": ("DELTA_MISSING_DELTA_TABLE", "the folder has no _delta_log"),
    "data-reader-date-types-Asia": ("DELTA_MISSING_DELTA_TABLE", "the folder has no _delta_log"),
    "data-reader-date-types-Etc": ("DELTA_MISSING_DELTA_TABLE", "the folder has no _delta_log"),
    "hive": ("DELTA_MISSING_DELTA_TABLE", "a folder of Hive test tables, not one Delta table"),
    "log-store-listFrom": ("DELTA_MISSING_DELTA_TABLE", "log-store input files, not a table"),
    "log-store-read": ("DELTA_MISSING_DELTA_TABLE", "log-store input files, not a table"),
    "no-delta-log-folder": ("DELTA_MISSING_DELTA_TABLE", "Parquet files without a _delta_log"),
    "log-replay-special-characters-b": ("FAILED_READ_FILE.FILE_NOT_EXIST", "its data file is absent"),
    "update-deleted-directory": (CORRUPT, "its checkpoint's metaData has no schemaString"),
    "versions-not-contiguous": ("DELTA_VERSIONS_NOT_CONTIGUOUS", "commit 1 is missing"),
    "spark-variant-checkpoint": ("DELTA_UNSUPPORTED_FEATURES_FOR_READ", "variantType-preview is not supported"),
}

# Tables delta-rs cannot read that Parley reads (features Parley has and the pinned deltalake
# lacks, or delta-rs bugs): the row count Parley must return at the latest version and, where
# one exists, a twin table with the same rows that delta-rs does read.
PARLEY_ONLY = {
    "basic-decimal-table": (4, None, "delta-rs fails on a negative decimal partition value"),
    "basic-decimal-table-legacy": (4, None, "delta-rs fails on a negative decimal partition value"),
    "basic-with-vacuum-protocol-check-feature": (100, None, "delta-rs lacks vacuumProtocolCheck"),
    "data-reader-timestamp_ntz-id-mode": (9, "data-reader-timestamp_ntz", "delta-rs lacks columnMapping"),
    "data-reader-timestamp_ntz-name-mode": (9, "data-reader-timestamp_ntz", "delta-rs lacks columnMapping"),
    "dv-partitioned-with-checkpoint": (35, None, "delta-rs lacks deletionVectors"),
    "dv-with-columnmapping": (35, None, "delta-rs lacks deletionVectors and columnMapping"),
    "log-replay-dv-key-cases": (47, None, "delta-rs lacks deletionVectors"),
    "type-widening": (2, None, "delta-rs lacks typeWidening"),
    "type-widening-nested": (2, None, "delta-rs lacks typeWidening"),
    "v2-checkpoint-json": (10, None, "delta-rs lacks v2Checkpoint"),
    "v2-checkpoint-parquet": (10, None, "delta-rs lacks v2Checkpoint"),
}


# Tables the pinned delta-rs reads wrongly: it returns NULL for every column of a table with
# column mapping. Parley must return this many rows, of which this many are all NULL (the
# tables' own null rows).
DELTA_RS_WRONG = {
    "data-skipping-basic-stats-all-types-columnmapping-id": (1, 0),
    "data-skipping-basic-stats-all-types-columnmapping-name": (1, 0),
    "table-with-columnmapping-mode-id": (6, 1),
    "table-with-columnmapping-mode-name": (6, 1),
    "table-with-icebegCompatV2Enabled": (6, 1),
}


def all_tables():
    if not os.path.isdir(GOLDEN):
        return []
    return sorted(os.listdir(GOLDEN))


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
    """The type name DESCRIBE prints: Spark's for primitive types, Arrow's for nested ones."""
    if pa.types.is_nested(t):
        return str(t)
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


def delta_rs_table(path, version):
    try:
        dt = DeltaTable(path, version=version) if version is not None else DeltaTable(path)
        return dt, dt.to_pyarrow_table()
    except Exception:  # delta-rs cannot read it: the caller decides what Parley must do
        return None, None


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


@pytest.mark.parametrize("name", all_tables())
def test_golden_table(name):
    path = os.path.join(GOLDEN, name)
    if name in REJECTED:
        condition, why = REJECTED[name]
        code, output = parley_error(path)
        assert code == 1, f"{name} ({why}): expected a failure, got code {code}: {output[:500]}"
        assert f"Error: [{condition}]" in output, f"{name} ({why}): {output[:500]}"
        return
    if name in PARLEY_ONLY:
        rows, twin, why = PARLEY_ONLY[name]
        assert delta_rs_table(path, None)[0] is None, f"{name}: delta-rs now reads it ({why})"
        assert len(parley_rows(path)) == rows, name
        if twin is not None:
            compare(path, None, delta_rs_table(os.path.join(GOLDEN, twin), None)[1])
        return
    if name in DELTA_RS_WRONG:
        rows, null_rows = DELTA_RS_WRONG[name]
        got = parley_rows(path)
        assert len(got) == rows, name
        assert sum(all(v is None for v in row.values()) for row in got) == null_rows, name
        return
    dt, latest = delta_rs_table(path, None)
    assert dt is not None, f"{name}: delta-rs cannot read it; list it in REJECTED or PARLEY_ONLY"
    compare(path, None, latest)
    for version in range(dt.version()):
        _, table = delta_rs_table(path, version)
        if table is None:
            # delta-rs cannot rebuild this version (log cleaned up): Parley must not crash.
            code, output = parley_error(f"{path}@v{version}")
            assert code in (0, 1), output
            if code == 1:
                assert "Error: [" in output, output
            continue
        compare(path, version, table)


def test_golden_tables_present():
    assert len(all_tables()) >= 100, f"golden tables missing under {GOLDEN}"
