// Casts from STRING as Spark's ANSI mode reads text, where Arrow's casts read it otherwise.
// Every kernel trims spaces and control characters first, and fails with CAST_INVALID_INPUT
// naming the value and the type when the rest is not a value of the type:
//   parley_string_to_integral: [+-]digits, within the type (Arrow refuses ' 12 ' and '+1');
//   parley_string_to_floating: Java's number syntax (with an f or d suffix), inf, infinity and
//     nan in any case; too large is an infinity;
//   parley_string_to_decimal: Java BigDecimal's syntax ('1e2', '1.', '.5'), rounded half up to
//     the scale, NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION beyond the precision and
//     NUMERIC_OUT_OF_SUPPORTED_RANGE with more than 38 integer digits (Arrow truncated and did
//     not check the precision: CAST('12' AS DECIMAL(5, 5)) was 12.00000);
//   parley_string_to_boolean: t, true, y, yes, 1 and f, false, n, no, 0 in any case;
//   parley_string_to_date: [+-]yyyy[-m[m][-d[d]]] with 4 to 7 year digits, optionally followed
//     by a space or T and anything (a time), as Spark's date parser.
// The second argument is a marker whose type is the result's.
#include <fmt/format.h>

#include <cctype>
#include <cstdlib>
#include <limits>
#include <string>

#include "arrow/array/builder_decimal.h"
#include "arrow/array/builder_primitive.h"
#include "kernels/cast_errors.h"
#include "kernels/decimal_text.h"
#include "kernels/kernel_support.h"
#include "kernels/kernels.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using kernels::StringColumn;

Status Malformed(std::string_view value, const arrow::DataType& type) {
  return CastInvalidInputError(fmt::format("'{}'", value), "STRING", type);
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Runs `convert(text, &builder)` on each valid row of the string input, building the output of
// the marker's type.
template <typename Builder, typename Convert>
Status ConvertRows(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out,
                   Convert convert) {
  StringColumn values(batch[0]);
  Builder builder(batch[1].type()->GetSharedPtr(), ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!values.IsValid(row)) {
      builder.UnsafeAppendNull();
      continue;
    }
    ARROW_RETURN_NOT_OK(convert(values.Value(row), &builder));
  }
  return kernels::FinishInto(&builder, out);
}

// [+-]digits as an integer of at most 64 bits, or nothing.
std::optional<int64_t> ParseInteger(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  // Accumulated negatively, so that the minimum fits.
  int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    if (__builtin_mul_overflow(value, 10, &value) ||
        __builtin_sub_overflow(value, c - '0', &value)) {
      return std::nullopt;
    }
  }
  if (negative) return value;
  if (value == std::numeric_limits<int64_t>::min()) return std::nullopt;
  return -value;
}

template <typename Int>
Status StringToIntegral(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  using Builder = typename arrow::CTypeTraits<Int>::BuilderType;
  const auto& type = *batch[1].type();
  return ConvertRows<Builder>(ctx, batch, out, [&](std::string_view text, Builder* builder) {
    auto value = ParseInteger(TrimSparkWhitespace(text));
    if (!value || *value < std::numeric_limits<Int>::min() ||
        *value > std::numeric_limits<Int>::max()) {
      return Malformed(text, type);
    }
    builder->UnsafeAppend(static_cast<Int>(*value));
    return Status::OK();
  });
}

Status StringToIntegralExec(cp::KernelContext* ctx, const cp::ExecSpan& batch,
                            cp::ExecResult* out) {
  switch (batch[1].type()->id()) {
    case arrow::Type::INT8: return StringToIntegral<int8_t>(ctx, batch, out);
    case arrow::Type::INT16: return StringToIntegral<int16_t>(ctx, batch, out);
    case arrow::Type::INT32: return StringToIntegral<int32_t>(ctx, batch, out);
    default: return StringToIntegral<int64_t>(ctx, batch, out);
  }
}

// Java's floating-point literal syntax without hexadecimal forms: [+-] (digits [. digits] |
// . digits) [(e|E) [+-] digits] [f|F|d|D]. Returns the part strtod reads, or nothing.
std::optional<std::string> JavaNumberText(std::string_view text) {
  if (!text.empty() && std::string_view("fFdD").find(text.back()) != std::string_view::npos) {
    text.remove_suffix(1);
  }
  std::string out;
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
    if (text[i] == '-') out.push_back('-');
    ++i;
  }
  bool digit = false;
  auto digits = [&] {
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
      out.push_back(text[i]);
      digit = true;
    }
  };
  digits();
  if (i < text.size() && text[i] == '.') {
    out.push_back(text[i++]);
    digits();
  }
  if (!digit) return std::nullopt;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    out.push_back(text[i++]);
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) out.push_back(text[i++]);
    digit = false;
    digits();
    if (!digit) return std::nullopt;
  }
  if (i != text.size()) return std::nullopt;
  return out;
}

template <typename Float>
Status StringToFloating(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  using Builder = typename arrow::CTypeTraits<Float>::BuilderType;
  const auto& type = *batch[1].type();
  return ConvertRows<Builder>(ctx, batch, out, [&](std::string_view text, Builder* builder) {
    const std::string word = Lower(TrimSparkWhitespace(text));
    constexpr Float kInfinity = std::numeric_limits<Float>::infinity();
    if (word == "inf" || word == "+inf" || word == "infinity" || word == "+infinity") {
      builder->UnsafeAppend(kInfinity);
    } else if (word == "-inf" || word == "-infinity") {
      builder->UnsafeAppend(-kInfinity);
    } else if (word == "nan") {
      builder->UnsafeAppend(std::numeric_limits<Float>::quiet_NaN());
    } else {
      auto number = JavaNumberText(TrimSparkWhitespace(text));
      if (!number) return Malformed(text, type);
      // strtod and strtof round to nearest and give an infinity or zero out of range, as Java.
      if constexpr (std::is_same_v<Float, float>) {
        builder->UnsafeAppend(std::strtof(number->c_str(), nullptr));
      } else {
        builder->UnsafeAppend(std::strtod(number->c_str(), nullptr));
      }
    }
    return Status::OK();
  });
}

