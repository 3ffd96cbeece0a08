"""The plan EXPLAIN shows is the plan that runs, for the 22 TPC-H queries at scale factor 0.01.

Each query's EXPLAIN FORMATTED (the final plan, nothing run) is compared with its EXPLAIN
ANALYZE (the same plan run, each operator with what it did):

- the operator trees are identical;
- every join with planned runtime filters ("RuntimeFilter: [...]") computed its planned build
  side first ("Executed: build side (N) first") and offered exactly the planned filters, or
  none when the build side had more rows than maxBuildRows; no other join did either;
- every operator that reuses a subplan ("Reuses: (M)") read or computed the shared rows, one
  of the operators sharing them computed them, and no other operator shared anything.

Q5 and Q9 must show runtime filters that then run; Q15 a reused subplan.

Environment: PARLEY_BIN (default build/parley).
"""

import pathlib
import re

import pytest

from duckdb_compare import parley_query
from tpch_data import generate, load_warehouse

QUERIES = pathlib.Path(__file__).parent / "tpch"
OPERATOR = re.compile(r"^\((\d+)\) ")


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory):
    root = tmp_path_factory.mktemp("tpch_plans")
    data = root / "data"
    generate("0.01", data)
    warehouse = root / "warehouse"
    load_warehouse(data, warehouse)
    return warehouse


def explain(mode, text, warehouse):
    rows = parley_query(f"EXPLAIN {mode} {text}", warehouse)
    return rows[0]["plan"]


def split(plan):
    """The operator tree, and the detail lines of each numbered operator."""
    tree, _, details = plan.partition("\n\n")
    blocks = {}
    current = None
    for line in details.splitlines():
        match = OPERATOR.match(line)
        if match:
            current = int(match.group(1))
            blocks[current] = []
        elif current is not None and line:
            blocks[current].append(line)
    return tree, blocks


def value(block, prefix):
    found = [line[len(prefix):] for line in block if line.startswith(prefix)]
    return found[0] if found else None


@pytest.mark.parametrize("number", range(1, 23))
def test_explained_plan_is_the_executed_plan(warehouse, number):
    text = (QUERIES / f"q{number:02d}.sql").read_text()
    planned_tree, planned = split(explain("FORMATTED", text, warehouse))
    executed_tree, executed = split(explain("ANALYZE", text, warehouse))
    assert executed_tree == planned_tree, f"Q{number}: the tree that ran differs"
    assert executed.keys() == planned.keys()
    filtered = reused = 0
    shared_groups = {}
    for operator, block in planned.items():
        ran = executed[operator]
        runtime_filter = value(block, "RuntimeFilter: ")
        build = value(ran, "Executed: build side ")
        if runtime_filter is None:
            assert build is None, f"Q{number} ({operator}): built first without a plan for it"
        else:
            assert build is not None, f"Q{number} ({operator}): planned runtime filter not run"
            offered = build.split("runtime filters offered: ", 1)[1]
            assert offered == runtime_filter or offered.startswith("none ("), \
                f"Q{number} ({operator}): offered {offered}, planned {runtime_filter}"
            filtered += offered == runtime_filter
        reuses = value(block, "Reuses: (")
        shared = value(ran, "Executed: ")
        shares = shared is not None and "shared rows" in shared or (
            shared is not None and shared.startswith("read the rows"))
        if reuses is not None:
            first = int(reuses.split(")")[0])
            shared_groups.setdefault(first, []).append(operator)
            assert shares, f"Q{number} ({operator}): planned reuse of ({first}) not run"
            reused += 1
    for first, users in shared_groups.items():
        members = [first] + users
        computed = [m for m in members
                    if value(executed[m], "Executed: computed the shared rows") is not None]
        assert len(computed) == 1, f"Q{number}: shared rows of ({first}) computed {computed}"
    sharing = {m for first, users in shared_groups.items() for m in [first] + users}
    for operator, ran in executed.items():
        if operator not in sharing:
            assert not any("shared rows" in line or line.startswith("Executed: read the rows")
                           for line in ran), f"Q{number} ({operator}): shares without a plan"
    if number in (5, 9):
        assert filtered > 0, f"Q{number}: no planned runtime filter ran"
    if number == 15:
        assert reused > 0, "Q15: no reused subplan"
