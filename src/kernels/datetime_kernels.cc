// Date kernels: month arithmetic clamped to the month's end and date construction, over the
// proleptic Gregorian calendar in UTC.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "arrow/array/builder_primitive.h"
#include "arrow/util/bit_util.h"
#include "kernels/kernel_support.h"
#include "kernels/kernels.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using kernels::Column;

constexpr int64_t kMicrosPerDay = 86400LL * 1000 * 1000;

struct CivilDate {
  int64_t year;
  int64_t month;
  int64_t day;
};

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t quotient = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? quotient - 1 : quotient;
}

// The inverse of DaysFromCivil: eras of 400 years (146097 days) counted from 0000-03-01.
CivilDate CivilFromDays(int64_t days) {
  days += 719468;
  int64_t era = FloorDiv(days, 146097);
  int64_t day_of_era = days - era * 146097;
  int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  int64_t shifted_month = (5 * day_of_year + 2) / 153;
  int64_t day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
  int64_t month = shifted_month < 10 ? shifted_month + 3 : shifted_month - 9;
  return {year_of_era + era * 400 + (month <= 2 ? 1 : 0), month, day};
}

bool IsLeapYear(int64_t year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

int64_t DaysInMonth(int64_t year, int64_t month) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

Status AddMonthsExec(cp::KernelContext*, const cp::ExecSpan& batch, cp::ExecResult* out) {
  Column<int32_t> days(batch[0]);
  Column<int32_t> months(batch[1]);
  arrow::Date32Builder builder;
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!days.IsValid(row) || !months.IsValid(row)) {
      builder.UnsafeAppendNull();
    } else {
      ARROW_ASSIGN_OR_RAISE(int32_t moved, AddMonthsToDays(days.Value(row), months.Value(row)));
      builder.UnsafeAppend(moved);
    }
  }
  return kernels::FinishInto(&builder, out);
}

Status TimestampAddMonthsExec(cp::KernelContext* ctx, const cp::ExecSpan& batch,
                              cp::ExecResult* out) {
  Column<int64_t> micros(batch[0]);
  Column<int32_t> months(batch[1]);
  arrow::TimestampBuilder builder(batch[0].type()->GetSharedPtr(), ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!micros.IsValid(row) || !months.IsValid(row)) {
      builder.UnsafeAppendNull();
    } else {
      ARROW_ASSIGN_OR_RAISE(int64_t moved, AddMonthsToMicros(micros.Value(row), months.Value(row)));
      builder.UnsafeAppend(moved);
    }
  }
  return kernels::FinishInto(&builder, out);
}

// Spark's months_between: whole months when both days of month are equal or both are the
// last day of their month, otherwise the day and time difference counted in 31-day months;
// rounded to 8 digits when `round_off`.
double MonthsBetween(int64_t micros1, int64_t micros2, bool round_off) {
  int64_t days1 = FloorDiv(micros1, kMicrosPerDay);
  int64_t days2 = FloorDiv(micros2, kMicrosPerDay);
  CivilDate date1 = CivilFromDays(days1);
  CivilDate date2 = CivilFromDays(days2);
  double months = static_cast<double>((date1.year - date2.year) * 12 + date1.month - date2.month);
  bool last1 = date1.day == DaysInMonth(date1.year, date1.month);
  bool last2 = date2.day == DaysInMonth(date2.year, date2.month);
  if (date1.day == date2.day || (last1 && last2)) return months;
  int64_t seconds1 = (micros1 - days1 * kMicrosPerDay) / 1000000;
  int64_t seconds2 = (micros2 - days2 * kMicrosPerDay) / 1000000;
  int64_t seconds = (date1.day - date2.day) * 86400 + seconds1 - seconds2;
  double value = months + static_cast<double>(seconds) / (31.0 * 86400);
  return round_off ? std::floor(value * 1e8 + 0.5) / 1e8 : value;
}

Status MonthsBetweenExec(cp::KernelContext*, const cp::ExecSpan& batch, cp::ExecResult* out) {
  Column<int64_t> first(batch[0]);
  Column<int64_t> second(batch[1]);
  const cp::ExecValue& round_off = batch[2];
  auto round_off_valid = [&](int64_t row) {
    return round_off.is_scalar() ? round_off.scalar->is_valid : round_off.array.IsValid(row);
  };
  auto round_off_value = [&](int64_t row) {
    if (round_off.is_scalar()) {
      return static_cast<const arrow::BooleanScalar&>(*round_off.scalar).value;
    }
    return arrow::bit_util::GetBit(round_off.array.buffers[1].data, round_off.array.offset + row);
  };
  arrow::DoubleBuilder builder;
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!first.IsValid(row) || !second.IsValid(row) || !round_off_valid(row)) {
      builder.UnsafeAppendNull();
    } else {
      builder.UnsafeAppend(
          MonthsBetween(first.Value(row), second.Value(row), round_off_value(row)));
    }
  }
  return kernels::FinishInto(&builder, out);
}

