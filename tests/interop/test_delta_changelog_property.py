"""Property test of CHANGES on Delta: random DML histories (seeded) on a row-tracking table
written by Parley, and for random version ranges [a, b], the net changes (deduplicationMode
netChanges) equal the difference between the table at version a - 1 and at version b, by row id:
a row id only before is a delete of its old row, only after an insert of its new row, and in
both with a row commit version inside the range a delete of the old row and an insert of the new
one (an update pair with computeUpdates); untouched rows give nothing.

Runs Parley's CLI only (PARLEY_BIN, default build/parley).
"""

import collections
import json
import random
import subprocess

import pytest

from delta_compare import PARLEY


def run(warehouse, statements):
    proc = subprocess.run([PARLEY, "--warehouse", str(warehouse), "--output", "json",
                           "-c", statements], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"Parley failed on:\n{statements}\n{proc.stdout}{proc.stderr}"
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def random_history(rng, statements):
    """`statements` DML statements on table t (id BIGINT, grp STRING)."""
    out, next_id = [], 10
    for _ in range(statements):
        kind = rng.choice(["insert", "delete", "update", "merge"])
        if kind == "insert":
            rows = ", ".join(f"({next_id + i}L, 'g{rng.randrange(3)}')"
                             for i in range(rng.randrange(1, 4)))
            next_id += 4
            out.append(f"INSERT INTO t VALUES {rows}")
        elif kind == "delete":
            out.append(f"DELETE FROM t WHERE id % {rng.randrange(3, 7)} = {rng.randrange(3)}")
        elif kind == "update":
            out.append(f"UPDATE t SET grp = 'u{rng.randrange(9)}' "
                       f"WHERE id % {rng.randrange(2, 5)} = {rng.randrange(2)}")
        else:
            keys = ", ".join(f"({rng.randrange(next_id + 3)}L)" for _ in range(3))
            out.append(f"MERGE INTO t USING (SELECT DISTINCT id FROM VALUES {keys} AS s(id)) s "
                       f"ON t.id = s.id WHEN MATCHED THEN UPDATE SET grp = 'm' "
                       f"WHEN NOT MATCHED THEN INSERT (id, grp) VALUES (s.id, 'n')")
    return out


def state(warehouse, version):
    rows = run(warehouse, f"SELECT _metadata.row_id AS rid, _metadata.row_commit_version AS rv, "
                          f"id, grp FROM t VERSION AS OF {version}")
    return {row["rid"]: row for row in rows}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_net_changes_are_the_difference_of_the_two_states(tmp_path, seed):
    rng = random.Random(seed)
    history = random_history(rng, 8)
    initial = ", ".join(f"({i}L, 'g{i % 3}')" for i in range(10))
    run(tmp_path, ";\n".join(
        ["CREATE TABLE t (id BIGINT, grp STRING) USING delta "
         "TBLPROPERTIES ('delta.enableRowTracking' = 'true')",
         f"INSERT INTO t VALUES {initial}"] + history))
    log = tmp_path / "default" / "t" / "_delta_log"
    latest = max(int(p.name[:20]) for p in log.glob("*.json"))  # DML matching nothing: no commit
    states = {v: state(tmp_path, v) for v in range(0, latest + 1)}
    ranges = [(1, latest)] + [tuple(sorted(rng.sample(range(1, latest + 1), 2)))
                              for _ in range(4)]
    for start, end in ranges:
        before, after = states[start - 1], states[end]
        for updates in (False, True):
            want = collections.Counter()
            for rid in before.keys() | after.keys():
                old, new = before.get(rid), after.get(rid)
                if old is not None and new is not None and new["rv"] < start:
                    continue  # untouched in the range
                if old is not None:
                    kind = "update_preimage" if updates and new is not None else "delete"
                    want[(rid, old["id"], old["grp"], kind)] += 1
                if new is not None:
                    kind = "update_postimage" if updates and old is not None else "insert"
                    want[(rid, new["id"], new["grp"], kind)] += 1
            rows = run(tmp_path, f"SELECT _metadata.row_id AS rid, id, grp, _change_type "
                                 f"FROM t CHANGES FROM VERSION {start} TO VERSION {end} WITH "
                                 f"(deduplicationMode = 'netChanges', "
                                 f"computeUpdates = '{str(updates).lower()}')")
            got = collections.Counter(
                (r["rid"], r["id"], r["grp"], r["_change_type"]) for r in rows)
            assert got == want, (f"seed {seed}, versions [{start}, {end}], computeUpdates "
                                 f"{updates}: missing {list((want - got).items())[:5]}, "
                                 f"unexpected {list((got - want).items())[:5]}\n{history}")
