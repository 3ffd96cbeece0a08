"""Boundary-value cases for casts, arithmetic, comparisons and aggregates, with Spark's answers.

Each case is one SQL query of one string column (the operation's result cast to STRING, so both
engines print it the same way) over a one-row VALUES table, so that the operation runs on data
rather than on folded constants. `spark_answers` asks a Spark session for every case: its rows, or
the error condition it raised. `write_slt` turns the answers into a SQL logic test file that
Parley's runner (parley_slt) checks: the same rows, or an error with the same condition.

The values are each type's edges: minimum, maximum, one inside them, -1, 0, 1; NaN, +-Infinity,
-0.0, the largest and smallest doubles, values just past each integral type; the widest
decimals; strings that are almost numbers, dates and booleans; dates at year 1 and 9999 and
timestamps at their edges, moved by days, months and interval literals past them.
"""

import itertools

INTEGRAL = {
    "TINYINT": [-128, -127, -1, 0, 1, 127],
    "SMALLINT": [-32768, -32767, -1, 0, 1, 32767],
    "INT": [-2147483648, -2147483647, -1, 0, 1, 2, 2147483647],
    "BIGINT": [-9223372036854775808, -9223372036854775807, -1, 0, 1, 9223372036854775807],
}

DOUBLES = ["NaN", "Infinity", "-Infinity", "-0.0", "0.0", "1.5", "-1.5", "0.125", "0.135",
           "127.9", "128.0", "-129.0", "32767.5", "2147483647.5", "-2147483648.9",
           "2147483648.0", "9.2233720368547758E18", "-9.2233720368547758E18", "1.0E20",
           "-1.0E20", "1.0E-300", "4.9E-324", "1.7976931348623157E308", "0.1",
           "1.2345678901234567E-5", "123.456", "99999999.995"]

DECIMALS = {
    "DECIMAL(38,0)": ["99999999999999999999999999999999999999",
                      "-99999999999999999999999999999999999999", "0", "1", "-1"],
    "DECIMAL(38,18)": ["99999999999999999999.999999999999999999", "0.000000000000000001",
                       "-1.5"],
    "DECIMAL(10,2)": ["99999999.99", "-99999999.99", "0.01", "1.25", "-2.50"],
}

STRINGS = [" 12 ", "12", "+1", "-0", "1.5", "1.", "1e2", "2147483648", "-2147483649",
           "9223372036854775808", "NaN", "nan", "Infinity", "-inf", "", " ", "abc", "true",
           "FALSE", "yes", "0", "1", "2024-02-29", "2023-02-29", "9999-12-31", "0001-01-01",
           "2024-01-01 10:00:00", "12.345", "1e40", "0x10", "-1.005"]

DATES = ["9999-12-31", "0001-01-01", "1970-01-01", "2024-02-29"]

TIMESTAMPS = ["9999-12-31 23:59:59.999999", "0001-01-01 00:00:00", "1970-01-01 00:00:00",
              "1969-12-31 23:59:59.999999", "2024-02-29 12:34:56.789"]

CAST_TARGETS = ["TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL(38,0)",
                "DECIMAL(10,2)", "DECIMAL(38,37)", "DECIMAL(5,5)", "STRING", "BOOLEAN", "DATE",
                "TIMESTAMP"]

# Interval literals that move a date or timestamp by a little, to a month's end, or past the
# edge of every type.
INTERVALS = ["INTERVAL '1' DAY", "INTERVAL '1' MONTH", "INTERVAL '-1' YEAR",
             "INTERVAL '1 00:00:00.000001' DAY TO SECOND", "INTERVAL '106751991' DAY",
             "INTERVAL '2147483647' MONTH", "INTERVAL '-178956970' YEAR",
             "INTERVAL '-2147483648' MONTH", "INTERVAL '3652059' DAY"]


def integral_literal(value, type_name):
    if type_name == "BIGINT" and value == -9223372036854775808:
        return "(-9223372036854775807L - 1L)"
    return f"CAST({value} AS {type_name})"


