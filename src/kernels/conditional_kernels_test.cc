// The lazy conditional kernels on their own: each sub-expression meets only the rows that
// reach it, the result comes back in row order (for nested types too), batches whose rows all
// take one branch or none, empty batches, and the call's shape (only fields as arguments).
#include "kernels/conditional_kernels.h"

#include <gtest/gtest.h>

#include "arrow/array/util.h"
#include "arrow/compute/api.h"
#include "arrow/json/from_string.h"
#include "arrow/record_batch.h"
#include "exec/executor.h"
#include "kernels/kernels.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

cp::Expression Int(int64_t value) { return cp::literal(value); }
cp::Expression Divide(cp::Expression a, cp::Expression b) {
  return cp::call("divide_checked", {std::move(a), std::move(b)});
}
cp::Expression Call(const std::string& name, cp::Expression a, cp::Expression b) {
  return cp::call(name, {std::move(a), std::move(b)});
}

class ConditionalKernelsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(EnsureComputeInitialized());
    ASSERT_OK(RegisterParleyKernels());
    auto schema =
        arrow::schema({arrow::field("x", arrow::int64()), arrow::field("y", arrow::int64()),
                       arrow::field("l", arrow::list(arrow::int64()))});
    batch_ = arrow::RecordBatch::Make(
        schema, 5,
        {*arrow::json::ArrayFromJSONString(arrow::int64(), "[0, 1, 2, null, 4]"),
         *arrow::json::ArrayFromJSONString(arrow::int64(), "[5, null, null, null, 6]"),
         *arrow::json::ArrayFromJSONString(arrow::list(arrow::int64()),
                                           "[[0], [1, 1], null, [3], [4, 4, 4]]")});
  }

  // `expression` evaluated over `batch` (default: batch_), as an array (a constant repeated).
  arrow::Result<std::shared_ptr<arrow::Array>> Evaluate(
      const cp::Expression& expression, std::shared_ptr<arrow::RecordBatch> batch = nullptr) {
    if (batch == nullptr) batch = batch_;
    ARROW_ASSIGN_OR_RAISE(auto bound, expression.Bind(*batch->schema()));
    ARROW_ASSIGN_OR_RAISE(auto result, cp::ExecuteScalarExpression(bound, cp::ExecBatch(*batch)));
    if (result.is_scalar()) return arrow::MakeArrayFromScalar(*result.scalar(), batch->num_rows());
    return result.make_array();
  }

  static std::shared_ptr<arrow::Array> Json(const std::shared_ptr<arrow::DataType>& type,
                                            const std::string& json) {
    return *arrow::json::ArrayFromJSONString(type, json);
  }

  std::shared_ptr<arrow::RecordBatch> batch_;
};

TEST_F(ConditionalKernelsTest, CaseWhenEvaluatesLaterConditionsAndValuesOnTheirRowsOnly) {
  // CASE WHEN x = 0 THEN -1 WHEN 10 / x > 4 THEN 1 ELSE 100 / x END: neither division meets
  // x = 0, which the first condition takes; a NULL x falls through every NULL condition.
  ASSERT_OK_AND_ASSIGN(
      auto call,
      LazyCaseWhenCall({Call("equal", cp::field_ref("x"), Int(0)),
                        Call("greater", Divide(Int(10), cp::field_ref("x")), Int(4))},
                       {Int(-1), Int(1)}, Divide(Int(100), cp::field_ref("x")), arrow::int64()));
  ASSERT_OK_AND_ASSIGN(auto result, Evaluate(call));
  EXPECT_TRUE(result->Equals(*Json(arrow::int64(), "[-1, 1, 1, null, 25]"))) << result->ToString();

  // Rows that reach a failing branch fail.
  ASSERT_OK_AND_ASSIGN(
      auto failing,
      LazyCaseWhenCall({Call("greater_equal", cp::field_ref("x"), Int(0))},
                       {Divide(Int(10), cp::field_ref("x"))}, std::nullopt, arrow::int64()));
  auto error = Evaluate(failing);
  ASSERT_FALSE(error.ok());
  EXPECT_NE(error.status().message().find("divide by zero"), std::string::npos);
}

