"""CHANGES on Delta tables with row tracking: Parley and Spark (pyspark + delta-spark with
spark.databricks.delta.changelogV2.enabled) return the same rows, as multisets, for
`SELECT * FROM t CHANGES FROM VERSION a TO VERSION b` with every deduplication mode and
computeUpdates, over the whole history and over narrower ranges.

The tables: one Spark writes with copy-on-write DML (its DELETE, UPDATE and MERGE rewrite files
and keep the copied rows' ids and versions, so the raw rows hold carry-overs), one Spark writes
with deletion vectors (a DELETE re-adds a file with a new vector: its live rows come back as a
delete and an insert), and one Parley writes (inserts, DELETE, UPDATE, MERGE).

Shares test_delta_spark.py's Spark session settings and helpers; Parley reads the tables through
catalog tables at their locations.
"""

import pytest

from delta_compare import rows_multiset
from test_delta_spark import parley, spark, sql  # noqa: F401 (the module's Spark fixture)

# (deduplicationMode, computeUpdates) pairs both engines accept.
MODES = [("none", False), ("dropCarryovers", False), ("dropCarryovers", True),
         ("netChanges", False), ("netChanges", True)]


@pytest.fixture(scope="module", autouse=True)
def changelog_v2(spark):  # noqa: F811
    spark.conf.set("spark.databricks.delta.changelogV2.enabled", "true")


def changes(table, start, end, mode, updates):
    return (f"SELECT * FROM {table} CHANGES FROM VERSION {start} TO VERSION {end} WITH "
            f"(deduplicationMode = '{mode}', computeUpdates = '{str(updates).lower()}')")


def check_changes(spark, tmp_path, path, name, ranges):  # noqa: F811
    """Every mode over every range: Parley's rows are Spark's (which must not all be empty)."""
    sql(spark, f"CREATE TABLE IF NOT EXISTS {name} USING delta LOCATION '{path}'")
    setup = f"CREATE TABLE IF NOT EXISTS {name} USING delta LOCATION '{path}';\n"
    seen = 0
    for start, end in ranges:
        for mode, updates in MODES:
            query = changes(name, start, end, mode, updates)
            expected = spark.sql(query).toArrow()
            seen += expected.num_rows
            rows = parley(tmp_path, setup + query)
            if rows:
                assert list(rows[0]) == expected.schema.names, query
            got = rows_multiset(rows, expected.schema, True)
            want = rows_multiset(expected.to_pylist(), expected.schema, False)
            assert got == want, (f"{query}: rows differ; missing {list((want - got).items())[:5]}; "
                                 f"unexpected {list((got - want).items())[:5]}")
    assert seen > 0, f"{name}: Spark returned no change rows at all"
    return setup


def carry_overs(rows):
    """(row id, commit version) groups holding one delete and one insert of one row version."""
    groups = {}
    for row in rows:
        key = (row["_metadata"]["row_id"], row["_commit_version"])
        groups.setdefault(key, []).append(row)
    return [key for key, group in groups.items()
            if sorted(r["_change_type"] for r in group) == ["delete", "insert"]
            and len({r["_metadata"]["row_commit_version"] for r in group}) == 1]


def test_spark_copy_on_write_changes(spark, tmp_path):  # noqa: F811
    path = str(tmp_path / "cow")
    sql(spark,
        f"CREATE TABLE delta.`{path}` (id BIGINT, grp STRING) USING delta TBLPROPERTIES "
        f"('delta.enableRowTracking'='true', 'delta.enableDeletionVectors'='false')",
        f"INSERT INTO delta.`{path}` SELECT id, CAST(id % 3 AS STRING) FROM range(0, 30, 1, 2)",
        f"DELETE FROM delta.`{path}` WHERE id % 7 = 0",
        f"UPDATE delta.`{path}` SET grp = 'u' WHERE id % 5 = 1",
        f"INSERT INTO delta.`{path}` SELECT id, 'second' FROM range(100, 104)",
        f"MERGE INTO delta.`{path}` t USING (SELECT id FROM range(0, 120, 9)) s ON t.id = s.id "
        f"WHEN MATCHED AND t.id % 2 = 0 THEN DELETE WHEN MATCHED THEN UPDATE SET t.grp = 'm' "
        f"WHEN NOT MATCHED THEN INSERT (id, grp) VALUES (s.id, 'new')")
    setup = check_changes(spark, tmp_path, path, "cow_changes", [(1, 5), (2, 3), (3, 5)])
    # The DELETE copied rows: raw, they are carry-overs; by default they are gone.
    raw = parley(tmp_path, setup + changes("cow_changes", 2, 2, "none", False))
    assert carry_overs(raw), "the copy-on-write DELETE showed no carry-over"
    dropped = parley(tmp_path, setup + changes("cow_changes", 2, 2, "dropCarryovers", False))
    assert not carry_overs(dropped) and {r["_change_type"] for r in dropped} == {"delete"}
    assert sorted(r["id"] for r in dropped) == [0, 7, 14, 21, 28]
    # The UPDATE's rows pair up as updates.
    updated = parley(tmp_path, setup + changes("cow_changes", 3, 3, "dropCarryovers", True))
    assert {r["_change_type"] for r in updated} == {"update_preimage", "update_postimage"}


