"""Delta tables written by Parley and delta-rs, read by the other; concurrent and crashing writers.

Parley writes tables of every shape it produces (partitioned, with checkpoints, after overwrites,
with column mapping) and delta-rs (`deltalake`) must read exactly the rows Parley reads back;
delta-rs writes tables (including after its deletes and merges) and Parley must read exactly
what delta-rs reads. Change data feeds: delta-rs's load_cdf reads Parley's as Parley's
table_changes does (also after Parley's DML), and Parley reads the change files delta-rs's DML
writes. Then: four Parley processes appending to one table at once end with every
commit and every row; a Parley process killed at each write fault point leaves the table at its
previous version, readable by delta-rs; corrupt tables fail with a condition naming the file.

Environment: PARLEY_BIN (default build/parley).
"""

import collections
import datetime
import decimal
import json
import os
import signal
import subprocess

import pyarrow as pa
import pytest
from deltalake import DeltaTable, QueryBuilder, write_deltalake

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PARLEY = os.environ.get("PARLEY_BIN", os.path.join(REPO, "build", "parley"))


def run(sql, warehouse=None, env=None):
    args = [PARLEY, "--output", "json", "-c", sql]
    if warehouse is not None:
        args += ["--warehouse", str(warehouse)]
    return subprocess.run(args, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, **(env or {})))


def parley(sql, warehouse=None):
    proc = run(sql, warehouse)
    assert proc.returncode == 0, f"Parley failed: {sql}\n{proc.stdout}{proc.stderr}"
    return [json.loads(line, parse_float=decimal.Decimal)
            for line in proc.stdout.splitlines() if line.strip()]


def normalize(value):
    if isinstance(value, float):
        return decimal.Decimal(repr(value))
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=datetime.timezone.utc)
        return value.astimezone(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, str) and len(value) >= 19 and value[4] == "-" and value[10] in " T":
        text = value.replace("T", " ").rstrip("Z")
        if "." not in text:
            text += ".000000"
        return text.ljust(26, "0")
    return value


def multiset(rows, columns):
    return collections.Counter(tuple(normalize(row[c]) for c in columns) for row in rows)


def parley_rows(path, columns, version=None):
    suffix = f"@v{version}" if version is not None else ""
    return multiset(parley(f"SELECT * FROM delta.`{path}{suffix}`"), columns)


def delta_rs_rows(path, columns, version=None):
    # delta-rs's query engine (DataFusion over delta-kernel) applies column mapping; its
    # to_pyarrow_table() does not, and reads mapped columns as nulls.
    table = DeltaTable(str(path), version=version)
    result = QueryBuilder().register("t", table).execute("SELECT * FROM t").read_all()
    return multiset(pa.table(result).to_pylist(), columns)


def assert_same(path, columns, version=None):
    ours = parley_rows(path, columns, version)
    theirs = delta_rs_rows(path, columns, version)
    assert ours == theirs, f"{path}@{version}: Parley {ours} != delta-rs {theirs}"
    return ours


# ---- Parley writes, delta-rs reads.

def test_partitioned_table_with_overwrites(tmp_path):
    path = tmp_path / "orders"
    parley(f"""
        CREATE TABLE delta.`{path}` (id BIGINT NOT NULL, region STRING, amount DECIMAL(10, 2),
                                     day DATE, ts TIMESTAMP, score DOUBLE, ok BOOLEAN)
          USING delta PARTITIONED BY (region, day);
        INSERT INTO delta.`{path}` VALUES
          (1, 'eu', 10.50, DATE '2024-01-01', TIMESTAMP '2024-01-01 10:00:00', 1.5, true),
          (2, 'us', 7.25, DATE '2024-01-02', TIMESTAMP '2024-01-02 11:30:00.123456', NULL, false),
          (3, NULL, NULL, NULL, NULL, -0.5, NULL),
          (4, 'a/b=c %', 1.00, DATE '2024-01-01', NULL, 2.0, true);
        INSERT OVERWRITE delta.`{path}` PARTITION (region = 'us', day = DATE '2024-01-02')
          VALUES (5, 12.00, TIMESTAMP '2024-02-01 00:00:00', 3.0, true);
        INSERT INTO delta.`{path}` SELECT id + 10, region, amount, day, ts, score, ok
          FROM delta.`{path}`;
    """)
    columns = ["id", "region", "amount", "day", "ts", "score", "ok"]
    latest = assert_same(path, columns)
    assert len(latest) == 8
    for version in range(0, 4):
        assert_same(path, columns, version)
    # The partition values delta-rs sees are the ones Parley wrote.
    files = pa.table(DeltaTable(str(path)).get_add_actions(flatten=True)).to_pylist()
    assert {f["partition.region"] for f in files} == {"eu", "us", None, "a/b=c %"}


