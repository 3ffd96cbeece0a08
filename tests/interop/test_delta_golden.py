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

import os

import pytest
from deltalake import DeltaTable

from delta_compare import REPO, compare, parley_error, parley_rows

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


def delta_rs_table(path, version):
    try:
        dt = DeltaTable(path, version=version) if version is not None else DeltaTable(path)
        return dt, dt.to_pyarrow_table()
    except Exception:  # delta-rs cannot read it: the caller decides what Parley must do
        return None, None


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
