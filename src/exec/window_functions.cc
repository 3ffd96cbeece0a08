// Window functions: frames, then one evaluation strategy per family of functions.
#include "exec/window_functions.h"

#include <algorithm>
#include <deque>

#include "arrow/array.h"
#include "arrow/builder.h"
#include "arrow/compute/api.h"
#include "arrow/type_traits.h"
#include "arrow/util/decimal.h"
#include "parley/connector/status.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

using ArrayPtr = std::shared_ptr<arrow::Array>;

// Rows [first, last) of the current row's partition.
struct Frame {
  int64_t first;
  int64_t last;
};

// The first row of [begin, end) at which `past` holds (it holds from some row on).
template <typename Predicate>
int64_t FirstWhere(int64_t begin, int64_t end, Predicate past) {
  while (begin < end) {
    int64_t middle = begin + (end - begin) / 2;
    if (past(middle)) {
      end = middle;
    } else {
      begin = middle + 1;
    }
  }
  return begin;
}

// A RANGE bound `delta` away from row i's key: the first row whose key is at least (start) or
// past (end) the key plus delta, in the direction of the ordering. A NULL key's frame is its
// peers, the other NULLs.
int64_t RangeBound(const WindowLayout& layout, int64_t i, double delta, bool is_start) {
  if (!layout.order_valid[i]) return is_start ? layout.peer_start[i] : layout.peer_end[i];
  auto key = [&](int64_t row) {
    return layout.ascending ? layout.order_value[row] : -layout.order_value[row];
  };
  const double target = key(i) + delta;
  return FirstWhere(layout.valid_start[i], layout.valid_end[i],
                    [&](int64_t row) { return is_start ? key(row) >= target : key(row) > target; });
}

int64_t Bound(const WindowFrame& frame, const WindowBound& bound, const WindowLayout& layout,
              int64_t i, bool is_start) {
  const int64_t start = layout.partition_start[i];
  const int64_t end = layout.partition_end[i];
  switch (bound.type) {
    case WindowBound::Type::kUnboundedPreceding: return start;
    case WindowBound::Type::kUnboundedFollowing: return end;
    case WindowBound::Type::kCurrentRow:
      if (frame.rows) return is_start ? i : i + 1;
      return is_start ? layout.peer_start[i] : layout.peer_end[i];
    case WindowBound::Type::kPreceding:
    case WindowBound::Type::kFollowing: break;
  }
  const double delta = bound.type == WindowBound::Type::kPreceding ? -bound.offset : bound.offset;
  if (!frame.rows) return RangeBound(layout, i, delta, is_start);
  int64_t row = i + static_cast<int64_t>(delta) + (is_start ? 0 : 1);
  return std::clamp(row, start, end);
}

std::vector<Frame> Frames(const WindowFrame& frame, const WindowLayout& layout) {
  std::vector<Frame> frames(layout.size());
  for (int64_t i = 0; i < layout.size(); ++i) {
    int64_t first = Bound(frame, frame.start, layout, i, true);
    int64_t last = Bound(frame, frame.end, layout, i, false);
    frames[i] = {first, std::max(first, last)};
  }
  return frames;
}

// ---- Ranking ----