def test_checkpoints_and_truncate(tmp_path):
    path = tmp_path / "events"
    statements = [f"CREATE TABLE delta.`{path}` (id INT, name STRING) USING delta "
                  "TBLPROPERTIES ('delta.checkpointInterval' = '3')"]
    statements += [f"INSERT INTO delta.`{path}` VALUES ({i}, 'n{i}')" for i in range(7)]
    statements += [f"INSERT OVERWRITE delta.`{path}` VALUES (100, 'after')",
                   f"INSERT INTO delta.`{path}` VALUES (101, 'more')"]
    parley("; ".join(statements))
    log = path / "_delta_log"
    assert (log / "00000000000000000003.checkpoint.parquet").exists()
    assert (log / "00000000000000000006.checkpoint.parquet").exists()
    assert json.loads((log / "_last_checkpoint").read_text())["version"] == 9
    assert assert_same(path, ["id", "name"]) == collections.Counter({(100, "after"): 1,
                                                                     (101, "more"): 1})
    assert_same(path, ["id", "name"], 6)
    # A reader starting from the checkpoint alone sees the same table.
    for commit in range(0, 7):
        (log / f"{commit:020d}.json").unlink()
    assert_same(path, ["id", "name"])


def test_column_mapping_and_rename(tmp_path):
    path = tmp_path / "mapped"
    parley(f"""
        CREATE TABLE delta.`{path}` (a INT, b STRING, p STRING) USING delta PARTITIONED BY (p)
          TBLPROPERTIES ('delta.columnMapping.mode' = 'name');
        INSERT INTO delta.`{path}` VALUES (1, 'x', 'p1'), (2, 'y', 'p2');
        ALTER TABLE delta.`{path}` RENAME COLUMN b TO c;
        INSERT INTO delta.`{path}` VALUES (3, 'z', 'p1');
    """)
    table = DeltaTable(str(path))
    assert table.protocol().min_reader_version == 2
    assert [field.name for field in table.schema().fields] == ["a", "c", "p"]
    assert assert_same(path, ["a", "c", "p"]) == collections.Counter(
        {(1, "x", "p1"): 1, (2, "y", "p2"): 1, (3, "z", "p1"): 1})


def test_ctas_and_replace(tmp_path):
    path = tmp_path / "ctas"
    parley(f"""
        CREATE TABLE delta.`{path}` USING delta AS SELECT id, id * 2 AS twice
          FROM VALUES (1), (2), (3) AS t(id);
        CREATE OR REPLACE TABLE delta.`{path}` USING delta AS SELECT 'new' AS s;
    """)
    assert assert_same(path, ["s"]) == collections.Counter({("new",): 1})
    assert assert_same(path, ["id", "twice"], 0) == collections.Counter(
        {(1, 2): 1, (2, 4): 1, (3, 6): 1})
    history = DeltaTable(str(path)).history()
    assert [h["operation"] for h in history] == ["CREATE OR REPLACE TABLE AS SELECT",
                                                  "CREATE TABLE AS SELECT"]


def test_warehouse_tables_are_plain_delta_tables(tmp_path):
    parley("CREATE NAMESPACE sales; CREATE TABLE sales.t (a INT) USING delta; "
           "INSERT INTO sales.t VALUES (1), (2)", warehouse=tmp_path)
    assert delta_rs_rows(tmp_path / "sales" / "t", ["a"]) == collections.Counter({(1,): 1, (2,): 1})


