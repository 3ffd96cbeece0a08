#include "kernels/scalar_keys.h"

#include <cmath>
#include <limits>

namespace parley::kernels {

std::shared_ptr<arrow::Scalar> Normalized(std::shared_ptr<arrow::Scalar> scalar) {
  if (!scalar->is_valid) return scalar;
  if (scalar->type->id() == arrow::Type::DOUBLE) {
    double x = static_cast<const arrow::DoubleScalar&>(*scalar).value;
    if (x == 0.0) return std::make_shared<arrow::DoubleScalar>(0.0);
    if (std::isnan(x)) {
      return std::make_shared<arrow::DoubleScalar>(std::numeric_limits<double>::quiet_NaN());
    }
  } else if (scalar->type->id() == arrow::Type::FLOAT) {
    float x = static_cast<const arrow::FloatScalar&>(*scalar).value;
    if (x == 0.0f) return std::make_shared<arrow::FloatScalar>(0.0f);
    if (std::isnan(x)) {
      return std::make_shared<arrow::FloatScalar>(std::numeric_limits<float>::quiet_NaN());
    }
  }
  return scalar;
}

}  // namespace parley::kernels