Result<ArrayPtr> Ranking(const WindowCall& call, const WindowLayout& layout) {
  const int64_t n = layout.size();
  const std::string& f = call.function;
  if (f == "percent_rank" || f == "cume_dist") {
    arrow::DoubleBuilder out;
    ARROW_RETURN_NOT_OK(out.Reserve(n));
    for (int64_t i = 0; i < n; ++i) {
      const int64_t start = layout.partition_start[i];
      const double size = static_cast<double>(layout.partition_end[i] - start);
      if (f == "cume_dist") {
        out.UnsafeAppend(static_cast<double>(layout.peer_end[i] - start) / size);
      } else {
        out.UnsafeAppend(
            size <= 1 ? 0.0 : static_cast<double>(layout.peer_start[i] - start) / (size - 1));
      }
    }
    return out.Finish();
  }
  arrow::Int32Builder out;
  ARROW_RETURN_NOT_OK(out.Reserve(n));
  int64_t dense = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t start = layout.partition_start[i];
    const int64_t row = i - start;
    int64_t value = 0;
    if (f == "row_number") {
      value = row + 1;
    } else if (f == "rank") {
      value = layout.peer_start[i] - start + 1;
    } else if (f == "dense_rank") {
      if (i == start) dense = 0;
      if (layout.peer_start[i] == i) ++dense;
      value = dense;
    } else {  // ntile: the first size % buckets buckets hold one row more
      const int64_t size = layout.partition_end[i] - start;
      const int64_t per = size / call.offset;
      const int64_t larger = size % call.offset;
      value = row < larger * (per + 1) ? row / (per + 1) + 1
                                       : (row - larger * (per + 1)) / per + larger + 1;
    }
    out.UnsafeAppend(static_cast<int32_t>(value));
  }
  return out.Finish();
}

// ---- Values of other rows: lag, lead, first_value, last_value, min, max ----

// `values` at `indices` (null indices give NULL).
Result<ArrayPtr> TakeRows(const ArrayPtr& values, arrow::Int64Builder* indices) {
  ARROW_ASSIGN_OR_RAISE(auto take, indices->Finish());
  return cp::Take(*values, *take);
}

// The row `call` reads for row i, or -1 when it is outside the partition. With IGNORE NULLS
// the offset counts only rows whose value is not NULL (`valid_before[r]`: how many of the rows
// before r are; `valid_rows`: those rows in order).
int64_t OffsetRow(const WindowCall& call, const WindowLayout& layout,
                  const std::vector<int64_t>& valid_before, const std::vector<int64_t>& valid_rows,
                  int64_t i) {
  const int64_t start = layout.partition_start[i];
  const int64_t end = layout.partition_end[i];
  const bool lag = call.function == "lag";
  if (!call.ignore_nulls || call.offset == 0) {
    const int64_t row = i + (lag ? -call.offset : call.offset);
    return row >= start && row < end ? row : -1;
  }
  const int64_t ordinal =
      lag ? valid_before[i] - call.offset : valid_before[i + 1] + call.offset - 1;
  return ordinal >= valid_before[start] && ordinal < valid_before[end] ? valid_rows[ordinal] : -1;
}

Result<ArrayPtr> Offset(const WindowCall& call, const std::vector<ArrayPtr>& args,
                        const WindowLayout& layout) {
  const int64_t n = layout.size();
  std::vector<int64_t> valid_before(n + 1, 0);
  std::vector<int64_t> valid_rows;
  for (int64_t i = 0; i < n; ++i) {
    if (args[0]->IsValid(i)) valid_rows.push_back(i);
    valid_before[i + 1] = static_cast<int64_t>(valid_rows.size());
  }
  arrow::Int64Builder indices;
  arrow::BooleanBuilder outside;
  ARROW_RETURN_NOT_OK(indices.Reserve(n));
  ARROW_RETURN_NOT_OK(outside.Reserve(n));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t row = OffsetRow(call, layout, valid_before, valid_rows, i);
    const bool in = row >= 0;
    if (in) {
      indices.UnsafeAppend(row);
    } else {
      indices.UnsafeAppendNull();
    }
    outside.UnsafeAppend(!in);
  }
  ARROW_ASSIGN_OR_RAISE(auto taken, TakeRows(args[0], &indices));
  if (args.size() < 2) return taken;
  ARROW_ASSIGN_OR_RAISE(auto mask, outside.Finish());
  ARROW_ASSIGN_OR_RAISE(auto chosen, cp::CallFunction("if_else", {mask, args[1], taken}));
  return chosen.make_array();
}

