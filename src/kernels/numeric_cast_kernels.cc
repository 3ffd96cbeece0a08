// Casts from floating point that Arrow's cast does differently from Spark:
//   parley_float_to_integral: Spark's ANSI cast drops the fraction and fails with CAST_OVERFLOW
//     for NaN, +-Infinity and values outside the target type (Arrow's cast, allowed to drop
//     fractions, wraps them). Like Spark, a BIGINT bound is compared as a double, so 2^63
//     (the double nearest Long.MaxValue) becomes 9223372036854775807.
//   parley_float_to_decimal: Spark reads the double as its shortest decimal text (Java's
//     Double.toString; a float is widened to double first), rounds it half up to the scale and
//     fails with NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION when it needs more digits than the
//     precision; NaN and +-Infinity become NULL (Arrow converts the exact binary value, so
//     CAST(0.1D AS DECIMAL(38, 37)) gained 17 digits of binary noise).
//   parley_decimal_text: a decimal as Spark writes it as a string, plainly (Arrow writes 0E-37).
//   parley_decimal_to_floating: a decimal as the FLOAT or DOUBLE nearest its exact value, as
//     Java's BigDecimal converts it (Arrow multiplies by an inexact power of ten, so
//     CAST(3.333333 AS DOUBLE) was 3.3333329999999997).
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>

#include "arrow/array/builder_binary.h"
#include "arrow/array/builder_decimal.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/util/decimal.h"
#include "kernels/cast_errors.h"
#include "kernels/decimal_text.h"
#include "kernels/java_number_text.h"
#include "kernels/kernel_support.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using kernels::Column;

// `value` (finite) as an unscaled decimal of `scale` digits of fraction: its shortest digits
// rounded half up to the scale; nothing when it needs more than `precision` digits.
std::optional<arrow::Decimal128> DoubleToUnscaledDecimal(double value, int32_t precision,
                                                         int32_t scale) {
  if (value == 0) return arrow::Decimal128(0);
  // The shortest digits d1 d2 ... dn and exponent e: value = d1.d2...dn x 10^e.
  char buffer[64];
  char* end = std::to_chars(buffer, buffer + sizeof(buffer), std::fabs(value),
                            std::chars_format::scientific)
                  .ptr;
  std::string_view text(buffer, end - buffer);
  size_t e_pos = text.find('e');
  std::string digits;
  for (char c : text.substr(0, e_pos)) {
    if (c != '.') digits.push_back(c);
  }
  int exponent = 0;
  std::string_view exponent_text = text.substr(e_pos + 1);
  if (exponent_text.front() == '+') exponent_text.remove_prefix(1);
  std::from_chars(exponent_text.data(), exponent_text.data() + exponent_text.size(), exponent);
  return RoundDigitsToDecimal(digits, exponent - (static_cast<int64_t>(digits.size()) - 1),
                              value < 0, precision, scale);
}

template <typename Float>
std::string SqlValueText(Float value) {
  std::string text = JavaFloatingPointText(value);
  if constexpr (std::is_same_v<Float, double>) {
    if (std::isfinite(value)) text += "D";
  }
  return text;
}

template <typename Float>
Status CastOverflow(Float value, const arrow::DataType& to) {
  return CastOverflowError(SqlValueText(value), std::is_same_v<Float, double> ? "DOUBLE" : "FLOAT",
                           to);
}

template <typename Float, typename Int>
Status FloatToIntegral(const cp::ExecSpan& batch, cp::KernelContext* ctx, cp::ExecResult* out) {
  using Builder = typename arrow::CTypeTraits<Int>::BuilderType;
  Column<Float> values(batch[0]);
  const auto& to = *batch[1].type();
  const double upper = static_cast<double>(std::numeric_limits<Int>::max());
  const double lower = static_cast<double>(std::numeric_limits<Int>::min());
  Builder builder(batch[1].type()->GetSharedPtr(), ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!values.IsValid(row)) {
      builder.UnsafeAppendNull();
      continue;
    }
    const double value = values.Value(row);
    const double whole = std::trunc(value);
    // NaN fails both comparisons.
    if (!(whole <= upper && whole >= lower)) return CastOverflow(values.Value(row), to);
    // Only 2^63 itself reaches past BIGINT's maximum; it saturates, as Java's conversion does.
    builder.UnsafeAppend(whole >= upper ? std::numeric_limits<Int>::max()
                                        : static_cast<Int>(whole));
  }
  return kernels::FinishInto(&builder, out);
}

template <typename Float>
Status FloatToIntegralExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  switch (batch[1].type()->id()) {
    case arrow::Type::INT8: return FloatToIntegral<Float, int8_t>(batch, ctx, out);
    case arrow::Type::INT16: return FloatToIntegral<Float, int16_t>(batch, ctx, out);
    case arrow::Type::INT32: return FloatToIntegral<Float, int32_t>(batch, ctx, out);
    case arrow::Type::INT64: return FloatToIntegral<Float, int64_t>(batch, ctx, out);
    default:
      return Status::Invalid("parley_float_to_integral: not an integral type: ",
                             batch[1].type()->ToString());
  }
}

template <typename Float>
Status FloatToDecimalExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  Column<Float> values(batch[0]);
  auto type = batch[1].type()->GetSharedPtr();
  const auto& decimal = static_cast<const arrow::DecimalType&>(*type);
  arrow::Decimal128Builder builder(type, ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!values.IsValid(row) || !std::isfinite(values.Value(row))) {
      builder.UnsafeAppendNull();
      continue;
    }
    const double value = values.Value(row);
    auto unscaled = DoubleToUnscaledDecimal(value, decimal.precision(), decimal.scale());
    if (!unscaled.has_value()) {
      return MakeError(
          arrow::StatusCode::Invalid, "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION",
          fmt::format(" {} cannot be represented as Decimal({}, {}). If necessary set "
                      "\"spark.sql.ansi.enabled\" to \"false\" to bypass this error, "
                      "and return NULL instead.",
                      JavaFloatingPointText(value), decimal.precision(), decimal.scale()));
    }
    builder.UnsafeAppend(*unscaled);
  }
  return kernels::FinishInto(&builder, out);
}

