"""Spark's built-in functions, by their documented examples: Parley against Spark.

The function list and each function's examples come from the installed pyspark at test time
(`SHOW SYSTEM FUNCTIONS`, `DESCRIBE FUNCTION EXTENDED f`); nothing of them is kept here. Every
example that is a single SELECT, runs on Spark, and is deterministic (Spark's analyzed plan says
so, and two runs agree) is run on Spark with each column cast to STRING, and on Parley with
`--output csv`; the two are compared as text, NULL apart from the empty string, in order when
the query has an ORDER BY of its own and as multisets when it has not.

A function agrees when every one of its runnable examples does. The per-function results go to
a JSON report (PARLEY_FUNCTIONS_REPORT, default <build>/spark_functions.json) and the counts
are printed. The test fails when a function listed in spark_functions_passing.txt no longer
agrees, and when one agrees that the list lacks, so the list is exact and only grows
(`python3 tests/interop/test_spark_functions.py --update` rewrites it).

Environment: PARLEY_BIN (the CLI, default <build>/parley), PARLEY_BUILD_DIR (default build),
PARLEY_SPARK_ANSWERS (a file keeping Spark's answers between runs while developing).
"""

import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

import spark_session

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
BUILD = os.environ.get("PARLEY_BUILD_DIR", os.path.join(REPO, "build"))
PARLEY = os.environ.get("PARLEY_BIN", os.path.join(BUILD, "parley"))
PASSING = os.path.join(HERE, "spark_functions_passing.txt")
REPORT = os.environ.get("PARLEY_FUNCTIONS_REPORT", os.path.join(BUILD, "spark_functions.json"))

# Functions whose value depends on when, where or in which session it runs; their examples
# are not compared even when two runs happen to agree.
SESSION_DEPENDENT = {
    "current_catalog", "current_database", "current_schema", "current_user", "session_user",
    "user", "version", "input_file_name", "input_file_block_start", "input_file_block_length",
    "spark_partition_id", "monotonically_increasing_id", "current_date", "current_timestamp",
    "current_timezone", "now", "curdate", "localtimestamp", "current_time", "uuid", "rand",
    "randn", "random", "randstr", "uniform", "shuffle", "unix_timestamp",
}


def examples_of(extended_usage):
    """The SELECT statements of a function's "Examples:" section, without their ';'."""
    lines = extended_usage.split("\n")
    statements = []
    in_examples = False
    current = None
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("Examples:"):
            in_examples = True
            continue
        if not in_examples:
            continue
        if current is not None:
            current.append(stripped)
            if stripped.endswith(";"):
                statements.append(" ".join(current)[:-1])
                current = None
            continue
        if stripped.startswith("> "):
            text = stripped[2:]
            if text.endswith(";"):
                statements.append(text[:-1])
            else:
                current = [text]
    return [s for s in statements if re.match(r"(?i)select\b", s)]


def describe_examples(spark):
    """{function name: [example SQL]} for every system function with at least one example."""
    names = [row[0] for row in spark.sql("SHOW SYSTEM FUNCTIONS").collect()]
    found = {}
    for name in names:
        rows = [row[0] for row in spark.sql(f"DESCRIBE FUNCTION EXTENDED `{name}`").collect()]
        usage = next((r for r in rows if r.startswith("Extended Usage:")), "")
        examples = examples_of(usage)
        if examples:
            found[name] = examples
    return found


def spark_answer(spark, sql):
    """Spark's rows for `sql` as text (None for NULL), or None when it is not a deterministic
    query Spark runs."""
    from pyspark.sql.functions import col

    try:
        frame = spark.sql(sql)
        if not frame._jdf.queryExecution().analyzed().deterministic():
            return None
        columns = [f"c{i}" for i in range(len(frame.columns))]
        frame = frame.toDF(*columns).select([col(c).cast("string") for c in columns])
        first = [list(row) for row in frame.collect()]
        second = [list(row) for row in frame.collect()]
    except Exception:
        return None
    return first if first == second else None


def spark_answers(work):
    """{function: [(example, Spark's rows)]} for the runnable deterministic examples."""
    spark = spark_session.start_spark(work, "parley-functions")
    try:
        answers = {}
        for name, examples in describe_examples(spark).items():
            if name in SESSION_DEPENDENT:
                continue
            runnable = []
            for sql in examples:
                rows = spark_answer(spark, sql)
                if rows is not None:
                    runnable.append((sql, rows))
            if runnable:
                answers[name] = runnable
        return answers
    finally:
        spark.stop()