Result<ArrayPtr> FrameValue(const WindowCall& call, const std::vector<ArrayPtr>& args,
                            const WindowLayout& layout) {
  const int64_t n = layout.size();
  const ArrayPtr& value = args[0];
  // With IGNORE NULLS: the nearest non-NULL row at or after (before) each row.
  std::vector<int64_t> next_valid(n + 1, n);
  std::vector<int64_t> previous_valid(n, -1);
  for (int64_t i = n - 1; i >= 0; --i) {
    next_valid[i] = value->IsValid(i) || !call.ignore_nulls ? i : next_valid[i + 1];
  }
  for (int64_t i = 0; i < n; ++i) {
    previous_valid[i] =
        value->IsValid(i) || !call.ignore_nulls ? i : (i > 0 ? previous_valid[i - 1] : -1);
  }
  const bool first = call.function == "first_value";
  arrow::Int64Builder indices;
  ARROW_RETURN_NOT_OK(indices.Reserve(n));
  for (const Frame& frame : Frames(call.frame, layout)) {
    int64_t row = -1;
    if (frame.first < frame.last) {
      row = first ? next_valid[frame.first] : previous_valid[frame.last - 1];
      if (row < frame.first || row >= frame.last) row = -1;
    }
    if (row < 0) {
      indices.UnsafeAppendNull();
    } else {
      indices.UnsafeAppend(row);
    }
  }
  return TakeRows(value, &indices);
}

// nth_value: the offset-th row of each frame (with IGNORE NULLS, its offset-th non-NULL value).
Result<ArrayPtr> NthValue(const WindowCall& call, const std::vector<ArrayPtr>& args,
                          const WindowLayout& layout) {
  const int64_t n = layout.size();
  const ArrayPtr& value = args[0];
  // counted[i]: how many rows before row i count towards the offset.
  std::vector<int64_t> counted(n + 1, 0);
  for (int64_t i = 0; i < n; ++i) {
    counted[i + 1] = counted[i] + (value->IsValid(i) || !call.ignore_nulls ? 1 : 0);
  }
  arrow::Int64Builder indices;
  ARROW_RETURN_NOT_OK(indices.Reserve(n));
  for (const Frame& frame : Frames(call.frame, layout)) {
    int64_t row = -1;
    if (frame.first < frame.last && counted[frame.last] - counted[frame.first] >= call.offset) {
      // The first row r with counted[r + 1] - counted[frame.first] == offset.
      int64_t target = counted[frame.first] + call.offset;
      row = std::lower_bound(counted.begin() + frame.first + 1, counted.begin() + frame.last + 1,
                             target) -
            counted.begin() - 1;
    }
    if (row < 0) {
      indices.UnsafeAppendNull();
    } else {
      indices.UnsafeAppend(row);
    }
  }
  return TakeRows(value, &indices);
}

// min and max over frames whose ends never move back within a partition: a monotonic deque of
// rows over the values' dense ranks, which order any sortable type.
Result<ArrayPtr> Extreme(const WindowCall& call, const std::vector<ArrayPtr>& args,
                         const WindowLayout& layout) {
  const ArrayPtr& value = args[0];
  cp::RankOptions options(cp::SortOrder::Ascending, cp::NullPlacement::AtEnd,
                          cp::RankOptions::Dense);
  ARROW_ASSIGN_OR_RAISE(auto ranked, cp::CallFunction("rank", {value}, &options));
  auto ranks = std::static_pointer_cast<arrow::UInt64Array>(ranked.make_array());
  const bool max = call.function == "max";
  auto better = [&](int64_t a, int64_t b) {  // a at least as extreme as b
    return max ? ranks->Value(a) >= ranks->Value(b) : ranks->Value(a) <= ranks->Value(b);
  };
  arrow::Int64Builder indices;
  ARROW_RETURN_NOT_OK(indices.Reserve(layout.size()));
  std::deque<int64_t> window;
  int64_t added = 0;  // rows [.., added) have been offered to the deque
  Frame previous{-1, -1};
  const auto frames = Frames(call.frame, layout);
  for (int64_t i = 0; i < layout.size(); ++i) {
    const Frame& frame = frames[i];
    if (frame.first < previous.first || frame.last < previous.last ||
        layout.partition_start[i] == i) {
      window.clear();
      added = frame.first;
    }
    previous = frame;
    for (added = std::max(added, frame.first); added < frame.last; ++added) {
      if (value->IsNull(added)) continue;
      while (!window.empty() && better(added, window.back())) window.pop_back();
      window.push_back(added);
    }
    while (!window.empty() && window.front() < frame.first) window.pop_front();
    if (window.empty()) {
      indices.UnsafeAppendNull();
    } else {
      indices.UnsafeAppend(window.front());
    }
  }
  return TakeRows(value, &indices);
}