# ---- delta-rs writes, Parley reads.

def test_delta_rs_tables_after_delete_and_merge(tmp_path):
    path = tmp_path / "rs"
    data = pa.table({"id": pa.array([1, 2, 3, 4], pa.int64()),
                     "name": ["a", "b", "c", "d"],
                     "part": ["x", "x", "y", "y"]})
    write_deltalake(str(path), data, partition_by=["part"])
    write_deltalake(str(path), data.slice(0, 2), mode="append")
    table = DeltaTable(str(path))
    table.delete("id = 3")
    source = pa.table({"id": pa.array([1, 9], pa.int64()), "name": ["A", "I"],
                       "part": ["x", "z"]})
    (table.merge(source, "t.id = s.id", source_alias="s", target_alias="t")
     .when_matched_update_all().when_not_matched_insert_all().execute())
    columns = ["id", "name", "part"]
    final = assert_same(path, columns)
    assert final[(9, "I", "z")] == 1
    for version in range(DeltaTable(str(path)).version() + 1):
        assert_same(path, columns, version)
    # Parley appends to the delta-rs table and delta-rs reads the result.
    parley(f"INSERT INTO delta.`{path}` VALUES (20, 'p', 'x')")
    assert assert_same(path, columns)[(20, "p", "x")] == 1


# ---- Change Data Feed, both ways.

CDF_COLUMNS = ["id", "p", "_change_type", "_commit_version"]


def delta_rs_changes(path, start):
    reader = DeltaTable(str(path)).load_cdf(starting_version=start)
    return multiset(pa.table(reader.read_all()).to_pylist(), CDF_COLUMNS)


def parley_changes(warehouse, path, start):
    rows = parley(f"""
        CREATE TABLE feed USING delta LOCATION '{path}';
        SELECT id, p, _change_type, _commit_version FROM table_changes('feed', {start})""",
                  warehouse)
    return multiset(rows, CDF_COLUMNS)


def test_change_data_feed_read_by_delta_rs(tmp_path):
    """Parley's change data feed (appends, a partition overwrite, a truncate: changes inferred
    from its add and remove actions) is what delta-rs's load_cdf reads, row for row."""
    path = tmp_path / "feed"
    parley(f"""
        CREATE TABLE delta.`{path}` (id BIGINT, p STRING) USING delta PARTITIONED BY (p)
          TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true');
        INSERT INTO delta.`{path}` VALUES (1, 'a'), (2, 'b'), (3, 'a');
        INSERT OVERWRITE delta.`{path}` PARTITION (p = 'a') VALUES (4);
        INSERT INTO delta.`{path}` VALUES (5, NULL);
        TRUNCATE TABLE delta.`{path}`;
        INSERT INTO delta.`{path}` VALUES (6, 'c');
    """)
    ours = parley_changes(tmp_path / "warehouse", path, 0)
    theirs = delta_rs_changes(path, 0)
    assert ours == theirs, f"Parley {ours} != delta-rs {theirs}"
    assert ours[(1, "a", "delete", 2)] == 1 and ours[(5, None, "delete", 4)] == 1, ours


def test_change_data_feed_of_delta_rs_dml(tmp_path):
    """delta-rs's DELETE, UPDATE and MERGE on a table with the change data feed write change
    files; Parley's table_changes reads the same rows as delta-rs's load_cdf."""
    path = tmp_path / "rs-feed"
    data = pa.table({"id": pa.array([1, 2, 3, 4, 5], pa.int64()),
                     "p": ["a", "a", "b", "b", "c"]})
    write_deltalake(str(path), data, partition_by=["p"],
                    configuration={"delta.enableChangeDataFeed": "true"})
    table = DeltaTable(str(path))
    table.delete("id = 2")
    table.update(updates={"id": "id + 100"}, predicate="id = 3")
    source = pa.table({"id": pa.array([1, 9], pa.int64()), "p": ["a", "z"]})
    (table.merge(source, "t.id = s.id", source_alias="s", target_alias="t")
     .when_matched_delete().when_not_matched_insert_all().execute())
    versions = DeltaTable(str(path)).version()
    change_files = [name for root, _, names in os.walk(path / "_change_data") for name in names]
    assert change_files, "delta-rs wrote no change data files"
    ours = parley_changes(tmp_path / "warehouse", path, 0)
    theirs = delta_rs_changes(path, 0)
    assert ours == theirs, f"Parley {ours} != delta-rs {theirs}"
    assert ours[(3, "b", "update_preimage", 2)] == 1 and ours[(103, "b", "update_postimage", 2)] == 1
    assert max(version for _, _, _, version in ours) == versions


