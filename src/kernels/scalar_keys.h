// Scalars as keys of hash sets, equal as Spark's grouping compares values: -0.0 equals 0.0 and
// every NaN equals every other NaN.
#pragma once

#include <memory>
#include <unordered_set>

#include "arrow/scalar.h"

namespace parley::kernels {

/// \brief `scalar` with -0.0 as 0.0 and every NaN as one quiet NaN; other values unchanged.
std::shared_ptr<arrow::Scalar> Normalized(std::shared_ptr<arrow::Scalar> scalar);

/// \brief Hash and equality of normalized scalars (NaN equal to NaN).
struct ScalarKeyHash {
  size_t operator()(const std::shared_ptr<arrow::Scalar>& scalar) const { return scalar->hash(); }
};
struct ScalarKeyEqual {
  bool operator()(const std::shared_ptr<arrow::Scalar>& a,
                  const std::shared_ptr<arrow::Scalar>& b) const {
    return a->Equals(*b, arrow::EqualOptions().nans_equal(true));
  }
};
using ScalarKeySet =
    std::unordered_set<std::shared_ptr<arrow::Scalar>, ScalarKeyHash, ScalarKeyEqual>;

}  // namespace parley::kernels
