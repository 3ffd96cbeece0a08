// Casts between timestamps and text or numbers as Spark makes them, where Arrow's casts count
// microseconds or refuse. Timestamps come in as microseconds since the epoch (UTC):
//   parley_timestamp_text, parley_date_text: Spark's text, `yyyy-MM-dd HH:mm:ss[.ffffff]` with
//     the fraction's trailing zeros dropped, years past 9999 written `+10000` and years before
//     0 `-0001` (Arrow wrote 2024-01-01 00:00:00.000000Z, and 10000-01-01);
//   parley_timestamp_to_integral: whole seconds, rounded down, then CAST_OVERFLOW outside the
//     target type (Arrow's cast to BIGINT gave microseconds and refused the narrower types);
//   parley_timestamp_to_double: seconds with their fraction;
//   parley_to_timestamp: integral seconds (saturating, as Spark's conversion does), floating
//     point and decimal seconds (the fraction below a microsecond dropped); NaN and the
//     infinities are CAST_INVALID_INPUT and values past the range CAST_OVERFLOW, as Spark
//     reports them (Arrow took numbers for microseconds, or refused them).
#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "arrow/array/builder_binary.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/util/decimal.h"
#include "kernels/cast_errors.h"
#include "kernels/java_number_text.h"
#include "kernels/kernel_support.h"
#include "plan/bound_expression.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using kernels::Column;

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;

int64_t FloorDivide(int64_t value, int64_t divisor) {
  int64_t quotient = value / divisor;
  return (value % divisor != 0 && value < 0) ? quotient - 1 : quotient;
}

// The proleptic Gregorian year, month and day of a day count since 1970-01-01.
void CivilFromDays(int64_t days, int64_t* year, unsigned* month, unsigned* day) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const auto day_of_era = static_cast<unsigned>(days - era * 146097);
  const unsigned year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const unsigned day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const unsigned shifted_month = (5 * day_of_year + 2) / 153;
  *day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
  *month = shifted_month < 10 ? shifted_month + 3 : shifted_month - 9;
  *year = static_cast<int64_t>(year_of_era) + era * 400 + (*month <= 2 ? 1 : 0);
}

// `yyyy-MM-dd` of a day count since 1970-01-01, years past 9999 with '+', before 0 with '-'.
std::string DateText(int64_t days) {
  int64_t year = 0;
  unsigned month = 0, day = 0;
  CivilFromDays(days, &year, &month, &day);
  std::string text;
  if (year > 9999) {
    text = fmt::format("+{}", year);
  } else if (year < 0) {
    text = fmt::format("-{:04d}", -year);
  } else {
    text = fmt::format("{:04d}", year);
  }
  return text + fmt::format("-{:02d}-{:02d}", month, day);
}

std::string TimestampText(int64_t micros) {
  const int64_t days = FloorDivide(micros, kMicrosPerDay);
  const int64_t of_day = (micros % kMicrosPerDay + kMicrosPerDay) % kMicrosPerDay;
  const int64_t seconds = of_day / kMicrosPerSecond;
  std::string text = DateText(days) + fmt::format(" {:02d}:{:02d}:{:02d}", seconds / 3600,
                                                  seconds / 60 % 60, seconds % 60);
  if (int64_t fraction = of_day % kMicrosPerSecond; fraction != 0) {
    std::string digits = fmt::format("{:06d}", fraction);
    digits.erase(digits.find_last_not_of('0') + 1);
    text += "." + digits;
  }
  return text;
}

Status TimestampTextExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  return kernels::WriteTextOfEach<int64_t>(batch, ctx, out, TimestampText);
}

Status DateTextExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  return kernels::WriteTextOfEach<int32_t>(batch, ctx, out,
                                           [](int32_t days) { return DateText(days); });
}