def double_literal(text):
    if text in ("NaN", "Infinity", "-Infinity"):
        return f"CAST('{text}' AS DOUBLE)"
    return f"{text}D"


def sql_string(text):
    return "'" + text.replace("'", "''") + "'"


def typed_values():
    """(type name, SQL literal) for every boundary value of every type."""
    out = []
    for type_name, values in INTEGRAL.items():
        out += [(type_name, integral_literal(v, type_name)) for v in values]
    out += [("DOUBLE", double_literal(v)) for v in DOUBLES]
    out += [("FLOAT", f"CAST({double_literal(v)} AS FLOAT)") for v in DOUBLES]
    for type_name, values in DECIMALS.items():
        out += [(type_name, f"CAST({v} AS {type_name})") for v in values]
    out += [("STRING", sql_string(v)) for v in STRINGS]
    out += [("DATE", f"DATE'{v}'") for v in DATES]
    out += [("TIMESTAMP", f"TIMESTAMP'{v}'") for v in TIMESTAMPS]
    out += [("BOOLEAN", v) for v in ("true", "false")]
    return out


def over_values(expression, *values):
    """A query of `expression` (over a, b, ...) as a string, on a one-row table of `values`."""
    names = "abcdefgh"[:len(values)]
    return (f"SELECT CAST({expression} AS STRING) FROM VALUES ({', '.join(values)}) "
            f"AS t({', '.join(names)})")


def cast_cases():
    for (type_name, literal), target in itertools.product(typed_values(), CAST_TARGETS):
        yield over_values(f"CAST(a AS {target})", literal)
        yield over_values(f"TRY_CAST(a AS {target})", literal)


def arithmetic_cases():
    numeric = {t: [integral_literal(v, t) for v in vs] for t, vs in INTEGRAL.items()}
    numeric["DOUBLE"] = [double_literal(v) for v in
                         ["NaN", "Infinity", "-0.0", "0.0", "1.5", "-1.5", "1.7976931348623157E308"]]
    for type_name, values in DECIMALS.items():
        numeric[type_name] = [f"CAST({v} AS {type_name})" for v in values]
    for type_name, values in numeric.items():
        for a, b in itertools.product(values, repeat=2):
            for op in ("a + b", "a - b", "a * b", "a / b", "a % b", "a DIV b", "pmod(a, b)"):
                if op == "a DIV b" and type_name in ("DOUBLE",):
                    continue
                yield over_values(op, a, b)
        for a in values:
            for op in ("-a", "abs(a)"):
                yield over_values(op, a)


def datetime_cases():
    """Dates moved by days and months, timestamps and dates by interval literals, differences of
    dates; the interval operands stay literals (Parley's intervals come only from literals)."""
    dates = [f"DATE'{v}'" for v in DATES]
    timestamps = [f"TIMESTAMP'{v}'" for v in TIMESTAMPS]
    counts = [integral_literal(v, "INT") for v in INTEGRAL["INT"]] + ["CAST(NULL AS INT)"]
    for date, count in itertools.product(dates, counts):
        for op in ("a + b", "a - b", "date_add(a, b)", "date_sub(a, b)", "add_months(a, b)"):
            yield over_values(op, date, count)
    for a, b in itertools.product(dates, repeat=2):
        yield over_values("datediff(a, b)", a, b)
    for value, interval in itertools.product(dates + timestamps, INTERVALS):
        yield over_values(f"a + {interval}", value)
        yield over_values(f"a - {interval}", value)
    for timestamp in timestamps:
        yield over_values("add_months(a, 1)", timestamp)
        yield over_values("date_trunc('MONTH', a)", timestamp)


def comparison_cases():
    doubles = [double_literal(v) for v in ("NaN", "Infinity", "-Infinity", "-0.0", "0.0", "1.5")]
    doubles.append("CAST(NULL AS DOUBLE)")
    for values in (doubles, [f"CAST({v} AS FLOAT)" for v in doubles]):
        for a, b in itertools.product(values, repeat=2):
            for op in ("a = b", "a <> b", "a < b", "a <= b", "a > b", "a >= b", "a <=> b",
                       "greatest(a, b)", "least(a, b)", "a IN (b, 1.0D)", "a IN (b)"):
                yield over_values(op, a, b)


