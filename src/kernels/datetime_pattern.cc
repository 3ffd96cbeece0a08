#include "kernels/datetime_pattern.h"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <optional>
#include <utility>

#include "kernels/civil_calendar.h"

namespace parley::kernels {
namespace {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;

constexpr std::array<const char*, 12> kMonths = {"January",   "February", "March",    "April",
                                                 "May",       "June",     "July",     "August",
                                                 "September", "October",  "November", "December"};
constexpr std::array<const char*, 7> kWeekdays = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                                  "Friday", "Saturday", "Sunday"};
constexpr std::array<const char*, 4> kQuarters = {"1st quarter", "2nd quarter", "3rd quarter",
                                                  "4th quarter"};

const char* kGuide = "https://spark.apache.org/docs/latest/sql-ref-datetime-pattern.html";

Status WithSuggestion(std::string_view pattern) {
  return MakeError(arrow::StatusCode::Invalid, "INVALID_DATETIME_PATTERN.WITH_SUGGESTION",
                   fmt::format("Unrecognized datetime pattern: '{}'. You can form a valid datetime "
                               "pattern with the guide from '{}'.",
                               pattern, kGuide));
}

Status IllegalCharacter(std::string_view pattern, char letter) {
  return MakeError(arrow::StatusCode::Invalid, "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER",
                   fmt::format("Unrecognized datetime pattern: {}. Illegal pattern character "
                               "found in datetime pattern: {}. Please provide legal character.",
                               pattern, letter));
}

Status TooLong(std::string_view pattern) {
  return MakeError(arrow::StatusCode::Invalid, "INVALID_DATETIME_PATTERN.LENGTH",
                   fmt::format("Unrecognized datetime pattern: {}. Too many letters in datetime "
                               "pattern: {}. Please reduce pattern length.",
                               pattern, pattern));
}

Status NotRecognized(std::string_view pattern) {
  return MakeError(arrow::StatusCode::Invalid,
                   "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION",
                   fmt::format("You may get a different result due to the upgrading to Spark >= "
                               "3.0: Fail to recognize '{}' pattern in the DateTimeFormatter. 1) "
                               "You can set \"spark.sql.legacy.timeParserPolicy\" to \"LEGACY\" to "
                               "restore the behavior before Spark 3.0. 2) You can form a valid "
                               "datetime pattern with the guide from '{}'.",
                               pattern, kGuide));
}

Status WeekBased(char letter) {
  return MakeError(arrow::StatusCode::Invalid,
                   "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN",
                   fmt::format("You may get a different result due to the upgrading to Spark >= "
                               "3.0: All week-based patterns are unsupported since Spark 3.0, "
                               "detected week-based character: {}. Please use the SQL function "
                               "EXTRACT instead.",
                               letter));
}

// The most times each letter may repeat; 0 for a letter Spark refuses.
int MaxCount(char letter) {
  switch (letter) {
    case 'y': return 9;
    case 'G':
    case 'M':
    case 'L':
    case 'E':
    case 'Q':
    case 'q':
    case 'z': return 4;
    case 'X':
    case 'x':
    case 'Z': return 5;
    case 'D': return 3;
    case 'S': return 9;
    case 'd':
    case 'h':
    case 'K':
    case 'k':
    case 'H':
    case 'm':
    case 's': return 2;
    case 'a':
    case 'F':
    case 'g':
    case 'v': return 1;
    case 'V': return 2;
    case 'O': return 4;
    default: return 0;
  }
}

// Checks one run of `letter` repeated `count` times against Spark's rules for `use`.
Status CheckField(std::string_view pattern, char letter, int count, DatetimePattern::Use use) {
  if (letter == 'e' || letter == 'c') return WeekBased(letter);
  if (letter == 'Y' || letter == 'w' || letter == 'W' || letter == 'u') {
    return NotRecognized(pattern);
  }
  if (letter == 'n' || letter == 'N' || letter == 'p' || letter == 'A' || letter == 'B') {
    return IllegalCharacter(pattern, letter);
  }
  const bool parsing = use == DatetimePattern::Use::kParse;
  if (parsing && (letter == 'Q' || letter == 'q')) return IllegalCharacter(pattern, letter);
  if (parsing && (letter == 'E' || letter == 'F')) return NotRecognized(pattern);
  int max = MaxCount(letter);
  if (max == 0) return WithSuggestion(pattern);
  if ((letter == 'Q' || letter == 'q') && count > max) return TooLong(pattern);
  if (letter == 'V' && count != 2) return WithSuggestion(pattern);
  if (letter == 'O' && count != 1 && count != 4) return WithSuggestion(pattern);
  if ((letter == 'X' || letter == 'x') && count > max) return WithSuggestion(pattern);
  if (count > max) return NotRecognized(pattern);
  return Status::OK();
}

// Reads the tokens of `pattern` from `*pos` until the end or, inside an optional section, its
// closing bracket.
Status Tokenize(std::string_view pattern, size_t* pos, int depth, DatetimePattern::Use use,
                std::vector<PatternToken>* tokens) {
  while (*pos < pattern.size()) {
    char c = pattern[*pos];
    if (c == '\'') {
      size_t end = *pos + 1;
      std::string text;
      while (true) {
        if (end >= pattern.size()) return WithSuggestion(pattern);
        if (pattern[end] == '\'') {
          if (end + 1 < pattern.size() && pattern[end + 1] == '\'' && end != *pos + 1) {
            text += '\'';
            end += 2;
            continue;
          }
          break;
        }
        text += pattern[end++];
      }
      PatternToken token;
      token.literal = end == *pos + 1 ? "'" : text;
      tokens->push_back(std::move(token));
      *pos = end + 1;
    } else if (c == '[') {
      ++*pos;
      PatternToken token;
      token.kind = PatternToken::Kind::kOptional;
      ARROW_RETURN_NOT_OK(Tokenize(pattern, pos, depth + 1, use, &token.section));
      tokens->push_back(std::move(token));
    } else if (c == ']') {
      if (depth == 0) return NotRecognized(pattern);
      ++*pos;
      return Status::OK();
    } else if (c == '{' || c == '}' || c == '#') {
      return WithSuggestion(pattern);
    } else if (std::isalpha(static_cast<unsigned char>(c))) {
      size_t end = pattern.find_first_not_of(c, *pos);
      if (end == std::string_view::npos) end = pattern.size();
      int count = static_cast<int>(end - *pos);
      ARROW_RETURN_NOT_OK(CheckField(pattern, c, count, use));
      PatternToken token;
      token.kind = PatternToken::Kind::kField;
      token.letter = c;
      token.count = count;
      tokens->push_back(std::move(token));
      *pos = end;
    } else {
      if (tokens->empty() || tokens->back().kind != PatternToken::Kind::kLiteral) {
        tokens->push_back(PatternToken{});
      }
      tokens->back().literal += c;
      ++*pos;
    }
  }
  return Status::OK();
}

// The wall-clock fields of one instant.
struct Fields {
  CivilDate date;
  int64_t epoch_day;
  int day_of_year;
  int day_of_week;  // 1 = Monday
  int hour, minute, second;
  int64_t micros;  // within the second
};

Fields FieldsOf(int64_t instant) {
  Fields f;
  f.epoch_day = FloorDivide(instant, kMicrosPerDay);
  int64_t of_day = instant - f.epoch_day * kMicrosPerDay;
  f.date = CivilFromDays(f.epoch_day);
  f.day_of_year = static_cast<int>(f.epoch_day - DaysFromCivil(f.date.year, 1, 1) + 1);
  f.day_of_week = static_cast<int>(f.epoch_day + 3 - FloorDivide(f.epoch_day + 3, 7) * 7) + 1;
  f.micros = of_day % kMicrosPerSecond;
  int64_t seconds = of_day / kMicrosPerSecond;
  f.hour = static_cast<int>(seconds / 3600);
  f.minute = static_cast<int>(seconds / 60 % 60);
  f.second = static_cast<int>(seconds % 60);
  return f;
}

void AppendNumber(int64_t value, int width, std::string* out) {
  fmt::format_to(std::back_inserter(*out), "{:0{}}", value, width);
}

void FormatField(const PatternToken& token, const Fields& f, std::string* out) {
  const int n = token.count;
  const int64_t year_of_era = f.date.year > 0 ? f.date.year : 1 - f.date.year;
  switch (token.letter) {
    case 'G':
      out->append(n == 4 ? (f.date.year > 0 ? "Anno Domini" : "Before Christ")
                         : (f.date.year > 0 ? "AD" : "BC"));
      break;
    case 'y':
      if (n == 2) {
        AppendNumber(year_of_era % 100, 2, out);
      } else {
        bool exceeds = n >= 4 && std::to_string(year_of_era).size() > static_cast<size_t>(n);
        if (exceeds) out->push_back('+');
        AppendNumber(year_of_era, n, out);
      }
      break;
    case 'M':
    case 'L':
      if (n >= 3) {
        std::string_view name = kMonths[f.date.month - 1];
        out->append(n == 3 ? name.substr(0, 3) : name);
      } else {
        AppendNumber(f.date.month, n, out);
      }
      break;
    case 'd': AppendNumber(f.date.day, n, out); break;
    case 'D': AppendNumber(f.day_of_year, n, out); break;
    case 'Q':
    case 'q': {
      int quarter = (f.date.month - 1) / 3 + 1;
      if (n == 3) {
        out->append("Q" + std::to_string(quarter));
      } else if (n == 4) {
        out->append(kQuarters[quarter - 1]);
      } else {
        AppendNumber(quarter, n, out);
      }
      break;
    }
    case 'E': {
      std::string_view name = kWeekdays[f.day_of_week - 1];
      out->append(n == 4 ? name : name.substr(0, 3));
      break;
    }
    case 'F': AppendNumber((f.date.day - 1) % 7 + 1, n, out); break;
    case 'g': AppendNumber(f.epoch_day + 40587, n, out); break;
    case 'a': out->append(f.hour < 12 ? "AM" : "PM"); break;
    case 'h': AppendNumber(f.hour % 12 == 0 ? 12 : f.hour % 12, n, out); break;
    case 'K': AppendNumber(f.hour % 12, n, out); break;
    case 'k': AppendNumber(f.hour == 0 ? 24 : f.hour, n, out); break;
    case 'H': AppendNumber(f.hour, n, out); break;
    case 'm': AppendNumber(f.minute, n, out); break;
    case 's': AppendNumber(f.second, n, out); break;
    case 'S': {
      std::string digits = fmt::format("{:06}000", f.micros);
      out->append(digits.substr(0, n));
      break;
    }
    // Instants are written in UTC: every zone letter names it or its zero offset.
    case 'V':
    case 'v': out->append("UTC"); break;
    case 'z': out->append(n == 4 ? "Coordinated Universal Time" : "UTC"); break;
    case 'O': out->append("GMT"); break;
    case 'X': out->append("Z"); break;
    case 'x': out->append(n == 1 ? "+00" : (n == 3 || n == 5) ? "+00:00" : "+0000"); break;
    case 'Z': out->append(n == 4 ? "GMT" : n == 5 ? "Z" : "+0000"); break;
    default: break;
  }
}

void FormatTokens(const std::vector<PatternToken>& tokens, const Fields& f, std::string* out) {
  for (const auto& token : tokens) {
    switch (token.kind) {
      case PatternToken::Kind::kLiteral: out->append(token.literal); break;
      case PatternToken::Kind::kField: FormatField(token, f, out); break;
      case PatternToken::Kind::kOptional: FormatTokens(token.section, f, out); break;
    }
  }
}

// The fields a parse has read so far.
struct Parsed {
  std::optional<int64_t> year;  // of era unless `proleptic`
  bool two_digit_year = false;
  std::optional<int> era;  // 1 AD, 0 BC
  std::optional<int> month, day, day_of_year;
  std::optional<int> hour_of_day, clock_hour_of_am_pm, hour_of_am_pm, clock_hour_of_day;
  std::optional<int> am_pm;  // 0 AM, 1 PM
  std::optional<int> minute, second;
  int64_t micros = 0;
  int64_t offset_seconds = 0;
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

char Lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool StartsWithIgnoringCase(std::string_view text, size_t pos, std::string_view word) {
  if (text.size() - pos < word.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    if (Lower(text[pos + i]) != Lower(word[i])) return false;
  }
  return true;
}

// Reads `min` to `max` digits at *pos.
std::optional<int64_t> ReadDigits(std::string_view text, size_t* pos, int min, int max) {
  size_t start = *pos;
  int64_t value = 0;
  while (*pos < text.size() && IsDigit(text[*pos]) && static_cast<int>(*pos - start) < max) {
    value = value * 10 + (text[*pos] - '0');
    ++*pos;
  }
  if (static_cast<int>(*pos - start) < min) {
    *pos = start;
    return std::nullopt;
  }
  return value;
}

// Reads one of `names` (their first three letters when `short_form`), case-insensitively;
// returns its index.
template <size_t N>
std::optional<int> ReadName(std::string_view text, size_t* pos,
                            const std::array<const char*, N>& names, bool short_form) {
  for (size_t i = 0; i < N; ++i) {
    std::string_view name = names[i];
    if (short_form) name = name.substr(0, 3);
    if (StartsWithIgnoringCase(text, *pos, name)) {
      *pos += name.size();
      return static_cast<int>(i);
    }
  }
  return std::nullopt;
}

// Reads an offset from UTC: a sign, hours, and minutes (after a colon when `colon`); the
// minutes may be left out when `minutes_optional`.
std::optional<int64_t> ReadOffset(std::string_view text, size_t* pos, bool colon,
                                  bool minutes_optional) {
  size_t start = *pos;
  if (*pos >= text.size() || (text[*pos] != '+' && text[*pos] != '-')) return std::nullopt;
  int sign = text[*pos] == '-' ? -1 : 1;
  ++*pos;
  auto hours = ReadDigits(text, pos, 2, 2);
  if (!hours) {
    *pos = start;
    return std::nullopt;
  }
  int64_t minutes = 0;
  size_t before_minutes = *pos;
  bool has_colon = *pos < text.size() && text[*pos] == ':';
  if (colon == has_colon) {
    if (has_colon) ++*pos;
    if (auto read = ReadDigits(text, pos, 2, 2)) {
      minutes = *read;
    } else {
      *pos = before_minutes;
      if (!minutes_optional) {
        *pos = start;
        return std::nullopt;
      }
    }
  } else if (!minutes_optional) {
    *pos = start;
    return std::nullopt;
  }
  return sign * (*hours * 3600 + minutes * 60);
}

// Reads a zone name Parley knows without a time-zone database: UTC, GMT, UT, Z, and those
// followed by an offset.
std::optional<int64_t> ReadZoneName(std::string_view text, size_t* pos) {
  for (std::string_view name : {"Etc/UTC", "Etc/GMT", "UTC", "GMT", "UT", "Z"}) {
    if (StartsWithIgnoringCase(text, *pos, name)) {
      *pos += name.size();
      if (name == "Z" || name.starts_with("Etc")) return 0;
      return ReadOffset(text, pos, true, true).value_or(0);
    }
  }
  return ReadOffset(text, pos, true, true);
}

// Reads "GMT" then an optional offset of one or two hour digits and optional minutes.
std::optional<int64_t> ReadLocalizedOffset(std::string_view text, size_t* pos) {
  if (!StartsWithIgnoringCase(text, *pos, "GMT")) return std::nullopt;
  *pos += 3;
  if (*pos >= text.size() || (text[*pos] != '+' && text[*pos] != '-')) return 0;
  int sign = text[*pos] == '-' ? -1 : 1;
  size_t start = *pos;
  ++*pos;
  auto hours = ReadDigits(text, pos, 1, 2);
  if (!hours) {
    *pos = start;
    return 0;
  }
  int64_t minutes = 0;
  if (*pos < text.size() && text[*pos] == ':') {
    size_t colon = *pos;
    ++*pos;
    if (auto read = ReadDigits(text, pos, 2, 2)) {
      minutes = *read;
    } else {
      *pos = colon;
    }
  }
  return sign * (*hours * 3600 + minutes * 60);
}

// Reads the field `token` at *pos into `p`; false (with *pos where the field starts) when the
// text there does not match it.
bool ReadField(const PatternToken& token, std::string_view text, size_t* pos, Parsed* p) {
  const int n = token.count;
  auto digits = [&](int min, int max) { return ReadDigits(text, pos, min, max); };
  switch (token.letter) {
    case 'G': {
      std::array<const char*, 2> short_names = {"BC", "AD"};
      std::array<const char*, 2> long_names = {"Before Christ", "Anno Domini"};
      auto era =
          n == 4 ? ReadName(text, pos, long_names, false) : ReadName(text, pos, short_names, false);
      if (!era) return false;
      p->era = *era;
      return true;
    }
    case 'y': {
      auto year = n == 2 ? digits(2, 2) : n == 1 ? digits(1, 19) : digits(n, n == 3 ? 19 : n);
      if (!year) return false;
      p->year = *year;
      p->two_digit_year = n == 2;
      return true;
    }
    case 'M':
    case 'L': {
      if (n >= 3) {
        auto month = ReadName(text, pos, kMonths, n == 3);
        if (!month) return false;
        p->month = *month + 1;
        return true;
      }
      auto month = digits(n, 2);
      if (!month) return false;
      p->month = static_cast<int>(*month);
      return true;
    }
    case 'a': {
      std::array<const char*, 2> names = {"AM", "PM"};
      auto half = ReadName(text, pos, names, false);
      if (!half) return false;
      p->am_pm = *half;
      return true;
    }
    case 'S': {
      size_t start = *pos;
      auto fraction = digits(1, n);
      if (!fraction) return false;
      int read = static_cast<int>(*pos - start);
      int64_t micros = *fraction;
      for (int i = read; i < 6; ++i) micros *= 10;
      for (int i = 6; i < read; ++i) micros /= 10;
      p->micros = micros;
      return true;
    }
    case 'X':
    case 'x': {
      if (token.letter == 'X' && *pos < text.size() && (text[*pos] == 'Z' || text[*pos] == 'z')) {
        ++*pos;
        p->offset_seconds = 0;
        return true;
      }
      auto offset = ReadOffset(text, pos, n == 3 || n == 5, n == 1);
      if (!offset) return false;
      p->offset_seconds = *offset;
      return true;
    }
    case 'Z': {
      std::optional<int64_t> offset;
      if (n == 4) {
        offset = ReadLocalizedOffset(text, pos);
      } else if (n == 5) {
        if (*pos < text.size() && text[*pos] == 'Z') {
          ++*pos;
          offset = 0;
        } else {
          offset = ReadOffset(text, pos, true, false);
        }
      } else {
        offset = ReadOffset(text, pos, false, false);
      }
      if (!offset) return false;
      p->offset_seconds = *offset;
      return true;
    }
    case 'O': {
      auto offset = ReadLocalizedOffset(text, pos);
      if (!offset) return false;
      p->offset_seconds = *offset;
      return true;
    }
    case 'V':
    case 'v':
    case 'z': {
      auto offset = ReadZoneName(text, pos);
      if (!offset) return false;
      p->offset_seconds = *offset;
      return true;
    }
    default: break;
  }
  // The numeric fields of one or two digits (three for the day of the year).
  const int width = token.letter == 'D' ? 3 : token.letter == 'g' ? 19 : 2;
  auto value = n == 1 ? digits(1, width) : digits(n, n);
  if (!value) return false;
  int v = static_cast<int>(*value);
  switch (token.letter) {
    case 'd': p->day = v; break;
    case 'D': p->day_of_year = v; break;
    case 'H': p->hour_of_day = v; break;
    case 'h': p->clock_hour_of_am_pm = v; break;
    case 'K': p->hour_of_am_pm = v; break;
    case 'k': p->clock_hour_of_day = v; break;
    case 'm': p->minute = v; break;
    case 's': p->second = v; break;
    default: return false;
  }
  return true;
}

// Reads `tokens` at *pos; false where the text stops matching, *pos then where it did.
bool ReadTokens(const std::vector<PatternToken>& tokens, std::string_view text, size_t* pos,
                Parsed* p) {
  for (const auto& token : tokens) {
    switch (token.kind) {
      case PatternToken::Kind::kLiteral:
        if (!StartsWithIgnoringCase(text, *pos, token.literal)) return false;
        *pos += token.literal.size();
        break;
      case PatternToken::Kind::kField:
        if (!ReadField(token, text, pos, p)) return false;
        break;
      case PatternToken::Kind::kOptional: {
        size_t start = *pos;
        Parsed saved = *p;
        if (!ReadTokens(token.section, text, pos, p)) {
          *pos = start;
          *p = saved;
        }
        break;
      }
    }
  }
  return true;
}

Status Unparsable(std::string_view text, std::string_view detail) {
  return Status::Invalid(fmt::format("Text '{}' could not be parsed: {}", text, detail));
}

Status OutOfRange(std::string_view text, std::string_view field, int low, std::string_view high,
                  int64_t value) {
  return Unparsable(text, fmt::format("Invalid value for {} (valid values {} - {}): {}", field, low,
                                      high, value));
}

std::string UpperMonth(int month) {
  std::string name = kMonths[month - 1];
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

// The instant the parsed fields name.
Result<int64_t> Resolve(const Parsed& p, std::string_view text) {
  int64_t year = 1970;
  if (p.year) {
    year = p.two_digit_year ? 2000 + *p.year : *p.year;
    if (p.era && *p.era == 0) year = 1 - year;
  }
  int64_t epoch_day;
  if (p.day_of_year) {
    int days = IsLeapYear(year) ? 366 : 365;
    if (*p.day_of_year < 1 || *p.day_of_year > 366) {
      return OutOfRange(text, "DayOfYear", 1, "365/366", *p.day_of_year);
    }
    if (*p.day_of_year > days) {
      return Unparsable(
          text, fmt::format("Invalid date 'DayOfYear 366' as '{}' is not a leap year", year));
    }
    epoch_day = DaysFromCivil(year, 1, 1) + *p.day_of_year - 1;
  } else {
    int month = p.month.value_or(1);
    int day = p.day.value_or(1);
    if (month < 1 || month > 12) return OutOfRange(text, "MonthOfYear", 1, "12", month);
    if (day < 1 || day > 31) return OutOfRange(text, "DayOfMonth", 1, "28/31", day);
    if (day > DaysInMonth(year, month)) {
      if (month == 2 && day == 29) {
        return Unparsable(
            text, fmt::format("Invalid date 'February 29' as '{}' is not a leap year", year));
      }
      return Unparsable(text, fmt::format("Invalid date '{} {}'", UpperMonth(month), day));
    }
    epoch_day = DaysFromCivil(year, month, day);
  }
  int hour = 0;
  if (p.hour_of_day) {
    if (*p.hour_of_day > 23) return OutOfRange(text, "HourOfDay", 0, "23", *p.hour_of_day);
    hour = *p.hour_of_day;
    if (p.am_pm && *p.am_pm != (hour >= 12 ? 1 : 0)) {
      return Unparsable(text,
                        fmt::format("Conflict found: Field AmPmOfDay {} differs from "
                                    "AmPmOfDay {} derived from {:02}:{:02}",
                                    hour >= 12 ? 1 : 0, *p.am_pm, hour, p.minute.value_or(0)));
    }
  } else if (p.clock_hour_of_day) {
    int v = *p.clock_hour_of_day;
    if (v < 1 || v > 24) return OutOfRange(text, "ClockHourOfDay", 1, "24", v);
    hour = v == 24 ? 0 : v;
  } else if (p.clock_hour_of_am_pm) {
    int v = *p.clock_hour_of_am_pm;
    if (v < 1 || v > 12) return OutOfRange(text, "ClockHourOfAmPm", 1, "12", v);
    hour = v % 12 + 12 * p.am_pm.value_or(0);
  } else if (p.hour_of_am_pm) {
    int v = *p.hour_of_am_pm;
    if (v > 11) return OutOfRange(text, "HourOfAmPm", 0, "11", v);
    hour = v + 12 * p.am_pm.value_or(0);
  }
  int minute = p.minute.value_or(0);
  int second = p.second.value_or(0);
  if (minute > 59) return OutOfRange(text, "MinuteOfHour", 0, "59", minute);
  if (second > 59) return OutOfRange(text, "SecondOfMinute", 0, "59", second);
  int64_t seconds = epoch_day * 86400 + hour * 3600 + minute * 60 + second - p.offset_seconds;
  return seconds * kMicrosPerSecond + p.micros;
}

}  // namespace

Result<DatetimePattern> DatetimePattern::Compile(std::string_view pattern, Use use) {
  DatetimePattern compiled;
  compiled.text_ = std::string(pattern);
  size_t pos = 0;
  ARROW_RETURN_NOT_OK(Tokenize(pattern, &pos, 0, use, &compiled.tokens_));
  return compiled;
}

std::string DatetimePattern::Format(int64_t micros) const {
  std::string out;
  FormatTokens(tokens_, FieldsOf(micros), &out);
  return out;
}

Result<int64_t> DatetimePattern::Parse(std::string_view text) const {
  Parsed parsed;
  size_t pos = 0;
  if (!ReadTokens(tokens_, text, &pos, &parsed)) {
    return Status::Invalid(fmt::format("Text '{}' could not be parsed at index {}", text, pos));
  }
  if (pos != text.size()) {
    return Status::Invalid(
        fmt::format("Text '{}' could not be parsed, unparsed text found at index {}", text, pos));
  }
  return Resolve(parsed, text);
}

Status CannotParseTimestamp(const Status& detail, std::string_view try_function) {
  return MakeError(arrow::StatusCode::Invalid, "CANNOT_PARSE_TIMESTAMP",
                   fmt::format("{}. Use `{}` to tolerate invalid input string and return NULL "
                               "instead.",
                               detail.message(), try_function));
}

}  // namespace parley::kernels
