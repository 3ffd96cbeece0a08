// How Parley's array kernels (array_kernels.cc, registered by RegisterParleyKernels) read an
// element: the `mode` argument of parley_array_element(list, int32 index, int32 mode).
#pragma once

#include <cstdint>

namespace parley {

/// \brief How an index counts and what an index outside the array does.
enum class ElementAccess : int32_t {
  /// `a[i]`: 0-based; outside the array fails with INVALID_ARRAY_INDEX.
  kSubscript = 0,
  /// element_at(a, i): 1-based, negative counts from the end, 0 fails with
  /// INVALID_INDEX_OF_ZERO, outside the array fails with INVALID_ARRAY_INDEX_IN_ELEMENT_AT.
  kElementAt = 1,
  /// get(a, i): 0-based; outside the array is NULL.
  kGet = 2,
  /// try_element_at(a, i): as element_at, but outside the array is NULL (0 still fails).
  kTryElementAt = 3,
  /// elt(n, ...): 1-based; outside the arguments (0 too) fails with INVALID_ARRAY_INDEX.
  kElt = 4,
};

}  // namespace parley
