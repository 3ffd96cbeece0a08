// Parsing of INTERVAL literal text into months or microseconds.
#include "functions/interval_literal.h"

#include <fmt/format.h>

#include <cctype>
#include <map>
#include <optional>
#include <sstream>

#include "arrow/scalar.h"
#include "arrow/type.h"
#include "sql/positioned_error.h"

namespace parley {
namespace {

constexpr int64_t kMicrosPerSecond = 1000 * 1000;

// Microseconds per unit of the day-time units; year-month units are not listed.
const std::map<std::string, int64_t>& DayTimeUnits() {
  static const std::map<std::string, int64_t> kUnits = {{"WEEK", 7 * 86400 * kMicrosPerSecond},
                                                        {"DAY", 86400 * kMicrosPerSecond},
                                                        {"HOUR", 3600 * kMicrosPerSecond},
                                                        {"MINUTE", 60 * kMicrosPerSecond},
                                                        {"SECOND", kMicrosPerSecond},
                                                        {"MILLISECOND", 1000},
                                                        {"MICROSECOND", 1}};
  return kUnits;
}

bool IsYearMonthUnit(const std::string& unit) { return unit == "YEAR" || unit == "MONTH"; }

// A signed number with an optional fraction: "-90", "+1", "1.5".
struct Number {
  bool negative = false;
  int64_t whole = 0;
  int64_t micros = 0;  // the fraction in millionths
  bool has_fraction = false;
};

std::optional<Number> ParseNumber(std::string_view text) {
  Number number;
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) number.negative = text[i++] == '-';
  size_t digits = 0;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i, ++digits) {
    if (number.whole > (INT64_MAX - 9) / 10) return std::nullopt;
    number.whole = number.whole * 10 + (text[i] - '0');
  }
  if (i < text.size() && text[i] == '.') {
    number.has_fraction = true;
    ++i;
    int64_t scale = 100000;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
      number.micros += (text[i] - '0') * scale;
      scale /= 10;
      ++digits;
    }
  }
  if (digits == 0 || i != text.size()) return std::nullopt;
  return number;
}

// Accumulates one literal's value, checking that its units do not mix the two kinds.
class IntervalBuilder {
 public:
  // Add `number` of `unit` (upper case, singular); false when the number does not fit the
  // unit (a fraction of a unit above SECOND) or overflows.
  bool Add(const std::string& unit, const Number& number) {
    bool year_month = IsYearMonthUnit(unit);
    if (kind_ && *kind_ != year_month) mixed_ = true;
    kind_ = year_month;
    int64_t sign = number.negative ? -1 : 1;
    if (year_month) {
      if (number.has_fraction) return false;
      int64_t months = number.whole * (unit == "YEAR" ? 12 : 1);
      months_ += sign * months;
      return months_ >= INT32_MIN && months_ <= INT32_MAX;
    }
    auto it = DayTimeUnits().find(unit);
    if (it == DayTimeUnits().end()) return false;
    if (number.has_fraction && it->second > kMicrosPerSecond) return false;
    int64_t value = 0;
    if (__builtin_mul_overflow(number.whole, it->second, &value)) return false;
    value += number.micros * it->second / kMicrosPerSecond;
    return !__builtin_add_overflow(micros_, sign * value, &micros_);
  }

  bool mixed() const { return mixed_; }

  std::shared_ptr<arrow::Scalar> Value() const {
    if (kind_.value_or(false)) {
      return std::make_shared<arrow::MonthIntervalScalar>(static_cast<int32_t>(months_));
    }
    return std::make_shared<arrow::DurationScalar>(micros_,
                                                   arrow::duration(arrow::TimeUnit::MICRO));
  }

 private:
  std::optional<bool> kind_;  // true: year-month
  bool mixed_ = false;
  int64_t months_ = 0;
  int64_t micros_ = 0;
};