def test_spark_deletion_vector_changes(spark, tmp_path):  # noqa: F811
    path = str(tmp_path / "dv")
    sql(spark,
        f"CREATE TABLE delta.`{path}` (id BIGINT, grp STRING) USING delta TBLPROPERTIES "
        f"('delta.enableRowTracking'='true', 'delta.enableDeletionVectors'='true')",
        f"INSERT INTO delta.`{path}` SELECT id, CAST(id % 3 AS STRING) FROM range(0, 40, 1, 2)",
        f"DELETE FROM delta.`{path}` WHERE id % 7 = 0",
        f"DELETE FROM delta.`{path}` WHERE id % 7 = 1",
        f"UPDATE delta.`{path}` SET grp = 'u' WHERE id % 5 = 2")
    check_changes(spark, tmp_path, path, "dv_changes", [(1, 4), (2, 3)])


def test_parley_written_changes(spark, tmp_path):  # noqa: F811
    path = str(tmp_path / "parley")
    first = ", ".join(f"({i}L, '{i % 3}')" for i in range(20))
    second = ", ".join(f"({i}L, 'second')" for i in range(100, 105))
    source = ", ".join(f"({i}L)" for i in range(0, 110, 9))
    parley(tmp_path, f"""
        CREATE TABLE delta.`{path}` (id BIGINT, grp STRING) USING delta
          TBLPROPERTIES ('delta.enableRowTracking' = 'true');
        INSERT INTO delta.`{path}` VALUES {first};
        INSERT INTO delta.`{path}` VALUES {second};
        DELETE FROM delta.`{path}` WHERE id % 7 = 0;
        UPDATE delta.`{path}` SET grp = 'u' WHERE id % 5 = 1;
        MERGE INTO delta.`{path}` t USING (SELECT * FROM VALUES {source} AS v(id)) s ON t.id = s.id
          WHEN MATCHED AND t.id % 2 = 0 THEN DELETE WHEN MATCHED THEN UPDATE SET t.grp = 'm'
          WHEN NOT MATCHED THEN INSERT (id, grp) VALUES (s.id, 'new')""")
    check_changes(spark, tmp_path, path, "parley_changes", [(1, 5), (3, 4)])


def test_update_detection_needs_carry_over_removal(spark, tmp_path):  # noqa: F811
    path = str(tmp_path / "refused")
    sql(spark,
        f"CREATE TABLE delta.`{path}` (id BIGINT) USING delta TBLPROPERTIES "
        f"('delta.enableRowTracking'='true')",
        f"INSERT INTO delta.`{path}` VALUES (1)")
    sql(spark, f"CREATE TABLE refused_changes USING delta LOCATION '{path}'")
    query = changes("refused_changes", 1, 1, "none", True)
    with pytest.raises(Exception, match="UPDATE_DETECTION_REQUIRES_CARRY_OVER_REMOVAL"):
        spark.sql(query).collect()
    with pytest.raises(AssertionError, match="UPDATE_DETECTION_REQUIRES_CARRY_OVER_REMOVAL"):
        parley(tmp_path, f"CREATE TABLE IF NOT EXISTS refused_changes USING delta LOCATION '{path}';\n" + query)