template <typename Int>
Status TimestampToIntegral(const cp::ExecSpan& batch, cp::KernelContext* ctx, cp::ExecResult* out) {
  using Builder = typename arrow::CTypeTraits<Int>::BuilderType;
  Column<int64_t> values(batch[0]);
  Builder builder(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!values.IsValid(row)) {
      builder.UnsafeAppendNull();
      continue;
    }
    const int64_t seconds = FloorDivide(values.Value(row), kMicrosPerSecond);
    if (seconds < std::numeric_limits<Int>::min() || seconds > std::numeric_limits<Int>::max()) {
      return CastOverflowError("TIMESTAMP '" + TimestampText(values.Value(row)) + "'", "TIMESTAMP",
                               *batch[1].type());
    }
    builder.UnsafeAppend(static_cast<Int>(seconds));
  }
  return kernels::FinishInto(&builder, out);
}

Status TimestampToIntegralExec(cp::KernelContext* ctx, const cp::ExecSpan& batch,
                               cp::ExecResult* out) {
  switch (batch[1].type()->id()) {
    case arrow::Type::INT8: return TimestampToIntegral<int8_t>(batch, ctx, out);
    case arrow::Type::INT16: return TimestampToIntegral<int16_t>(batch, ctx, out);
    case arrow::Type::INT32: return TimestampToIntegral<int32_t>(batch, ctx, out);
    case arrow::Type::INT64: return TimestampToIntegral<int64_t>(batch, ctx, out);
    default:
      return Status::Invalid("parley_timestamp_to_integral: not an integral type: ",
                             batch[1].type()->ToString());
  }
}

Status TimestampToDoubleExec(cp::KernelContext* ctx, const cp::ExecSpan& batch,
                             cp::ExecResult* out) {
  Column<int64_t> values(batch[0]);
  arrow::DoubleBuilder builder(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!values.IsValid(row)) {
      builder.UnsafeAppendNull();
    } else {
      builder.UnsafeAppend(static_cast<double>(values.Value(row)) / kMicrosPerSecond);
    }
  }
  return kernels::FinishInto(&builder, out);
}

// Seconds of an integral type as microseconds, saturating at the ends of the range.
int64_t SecondsToMicros(int64_t seconds) {
  constexpr int64_t kMost = std::numeric_limits<int64_t>::max() / kMicrosPerSecond;
  if (seconds > kMost) return std::numeric_limits<int64_t>::max();
  if (seconds < -kMost) return std::numeric_limits<int64_t>::min();
  return seconds * kMicrosPerSecond;
}

// Floating point seconds as microseconds: Spark multiplies, then converts exactly to BIGINT.
Result<int64_t> DoubleSecondsToMicros(double seconds, const char* from, const std::string& text,
                                      const arrow::DataType& to) {
  if (!std::isfinite(seconds)) return CastInvalidInputError(text, from, to);
  const double micros = std::trunc(seconds * kMicrosPerSecond);
  constexpr double kUpper = 9223372036854775807.0;  // 2^63
  if (!(micros < kUpper && micros >= -kUpper)) {
    return CastOverflowError(JavaFloatingPointText(seconds * kMicrosPerSecond) + "D", "DOUBLE",
                             *arrow::int64());
  }
  return static_cast<int64_t>(micros);
}

// Decimal seconds as microseconds, the digits below a microsecond dropped.
Result<int64_t> DecimalSecondsToMicros(const arrow::Decimal128& value, int32_t scale,
                                       const arrow::DataType& from, const arrow::DataType& to) {
  arrow::Decimal256 micros{arrow::BasicDecimal256(arrow::BasicDecimal128(value))};
  micros = micros * arrow::Decimal256::GetScaleMultiplier(6);
  micros = micros / arrow::Decimal256::GetScaleMultiplier(scale);  // truncated toward zero
  const arrow::Decimal256 lowest{arrow::BasicDecimal128(std::numeric_limits<int64_t>::min())};
  const arrow::Decimal256 highest{arrow::BasicDecimal128(std::numeric_limits<int64_t>::max())};
  if (micros < lowest || micros > highest) {
    return CastOverflowError(value.ToString(scale) + "BD", SqlTypeName(from), to);
  }
  // In range, the lowest 64 bits of the two's complement are the value.
  return static_cast<int64_t>(micros.little_endian_array()[0]);
}

