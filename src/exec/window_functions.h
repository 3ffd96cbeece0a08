// Window functions over rows in window order (sorted by partition keys, then ORDER BY keys):
// ranking (row_number, rank, dense_rank, percent_rank, cume_dist, ntile), offsets (lag, lead),
// frame values (first_value, last_value, IGNORE NULLS too) and frame aggregates (count, sum,
// avg, min, max) over ROWS and RANGE frames. Each function runs in one pass (or one pass and a
// binary search per row for RANGE frames with value offsets) over Arrow arrays.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/status.h"
#include "plan/window_call.h"

namespace parley {

/// \brief How the rows of one window, in window order, split: per row, where its partition
/// and its peer group (the rows of the partition equal on every ORDER BY key) start and end
/// (end exclusive). RANGE frames with value offsets also need the single ORDER BY key as
/// numbers (`order_value`, valid where `order_valid`), its direction, and per row the rows of
/// its partition whose key is not NULL (`valid_start`, `valid_end`).
struct WindowLayout {
  std::vector<int64_t> partition_start;
  std::vector<int64_t> partition_end;
  std::vector<int64_t> peer_start;
  std::vector<int64_t> peer_end;
  std::vector<double> order_value;
  std::vector<bool> order_valid;
  std::vector<int64_t> valid_start;
  std::vector<int64_t> valid_end;
  bool ascending = true;

  int64_t size() const { return static_cast<int64_t>(partition_start.size()); }
};

/// \brief Whether `frame` has a RANGE bound with a value offset (so the layout needs the order
/// key's values).
bool NeedsOrderValues(const WindowFrame& frame);

/// \brief Evaluate `call` over the rows of `layout`; `args` are its argument columns in window
/// order, and the result is in that order. Errors: ARITHMETIC_OVERFLOW (a BIGINT sum).
Result<std::shared_ptr<arrow::Array>> EvaluateWindowCall(
    const WindowCall& call, const std::vector<std::shared_ptr<arrow::Array>>& args,
    const WindowLayout& layout);

}  // namespace parley