def commit_actions(path, version):
    with open(path / "_delta_log" / f"{version:020d}.json") as log:
        return [json.loads(line) for line in log if line.strip()]


def test_change_data_feed_of_parley_dml_read_by_delta_rs(tmp_path):
    """Parley's DELETE, UPDATE and MERGE on a table with the change data feed write change files
    in the rewrite's commit; delta-rs's load_cdf reads the same rows as Parley's table_changes,
    NULL keys and the NULL partition included."""
    path = tmp_path / "dml-feed"
    parley(f"""
        CREATE TABLE delta.`{path}` (id BIGINT, p STRING) USING delta PARTITIONED BY (p)
          TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true');
        INSERT INTO delta.`{path}` VALUES (1, 'a'), (2, 'a'), (3, 'b'), (4, NULL), (5, 'c'),
          (NULL, 'c');
        DELETE FROM delta.`{path}` WHERE id = 2;
        UPDATE delta.`{path}` SET id = id + 100 WHERE id = 3 OR id IS NULL;
        MERGE INTO delta.`{path}` t
          USING (VALUES (1, 'a'), (4, 'x'), (9, 'z'), (NULL, 'n')) AS s(id, p) ON t.id = s.id
          WHEN MATCHED AND s.p = 'a' THEN DELETE
          WHEN MATCHED THEN UPDATE SET p = s.p
          WHEN NOT MATCHED THEN INSERT *
          WHEN NOT MATCHED BY SOURCE AND t.p = 'c' THEN UPDATE SET id = -t.id;
        DELETE FROM delta.`{path}` WHERE p = 'x';
    """)
    for version in (2, 3, 4):
        kinds = {next(iter(action)) for action in commit_actions(path, version)}
        assert "cdc" in kinds, f"version {version} has no cdc actions: {kinds}"
    assert "cdc" not in {next(iter(a)) for a in commit_actions(path, 5)}
    ours = parley_changes(tmp_path / "warehouse", path, 0)
    theirs = delta_rs_changes(path, 0)
    assert ours == theirs, f"Parley {ours} != delta-rs {theirs}"
    assert ours[(3, "b", "update_preimage", 3)] == 1, ours
    assert ours[(103, "b", "update_postimage", 3)] == 1, ours
    assert ours[(4, None, "update_preimage", 4)] == 1, ours
    assert ours[(4, "x", "update_postimage", 4)] == 1, ours
    assert ours[(1, "a", "delete", 4)] == 1 and ours[(None, "n", "insert", 4)] == 1, ours
    assert ours[(-5, "c", "update_postimage", 4)] == 1 and ours[(4, "x", "delete", 5)] == 1, ours
    assert sum(ours.values()) == 6 + 1 + 4 + 9 + 1, ours


# ---- Concurrency: put-if-absent commits and conflict detection.

def test_four_processes_append_concurrently(tmp_path):
    path = tmp_path / "concurrent"
    parley(f"CREATE TABLE delta.`{path}` (writer INT, seq INT) USING delta")
    procs = []
    for writer in range(4):
        script = "; ".join(f"INSERT INTO delta.`{path}` VALUES ({writer}, {seq})"
                           for seq in range(50))
        procs.append(subprocess.Popen([PARLEY, "-c", script], stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True))
    for proc in procs:
        output, _ = proc.communicate(timeout=600)
        assert proc.returncode == 0, output
    table = DeltaTable(str(path))
    assert table.version() == 200
    rows = parley_rows(path, ["writer", "seq"])
    assert rows == collections.Counter({(w, s): 1 for w in range(4) for s in range(50)})
    assert rows == delta_rs_rows(path, ["writer", "seq"])


