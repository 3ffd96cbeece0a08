"""Casts, arithmetic, comparisons, aggregates and ordering on boundary values: Parley against Spark.

The cases and their values are in ansi_cases.py (every cast between Spark's scalar types, every
arithmetic operator on each numeric type's edges, NaN / -0.0 / NULL comparisons, overflowing
sums, NaN in min/max, ordering, grouping and joins). One Spark session (local[1], ANSI mode, UTC)
answers each case; the answers become a SQL logic test file that parley_slt runs, so each case
must give Spark's rows or fail with Spark's error condition.

Cases where Parley is known to differ are listed in ansi_known_deviations.txt, each under a
comment saying how; the test fails when a case outside the list differs, and when a listed case
no longer differs (the list must shrink as they are fixed). The generated file without the
listed cases is tests/sql/select/ansi_boundaries.slt, which ctest runs without Spark; the test
fails when it is stale (regenerate it with `python3 tests/interop/test_ansi_property.py`).

That file records which Spark version answered. When it is the installed pyspark, the test asks
Spark only what the file lacks: every listed deviation (so each is checked against Spark, live)
and every case added since; the other answers are the recorded ones, which ctest checks Parley
against in every run. Another Spark version, or PARLEY_ANSI_ASK_ALL=1, asks Spark every case.

Environment: PARLEY_SLT (the parley_slt executable, default build/tests/parley_slt),
PARLEY_BUILD_DIR (its --build-dir, default build).
"""

import os
import re
import subprocess
import sys

import pytest

import ansi_cases
import spark_session

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
BUILD = os.environ.get("PARLEY_BUILD_DIR", os.path.join(REPO, "build"))
SLT = os.environ.get("PARLEY_SLT", os.path.join(BUILD, "tests", "parley_slt"))
KNOWN = os.path.join(HERE, "ansi_known_deviations.txt")
COMMITTED = os.path.join(REPO, "tests", "sql", "select", "ansi_boundaries.slt")


def known_deviations():
    """The cases listed as known deviations (one SQL text a line; '#' lines are comments)."""
    with open(KNOWN) as f:
        return {line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")}


def start_spark(work):
    return spark_session.start_spark(work, "parley-ansi")


def failing_cases(slt_path, record_line):
    """The cases whose records parley_slt reports as failing, with its report of each."""
    proc = subprocess.run([SLT, "--build-dir", BUILD, slt_path], capture_output=True, text=True,
                          timeout=900)
    by_line = {line: case for case, line in record_line.items()}
    failures = {}
    current = None
    for line in proc.stdout.splitlines():
        match = re.match(r"FAIL .*?:(\d+): ", line)
        if match:
            current = by_line.get(int(match.group(1)), f"<record at line {match.group(1)}>")
            failures[current] = line
        elif current is not None and len(failures[current]) < 2000:
            failures[current] += "\n" + line
    if proc.returncode != 0 and not failures:
        raise AssertionError(f"parley_slt failed without a FAIL line:\n{proc.stdout}{proc.stderr}")
    return failures


def spark_version():
    import pyspark

    return pyspark.__version__


@pytest.fixture(scope="module")
def answers(tmp_path_factory):
    cases = ansi_cases.all_cases()
    recorded_version, recorded = ansi_cases.read_slt(COMMITTED)
    if recorded_version != spark_version() or os.environ.get("PARLEY_ANSI_ASK_ALL") == "1":
        recorded = {}
    spark = start_spark(str(tmp_path_factory.mktemp("spark")))
    try:
        asked = ansi_cases.spark_answers(spark, [c for c in cases if c not in recorded])
        yield cases, {c: asked[c] if c in asked else recorded[c] for c in cases}
    finally:
        spark.stop()


def test_boundary_values_agree_with_spark(answers, tmp_path):
    cases, spark = answers
    known = known_deviations()
    unknown_listed = sorted(known - set(cases))
    assert not unknown_listed, f"listed deviations that are no case: {unknown_listed[:5]}"
    slt = str(tmp_path / "ansi_all.slt")
    record_line = ansi_cases.write_slt(spark, cases, slt)
    failures = failing_cases(slt, record_line)
    new = [failures[c] for c in cases if c in failures and c not in known]
    fixed = [c for c in cases if c in known and c not in failures]
    assert not new, f"{len(new)} cases differ from Spark:\n" + "\n\n".join(new[:30])
    assert not fixed, (f"{len(fixed)} listed deviations now agree with Spark; remove them from "
                       "ansi_known_deviations.txt:\n" + "\n".join(fixed[:30]))


def test_committed_slt_is_current(answers, tmp_path):
    cases, spark = answers
    generated = tmp_path / "ansi_boundaries.slt"
    ansi_cases.write_slt(spark, cases, str(generated), skip=known_deviations(),
                         spark_version=spark_version())
    with open(COMMITTED) as f:
        committed = f.read()
    assert generated.read_text() == committed, (
        "tests/sql/select/ansi_boundaries.slt is stale: run python3 "
        "tests/interop/test_ansi_property.py")


if __name__ == "__main__":
    # Regenerates tests/sql/select/ansi_boundaries.slt from Spark's answers.
    import tempfile

    session = start_spark(tempfile.mkdtemp())
    all_cases = ansi_cases.all_cases()
    ansi_cases.write_slt(ansi_cases.spark_answers(session, all_cases), all_cases, COMMITTED,
                         skip=known_deviations(), spark_version=spark_version())
    session.stop()
    sys.exit(0)
