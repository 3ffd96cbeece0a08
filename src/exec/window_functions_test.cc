// Window function tests over hand-made layouts: bucket sizes of ntile, RANGE bounds in both
// directions with NULL keys, sliding min/max, and overflow of a BIGINT sum.
#include "exec/window_functions.h"

#include <gtest/gtest.h>

#include "arrow/array.h"
#include "arrow/builder.h"
#include "exec/executor.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

// One partition of `rows` rows, every row its own peer group.
WindowLayout OnePartition(int64_t rows) {
  WindowLayout layout;
  for (int64_t i = 0; i < rows; ++i) {
    layout.partition_start.push_back(0);
    layout.partition_end.push_back(rows);
    layout.peer_start.push_back(i);
    layout.peer_end.push_back(i + 1);
  }
  return layout;
}

std::shared_ptr<arrow::Array> Ints(const std::vector<std::optional<int64_t>>& values) {
  arrow::Int64Builder builder;
  for (const auto& value : values) {
    if (value) {
      EXPECT_TRUE(builder.Append(*value).ok());
    } else {
      EXPECT_TRUE(builder.AppendNull().ok());
    }
  }
  return builder.Finish().ValueOrDie();
}

WindowCall Call(std::string function, WindowFrame frame = {}) {
  WindowCall call;
  call.function = std::move(function);
  call.frame = frame;
  call.type = arrow::int64();
  return call;
}

WindowFrame Frame(bool rows, WindowBound start, WindowBound end) {
  WindowFrame frame;
  frame.rows = rows;
  frame.start = start;
  frame.end = end;
  return frame;
}

std::vector<int32_t> Int32Values(const arrow::Array& array) {
  const auto& ints = static_cast<const arrow::Int32Array&>(array);
  return {ints.raw_values(), ints.raw_values() + ints.length()};
}

TEST(WindowFunctionsTest, NtileGivesTheFirstBucketsOneRowMore) {
  auto call = Call("ntile");
  call.offset = 3;
  ASSERT_OK_AND_ASSIGN(auto result, EvaluateWindowCall(call, {}, OnePartition(8)));
  EXPECT_EQ(Int32Values(*result), (std::vector<int32_t>{1, 1, 1, 2, 2, 2, 3, 3}));
  // More buckets than rows: one row each.
  call.offset = 5;
  ASSERT_OK_AND_ASSIGN(result, EvaluateWindowCall(call, {}, OnePartition(3)));
  EXPECT_EQ(Int32Values(*result), (std::vector<int32_t>{1, 2, 3}));
}

TEST(WindowFunctionsTest, RangeFramesFollowTheOrderDirectionAndKeepNullKeysApart) {
  // Keys 5, 4, 4, 1 in descending order, then a NULL key; values 1..5.
  WindowLayout layout = OnePartition(5);
  layout.peer_start = {0, 1, 1, 3, 4};
  layout.peer_end = {1, 3, 3, 4, 5};
  layout.order_value = {5, 4, 4, 1, 0};
  layout.order_valid = {true, true, true, true, false};
  layout.valid_start = std::vector<int64_t>(5, 0);
  layout.valid_end = std::vector<int64_t>(5, 4);
  layout.ascending = false;
  // RANGE BETWEEN 1 PRECEDING AND CURRENT ROW: keys from k + 1 down to k.
  auto call = Call(
      "sum", Frame(false, {WindowBound::Type::kPreceding, 1}, {WindowBound::Type::kCurrentRow, 0}));
  ASSERT_OK_AND_ASSIGN(auto result, EvaluateWindowCall(call, {Ints({1, 2, 3, 4, 5})}, layout));
  EXPECT_TRUE(result->Equals(*Ints({1, 6, 6, 4, 5}))) << result->ToString();
}

TEST(WindowFunctionsTest, SlidingMinAndMaxSkipNulls) {
  ASSERT_OK(EnsureComputeInitialized());  // min and max rank values with Arrow's "rank"
  auto frame = Frame(true, {WindowBound::Type::kPreceding, 1}, {WindowBound::Type::kFollowing, 1});
  auto values = Ints({3, std::nullopt, 1, 7, std::nullopt, std::nullopt});
  ASSERT_OK_AND_ASSIGN(auto low, EvaluateWindowCall(Call("min", frame), {values}, OnePartition(6)));
  EXPECT_TRUE(low->Equals(*Ints({3, 1, 1, 1, 7, std::nullopt}))) << low->ToString();
  ASSERT_OK_AND_ASSIGN(auto high,
                       EvaluateWindowCall(Call("max", frame), {values}, OnePartition(6)));
  EXPECT_TRUE(high->Equals(*Ints({3, 3, 7, 7, 7, std::nullopt}))) << high->ToString();
}

TEST(WindowFunctionsTest, BigintSumOverflowIsAnError) {
  auto call = Call("sum", Frame(true, {WindowBound::Type::kUnboundedPreceding, 0},
                                {WindowBound::Type::kCurrentRow, 0}));
  auto values = Ints({std::numeric_limits<int64_t>::max(), 1});
  ASSERT_RAISES_CONDITION("ARITHMETIC_OVERFLOW",
                          EvaluateWindowCall(call, {values}, OnePartition(2)));
}

}  // namespace
}  // namespace parley
