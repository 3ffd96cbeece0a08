// Parley's own Arrow compute kernels: the few functions whose Spark semantics no Arrow kernel
// has. They are registered in Arrow's default function registry under `parley_*` names and
// called like any other Arrow function; a row with a NULL input is NULL.
//   parley_add_months(date32, int32) -> date32: Spark's add_months (the day clamps to the last
//     day of the target month).
//   parley_timestamp_add_months(timestamp[us], int32) -> the same timestamp type: the UTC date
//     moved as add_months does, the time of day kept.
//   parley_months_between(timestamp[us], timestamp[us], boolean round_off) -> double:
//     Spark's months_between in UTC.
//   parley_make_date(int32 year, int32 month, int32 day) -> date32; a date that does not exist
//     fails with DATETIME_FIELD_OUT_OF_BOUNDS.
//   parley_substring(utf8, int32 pos, int32 len) -> utf8: Spark's substring with 1-based
//     positions, counted from the end when negative.
//   parley_char_varchar_write(utf8, int32 length) -> utf8: the value a CHAR(length) or
//     VARCHAR(length) column stores: trailing spaces beyond the length dropped,
//     EXCEED_LIMIT_LENGTH when it is still longer.
//   parley_lpad / parley_rpad(utf8, int32 length, utf8 pad) -> utf8: Spark's lpad and rpad
//     (cut to the length, or filled with the pad repeated; an empty pad only cuts).
//   parley_round_half_up / parley_round_half_even(double, int32 scale) -> double: Spark's
//     round and bround of a double, on its shortest decimal form (round(0.285, 2) = 0.29).
//   parley_float_text(float | double) -> utf8: the value as Spark writes it (Java's
//     toString: 1.0, 1.0E10), for CAST(... AS STRING).
//   parley_starts_with / parley_ends_with / parley_contains(utf8, utf8) -> boolean: the
//     string predicates with a second string that is a column (Arrow's take a constant).
//   parley_replace(utf8, utf8 search, utf8 replacement) -> utf8: every occurrence replaced
//     (an empty search changes nothing), for search strings that are columns.
//   parley_locate(utf8 needle, utf8 haystack, int32 start) -> int32: the 1-based position in
//     characters of the first needle at or after `start` (1-based), 0 when absent or when
//     start < 1; a NULL start gives 0 and an empty needle 1, as Spark's locate.
//   parley_decimal_divide(decimal128, decimal128, decimal128 marker) -> the marker's type: the
//     quotient rounded half up to the marker's scale, as Spark divides decimals (Arrow's
//     kernel fails beyond 76 digits of p1 + p2 + 1); DIVIDE_BY_ZERO for a zero divisor,
//     NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION for a quotient the type cannot hold.
//   parley_decimal_mod(decimal128, decimal128, decimal128 marker) -> the marker's type: the
//     exact remainder (with the dividend's sign) at the marker's scale.
//   parley_decimal_multiply(decimal128, decimal128, decimal128 marker) -> the marker's type,
//     whose scale is at most the operands' together: the product rounded half away from zero
//     to that scale (in 256 bits where 128 overflow), NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION
//     beyond its precision. The marker must be a valid value (any): a null marker nulls every row.
// Spark's ANSI casts are in numeric_cast_kernels.cc (floating point to integral and decimal,
// decimal to text) and string_cast_kernels.cc (text to numbers, booleans and dates); Spark's %
// and pmod in remainder_kernels.cc; the overflow-checked SUMs in checked_sum_kernel.cc and
// decimal_sum_kernel.cc (registered by kernel_support.h).
// The array and map kernels (parley_array_element, parley_map_value, parley_make_array) are in
// array_kernels.h/.cc; the evaluating kernels parley_try and parley_guard are in
// expression_kernels.h, the lazy conditionals parley_case_when and parley_coalesce in
// conditional_kernels.h.
#pragma once

#include <cstdint>

#include "parley/connector/status.h"

namespace parley {

/// \brief Register the kernels above and those of expression_kernels.h and
/// conditional_kernels.h with Arrow's default function registry; idempotent and thread-safe.
Status RegisterParleyKernels();

/// \brief Days since 1970-01-01 of a proleptic Gregorian date (month 1-12, day 1-31).
int64_t DaysFromCivil(int64_t year, int64_t month, int64_t day);

/// \brief Spark's add_months on days since the epoch: the same day of the month `months` later,
/// clamped to the month's end; ARITHMETIC_OVERFLOW when the date leaves DATE's range.
Result<int32_t> AddMonthsToDays(int32_t days, int64_t months);

/// \brief add_months on microseconds since the epoch (UTC), keeping the time of day;
/// ARITHMETIC_OVERFLOW when the result leaves TIMESTAMP's range.
Result<int64_t> AddMonthsToMicros(int64_t micros, int64_t months);

}  // namespace parley
