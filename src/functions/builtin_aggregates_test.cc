// The built-in library's aggregates across tasks: a group's rows split between two states,
// each shipped as its bytes and merged, give the value one state over every row gives (to the
// last digits Spark's merge formulas allow), and a damaged state is an error.
#include "functions/builtin_aggregates.h"

#include <gtest/gtest.h>

#include <cmath>

#include "arrow/array/builder_primitive.h"
#include "arrow/scalar.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

std::shared_ptr<arrow::Array> Doubles(const std::vector<std::optional<double>>& values) {
  arrow::DoubleBuilder builder;
  for (const auto& value : values) {
    if (value.has_value()) {
      EXPECT_TRUE(builder.Append(*value).ok());
    } else {
      EXPECT_TRUE(builder.AppendNull().ok());
    }
  }
  return builder.Finish().ValueOrDie();
}

double ValueOf(const arrow::Scalar& scalar) {
  return static_cast<const arrow::DoubleScalar&>(scalar).value;
}

TEST(BuiltinAggregatesTest, SplitAndMergedStatesGiveTheWholeGroupsValue) {
  const std::vector<std::optional<double>> xs = {1, 10, std::nullopt, 100, 10, 1, 7.5, -3};
  const std::vector<std::optional<double>> ys = {2, std::nullopt, 4, 9, 1, 1, 2.5, 8};
  for (const auto& name : BuiltinLibraryAggregateNames()) {
    if (BuiltinAggregateIsBitwise(name)) continue;
    const size_t arity = BuiltinAggregateArity(name);
    std::vector<std::shared_ptr<arrow::DataType>> types(arity, arrow::float64());
    auto function = BuiltinAggregate(name, types);
    auto args_of = [&](size_t from, size_t to) {
      arrow::ArrayVector args;
      args.push_back(Doubles({xs.begin() + from, xs.begin() + to}));
      if (arity == 2) args.push_back(Doubles({ys.begin() + from, ys.begin() + to}));
      return args;
    };
    auto whole = function->NewState();
    ASSERT_OK(function->Update(whole.get(), args_of(0, xs.size()), xs.size()));
    auto left = function->NewState();
    ASSERT_OK(function->Update(left.get(), args_of(0, 3), 3));
    auto right = function->NewState();
    ASSERT_OK(function->Update(right.get(), args_of(3, xs.size()), xs.size() - 3));
    ASSERT_OK_AND_ASSIGN(auto bytes, function->Serialize(*right));
    ASSERT_OK_AND_ASSIGN(auto shipped, function->Deserialize(bytes));
    ASSERT_OK(function->Merge(left.get(), *shipped));
    ASSERT_OK_AND_ASSIGN(auto expected, function->Produce(*whole));
    ASSERT_OK_AND_ASSIGN(auto merged, function->Produce(*left));
    ASSERT_TRUE(expected->is_valid) << name;
    ASSERT_TRUE(merged->is_valid) << name;
    EXPECT_NEAR(ValueOf(*merged), ValueOf(*expected), 1e-9 * std::fabs(ValueOf(*expected))) << name;
  }
}

TEST(BuiltinAggregatesTest, AnEmptyGroupIsNullAndADamagedStateAnError) {
  auto function = BuiltinAggregate("stddev", {arrow::float64()});
  auto state = function->NewState();
  ASSERT_OK_AND_ASSIGN(auto value, function->Produce(*state));
  EXPECT_FALSE(value->is_valid);
  EXPECT_FALSE(function->Deserialize("short").ok());
  auto bits = BuiltinAggregate("bit_xor", {arrow::int8()});
  EXPECT_TRUE(bits->result_type()->Equals(*arrow::int8()));
}

}  // namespace
}  // namespace parley
