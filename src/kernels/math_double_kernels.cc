// Functions of doubles that Arrow's compute lacks, computed as Java's Math computes them (Spark
// calls it): cube root, rint (half to even), cot / sec / csc, degrees / radians (by Java's
// constants, so degrees(pi) is exactly 180.0) and hypot.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

#include "arrow/array/builder_primitive.h"
#include "kernels/kernel_support.h"
#include "kernels/kernels.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

constexpr double kDegreesPerRadian = 57.29577951308232;
constexpr double kRadiansPerDegree = 0.017453292519943295;

double Cot(double x) { return 1.0 / std::tan(x); }
double Sec(double x) { return 1.0 / std::cos(x); }
double Csc(double x) { return 1.0 / std::sin(x); }
double Degrees(double x) { return x * kDegreesPerRadian; }
double Radians(double x) { return x * kRadiansPerDegree; }
// The C library's cube root can be an ulp off (cbrt(27) is 3.0000000000000004 in glibc); one
// Newton step in extended precision gives the nearest double, as Java's is for exact cubes.
double Cbrt(double x) {
  double root = std::cbrt(x);
  if (!std::isfinite(root) || root == 0) return root;
  long double r = root;
  r -= (r * r * r - static_cast<long double>(x)) / (3 * r * r);
  return static_cast<double>(r);
}
double Rint(double x) { return std::nearbyint(x); }

template <double (*kFunction)(double)>
Status UnaryExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  arrow::DoubleBuilder builder(ctx->memory_pool());
  return kernels::MapEach<double>(batch, &builder, out,
                                  [](double x) { return std::optional<double>(kFunction(x)); });
}

Status HypotExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  arrow::DoubleBuilder builder(ctx->memory_pool());
  return kernels::MapEachPair<double, double>(
      batch, &builder, out, [](double a, double b) { return std::optional(std::hypot(a, b)); });
}

// Spark's width_bucket of a value among `count` buckets between `min` and `max` (either order).
std::optional<int64_t> WidthBucket(double value, double min, double max, int64_t count) {
  if (count <= 0 || count == INT64_MAX || std::isnan(value) || min == max || std::isnan(min) ||
      std::isnan(max) || std::isinf(min) || std::isinf(max)) {
    return std::nullopt;
  }
  double lower = std::min(min, max);
  double upper = std::max(min, max);
  double buckets = static_cast<double>(count);
  if (min < max) {
    if (value < lower) return 0;
    if (value >= upper) return count + 1;
    return static_cast<int64_t>(buckets * (value - lower) / (upper - lower)) + 1;
  }
  if (value > upper) return 0;
  if (value <= lower) return count + 1;
  return static_cast<int64_t>(buckets * (upper - value) / (upper - lower)) + 1;
}

Status WidthBucketExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  kernels::Column<double> values(batch[0]);
  kernels::Column<double> mins(batch[1]);
  kernels::Column<double> maxes(batch[2]);
  kernels::Column<int64_t> counts(batch[3]);
  arrow::Int64Builder builder(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    std::optional<int64_t> bucket;
    if (values.IsValid(row) && mins.IsValid(row) && maxes.IsValid(row) && counts.IsValid(row)) {
      bucket = WidthBucket(values.Value(row), mins.Value(row), maxes.Value(row), counts.Value(row));
    }
    if (bucket.has_value()) {
      builder.UnsafeAppend(*bucket);
    } else {
      builder.UnsafeAppendNull();
    }
  }
  return kernels::FinishInto(&builder, out);
}

Status AddUnary(cp::FunctionRegistry* registry, const std::string& name, cp::ArrayKernelExec exec) {
  return kernels::AddFunction(registry, name, {arrow::float64()}, arrow::float64(), exec,
                              "Java's Math on a double");
}

}  // namespace

namespace kernels {

Status RegisterMathDoubleKernels(cp::FunctionRegistry* registry) {
  ARROW_RETURN_NOT_OK(AddUnary(registry, "parley_cbrt", UnaryExec<Cbrt>));
  ARROW_RETURN_NOT_OK(AddUnary(registry, "parley_rint", UnaryExec<Rint>));
  ARROW_RETURN_NOT_OK(AddUnary(registry, "parley_cot", UnaryExec<Cot>));
  ARROW_RETURN_NOT_OK(AddUnary(registry, "parley_sec", UnaryExec<Sec>));
  ARROW_RETURN_NOT_OK(AddUnary(registry, "parley_csc", UnaryExec<Csc>));
  ARROW_RETURN_NOT_OK(AddUnary(registry, "parley_degrees", UnaryExec<Degrees>));
  ARROW_RETURN_NOT_OK(AddUnary(registry, "parley_radians", UnaryExec<Radians>));
  ARROW_RETURN_NOT_OK(
      AddFunction(registry, "parley_width_bucket",
                  {arrow::float64(), arrow::float64(), arrow::float64(), arrow::int64()},
                  arrow::int64(), WidthBucketExec, "Spark's width_bucket"));
  return AddFunction(registry, "parley_hypot", {arrow::float64(), arrow::float64()},
                     arrow::float64(), HypotExec, "Java's Math.hypot");
}

}  // namespace kernels
}  // namespace parley
