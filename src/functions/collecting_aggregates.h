// Spark's aggregates that need the group's values rather than a running total: first / last /
// any_value, max_by / min_by (optionally the top k), collect_list / array_agg / collect_set,
// string_agg / listagg, percentile / median / percentile_cont / percentile_disc,
// percentile_approx / approx_percentile, mode and approx_count_distinct. The state keeps the
// rows (first and last only the one they need) and crosses tasks as Arrow IPC bytes.
//
// Where Spark's answer depends on the order of its hash-based buffers (collect_set's elements,
// mode's choice among equally frequent values), the order is reproduced for the types whose hash
// Parley reproduces (kernels/spark_hash.h); other types keep the order the values came in.
// percentile_approx gives the exact element Spark's summary would for the group (its error
// bound allows any element within 1/accuracy of the rank; Parley's pick is the exact one), and
// approx_count_distinct the exact count.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/function.h"

namespace parley {

enum class CollectingKind {
  kFirst,
  kLast,
  kMaxBy,
  kMinBy,
  kCollectList,
  kCollectSet,
  kStringAgg,
  kPercentile,  // linear interpolation (percentile, median, percentile_cont)
  kPercentileDisc,
  kPercentileApprox,
  kMode,
  kCountDistinct,
};

/// \brief One WITHIN GROUP (ORDER BY ...) key: an argument after the values.
struct CollectingOrder {
  bool ascending = true;
  bool nulls_first = true;
};

/// \brief What a collecting aggregate computes. The arguments are, in order: the values (the
/// value; max_by / min_by: the value and the key; percentile: the value and optionally the
/// frequency), then one per WITHIN GROUP key, then the FILTER condition when `filtered`.
struct CollectingSpec {
  CollectingKind kind = CollectingKind::kFirst;
  std::string name;  // as the user wrote it, for messages
  std::vector<std::shared_ptr<arrow::DataType>> value_types;
  std::vector<std::shared_ptr<arrow::DataType>> order_types;
  /// One per order type; for mode and the percentiles, with no order types, the direction of
  /// the value itself (percentile_cont(p) WITHIN GROUP (ORDER BY x DESC)).
  std::vector<CollectingOrder> order;
  bool filtered = false;
  bool distinct = false;            // over the distinct values of the first argument
  bool ignore_nulls = false;        // first, last
  std::optional<int64_t> top_k;     // max_by / min_by with k: the k best values, best first
  std::vector<double> percentages;  // percentile family
  bool percentages_array = false;   // the result is an array, one per percentage
  std::string delimiter;            // string_agg
  bool deterministic = false;       // mode: equally frequent values broken by the smallest
  double relative_error = 1e-4;     // percentile_approx: 1 / accuracy
  std::shared_ptr<arrow::DataType> result_type;
};

/// \brief The aggregate `spec` describes. REQUIRES: the argument types fit its kind.
std::shared_ptr<const AggregateFunction> CollectingAggregate(CollectingSpec spec);

}  // namespace parley