Status StringToFloatingExec(cp::KernelContext* ctx, const cp::ExecSpan& batch,
                            cp::ExecResult* out) {
  if (batch[1].type()->id() == arrow::Type::FLOAT) return StringToFloating<float>(ctx, batch, out);
  return StringToFloating<double>(ctx, batch, out);
}

Status StringToDecimalExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  const auto& type = static_cast<const arrow::DecimalType&>(*batch[1].type());
  using Builder = arrow::Decimal128Builder;
  return ConvertRows<Builder>(ctx, batch, out, [&](std::string_view text, Builder* builder) {
    auto literal = ParseDecimalText(text);
    if (!literal) return Malformed(text, type);
    size_t first = literal->digits.find_first_not_of('0');
    const auto significant =
        first == std::string::npos ? 0 : static_cast<int64_t>(literal->digits.size() - first);
    if (significant > 0 && significant + literal->exponent > arrow::Decimal128Type::kMaxPrecision) {
      return MakeError(arrow::StatusCode::Invalid, "NUMERIC_OUT_OF_SUPPORTED_RANGE",
                       fmt::format("The value {} cannot be interpreted as a numeric since it has "
                                   "more than 38 digits.",
                                   TrimSparkWhitespace(text)));
    }
    auto value = RoundDigitsToDecimal(literal->digits, literal->exponent, literal->negative,
                                      type.precision(), type.scale());
    if (!value) {
      return MakeError(arrow::StatusCode::Invalid, "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION",
                       fmt::format(" {} cannot be represented as Decimal({}, {}). If necessary set "
                                   "\"spark.sql.ansi.enabled\" to \"false\" to bypass this error, "
                                   "and return NULL instead.",
                                   TrimSparkWhitespace(text), type.precision(), type.scale()));
    }
    builder->UnsafeAppend(*value);
    return Status::OK();
  });
}

Status StringToBooleanExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  const auto& type = *batch[1].type();
  using Builder = arrow::BooleanBuilder;
  return ConvertRows<Builder>(ctx, batch, out, [&](std::string_view text, Builder* builder) {
    const std::string word = Lower(TrimSparkWhitespace(text));
    if (word == "t" || word == "true" || word == "y" || word == "yes" || word == "1") {
      builder->UnsafeAppend(true);
    } else if (word == "f" || word == "false" || word == "n" || word == "no" || word == "0") {
      builder->UnsafeAppend(false);
    } else {
      return Malformed(text, type);
    }
    return Status::OK();
  });
}

// Days since the epoch of Spark's date text, or nothing.
std::optional<int32_t> ParseDate(std::string_view text) {
  int sign = 1;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    sign = text[0] == '-' ? -1 : 1;
    text.remove_prefix(1);
  }
  int64_t fields[3] = {0, 1, 1};
  int field = 0;
  int digits = 0;
  size_t i = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      fields[field] = (digits == 0 ? 0 : fields[field]) * 10 + (c - '0');
      if (++digits > (field == 0 ? 7 : 2)) return std::nullopt;
      continue;
    }
    const bool year_done = field == 0 ? digits >= 4 : digits >= 1;
    if (!year_done) return std::nullopt;
    if (c == '-' && field < 2) {
      ++field;
      digits = 0;
      continue;
    }
    // A time may follow the day only.
    if (field == 2 && (c == ' ' || c == 'T')) break;
    return std::nullopt;
  }
  if (i == text.size() && (field == 0 ? digits < 4 : digits < 1)) return std::nullopt;
  const int64_t year = sign * fields[0];
  const int64_t month = fields[1];
  const int64_t day = fields[2];
  if (month < 1 || month > 12 || day < 1) return std::nullopt;
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (day > kDays[month - 1] + (month == 2 && leap ? 1 : 0)) return std::nullopt;
  return static_cast<int32_t>(DaysFromCivil(year, month, day));
}

Status StringToDateExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  const auto& type = *batch[1].type();
  using Builder = arrow::Date32Builder;
  return ConvertRows<Builder>(ctx, batch, out, [&](std::string_view text, Builder* builder) {
    auto days = ParseDate(TrimSparkWhitespace(text));
    if (!days) return Malformed(text, type);
    builder->UnsafeAppend(*days);
    return Status::OK();
  });
}

}  // namespace

namespace kernels {

Status RegisterStringCastKernels(cp::FunctionRegistry* registry) {
  const std::pair<const char*, cp::ArrayKernelExec> kCasts[] = {
      {"parley_string_to_integral", StringToIntegralExec},
      {"parley_string_to_floating", StringToFloatingExec},
      {"parley_string_to_decimal", StringToDecimalExec},
      {"parley_string_to_boolean", StringToBooleanExec},
      {"parley_string_to_date", StringToDateExec}};
  for (const auto& [name, exec] : kCasts) {
    ARROW_RETURN_NOT_OK(AddFunction(
        registry, name, {cp::InputType(arrow::Type::STRING), cp::InputType::Any()},
        cp::OutputType(kernels::InputTypeAt<1>), exec, "Spark's ANSI cast of a string"));
  }
  return Status::OK();
}

}  // namespace kernels
}  // namespace parley