TEST_F(ConditionalKernelsTest, CaseWhenBranchesTakingAllRowsOrNone) {
  // Every row takes the first branch: the ELSE's division is never evaluated.
  ASSERT_OK_AND_ASSIGN(auto all, LazyCaseWhenCall({cp::literal(true)}, {cp::field_ref("x")},
                                                  Divide(Int(1), Int(0)), arrow::int64()));
  ASSERT_OK_AND_ASSIGN(auto taken, Evaluate(all));
  EXPECT_TRUE(taken->Equals(*batch_->column(0)));
  // No row takes the branch and there is no ELSE: every row is NULL.
  ASSERT_OK_AND_ASSIGN(auto none, LazyCaseWhenCall({cp::literal(false)}, {Divide(Int(1), Int(0))},
                                                   std::nullopt, arrow::int64()));
  ASSERT_OK_AND_ASSIGN(auto nulls, Evaluate(none));
  EXPECT_TRUE(nulls->Equals(*Json(arrow::int64(), "[null, null, null, null, null]")));
  // No batch rows at all.
  ASSERT_OK_AND_ASSIGN(auto empty, Evaluate(all, batch_->Slice(0, 0)));
  EXPECT_EQ(empty->length(), 0);
}

TEST_F(ConditionalKernelsTest, NestedValuesComeBackInRowOrder) {
  // CASE WHEN x > 1 THEN l WHEN x = 0 THEN l END over a list column: the rows of the two
  // branches interleave, and the others are NULL.
  ASSERT_OK_AND_ASSIGN(auto call, LazyCaseWhenCall({Call("greater", cp::field_ref("x"), Int(1)),
                                                    Call("equal", cp::field_ref("x"), Int(0))},
                                                   {cp::field_ref("l"), cp::field_ref("l")},
                                                   std::nullopt, arrow::list(arrow::int64())));
  ASSERT_OK_AND_ASSIGN(auto result, Evaluate(call));
  EXPECT_TRUE(
      result->Equals(*Json(arrow::list(arrow::int64()), "[[0], null, null, null, [4, 4, 4]]")))
      << result->ToString();
}

TEST_F(ConditionalKernelsTest, CoalesceEvaluatesAnArgumentOnlyWhereAllBeforeAreNull) {
  // COALESCE(y, 10 / x, 1 / 0): y is set where x = 0, 10 / x is NULL only where x is, and
  // only that row reaches 1 / 0.
  ASSERT_OK_AND_ASSIGN(
      auto call, LazyCoalesceCall({cp::field_ref("y"), Divide(Int(10), cp::field_ref("x")), Int(7)},
                                  arrow::int64()));
  ASSERT_OK_AND_ASSIGN(auto result, Evaluate(call));
  EXPECT_TRUE(result->Equals(*Json(arrow::int64(), "[5, 10, 5, 7, 6]"))) << result->ToString();

  ASSERT_OK_AND_ASSIGN(auto failing,
                       LazyCoalesceCall({cp::field_ref("y"), Divide(Int(10), cp::field_ref("x")),
                                         Divide(Int(1), Int(0))},
                                        arrow::int64()));
  EXPECT_FALSE(Evaluate(failing).ok());
}

TEST_F(ConditionalKernelsTest, TheCallsArgumentsAreTheFieldsItReads) {
  // The sub-expressions stay in the options: only the fields they read are arguments, so
  // nothing outside the kernel evaluates a branch on every row.
  ASSERT_OK_AND_ASSIGN(auto call, LazyCaseWhenCall({Call("equal", cp::field_ref("x"), Int(0))},
                                                   {Divide(cp::field_ref("y"), cp::field_ref("x"))},
                                                   cp::field_ref("y"), arrow::int64()));
  ASSERT_NE(call.call(), nullptr);
  ASSERT_EQ(call.call()->arguments.size(), 2u);
  EXPECT_EQ(call.call()->arguments[0].ToString(), "x");
  EXPECT_EQ(call.call()->arguments[1].ToString(), "y");
  // Sub-expressions that read no field: one constant argument, and the call folds.
  ASSERT_OK_AND_ASSIGN(
      auto constant,
      LazyCaseWhenCall({cp::literal(false)}, {Divide(Int(1), Int(0))}, Int(2), arrow::int64()));
  ASSERT_OK_AND_ASSIGN(auto result, Evaluate(constant));
  EXPECT_TRUE(result->Equals(*Json(arrow::int64(), "[2, 2, 2, 2, 2]"))) << result->ToString();
  // A nested field reference is refused.
  EXPECT_FALSE(LazyCoalesceCall({cp::field_ref(arrow::FieldRef("s", "a"))}, arrow::int64()).ok());
}

}  // namespace
}  // namespace parley
