#include "kernels/scalar_keys.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "kernels/kernel_support.h"
#include "kernels/value_text.h"

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

Status CheckMapKeys(const arrow::Array& keys, int64_t begin, int64_t end) {
  ScalarKeySet seen;
  for (int64_t i = begin; i < end; ++i) {
    if (keys.IsNull(i)) {
      return MakeError(arrow::StatusCode::Invalid, "NULL_MAP_KEY", "Cannot use null as map key.");
    }
    ARROW_ASSIGN_OR_RAISE(auto key, keys.GetScalar(i));
    if (!seen.insert(Normalized(key)).second) {
      std::string text;
      ARROW_RETURN_NOT_OK(AppendValueText(keys, i, &text));
      return MakeError(
          arrow::StatusCode::Invalid, "DUPLICATED_MAP_KEY",
          fmt::format("Duplicate map key {} was found, please check the input data.", text));
    }
  }
  return Status::OK();
}

}  // namespace parley::kernels