def aggregate_cases():
    sets = [
        ("BIGINT", ["9223372036854775807L", "1L"]),
        ("BIGINT", ["9223372036854775807L", "1L", "-5L"]),
        ("BIGINT", ["(-9223372036854775807L - 1L)", "-1L"]),
        ("BIGINT", ["9223372036854775807L", "9223372036854775807L", "9223372036854775807L"]),
        ("INT", ["2147483647", "1"]),
        ("INT", ["2147483647", "2147483647", "CAST(NULL AS INT)"]),
        ("TINYINT", ["CAST(127 AS TINYINT)", "CAST(127 AS TINYINT)"]),
        ("DECIMAL(38,0)", ["CAST(99999999999999999999999999999999999999 AS DECIMAL(38,0))",
                           "CAST(1 AS DECIMAL(38,0))"]),
        ("DECIMAL(38,0)", ["CAST(99999999999999999999999999999999999999 AS DECIMAL(38,0))",
                           "CAST(-1 AS DECIMAL(38,0))"]),
        ("DECIMAL(10,2)", ["CAST(99999999.99 AS DECIMAL(10,2))", "CAST(0.01 AS DECIMAL(10,2))"]),
        ("DOUBLE", ["1.0D", "CAST('NaN' AS DOUBLE)", "CAST('Infinity' AS DOUBLE)"]),
        ("DOUBLE", ["CAST('NaN' AS DOUBLE)", "CAST('NaN' AS DOUBLE)"]),
        ("DOUBLE", ["-0.0D", "0.0D"]),
        ("DOUBLE", ["CAST('Infinity' AS DOUBLE)", "CAST('-Infinity' AS DOUBLE)"]),
        ("DOUBLE", ["1.7976931348623157E308D", "1.7976931348623157E308D"]),
        ("FLOAT", ["CAST(1.0 AS FLOAT)", "CAST('NaN' AS FLOAT)"]),
    ]
    for _, values in sets:
        rows = ", ".join(f"({v})" for v in values)
        for agg in ("sum(a)", "avg(a)", "min(a)", "max(a)", "count(DISTINCT a)"):
            yield f"SELECT CAST({agg} AS STRING) FROM VALUES {rows} AS t(a)"
            yield (f"SELECT CAST({agg} AS STRING) FROM VALUES {rows} AS t(a) GROUP BY 'k'")


def ordering_cases():
    rows = ("(1.0D), (CAST('NaN' AS DOUBLE)), (NULL), (-0.0D), (CAST('-Infinity' AS DOUBLE)), "
            "(CAST('Infinity' AS DOUBLE)), (0.0D), (-1.0D)")
    for order in ("a", "a DESC", "a NULLS LAST", "a DESC NULLS FIRST"):
        yield f"SELECT CAST(a AS STRING) FROM VALUES {rows} AS t(a) ORDER BY {order}"
    yield (f"SELECT CAST(a AS STRING), count(*) FROM VALUES {rows}, (CAST('NaN' AS DOUBLE)), "
           f"(0.0D) AS t(a) GROUP BY a ORDER BY a")
    yield (f"SELECT count(*) FROM VALUES {rows} AS t(a) JOIN VALUES {rows} AS u(b) ON a = b")
    yield (f"SELECT CAST(a AS STRING) FROM VALUES {rows} AS t(a) WHERE a > 0.0D ORDER BY a")


def all_cases():
    """Every case, in a fixed order."""
    seen = set()
    out = []
    for case in itertools.chain(cast_cases(), arithmetic_cases(), datetime_cases(),
                                comparison_cases(), aggregate_cases(), ordering_cases()):
        if case not in seen:
            seen.add(case)
            out.append(case)
    return out