Status ToTimestampExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  const arrow::DataType& from = *batch[0].type();
  const arrow::DataType& to = *batch[1].type();
  arrow::TimestampBuilder builder(batch[1].type()->GetSharedPtr(), ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  auto each = [&](auto&& column, auto&& convert) -> Status {
    for (int64_t row = 0; row < batch.length; ++row) {
      if (!column.IsValid(row)) {
        builder.UnsafeAppendNull();
        continue;
      }
      ARROW_ASSIGN_OR_RAISE(int64_t micros, convert(column.Value(row)));
      builder.UnsafeAppend(micros);
    }
    return Status::OK();
  };
  auto integral = [](int64_t seconds) -> Result<int64_t> { return SecondsToMicros(seconds); };
  switch (from.id()) {
    case arrow::Type::INT8: ARROW_RETURN_NOT_OK(each(Column<int8_t>(batch[0]), integral)); break;
    case arrow::Type::INT16: ARROW_RETURN_NOT_OK(each(Column<int16_t>(batch[0]), integral)); break;
    case arrow::Type::INT32: ARROW_RETURN_NOT_OK(each(Column<int32_t>(batch[0]), integral)); break;
    case arrow::Type::INT64: ARROW_RETURN_NOT_OK(each(Column<int64_t>(batch[0]), integral)); break;
    case arrow::Type::FLOAT:
      ARROW_RETURN_NOT_OK(each(Column<float>(batch[0]), [&](float value) {
        return DoubleSecondsToMicros(value, "FLOAT", JavaFloatingPointText(value), to);
      }));
      break;
    case arrow::Type::DOUBLE:
      ARROW_RETURN_NOT_OK(each(Column<double>(batch[0]), [&](double value) {
        return DoubleSecondsToMicros(value, "DOUBLE", JavaFloatingPointText(value), to);
      }));
      break;
    case arrow::Type::DECIMAL128: {
      const int32_t scale = static_cast<const arrow::DecimalType&>(from).scale();
      ARROW_RETURN_NOT_OK(
          each(Column<arrow::Decimal128>(batch[0]), [&](const arrow::Decimal128& value) {
            return DecimalSecondsToMicros(value, scale, from, to);
          }));
      break;
    }
    default: return Status::Invalid("parley_to_timestamp: not a number: ", from.ToString());
  }
  return kernels::FinishInto(&builder, out);
}

}  // namespace

namespace kernels {

Status RegisterTimestampCastKernels(cp::FunctionRegistry* registry) {
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_timestamp_text",
                                  {cp::InputType(arrow::Type::TIMESTAMP)},
                                  cp::OutputType(arrow::utf8()), TimestampTextExec,
                                  "A timestamp (microseconds) as Spark writes it as a string"));
  ARROW_RETURN_NOT_OK(AddFunction(
      registry, "parley_date_text", {cp::InputType(arrow::Type::DATE32)},
      cp::OutputType(arrow::utf8()), DateTextExec, "A date as Spark writes it as a string"));
  ARROW_RETURN_NOT_OK(AddFunction(
      registry, "parley_timestamp_to_integral",
      {cp::InputType(arrow::Type::TIMESTAMP), cp::InputType::Any()}, cp::OutputType(InputTypeAt<1>),
      TimestampToIntegralExec,
      "A timestamp's whole seconds in the type of the second argument, or CAST_OVERFLOW"));
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_timestamp_to_double",
                                  {cp::InputType(arrow::Type::TIMESTAMP)},
                                  cp::OutputType(arrow::float64()), TimestampToDoubleExec,
                                  "A timestamp's seconds since the epoch with their fraction"));
  return AddFunction(registry, "parley_to_timestamp", {cp::InputType::Any(), cp::InputType::Any()},
                     cp::OutputType(InputTypeAt<1>), ToTimestampExec,
                     "Seconds since the epoch as a timestamp of the second argument's type");
}

}  // namespace kernels
}  // namespace parley