Status OutOfBounds(const char* field, int64_t value, const char* range) {
  return MakeError(arrow::StatusCode::Invalid, "DATETIME_FIELD_OUT_OF_BOUNDS",
                   fmt::format("Invalid value for {} (valid values {}): {}. If necessary set "
                               "\"spark.sql.ansi.enabled\" to \"false\" to bypass this error.",
                               field, range, value));
}

Status MakeDateExec(cp::KernelContext*, const cp::ExecSpan& batch, cp::ExecResult* out) {
  Column<int32_t> years(batch[0]);
  Column<int32_t> months(batch[1]);
  Column<int32_t> days(batch[2]);
  arrow::Date32Builder builder;
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!years.IsValid(row) || !months.IsValid(row) || !days.IsValid(row)) {
      builder.UnsafeAppendNull();
      continue;
    }
    int64_t year = years.Value(row);
    int64_t month = months.Value(row);
    int64_t day = days.Value(row);
    if (year < 1 || year > 9999) return OutOfBounds("Year", year, "1 - 9999");
    if (month < 1 || month > 12) return OutOfBounds("MonthOfYear", month, "1 - 12");
    if (day < 1 || day > DaysInMonth(year, month)) {
      return OutOfBounds("DayOfMonth", day, "1 - 28/31");
    }
    builder.UnsafeAppend(static_cast<int32_t>(DaysFromCivil(year, month, day)));
  }
  return kernels::FinishInto(&builder, out);
}

Result<arrow::TypeHolder> FirstInputType(cp::KernelContext*,
                                         const std::vector<arrow::TypeHolder>& types) {
  return types.front();
}

}  // namespace

int64_t DaysFromCivil(int64_t year, int64_t month, int64_t day) {
  year -= month <= 2 ? 1 : 0;
  int64_t era = FloorDiv(year, 400);
  int64_t year_of_era = year - era * 400;
  int64_t day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

Status MonthArithmeticOverflow() {
  return MakeError(arrow::StatusCode::Invalid, "ARITHMETIC_OVERFLOW",
                   "overflow. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to "
                   "bypass this error.");
}

Result<int32_t> AddMonthsToDays(int32_t days, int64_t months) {
  // Months beyond any DATE: the year arithmetic below would overflow before the range check.
  if (months > (int64_t{1} << 40) || months < -(int64_t{1} << 40)) {
    return MonthArithmeticOverflow();
  }
  CivilDate date = CivilFromDays(days);
  int64_t month_index = date.year * 12 + (date.month - 1) + months;
  int64_t year = FloorDiv(month_index, 12);
  int64_t month = month_index - year * 12 + 1;
  int64_t day = std::min(date.day, DaysInMonth(year, month));
  int64_t moved = DaysFromCivil(year, month, day);
  if (moved > std::numeric_limits<int32_t>::max() || moved < std::numeric_limits<int32_t>::min()) {
    return MonthArithmeticOverflow();
  }
  return static_cast<int32_t>(moved);
}

Result<int64_t> AddMonthsToMicros(int64_t micros, int64_t months) {
  int64_t days = FloorDiv(micros, kMicrosPerDay);
  int64_t time_of_day = micros - days * kMicrosPerDay;
  ARROW_ASSIGN_OR_RAISE(int32_t moved, AddMonthsToDays(static_cast<int32_t>(days), months));
  int64_t moved_micros;
  if (__builtin_mul_overflow(int64_t{moved}, kMicrosPerDay, &moved_micros) ||
      __builtin_add_overflow(moved_micros, time_of_day, &moved_micros)) {
    return MonthArithmeticOverflow();
  }
  return moved_micros;
}

namespace kernels {

Status RegisterDatetimeKernels(cp::FunctionRegistry* registry) {
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_add_months", {arrow::date32(), arrow::int32()},
                                  arrow::date32(), AddMonthsExec, "Spark's add_months"));
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_timestamp_add_months",
                                  {cp::InputType(arrow::Type::TIMESTAMP), arrow::int32()},
                                  cp::OutputType(FirstInputType), TimestampAddMonthsExec,
                                  "A timestamp moved by whole months"));
  cp::InputType timestamp(arrow::Type::TIMESTAMP);
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_months_between",
                                  {timestamp, timestamp, arrow::boolean()}, arrow::float64(),
                                  MonthsBetweenExec, "Spark's months_between"));
  return AddFunction(registry, "parley_make_date", {arrow::int32(), arrow::int32(), arrow::int32()},
                     arrow::date32(), MakeDateExec, "Spark's make_date");
}

}  // namespace kernels
}  // namespace parley
