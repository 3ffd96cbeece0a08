// Decimal product, division and remainder with Spark's result types. Arrow's decimal multiply
// and divide type their result with p1 + p2 + 1 digits and fail beyond its limit, which wide
// operands exceed; Spark instead computes the exact product or quotient and rounds it half up
// to the scale of its result type, and the remainder exactly at the larger scale of the
// operands. Products are computed in 128 bits, and in 256 only for the values that need it.
// A cast to a decimal type that keeps every digit (parley_decimal_widen) checks nothing.
#include <fmt/format.h>

#include <array>
#include <limits>

#include "arrow/array/builder_decimal.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/util/decimal.h"
#include "kernels/kernel_support.h"
#include "kernels/kernels.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using kernels::Column;

constexpr int32_t kMaxWideDigits = 76;

int32_t ScaleOf(const arrow::DataType* type) {
  return static_cast<const arrow::DecimalType*>(type)->scale();
}

Status OutOfRange(const arrow::DecimalType& type) {
  return MakeError(arrow::StatusCode::Invalid, "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION",
                   fmt::format("The quotient cannot be represented as {}. If necessary set "
                               "\"spark.sql.ansi.enabled\" to \"false\" to bypass this error.",
                               type.ToString()));
}

// dividend / divisor as an unscaled value of `scale` digits, rounded half up; `shift` is the
// power of ten that brings the dividend to one digit more than that scale.
Result<arrow::BasicDecimal256> Quotient(const arrow::BasicDecimal128& dividend,
                                        const arrow::BasicDecimal128& divisor, int32_t shift,
                                        const arrow::DecimalType& type) {
  arrow::BasicDecimal256 numerator(dividend);
  if (shift > 0) {
    if (!numerator.FitsInPrecision(kMaxWideDigits - shift)) return OutOfRange(type);
    numerator = numerator.IncreaseScaleBy(shift);
  } else if (shift < 0) {
    numerator = numerator.ReduceScaleBy(-shift, /*round=*/false);
  }
  arrow::BasicDecimal256 quotient = numerator / arrow::BasicDecimal256(divisor);
  quotient = quotient.ReduceScaleBy(1, /*round=*/true);
  if (!quotient.FitsInPrecision(type.precision())) return OutOfRange(type);
  return quotient;
}

Status DivideByZero() {
  return MakeError(arrow::StatusCode::Invalid, "DIVIDE_BY_ZERO",
                   "Division by zero. Use `try_divide` to tolerate divisor being 0 and return "
                   "NULL instead.");
}

// dividend % divisor (the sign of the dividend) at `scale`, the larger of the two scales.
Result<arrow::BasicDecimal256> Remainder(const arrow::BasicDecimal128& dividend,
                                         int32_t dividend_scale,
                                         const arrow::BasicDecimal128& divisor,
                                         int32_t divisor_scale, const arrow::DecimalType& type) {
  int32_t scale = type.scale();
  auto left = arrow::BasicDecimal256(dividend).IncreaseScaleBy(scale - dividend_scale);
  auto right = arrow::BasicDecimal256(divisor).IncreaseScaleBy(scale - divisor_scale);
  arrow::BasicDecimal256 quotient;
  arrow::BasicDecimal256 remainder;
  if (left.Divide(right, &quotient, &remainder) != arrow::DecimalStatus::kSuccess) {
    return OutOfRange(type);
  }
  if (!remainder.FitsInPrecision(type.precision())) return OutOfRange(type);
  return remainder;
}

arrow::Decimal128 Narrow(const arrow::BasicDecimal256& value) {
  auto words = value.little_endian_array();
  return arrow::Decimal128(static_cast<int64_t>(words[1]), words[0]);
}