def parse_csv(text):
    """Rows of Parley's CSV output without its header; an unquoted empty field is NULL (None),
    a quoted one the empty string."""
    rows, row, field, quoted, in_quotes, i = [], [], "", False, False, 0
    while i < len(text):
        ch = text[i]
        if in_quotes:
            if ch == '"' and text[i + 1:i + 2] == '"':
                field += '"'
                i += 1
            elif ch == '"':
                in_quotes = False
            else:
                field += ch
        elif ch == '"':
            in_quotes, quoted = True, True
        elif ch == ",":
            row.append(field if field or quoted else None)
            field, quoted = "", False
        elif ch == "\n":
            row.append(field if field or quoted else None)
            rows.append(row)
            row, field, quoted = [], "", False
        elif ch != "\r":
            field += ch
        i += 1
    if field or quoted or row:
        row.append(field if field or quoted else None)
        rows.append(row)
    return rows[1:]


def parley_answer(sql, warehouse):
    """Parley's rows for `sql` as text, or its error message."""
    try:
        proc = subprocess.run(
            [PARLEY, "--output", "csv", "--warehouse", warehouse,
             "--conf", "spark.sql.session.timeZone=UTC", "-c", sql],
            capture_output=True, text=True, errors="replace", timeout=60)
    except subprocess.TimeoutExpired:
        return None, "timed out after 60 s"
    if proc.returncode != 0:
        return None, (proc.stderr.strip() or f"exit code {proc.returncode}")[:500]
    return parse_csv(proc.stdout), None


def orders_rows(sql):
    """Whether `sql` orders its result: an ORDER BY outside every parenthesis (a window's
    ORDER BY orders only the window's rows)."""
    outer = sql
    while True:
        stripped = re.sub(r"\([^()]*\)", "", outer)
        if stripped == outer:
            break
        outer = stripped
    return re.search(r"\border\s+by\b", outer, re.IGNORECASE) is not None


def same_rows(sql, rows, expected):
    """Rows agree as lists when the query orders them, as multisets otherwise."""
    if orders_rows(sql):
        return rows == expected
    key = lambda row: [(value is None, value or "") for value in row]
    return sorted(rows, key=key) == sorted(expected, key=key)


def compare(answers, work):
    """{function: {"agrees": bool, "examples": [...]}} comparing Parley with Spark."""
    warehouse = os.path.join(work, "parley-warehouse")
    jobs = [(name, sql, rows) for name, cases in answers.items() for sql, rows in cases]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda job: parley_answer(job[1], warehouse), jobs))
    report = {}
    for (name, sql, expected), (rows, error) in zip(jobs, results):
        entry = report.setdefault(name, {"agrees": True, "examples": []})
        agrees = error is None and same_rows(sql, rows, expected)
        entry["agrees"] = entry["agrees"] and agrees
        entry["examples"].append({"sql": sql, "spark": expected, "parley": rows, "error": error,
                                  "agrees": agrees})
    return report


def listed_passing():
    with open(PASSING) as f:
        return {line.strip() for line in f if line.strip() and not line.startswith("#")}


def write_passing(names):
    with open(PASSING, "w") as f:
        f.write("# Spark functions whose documented examples all give Spark's answer on Parley\n"
                "# (tests/interop/test_spark_functions.py keeps this list exact).\n")
        for name in sorted(names):
            f.write(name + "\n")


def cached_spark_answers(work):
    """Spark's answers, kept in PARLEY_SPARK_ANSWERS when that names a file: read from it when
    it exists, else asked and written there (a developer's shortcut between Parley builds)."""
    cache = os.environ.get("PARLEY_SPARK_ANSWERS")
    if cache and os.path.exists(cache):
        with open(cache) as f:
            return json.load(f)
    answers = spark_answers(work)
    if cache:
        with open(cache, "w") as f:
            json.dump(answers, f)
    return answers


def run(work):
    report = compare(cached_spark_answers(work), work)
    with open(REPORT, "w") as f:
        json.dump(report, f, indent=1, sort_keys=True)
    agreeing = {name for name, entry in report.items() if entry["agrees"]}
    print(f"{len(agreeing)} of {len(report)} functions agree with Spark on every runnable "
          f"example ({100.0 * len(agreeing) / max(len(report), 1):.1f}%); report: {REPORT}")
    return report, agreeing


def test_functions_agree_with_spark(tmp_path):
    report, agreeing = run(str(tmp_path))
    listed = listed_passing()
    regressed = sorted(listed - agreeing)
    unlisted = sorted(agreeing - listed)
    details = []
    for name in regressed:
        for example in report.get(name, {"examples": []})["examples"]:
            if not example["agrees"]:
                details.append(f"{name}: {example['sql']}\n  Spark:  {example['spark']}\n"
                               f"  Parley: {example['parley'] or example['error']}")
    assert not regressed, ("functions that agreed with Spark no longer do:\n" +
                           "\n".join(details))
    assert not unlisted, ("functions now agree with Spark but are not listed in "
                          f"{PASSING} (run this file with --update): {unlisted}")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as work:
        _, agreeing = run(work)
        if "--update" in sys.argv:
            write_passing(agreeing)
