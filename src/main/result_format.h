// Rendering query results as text: the `table`, `csv` and `json` forms the parley CLI prints,
// and the single-cell rendering the SQL logic test runner compares against.
//
// Values print the way Spark prints them when it turns a result into text: integers plainly,
// booleans as true/false, floating point as Java's Double.toString does (1.0, 0.1, 1.0E10),
// decimals with all the digits of their scale, dates as yyyy-mm-dd, timestamps as
// `yyyy-mm-dd hh:mm:ss[.ffffff]` (fraction without trailing zeros; time-zone aware timestamps in
// UTC), year-month intervals as `INTERVAL '1-2' YEAR TO MONTH`, day-time intervals as
// `INTERVAL '1 02:03:04.5' DAY TO SECOND`, binary as its bytes read as UTF-8 (U+FFFD for an
// invalid sequence), arrays as `[1, 2]`, structs as `{1, a}` and maps as `{k -> v}`. All functions
// here are pure and safe to call from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "arrow/type_fwd.h"
#include "parley/connector/status.h"

namespace parley {

/// \brief The text forms a result can be rendered in.
enum class ResultFormat {
  /// A boxed table with a header row of column names; NULL prints as `NULL`. Numeric columns
  /// are right-aligned, others left-aligned. A value with line breaks spans several lines of
  /// its cell (EXPLAIN's plan reads as it should); tabs and carriage returns print escaped
  /// (`\t`, `\r`) so the box stays aligned.
  kTable,
  /// A header line of column names, then one line per row; fields are quoted as RFC 4180
  /// says when they hold a comma, a quote or a line break, and also when they are empty
  /// strings, so that NULL (an empty field) and '' (`""`) stay apart, as Spark writes them.
  kCsv,
  /// JSON lines: one object per row with the column names as keys in column order. NULL is
  /// `null`; integers, floating point (when finite) and decimals are unquoted numbers;
  /// NaN/Infinity, dates, timestamps and strings are JSON strings; binary is a JSON string of
  /// its bytes in hex (`[0A FF]`), as the bytes need not be text; arrays are JSON arrays and
  /// structs and maps are JSON objects.
  kJson,
};

/// \brief Parse the name of a form: `table`, `csv` or `json`. Fails with Invalid otherwise.
Result<ResultFormat> ParseResultFormat(std::string_view name);

/// \brief Render the value of `array` at `row` as Spark prints it, or return std::nullopt when
/// the value is NULL. Nested NULLs (inside arrays, structs, maps) print as `NULL`.
///
/// REQUIRES: 0 <= row < array.length().
Result<std::optional<std::string>> FormatCell(const arrow::Array& array, int64_t row);

/// \brief Render a double as Java's Double.toString does: the shortest decimal that reads back
/// as the same double, in plain notation (`0.001`, `1234567.0`) when 1e-3 <= |v| < 1e7 and in
/// computerized scientific notation (`1.0E7`, `1.0E-4`) otherwise; `NaN`, `Infinity`,
/// `-Infinity`, `0.0`, `-0.0` for the special values.
std::string FormatDouble(double value);

/// \brief Render a float as Java's Float.toString does (the same rules as FormatDouble, with
/// the shortest decimal that reads back as the same float).
std::string FormatFloat(float value);

/// \brief Render a whole table in `format`. Every line, including the last, ends with '\n'.
/// A table with no columns renders as the empty string in every form.
Result<std::string> FormatResult(const arrow::Table& table, ResultFormat format);

}  // namespace parley
