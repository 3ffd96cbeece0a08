// Runtime filter values: what a computed build side offers its probe side's scans
// (plan/runtime_filter.h decides which scans).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "arrow/compute/expression.h"
#include "arrow/table.h"
#include "parley/connector/expressions.h"
#include "parley/connector/status.h"
#include "plan/bound_expression.h"

namespace parley {

/// \brief The filter that one build key puts on one probe column.
struct RuntimeFilter {
  /// Offered to the source (SupportsRuntimeV2Filtering::Filter): `column IN (keys)` for at
  /// most `max_in_list` keys (ascending), else `column >= min` and `column <= max`; empty when the
  /// build side has no non-null key.
  std::vector<PredicatePtr> predicates;
  /// Evaluated by the scan's tasks on what the source returns: `column` is one of the keys.
  arrow::compute::Expression row_filter;
};

/// \brief The runtime filter of `column` from the distinct non-null values of `key` (over the
/// build side's fields) in `build`.
Result<RuntimeFilter> MakeRuntimeFilter(const arrow::Table& build, const BoundExpr& key,
                                        const std::string& column, int64_t max_in_list);

}  // namespace parley