// The unit-to-unit form: 'Y-M' YEAR TO MONTH, or the day-time fields from `from` to `to`
// written as 'D H:M:S.f' (a space after the days, colons between the others).
bool ParseUnitToUnit(std::string text, const std::string& from, const std::string& to,
                     IntervalBuilder* builder) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.erase(0, 1);
  }
  std::vector<std::string> fields;
  if (from == "YEAR") {
    fields = {"YEAR", "MONTH"};
  } else {
    static const std::vector<std::string> kOrder = {"DAY", "HOUR", "MINUTE", "SECOND"};
    bool in = false;
    for (const auto& unit : kOrder) {
      if (unit == from) in = true;
      if (in) fields.push_back(unit);
      if (unit == to) break;
    }
  }
  size_t position = 0;
  for (size_t i = 0; i < fields.size(); ++i) {
    char separator = i + 1 == fields.size() ? '\0'
                     : fields[i] == "YEAR"  ? '-'
                     : fields[i] == "DAY"   ? ' '
                                            : ':';
    size_t end = separator == '\0' ? text.size() : text.find(separator, position);
    if (end == std::string::npos) return false;
    auto number = ParseNumber(std::string_view(text).substr(position, end - position));
    if (!number || number->negative || (number->has_fraction && fields[i] != "SECOND")) {
      return false;
    }
    static const std::map<std::string, int64_t> kBounds = {
        {"MONTH", 12}, {"HOUR", 24}, {"MINUTE", 60}, {"SECOND", 60}};
    auto bound = kBounds.find(fields[i]);
    if (i > 0 && bound != kBounds.end() && number->whole >= bound->second) return false;
    number->negative = negative;
    if (!builder->Add(fields[i], *number)) return false;
    position = end + 1;
  }
  return true;
}

// INTERVAL 'text' spelling its own units: '1 day 2 hours', '-3 months'.
bool ParseText(const std::string& text, IntervalBuilder* builder) {
  std::istringstream words(text);
  std::string value;
  std::string unit;
  bool any = false;
  while (words >> value) {
    if (!(words >> unit)) return false;
    std::string upper = unit;
    for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (upper.size() > 1 && upper.back() == 'S') upper.pop_back();
    auto number = ParseNumber(value);
    if (!number || (!IsYearMonthUnit(upper) && !DayTimeUnits().count(upper))) return false;
    if (!builder->Add(upper, *number)) return false;
    any = true;
  }
  return any;
}

}  // namespace

Result<std::shared_ptr<arrow::Scalar>> IntervalValue(const sql::Expr& expr) {
  const sql::IntervalLiteral& literal = *expr.interval;
  IntervalBuilder builder;
  bool ok = true;
  if (!literal.to_unit.empty()) {
    ok = ParseUnitToUnit(literal.parts[0].value, literal.parts[0].unit, literal.to_unit, &builder);
  } else if (literal.parts.size() == 1 && literal.parts[0].unit.empty()) {
    ok = ParseText(literal.parts[0].value, &builder);
  } else {
    for (const auto& part : literal.parts) {
      auto number = ParseNumber(part.value);
      ok = ok && number && builder.Add(part.unit, *number);
    }
  }
  if (builder.mixed()) {
    return AnalysisError(
        "INVALID_INTERVAL_FORMAT",
        fmt::format("Cannot mix year-month and day-time fields: \"{}\".", expr.source_text),
        expr.pos);
  }
  if (!ok) {
    return AnalysisError("INVALID_TYPED_LITERAL",
                         fmt::format("The value of the typed literal \"INTERVAL\" is invalid: "
                                     "\"{}\".",
                                     expr.source_text),
                         expr.pos);
  }
  return builder.Value();
}

bool IsDaysInterval(const sql::Expr& expr) {
  if (!expr.interval || !expr.interval->to_unit.empty()) return false;
  for (const auto& part : expr.interval->parts) {
    if (part.unit != "DAY" && part.unit != "WEEK") return false;
  }
  return true;
}

bool IsIntervalType(const arrow::DataType& type) {
  return type.id() == arrow::Type::INTERVAL_MONTHS || type.id() == arrow::Type::DURATION;
}

}  // namespace parley