# ---- Crash safety: a writer killed at each fault point.

@pytest.mark.parametrize("point", ["task.beforeWrite", "task.beforeCommit",
                                   "driver.beforeCommit", "driver.insideCommit"])
def test_killed_writer_leaves_previous_version(tmp_path, point):
    path = tmp_path / "killed"
    parley(f"CREATE TABLE delta.`{path}` (id INT, part INT) USING delta PARTITIONED BY (part); "
           f"INSERT INTO delta.`{path}` VALUES (1, 1), (2, 2)")
    proc = run(f"INSERT INTO delta.`{path}` VALUES (3, 1), (4, 3)",
               env={"PARLEY_FAULT_INJECTION": f"{point}:kill"})
    assert proc.returncode == -signal.SIGKILL, proc.stdout + proc.stderr
    assert DeltaTable(str(path)).version() == 1
    assert assert_same(path, ["id"]) == collections.Counter({(1,): 1, (2,): 1})
    parley(f"INSERT INTO delta.`{path}` VALUES (5, 5)")
    assert assert_same(path, ["id"]) == collections.Counter({(1,): 1, (2,): 1, (5,): 1})


# ---- Corrupt input: a clear error naming the file or feature, never a crash.

def make_table(path):
    parley(f"CREATE TABLE delta.`{path}` (id INT, s STRING) USING delta "
           "TBLPROPERTIES ('delta.checkpointInterval' = '2'); "
           f"INSERT INTO delta.`{path}` VALUES (1, 'a'); INSERT INTO delta.`{path}` VALUES (2, 'b'); "
           f"INSERT INTO delta.`{path}` VALUES (3, 'c')")


def expect_error(path, condition, names):
    proc = run(f"SELECT * FROM delta.`{path}`")
    output = proc.stdout + proc.stderr
    assert proc.returncode == 1, output
    assert f"[{condition}]" in output, output
    assert names in output, output


def test_truncated_commit(tmp_path):
    path = tmp_path / "t"
    make_table(path)
    commit = path / "_delta_log" / "00000000000000000003.json"
    commit.write_text(commit.read_text()[:40])
    expect_error(path, "FAILED_READ_FILE.NO_HINT", "00000000000000000003.json")


def test_missing_data_file(tmp_path):
    path = tmp_path / "t"
    make_table(path)
    victim = sorted(p for p in path.iterdir() if p.suffix == ".parquet")[0]
    victim.unlink()
    expect_error(path, "FAILED_READ_FILE.FILE_NOT_EXIST", victim.name)


def test_checkpoint_with_bad_schema(tmp_path):
    path = tmp_path / "t"
    make_table(path)
    checkpoint = path / "_delta_log" / "00000000000000000002.checkpoint.parquet"
    import pyarrow.parquet as pq
    pq.write_table(pa.table({"add": pa.array([1, 2], pa.int64())}), checkpoint)
    expect_error(path, "FAILED_READ_FILE.NO_HINT", "00000000000000000002.checkpoint.parquet")


def test_unsupported_reader_feature(tmp_path):
    path = tmp_path / "t"
    make_table(path)
    commit = path / "_delta_log" / "00000000000000000004.json"
    commit.write_text(json.dumps({"protocol": {"minReaderVersion": 3, "minWriterVersion": 7,
                                               "readerFeatures": ["futureFeature"],
                                               "writerFeatures": ["futureFeature"]}}) + "\n")
    expect_error(path, "DELTA_UNSUPPORTED_FEATURES_FOR_READ", "futureFeature")
    proc = run(f"INSERT INTO delta.`{path}` VALUES (9, 'z')")
    assert proc.returncode == 1 and "futureFeature" in proc.stdout + proc.stderr
