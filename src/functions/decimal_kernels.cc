// Decimal division and remainder with Spark's result types. Arrow's decimal divide types its
// result with p1 + p2 + 1 digits and fails beyond its limit, which wide operands exceed; Spark
// instead computes the exact quotient and rounds it half up to the scale of its result type,
// and the remainder exactly at the larger scale of the operands.
#include <fmt/format.h>

#include "arrow/array/builder_decimal.h"
#include "arrow/util/decimal.h"
#include "functions/kernel_support.h"
#include "functions/kernels.h"

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
Status DecimalDivisionExec(cp::KernelContext* ctx, const cp::ExecSpan& batch,
                           cp::ExecResult* out) {
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
    if (divisor == arrow::Decimal128(0)) return DivideByZero();
    arrow::BasicDecimal256 value;
    if (kRemainder) {
      ARROW_ASSIGN_OR_RAISE(value, Remainder(dividends.Value(row), dividend_scale, divisor,
                                             divisor_scale, type));
    } else {
      ARROW_ASSIGN_OR_RAISE(value, Quotient(dividends.Value(row), divisor, shift, type));
    }
    builder.UnsafeAppend(Narrow(value));
  }
  return kernels::FinishInto(&builder, out);
}

Result<arrow::TypeHolder> ThirdInputType(cp::KernelContext*,
                                         const std::vector<arrow::TypeHolder>& types) {
  return types[2];
}

}  // namespace

namespace kernels {

Status RegisterDecimalKernels(cp::FunctionRegistry* registry) {
  cp::InputType decimal(arrow::Type::DECIMAL128);
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_decimal_divide", {decimal, decimal, decimal},
                                  cp::OutputType(ThirdInputType), DecimalDivisionExec<false>,
                                  "Spark's decimal division"));
  return AddFunction(registry, "parley_decimal_mod", {decimal, decimal, decimal},
                     cp::OutputType(ThirdInputType), DecimalDivisionExec<true>,
                     "Spark's decimal remainder");
}

}  // namespace kernels
}  // namespace parley