// ---- count, sum, avg ----

// Per row, a sum over its partition up to and including the row, so that the sum of any frame
// [first, last) is Upto(last - 1) - Upto(first - 1) within the partition.
template <typename T>
struct RunningTotals {
  std::vector<T> upto;

  T Over(const Frame& frame, int64_t start) const {
    T total = frame.last > start ? upto[frame.last - 1] : T();
    if (frame.first > start) total = total - upto[frame.first - 1];
    return total;
  }
};

template <typename T, typename Read>
RunningTotals<T> Totals(const WindowLayout& layout, const arrow::Array& validity, Read read) {
  RunningTotals<T> totals{std::vector<T>(layout.size())};
  T running = T();
  for (int64_t i = 0; i < layout.size(); ++i) {
    if (layout.partition_start[i] == i) running = T();
    if (validity.IsValid(i)) running = running + read(i);
    totals.upto[i] = running;
  }
  return totals;
}

Result<ArrayPtr> Aggregate(const WindowCall& call, const std::vector<ArrayPtr>& args,
                           const WindowLayout& layout) {
  const int64_t n = layout.size();
  const auto frames = Frames(call.frame, layout);
  if (call.star) {
    arrow::Int64Builder out;
    ARROW_RETURN_NOT_OK(out.Reserve(n));
    for (const Frame& frame : frames) out.UnsafeAppend(frame.last - frame.first);
    return out.Finish();
  }
  if (call.function == "min" || call.function == "max") return Extreme(call, args, layout);
  const ArrayPtr& value = args[0];
  auto counts = Totals<int64_t>(layout, *value, [](int64_t) { return int64_t{1}; });
  auto count_of = [&](int64_t i) { return counts.Over(frames[i], layout.partition_start[i]); };
  if (call.function == "count") {
    arrow::Int64Builder out;
    ARROW_RETURN_NOT_OK(out.Reserve(n));
    for (int64_t i = 0; i < n; ++i) out.UnsafeAppend(count_of(i));
    return out.Finish();
  }
  const bool avg = call.function == "avg";
  const auto id = value->type_id();
  if (id == arrow::Type::DECIMAL128) {
    const auto& decimals = static_cast<const arrow::Decimal128Array&>(*value);
    auto sums = Totals<arrow::Decimal128>(
        layout, *value, [&](int64_t i) { return arrow::Decimal128(decimals.GetValue(i)); });
    const auto& input_type = static_cast<const arrow::Decimal128Type&>(*value->type());
    const auto& result_type = static_cast<const arrow::Decimal128Type&>(*call.type);
    arrow::Decimal128Builder out(call.type);
    ARROW_RETURN_NOT_OK(out.Reserve(n));
    for (int64_t i = 0; i < n; ++i) {
      const int64_t count = count_of(i);
      if (count == 0) {
        out.UnsafeAppendNull();
        continue;
      }
      arrow::Decimal128 sum = sums.Over(frames[i], layout.partition_start[i]);
      if (!avg) {
        out.UnsafeAppend(sum);
        continue;
      }
      // sum / count at the result's scale, rounded half up as Spark's decimal division.
      sum = sum.IncreaseScaleBy(result_type.scale() - input_type.scale());
      ARROW_ASSIGN_OR_RAISE(auto divided, sum.Divide(arrow::Decimal128(count)));
      auto [quotient, remainder] = divided;
      if (arrow::Decimal128(arrow::Decimal128::Abs(remainder)) * arrow::Decimal128(2) >=
          arrow::Decimal128(count)) {
        quotient += arrow::Decimal128(sum.IsNegative() ? -1 : 1);
      }
      out.UnsafeAppend(quotient);
    }
    return out.Finish();
  }
  if (arrow::is_integer(id)) {
    ARROW_ASSIGN_OR_RAISE(auto wide, cp::Cast(*value, arrow::int64()));
    const auto& ints = static_cast<const arrow::Int64Array&>(*wide);
    auto sums =
        Totals<__int128>(layout, *value, [&](int64_t i) { return __int128{ints.Value(i)}; });
    arrow::Int64Builder sum_out;
    arrow::DoubleBuilder avg_out;
    ARROW_RETURN_NOT_OK(sum_out.Reserve(n));
    ARROW_RETURN_NOT_OK(avg_out.Reserve(n));
    for (int64_t i = 0; i < n; ++i) {
      const int64_t count = count_of(i);
      const __int128 sum = sums.Over(frames[i], layout.partition_start[i]);
      if (count == 0) {
        sum_out.UnsafeAppendNull();
        avg_out.UnsafeAppendNull();
      } else if (avg) {
        avg_out.UnsafeAppend(static_cast<double>(sum) / static_cast<double>(count));
      } else if (sum > std::numeric_limits<int64_t>::max() ||
                 sum < std::numeric_limits<int64_t>::min()) {
        return MakeError(arrow::StatusCode::Invalid, "ARITHMETIC_OVERFLOW",
                         "long overflow in the window function " + call.ToString() +
                             ". Use 'try_sum' to tolerate overflow and return NULL instead.");
      } else {
        sum_out.UnsafeAppend(static_cast<int64_t>(sum));
      }
    }
    if (avg) return avg_out.Finish();
    return sum_out.Finish();
  }
  ARROW_ASSIGN_OR_RAISE(auto doubles, cp::Cast(*value, arrow::float64()));
  const auto& reals = static_cast<const arrow::DoubleArray&>(*doubles);
  auto sums = Totals<double>(layout, *value, [&](int64_t i) { return reals.Value(i); });
  arrow::DoubleBuilder out;
  ARROW_RETURN_NOT_OK(out.Reserve(n));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t count = count_of(i);
    if (count == 0) {
      out.UnsafeAppendNull();
      continue;
    }
    // A frame from the partition's start is the running sum itself, added in row order.
    const double sum = sums.Over(frames[i], layout.partition_start[i]);
    out.UnsafeAppend(avg ? sum / static_cast<double>(count) : sum);
  }
  return out.Finish();
}

}  // namespace

bool NeedsOrderValues(const WindowFrame& frame) {
  auto offset = [](const WindowBound& bound) {
    return bound.type == WindowBound::Type::kPreceding ||
           bound.type == WindowBound::Type::kFollowing;
  };
  return !frame.rows && (offset(frame.start) || offset(frame.end));
}

Result<std::shared_ptr<arrow::Array>> EvaluateWindowCall(
    const WindowCall& call, const std::vector<std::shared_ptr<arrow::Array>>& args,
    const WindowLayout& layout) {
  const std::string& f = call.function;
  if (f == "row_number" || f == "rank" || f == "dense_rank" || f == "percent_rank" ||
      f == "cume_dist" || f == "ntile") {
    return Ranking(call, layout);
  }
  if (f == "lag" || f == "lead") return Offset(call, args, layout);
  if (f == "first_value" || f == "last_value") return FrameValue(call, args, layout);
  if (f == "nth_value") return NthValue(call, args, layout);
  return Aggregate(call, args, layout);
}

}  // namespace parley
