// Computing the parts that several expressions share once: a projection's common
// subexpressions (TPC-H Q1's `l_extendedprice * (1 - l_discount)` feeds two sums).
#pragma once

#include <string>
#include <vector>

#include "arrow/compute/expression.h"

namespace parley {

/// \brief Expressions split into two projections: `shared` (named `names`) over the input,
/// then `rewritten` (the given expressions, in order) over the input's fields and the shared
/// ones. Empty `shared` when nothing is shared (then `rewritten` is the input). Computing a
/// part first changes neither its rows nor its errors: Arrow evaluates every argument of a call
/// for every row, and what Parley evaluates for some rows only (the inner expression of a
/// guarded, conditional or TRY call) sits in the call's options, which the search does not
/// enter.
struct SharedSubexpressions {
  std::vector<arrow::compute::Expression> shared;
  std::vector<std::string> names;
  std::vector<arrow::compute::Expression> rewritten;
  /// The input fields the rewritten expressions read, which the first projection passes on.
  std::vector<std::string> input_fields;
};

/// \brief Find the calls that occur at least twice among `expressions` (largest first) and
/// split the computation as SharedSubexpressions says. Shared fields are named
/// `<prefix><k>`; expressions reading a nested field are left alone.
SharedSubexpressions ShareSubexpressions(const std::vector<arrow::compute::Expression>& expressions,
                                         const std::string& prefix);

}  // namespace parley
