// Functions of doubles that Arrow's compute lacks, computed as Java's Math computes them (Spark
// calls it): cube root, rint (half to even), cot / sec / csc, degrees / radians (by Java's
// constants, so degrees(pi) is exactly 180.0) and hypot.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

#include "kernels/kernels.h"
#include "kernels/row_kernel.h"

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

template <double (*kFunction)(double)>
Status AddUnary(cp::FunctionRegistry* registry, const std::string& name) {
  return kernels::RegisterRowFunction<double, double>(
      registry, name, [](double x) { return std::optional(kFunction(x)); },
      "Java's Math on a double");
}

}  // namespace

namespace kernels {

Status RegisterMathDoubleKernels(cp::FunctionRegistry* registry) {
  ARROW_RETURN_NOT_OK(AddUnary<Cbrt>(registry, "parley_cbrt"));
  ARROW_RETURN_NOT_OK(AddUnary<Rint>(registry, "parley_rint"));
  ARROW_RETURN_NOT_OK(AddUnary<Cot>(registry, "parley_cot"));
  ARROW_RETURN_NOT_OK(AddUnary<Sec>(registry, "parley_sec"));
  ARROW_RETURN_NOT_OK(AddUnary<Csc>(registry, "parley_csc"));
  ARROW_RETURN_NOT_OK(AddUnary<Degrees>(registry, "parley_degrees"));
  ARROW_RETURN_NOT_OK(AddUnary<Radians>(registry, "parley_radians"));
  // Template arguments have commas, which a macro argument cannot: register, then check.
  Status width_bucket = RegisterRowFunction<int64_t, double, double, double, int64_t>(
      registry, "parley_width_bucket",
      [](double value, double min, double max, int64_t count) {
        return WidthBucket(value, min, max, count);
      },
      "Spark's width_bucket");
  ARROW_RETURN_NOT_OK(width_bucket);
  return RegisterRowFunction<double, double, double>(
      registry, "parley_hypot", [](double a, double b) { return std::optional(std::hypot(a, b)); },
      "Java's Math.hypot");
}

}  // namespace kernels
}  // namespace parley
