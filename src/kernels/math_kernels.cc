// Rounding of doubles as Spark rounds them: on the shortest decimal that reads back as the
// double (the digits Double.toString shows), so round(0.285, 2) is 0.29 although the double
// nearest 0.285 is a little below it. Arrow's round works on the binary value.
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "arrow/array/builder_primitive.h"
#include "kernels/kernel_support.h"
#include "kernels/kernels.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using kernels::Column;

// `value` rounded to `scale` decimal places (negative: to tens, hundreds...), half up (away
// from zero) or half to even.
double RoundShortestDecimal(double value, int32_t scale, bool half_even) {
  if (!std::isfinite(value) || value == 0) return value;
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), std::fabs(value),
                              std::chars_format::scientific);
  std::string text(buffer, result.ptr);
  size_t e = text.find('e');
  std::string digits = text.substr(0, 1) + (e > 2 ? text.substr(2, e - 2) : "");
  int64_t exponent = std::strtol(text.c_str() + e + 1, nullptr, 10);
  // The value is 0.digits x 10^(exponent + 1); keep the digits before position `keep`.
  int64_t keep = exponent + 1 + scale;
  if (keep >= static_cast<int64_t>(digits.size())) return value;
  double sign = value < 0 ? -1.0 : 1.0;
  if (keep < 0) return sign * 0.0;
  char first_dropped = digits[keep];
  bool rest_nonzero = digits.find_first_not_of('0', keep + 1) != std::string::npos;
  bool up = first_dropped >= '5';
  if (half_even && first_dropped == '5' && !rest_nonzero) {
    up = keep > 0 && (digits[keep - 1] - '0') % 2 == 1;
  }
  std::string kept = digits.substr(0, keep);
  int64_t point = exponent + 1;
  if (up) {
    int64_t i = static_cast<int64_t>(kept.size()) - 1;
    while (i >= 0 && kept[i] == '9') kept[i--] = '0';
    if (i >= 0) {
      ++kept[i];
    } else {
      kept.insert(kept.begin(), '1');
      ++point;
    }
  }
  if (kept.empty()) return sign * 0.0;
  std::string rounded = kept + "e" + std::to_string(point - static_cast<int64_t>(kept.size()));
  return sign * std::strtod(rounded.c_str(), nullptr);
}

template <bool kHalfEven>
Status RoundExec(cp::KernelContext*, const cp::ExecSpan& batch, cp::ExecResult* out) {
  Column<double> values(batch[0]);
  Column<int32_t> scales(batch[1]);
  arrow::DoubleBuilder builder;
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!values.IsValid(row) || !scales.IsValid(row)) {
      builder.UnsafeAppendNull();
    } else {
      builder.UnsafeAppend(RoundShortestDecimal(values.Value(row), scales.Value(row), kHalfEven));
    }
  }
  return kernels::FinishInto(&builder, out);
}

}  // namespace

namespace kernels {

Status RegisterMathKernels(cp::FunctionRegistry* registry) {
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_round_half_up",
                                  {arrow::float64(), arrow::int32()}, arrow::float64(),
                                  RoundExec<false>, "Spark's round of a double"));
  return AddFunction(registry, "parley_round_half_even", {arrow::float64(), arrow::int32()},
                     arrow::float64(), RoundExec<true>, "Spark's bround of a double");
}

}  // namespace kernels
}  // namespace parley
