// The collecting aggregates across tasks: a group's rows split between states, each shipped as
// its bytes and merged, give the value one state over every row gives; a damaged state is an
// error; Spark's hash orders (collect_set, mode) come from kernels/spark_hash.h.
#include "functions/collecting_aggregates.h"

#include <gtest/gtest.h>

#include "arrow/array/builder_binary.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/compute/initialize.h"
#include "arrow/scalar.h"
#include "kernels/spark_hash.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

std::shared_ptr<arrow::Array> Ints(const std::vector<std::optional<int32_t>>& values) {
  arrow::Int32Builder builder;
  for (const auto& value : values) {
    EXPECT_TRUE((value ? builder.Append(*value) : builder.AppendNull()).ok());
  }
  return builder.Finish().ValueOrDie();
}

CollectingSpec SpecOf(CollectingKind kind, std::shared_ptr<arrow::DataType> result) {
  CollectingSpec spec;
  spec.kind = kind;
  spec.name = "test";
  spec.value_types = {arrow::int32()};
  spec.result_type = std::move(result);
  return spec;
}

// The result over `values` in one state, and over them split at `at` and merged through bytes.
std::pair<std::string, std::string> WholeAndSplit(const AggregateFunction& function,
                                                  const std::vector<std::optional<int32_t>>& values,
                                                  size_t at) {
  auto whole = function.NewState();
  EXPECT_OK(function.Update(whole.get(), {Ints(values)}, values.size()));
  auto left = function.NewState();
  EXPECT_OK(function.Update(left.get(), {Ints({values.begin(), values.begin() + at})}, at));
  auto right = function.NewState();
  EXPECT_OK(function.Update(right.get(), {Ints({values.begin() + at, values.end()})},
                            values.size() - at));
  auto shipped = function.Deserialize(function.Serialize(*right).ValueOrDie()).ValueOrDie();
  EXPECT_OK(function.Merge(left.get(), *shipped));
  return {function.Produce(*whole).ValueOrDie()->ToString(),
          function.Produce(*left).ValueOrDie()->ToString()};
}

TEST(CollectingAggregatesTest, SplitAndMergedStatesGiveTheWholeGroupsValue) {
  ASSERT_OK(arrow::compute::Initialize());  // the sort and rank kernels
  const std::vector<std::optional<int32_t>> values = {7, std::nullopt, 3, 7, 1, 9, 3, 3};
  std::vector<CollectingSpec> specs = {
      SpecOf(CollectingKind::kCollectList, arrow::list(arrow::int32())),
      SpecOf(CollectingKind::kCollectSet, arrow::list(arrow::int32())),
      SpecOf(CollectingKind::kMode, arrow::int32()),
      SpecOf(CollectingKind::kCountDistinct, arrow::int64()),
      SpecOf(CollectingKind::kPercentileApprox, arrow::int32()),
      SpecOf(CollectingKind::kFirst, arrow::int32()),
  };
  specs[4].percentages = {0.5};
  for (const auto& spec : specs) {
    auto function = CollectingAggregate(spec);
    auto [whole, merged] = WholeAndSplit(*function, values, 3);
    EXPECT_EQ(whole, merged) << static_cast<int>(spec.kind);
  }
  auto list = CollectingAggregate(specs[0]);
  EXPECT_EQ(WholeAndSplit(*list, values, 3).first, "list<item: int32>[7, 3, 7, 1, 9, 3, 3]");
  EXPECT_EQ(WholeAndSplit(*CollectingAggregate(specs[2]), values, 3).first, "3");
  EXPECT_EQ(WholeAndSplit(*CollectingAggregate(specs[3]), values, 3).first, "4");
}

TEST(CollectingAggregatesTest, DamagedStateIsAnError) {
  auto function =
      CollectingAggregate(SpecOf(CollectingKind::kCollectList, arrow::list(arrow::int32())));
  EXPECT_FALSE(function->Deserialize("not a state").ok());
}

TEST(CollectingAggregatesTest, SparkMurmur3) {
  // Values Spark's hash() gives (seed 42): hash(1), hash(1L), hash('a'), hash('abcde').
  EXPECT_EQ(kernels::Murmur3Int(1, 42), -559580957);
  EXPECT_EQ(kernels::Murmur3Long(1, 42), -1712319331);
  EXPECT_EQ(kernels::Murmur3Bytes("a", 42), 1485273170);
  EXPECT_EQ(kernels::Murmur3Bytes("abcde", 42), 814637928);
}

}  // namespace
}  // namespace parley