// Quotient or remainder of two decimal columns, typed as the third input.
template <bool kRemainder>
Status DecimalDivisionExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  Column<arrow::Decimal128> dividends(batch[0]);
  Column<arrow::Decimal128> divisors(batch[1]);
  const auto& type = static_cast<const arrow::DecimalType&>(*batch[2].type());
  int32_t dividend_scale = ScaleOf(batch[0].type());
  int32_t divisor_scale = ScaleOf(batch[1].type());
  int32_t shift = type.scale() + 1 - dividend_scale + divisor_scale;
  arrow::Decimal128Builder builder(batch[2].type()->GetSharedPtr(), ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!dividends.IsValid(row) || !divisors.IsValid(row)) {
      builder.UnsafeAppendNull();
      continue;
    }
    arrow::Decimal128 divisor = divisors.Value(row);
    if (divisor == arrow::Decimal128(0)) {
      return kRemainder ? kernels::RemainderByZeroError() : DivideByZero();
    }
    arrow::BasicDecimal256 value;
    if (kRemainder) {
      ARROW_ASSIGN_OR_RAISE(
          value, Remainder(dividends.Value(row), dividend_scale, divisor, divisor_scale, type));
    } else {
      ARROW_ASSIGN_OR_RAISE(value, Quotient(dividends.Value(row), divisor, shift, type));
    }
    builder.UnsafeAppend(Narrow(value));
  }
  return kernels::FinishInto(&builder, out);
}

// 10^0 .. 10^38 as 128-bit integers.
const std::array<__int128, 39>& PowersOfTen() {
  static const std::array<__int128, 39> powers = [] {
    std::array<__int128, 39> out{};
    out[0] = 1;
    for (size_t i = 1; i < out.size(); ++i) out[i] = out[i - 1] * 10;
    return out;
  }();
  return powers;
}

Status ProductOutOfRange(const arrow::DecimalType& type) {
  return MakeError(arrow::StatusCode::Invalid, "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION",
                   fmt::format("The product cannot be represented as {}. If necessary set "
                               "\"spark.sql.ansi.enabled\" to \"false\" to bypass this error.",
                               type.ToString()));
}

__int128 ToInt128(const arrow::BasicDecimal128& value) {
  return static_cast<__int128>(
      (static_cast<unsigned __int128>(static_cast<uint64_t>(value.high_bits())) << 64) |
      value.low_bits());
}

// x * y with `shift` fewer fraction digits, rounded half away from zero, in 256 bits: for the
// rare products that overflow 128.
Result<arrow::Decimal128> WideProduct(const arrow::BasicDecimal128& x,
                                      const arrow::BasicDecimal128& y, int32_t shift,
                                      const arrow::DecimalType& type) {
  arrow::BasicDecimal256 product = arrow::BasicDecimal256(x) * arrow::BasicDecimal256(y);
  if (shift > 0) {
    arrow::BasicDecimal256 divisor = arrow::BasicDecimal256::GetScaleMultiplier(shift);
    arrow::BasicDecimal256 quotient;
    arrow::BasicDecimal256 remainder;
    if (product.Divide(divisor, &quotient, &remainder) != arrow::DecimalStatus::kSuccess) {
      return ProductOutOfRange(type);
    }
    remainder.Abs();
    if (remainder + remainder >= divisor) {
      quotient += arrow::BasicDecimal256(product.IsNegative() ? -1 : 1);
    }
    product = quotient;
  }
  if (!product.FitsInPrecision(type.precision())) return ProductOutOfRange(type);
  return Narrow(product);
}

// Whether the 128-bit value is a sign-extended 64-bit one.
bool FitsInt64(const arrow::BasicDecimal128& value) {
  return value.high_bits() == (static_cast<int64_t>(value.low_bits()) >> 63);
}