// A decimal as text, written plainly as Spark casts it to a string.
Status DecimalTextExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  const int32_t scale = static_cast<const arrow::DecimalType&>(*batch[0].type()).scale();
  return kernels::WriteTextOfEach<arrow::Decimal128>(
      batch, ctx, out,
      [scale](const arrow::Decimal128& value) { return PlainDecimalText(value, scale); });
}

// The double nearest unscaled / 10^scale: one correctly rounded division when both are exact
// doubles, else the correctly rounded reading of the decimal's text.
double DecimalToDouble(const arrow::Decimal128& unscaled, int32_t scale) {
  static constexpr double kPowersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                            1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                            1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  constexpr int64_t kExactInteger = int64_t{1} << 53;
  if (scale >= 0 && scale <= 22 && unscaled.high_bits() == (unscaled.IsNegative() ? -1 : 0)) {
    const auto low = static_cast<int64_t>(unscaled.low_bits());
    if (low > -kExactInteger && low < kExactInteger && (low < 0) == unscaled.IsNegative()) {
      return static_cast<double>(low) / kPowersOfTen[scale];
    }
  }
  return std::strtod(PlainDecimalText(unscaled, scale).c_str(), nullptr);
}

// Decimals to the marker's FLOAT or DOUBLE type.
Status DecimalToFloatingExec(cp::KernelContext* ctx, const cp::ExecSpan& batch,
                             cp::ExecResult* out) {
  Column<arrow::Decimal128> values(batch[0]);
  const int32_t scale = static_cast<const arrow::DecimalType&>(*batch[0].type()).scale();
  const int64_t length = batch.length;
  if (batch[1].type()->id() == arrow::Type::FLOAT) {
    arrow::FloatBuilder builder(ctx->memory_pool());
    ARROW_RETURN_NOT_OK(builder.Reserve(length));
    for (int64_t row = 0; row < length; ++row) {
      if (!values.IsValid(row)) {
        builder.UnsafeAppendNull();
      } else {
        builder.UnsafeAppend(
            std::strtof(PlainDecimalText(values.Value(row), scale).c_str(), nullptr));
      }
    }
    return kernels::FinishInto(&builder, out);
  }
  arrow::DoubleBuilder builder(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(length));
  for (int64_t row = 0; row < length; ++row) {
    if (!values.IsValid(row)) {
      builder.UnsafeAppendNull();
    } else {
      builder.UnsafeAppend(DecimalToDouble(values.Value(row), scale));
    }
  }
  return kernels::FinishInto(&builder, out);
}

Status AddFloatCast(cp::FunctionRegistry* registry, const std::string& name,
                    arrow::Type::type target, cp::ArrayKernelExec float_exec,
                    cp::ArrayKernelExec double_exec, const std::string& summary) {
  auto function = std::make_shared<cp::ScalarFunction>(name, cp::Arity::Binary(),
                                                       cp::FunctionDoc(summary, "", {}));
  const std::pair<arrow::Type::type, cp::ArrayKernelExec> kernels[] = {
      {arrow::Type::FLOAT, float_exec}, {arrow::Type::DOUBLE, double_exec}};
  for (const auto& [input, exec] : kernels) {
    std::vector<cp::InputType> inputs = {cp::InputType(input), target == arrow::Type::DECIMAL128
                                                                   ? cp::InputType(target)
                                                                   : cp::InputType::Any()};
    cp::ScalarKernel kernel(std::move(inputs), cp::OutputType(kernels::InputTypeAt<1>), exec);
    kernel.null_handling = cp::NullHandling::COMPUTED_NO_PREALLOCATE;
    kernel.mem_allocation = cp::MemAllocation::NO_PREALLOCATE;
    ARROW_RETURN_NOT_OK(function->AddKernel(std::move(kernel)));
  }
  return registry->AddFunction(std::move(function), /*allow_overwrite=*/true);
}

}  // namespace

namespace kernels {

Status RegisterNumericCastKernels(cp::FunctionRegistry* registry) {
  ARROW_RETURN_NOT_OK(AddFloatCast(registry, "parley_float_to_integral", arrow::Type::INT64,
                                   FloatToIntegralExec<float>, FloatToIntegralExec<double>,
                                   "Spark's ANSI cast of floating point to an integral type"));
  ARROW_RETURN_NOT_OK(AddFloatCast(registry, "parley_float_to_decimal", arrow::Type::DECIMAL128,
                                   FloatToDecimalExec<float>, FloatToDecimalExec<double>,
                                   "Spark's cast of floating point to decimal"));
  ARROW_RETURN_NOT_OK(
      AddFunction(registry, "parley_decimal_to_floating",
                  {cp::InputType(arrow::Type::DECIMAL128), cp::InputType::Any()},
                  cp::OutputType(kernels::InputTypeAt<1>), DecimalToFloatingExec,
                  "A decimal as the nearest floating point value, as Spark converts it"));
  return AddFunction(registry, "parley_decimal_text", {cp::InputType(arrow::Type::DECIMAL128)},
                     cp::OutputType(arrow::utf8()), DecimalTextExec,
                     "A decimal written plainly, as Spark casts it to a string");
}

}  // namespace kernels
}  // namespace parley
