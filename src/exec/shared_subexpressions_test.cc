// Sharing common subexpressions between projected expressions: what is shared, what is not,
// and that the two-step computation gives the same values.
#include "exec/shared_subexpressions.h"

#include <gtest/gtest.h>

#include "exec/executor.h"

#include "arrow/compute/api.h"
#include "arrow/json/from_string.h"
#include "arrow/record_batch.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

cp::Expression Times(cp::Expression a, cp::Expression b) {
  return cp::call("multiply_checked", {std::move(a), std::move(b)});
}
cp::Expression Plus(cp::Expression a, cp::Expression b) {
  return cp::call("add_checked", {std::move(a), std::move(b)});
}

TEST(SharedSubexpressionsTest, ALargestCommonPartIsComputedOnce) {
  // x * (1 + y) alone, and inside (x * (1 + y)) * z: the product is shared, not its parts.
  auto product = Times(cp::field_ref("x"), Plus(cp::literal(int64_t{1}), cp::field_ref("y")));
  std::vector<cp::Expression> expressions = {product, Times(product, cp::field_ref("z")),
                                             cp::field_ref("y")};
  auto split = ShareSubexpressions(expressions, "#s");
  ASSERT_EQ(split.shared.size(), 1u);
  EXPECT_EQ(split.shared[0].ToString(), product.ToString());
  EXPECT_EQ(split.names, std::vector<std::string>{"#s0"});
  ASSERT_EQ(split.rewritten.size(), 3u);
  EXPECT_EQ(split.rewritten[0].ToString(), "#s0");
  EXPECT_EQ(split.rewritten[1].ToString(),
            Times(cp::field_ref("#s0"), cp::field_ref("z")).ToString());
  EXPECT_EQ(split.rewritten[2].ToString(), "y");
  EXPECT_EQ(split.input_fields, (std::vector<std::string>{"x", "y", "z"}));

  // The two steps give what the expressions give directly.
  ASSERT_OK(EnsureComputeInitialized());
  auto schema = arrow::schema({arrow::field("x", arrow::int64()), arrow::field("y", arrow::int64()),
                               arrow::field("z", arrow::int64())});
  auto batch =
      arrow::RecordBatch::Make(schema, 3,
                               {*arrow::json::ArrayFromJSONString(arrow::int64(), "[1, null, 3]"),
                                *arrow::json::ArrayFromJSONString(arrow::int64(), "[4, 5, 6]"),
                                *arrow::json::ArrayFromJSONString(arrow::int64(), "[7, 8, null]")});
  arrow::FieldVector first_fields;
  arrow::ArrayVector first_columns;
  for (size_t i = 0; i < split.shared.size(); ++i) {
    ASSERT_OK_AND_ASSIGN(auto bound, split.shared[i].Bind(*schema));
    ASSERT_OK_AND_ASSIGN(auto value, cp::ExecuteScalarExpression(bound, cp::ExecBatch(*batch)));
    first_fields.push_back(arrow::field(split.names[i], value.type()));
    first_columns.push_back(value.make_array());
  }
  for (const auto& name : split.input_fields) {
    first_fields.push_back(schema->GetFieldByName(name));
    first_columns.push_back(batch->GetColumnByName(name));
  }
  auto first = arrow::RecordBatch::Make(arrow::schema(first_fields), 3, first_columns);
  for (size_t i = 0; i < expressions.size(); ++i) {
    ASSERT_OK_AND_ASSIGN(auto direct_bound, expressions[i].Bind(*schema));
    ASSERT_OK_AND_ASSIGN(auto direct,
                         cp::ExecuteScalarExpression(direct_bound, cp::ExecBatch(*batch)));
    ASSERT_OK_AND_ASSIGN(auto split_bound, split.rewritten[i].Bind(*first->schema()));
    ASSERT_OK_AND_ASSIGN(auto two_step,
                         cp::ExecuteScalarExpression(split_bound, cp::ExecBatch(*first)));
    EXPECT_TRUE(direct.make_array()->Equals(*two_step.make_array())) << i;
  }
}

TEST(SharedSubexpressionsTest, ConstantsAndSingleUsesAreNotShared) {
  auto one = cp::call("cast", {cp::literal(int32_t{1})}, cp::CastOptions::Safe(arrow::int64()));
  std::vector<cp::Expression> expressions = {Plus(one, cp::field_ref("x")),
                                             Plus(one, cp::field_ref("y")),
                                             Times(cp::field_ref("x"), cp::field_ref("y"))};
  auto split = ShareSubexpressions(expressions, "#s");
  EXPECT_TRUE(split.shared.empty());
  ASSERT_EQ(split.rewritten.size(), 3u);
  for (size_t i = 0; i < expressions.size(); ++i) {
    EXPECT_EQ(split.rewritten[i].ToString(), expressions[i].ToString());
  }
}

TEST(SharedSubexpressionsTest, NestedFieldReferencesAreLeftAlone) {
  auto nested = cp::field_ref(arrow::FieldRef("s", "a"));
  auto product = Times(nested, cp::field_ref("x"));
  auto split = ShareSubexpressions({product, Plus(product, cp::field_ref("x"))}, "#s");
  EXPECT_TRUE(split.shared.empty());
}

}  // namespace
}  // namespace parley