// Product of two decimal columns, typed as the third input, whose scale is at most the sum of
// the operands' scales. Arrow allocates the output and its validity (null where an operand is).
Status DecimalMultiplyExec(cp::KernelContext*, const cp::ExecSpan& batch, cp::ExecResult* out) {
  Column<arrow::Decimal128> lefts(batch[0]);
  Column<arrow::Decimal128> rights(batch[1]);
  const auto& type = static_cast<const arrow::DecimalType&>(*batch[2].type());
  int32_t shift = ScaleOf(batch[0].type()) + ScaleOf(batch[1].type()) - type.scale();
  if (shift < 0 || shift > 38) {
    return Status::Invalid("parley_decimal_multiply: result scale ", type.scale(),
                           " is outside the operands' product scale");
  }
  const __int128 divisor = PowersOfTen()[shift];
  const __int128 half = divisor / 2;
  const __int128 limit = PowersOfTen()[type.precision()];
  arrow::ArraySpan* output = out->array_span_mutable();
  auto* values = output->GetValues<arrow::Decimal128>(1);
  const bool all_valid = output->buffers[0].data == nullptr;
  bool in_range = true;
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!all_valid && !output->IsValid(row)) continue;
    const arrow::Decimal128& x = lefts.Value(row);
    const arrow::Decimal128& y = rights.Value(row);
    __int128 product;
    if (FitsInt64(x) && FitsInt64(y)) {
      // The common case (values of up to 18 digits): one 64 x 64 -> 128-bit product.
      product = static_cast<__int128>(static_cast<int64_t>(x.low_bits())) *
                static_cast<int64_t>(y.low_bits());
    } else if (__builtin_mul_overflow(ToInt128(x), ToInt128(y), &product)) {
      ARROW_ASSIGN_OR_RAISE(values[row], WideProduct(x, y, shift, type));
      continue;
    }
    if (shift > 0) {
      __int128 quotient = product / divisor;
      __int128 remainder = product - quotient * divisor;
      if (remainder >= half) {
        ++quotient;
      } else if (-remainder >= half) {
        --quotient;
      }
      product = quotient;
    }
    in_range &= product < limit && product > -limit;
    auto bits = static_cast<unsigned __int128>(product);
    values[row] = arrow::Decimal128(static_cast<int64_t>(bits >> 64), static_cast<uint64_t>(bits));
  }
  return in_range ? Status::OK() : ProductOutOfRange(type);
}

// Sum or difference of two decimal columns, typed as the third input, whose scale is the
// larger of theirs and whose precision holds every exact result (so none is checked).
template <bool kSubtract>
Status DecimalAddExec(cp::KernelContext*, const cp::ExecSpan& batch, cp::ExecResult* out) {
  Column<arrow::Decimal128> lefts(batch[0]);
  Column<arrow::Decimal128> rights(batch[1]);
  const int32_t scale = ScaleOf(batch[2].type());
  const __int128 left_factor = PowersOfTen()[scale - ScaleOf(batch[0].type())];
  const __int128 right_factor = PowersOfTen()[scale - ScaleOf(batch[1].type())];
  arrow::ArraySpan* output = out->array_span_mutable();
  auto* values = output->GetValues<arrow::Decimal128>(1);
  for (int64_t row = 0; row < batch.length; ++row) {
    __int128 left = ToInt128(lefts.Value(row)) * left_factor;
    __int128 right = ToInt128(rights.Value(row)) * right_factor;
    auto bits = static_cast<unsigned __int128>(kSubtract ? left - right : left + right);
    values[row] = arrow::Decimal128(static_cast<int64_t>(bits >> 64), static_cast<uint64_t>(bits));
  }
  return Status::OK();
}

// A decimal column as the second input's type, which has at least its integer digits and its
// scale: no value can fail, so none is checked. At the same scale the values are shared.
Status DecimalWidenExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  const auto& from = static_cast<const arrow::DecimalType&>(*batch[0].type());
  const auto& to = static_cast<const arrow::DecimalType&>(*batch[1].type());
  int32_t shift = to.scale() - from.scale();
  if (shift < 0 || to.precision() - to.scale() < from.precision() - from.scale()) {
    return Status::Invalid("parley_decimal_widen: ", to.ToString(), " is narrower than ",
                           from.ToString());
  }
  if (shift == 0 && batch[0].is_array()) {
    auto data = batch[0].array.ToArrayData();
    data->type = batch[1].type()->GetSharedPtr();
    out->value = std::move(data);
    return Status::OK();
  }
  Column<arrow::Decimal128> values(batch[0]);
  const __int128 factor = PowersOfTen()[shift];
  arrow::Decimal128Builder builder(batch[1].type()->GetSharedPtr(), ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!values.IsValid(row)) {
      builder.UnsafeAppendNull();
      continue;
    }
    auto bits = static_cast<unsigned __int128>(ToInt128(values.Value(row)) * factor);
    builder.UnsafeAppend(
        arrow::Decimal128(static_cast<int64_t>(bits >> 64), static_cast<uint64_t>(bits)));
  }
  return kernels::FinishInto(&builder, out);
}

