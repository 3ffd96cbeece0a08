// The proleptic Gregorian calendar on 64-bit day counts: a day since 1970-01-01 as a year,
// month and day and back, for every year a Spark date or timestamp can hold (std::chrono's
// calendar stops at year 32767).
#pragma once

#include <cstdint>

namespace parley::kernels {

/// \brief A calendar date: any year (0 is 1 BC), month 1-12, day 1-31.
struct CivilDate {
  int64_t year;
  int month;
  int day;
};

/// \brief a / b rounded toward negative infinity (b > 0).
inline int64_t FloorDivide(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0)) ? q - 1 : q;
}

/// \brief The date `days` days after 1970-01-01 (before it when negative).
inline CivilDate CivilFromDays(int64_t days) {
  days += 719468;  // days from 0000-03-01 to 1970-01-01
  const int64_t era = FloorDivide(days, 146097);
  const int64_t day_of_era = days - era * 146097;
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t shifted_month = (5 * day_of_year + 2) / 153;  // March is 0
  const int day = static_cast<int>(day_of_year - (153 * shifted_month + 2) / 5 + 1);
  const int month = static_cast<int>(shifted_month < 10 ? shifted_month + 3 : shifted_month - 9);
  return {year_of_era + era * 400 + (month <= 2 ? 1 : 0), month, day};
}

/// \brief The days from 1970-01-01 to year-month-day (a valid date).
inline int64_t DaysFromCivil(int64_t year, int month, int day) {
  year -= month <= 2 ? 1 : 0;
  const int64_t era = FloorDivide(year, 400);
  const int64_t year_of_era = year - era * 400;
  const int64_t day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

/// \brief Whether `year` has a February 29.
inline bool IsLeapYear(int64_t year) {
  return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
}

/// \brief The number of days in `month` of `year`.
inline int DaysInMonth(int64_t year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

}  // namespace parley::kernels
