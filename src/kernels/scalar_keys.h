// Scalars as keys of hash sets, equal as Spark's grouping compares values: -0.0 equals 0.0 and
// every NaN equals every other NaN.
#pragma once

#include <memory>
#include <unordered_set>

#include "arrow/array.h"
#include "arrow/scalar.h"
#include "parley/connector/status.h"

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

/// \brief OK when `keys[begin, end)` can be one map's keys: NULL_MAP_KEY for a NULL, and
/// DUPLICATED_MAP_KEY for a key met twice (Spark's default spark.sql.mapKeyDedupPolicy).
Status CheckMapKeys(const arrow::Array& keys, int64_t begin, int64_t end);

}  // namespace parley::kernels