def _condition(error):
    condition = getattr(error, "getCondition", lambda: None)()
    return condition or type(error).__name__


def _rows(spark, query):
    return [tuple(None if v is None else str(v) for v in row) for row in spark.sql(query).collect()]


def _one_row(case):
    """Whether `case` is a query of one row (over_values' form), which can be asked in a union."""
    return case.startswith("SELECT CAST(") and case.endswith(")") and " AS t(" in case and \
        "), (" not in case and " GROUP BY " not in case and " ORDER BY " not in case


def spark_answers(spark, cases, chunk=64):
    """{case: ("rows", [tuple of str]) or ("error", condition)} from Spark. One-row cases are
    asked for together in unions, halved where a union fails until the failing case is alone."""
    answers = {}

    def ask_one(case):
        try:
            answers[case] = ("rows", _rows(spark, case))
        except Exception as error:  # Spark's errors carry their condition
            answers[case] = ("error", _condition(error))

    def ask(part):
        if len(part) == 1:
            ask_one(part[0])
            return
        union = " UNION ALL ".join(f"SELECT {i} AS i, * FROM ({c})" for i, c in enumerate(part))
        try:
            rows = spark.sql(union).collect()
        except Exception:
            ask(part[:len(part) // 2])
            ask(part[len(part) // 2:])
            return
        by_index = {i: [] for i in range(len(part))}
        for row in rows:
            by_index[row[0]].append(tuple(None if v is None else str(v) for v in row[1:]))
        for i, case in enumerate(part):
            answers[case] = ("rows", by_index[i])

    single = [c for c in cases if _one_row(c)]
    for start in range(0, len(single), chunk):
        ask(single[start:start + chunk])
    for case in cases:
        if not _one_row(case):
            ask_one(case)
    return answers


def _cell(value):
    if value is None:
        return "NULL"
    if value == "":
        return "(empty)"
    return value


def _uncell(text):
    if text == "NULL":
        return None
    if text == "(empty)":
        return ""
    return text


def read_slt(path):
    """(spark_version, answers) recorded in a file write_slt wrote: the version of Spark that
    gave the answers (None when the file names none) and {case: answer} in spark_answers' form."""
    with open(path) as f:
        lines = f.read().split("\n")
    version = None
    answers = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("# spark: "):
            version = line[len("# spark: "):]
        elif line.startswith("statement error "):
            answers[lines[i + 1]] = ("error", line[len("statement error "):])
            i += 1
        elif line.startswith("query "):
            case = lines[i + 1]
            i += 3  # the case and the ---- line
            rows = []
            while i < len(lines) and lines[i] != "":
                rows.append(tuple(_uncell(v) for v in lines[i].split("\t")))
                i += 1
            answers[case] = ("rows", rows)
        i += 1
    return version, answers


def write_slt(answers, cases, path, skip=(), spark_version=None):
    """Writes the cases (but those in `skip`) as a SQL logic test file recording that Spark
    `spark_version` gave the answers; returns the line of each case's record."""
    lines = ["# name: ansi boundary values against Spark (generated by tests/interop/ansi_cases.py)",
             "# group: [select]"]
    if spark_version:
        lines.append(f"# spark: {spark_version}")
    lines.append("")
    record_line = {}
    for case in cases:
        kind, value = answers[case]
        # A value of nothing but spaces cannot be written as an expected line (it is blank).
        if case in skip or (kind == "rows" and any(
                v is not None and v != "" and not v.strip() for row in value for v in row)):
            continue
        record_line[case] = len(lines) + 1
        if kind == "error":
            lines += [f"statement error {value}", case, ""]
            continue
        width = len(value[0]) if value else 1
        ordered = " ORDER BY " in case
        lines += [f"query {'T' * width} {'nosort' if ordered else 'rowsort'}", case, "----"]
        lines += ["\t".join(_cell(v) for v in row) for row in value]
        lines.append("")
    with open(path, "w") as out:
        out.write("\n".join(lines))
    return record_line