// a DIV b of two decimals: the exact quotient truncated toward zero, as a BIGINT. A quotient
// past 64 bits fails with ARITHMETIC_OVERFLOW (Spark's own DIV keeps its low 64 bits).
Status DecimalIntegralDivideExec(cp::KernelContext* ctx, const cp::ExecSpan& batch,
                                 cp::ExecResult* out) {
  Column<arrow::Decimal128> dividends(batch[0]);
  Column<arrow::Decimal128> divisors(batch[1]);
  const int32_t dividend_scale = ScaleOf(batch[0].type());
  const int32_t divisor_scale = ScaleOf(batch[1].type());
  arrow::Int64Builder builder(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  const arrow::BasicDecimal256 lowest{arrow::BasicDecimal128(std::numeric_limits<int64_t>::min())};
  const arrow::BasicDecimal256 highest{arrow::BasicDecimal128(std::numeric_limits<int64_t>::max())};
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!dividends.IsValid(row) || !divisors.IsValid(row)) {
      builder.UnsafeAppendNull();
      continue;
    }
    if (divisors.Value(row) == arrow::Decimal128(0)) return DivideByZero();
    // Both at the scale s1 + s2: a x 10^s2 and b x 10^s1, at most 76 digits each.
    auto numerator = arrow::BasicDecimal256(dividends.Value(row)).IncreaseScaleBy(divisor_scale);
    auto denominator = arrow::BasicDecimal256(divisors.Value(row)).IncreaseScaleBy(dividend_scale);
    arrow::BasicDecimal256 quotient = numerator / denominator;  // truncated toward zero
    if (quotient < lowest || quotient > highest) {
      return MakeError(arrow::StatusCode::Invalid, "ARITHMETIC_OVERFLOW",
                       "Overflow in integral divide. Use 'try_divide' to tolerate overflow and "
                       "return NULL instead. If necessary set \"spark.sql.ansi.enabled\" to "
                       "\"false\" to bypass this error.");
    }
    builder.UnsafeAppend(static_cast<int64_t>(quotient.little_endian_array()[0]));
  }
  return kernels::FinishInto(&builder, out);
}

}  // namespace

namespace kernels {

Status RegisterDecimalKernels(cp::FunctionRegistry* registry) {
  cp::InputType decimal(arrow::Type::DECIMAL128);
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_decimal_widen", {decimal, decimal},
                                  cp::OutputType(kernels::InputTypeAt<1>), DecimalWidenExec,
                                  "A decimal as a type with at least its digits and scale"));
  ARROW_RETURN_NOT_OK(AddPreallocatedFunction(
      registry, "parley_decimal_add", {decimal, decimal, decimal},
      cp::OutputType(kernels::InputTypeAt<2>), DecimalAddExec<false>, "Spark's exact decimal sum"));
  ARROW_RETURN_NOT_OK(
      AddPreallocatedFunction(registry, "parley_decimal_subtract", {decimal, decimal, decimal},
                              cp::OutputType(kernels::InputTypeAt<2>), DecimalAddExec<true>,
                              "Spark's exact decimal difference"));
  ARROW_RETURN_NOT_OK(AddPreallocatedFunction(
      registry, "parley_decimal_multiply", {decimal, decimal, decimal},
      cp::OutputType(kernels::InputTypeAt<2>), DecimalMultiplyExec, "Spark's decimal product"));
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_decimal_divide", {decimal, decimal, decimal},
                                  cp::OutputType(kernels::InputTypeAt<2>),
                                  DecimalDivisionExec<false>, "Spark's decimal division"));
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_decimal_integral_divide", {decimal, decimal},
                                  cp::OutputType(arrow::int64()), DecimalIntegralDivideExec,
                                  "Spark's DIV of decimals"));
  return AddFunction(registry, "parley_decimal_mod", {decimal, decimal, decimal},
                     cp::OutputType(kernels::InputTypeAt<2>), DecimalDivisionExec<true>,
                     "Spark's decimal remainder");
}

}  // namespace kernels
}  // namespace parley
