// Which expressions can fail at run time, and the lowering that follows from it: a conditional
// whose branches cannot fail stays on Arrow's case_when / coalesce, one with a branch that can
// is evaluated lazily.
#include "exec/error_free.h"

#include <gtest/gtest.h>

#include "arrow/scalar.h"
#include "arrow/type.h"
#include "exec/expression_lowering.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

BoundExprPtr Column(const std::string& name, std::shared_ptr<arrow::DataType> type) {
  return MakeColumnRef(name, name, std::move(type));
}
BoundExprPtr IntLiteral(int32_t value) {
  return MakeBoundLiteral(std::make_shared<arrow::Int32Scalar>(value));
}
BoundExprPtr Cast(BoundExprPtr value, std::shared_ptr<arrow::DataType> type) {
  return MakeCall("CAST", {std::move(value)}, std::move(type));
}
BoundExprPtr CaseWhen(std::vector<BoundExprPtr> args, std::shared_ptr<arrow::DataType> type) {
  auto call = std::const_pointer_cast<BoundExpr>(MakeCall("CASE_WHEN", std::move(args), type));
  call->has_else = true;
  return call;
}

TEST(ErrorFreeTest, ComparisonsLogicAndColumnsCannotFail) {
  auto a = Column("a", arrow::int32());
  auto s = Column("s", arrow::utf8());
  auto condition = MakeCall(
      "AND",
      {MakeCall("=", {a, IntLiteral(1)}, arrow::boolean()),
       MakeCall("STARTS_WITH", {s, MakeBoundLiteral(arrow::MakeScalar("P"))}, arrow::boolean())},
      arrow::boolean());
  EXPECT_TRUE(IsErrorFree(*a));
  EXPECT_TRUE(IsErrorFree(*condition));
  EXPECT_TRUE(IsErrorFree(*CaseWhen({condition, a, IntLiteral(0)}, arrow::int32())));
}

TEST(ErrorFreeTest, ArithmeticFailsUnlessItsTypeRulesFailureOut) {
  auto a = Column("a", arrow::int32());
  auto x = Column("x", arrow::float64());
  auto price = Column("p", arrow::decimal128(15, 2));
  auto discount = Column("d", arrow::decimal128(15, 2));
  EXPECT_FALSE(IsErrorFree(*MakeCall("/", {x, x}, arrow::float64())));
  EXPECT_FALSE(IsErrorFree(*MakeCall("+", {a, a}, arrow::int32())));
  EXPECT_FALSE(IsErrorFree(*MakeCall("NEGATE", {a}, arrow::int32())));
  EXPECT_TRUE(IsErrorFree(*MakeCall("*", {x, x}, arrow::float64())));
  // TPC-H Q14's l_extendedprice * (1 - l_discount), as bound: an exact difference, and a
  // product whose DECIMAL(32,4) holds every product of two DECIMAL(16,2).
  auto one_minus = MakeCall("-", {Cast(IntLiteral(1), arrow::decimal128(15, 2)), discount},
                            arrow::decimal128(16, 2));
  auto volume =
      MakeCall("*", {Cast(price, arrow::decimal128(16, 2)), one_minus}, arrow::decimal128(32, 4));
  EXPECT_TRUE(IsErrorFree(*volume));
  EXPECT_FALSE(IsErrorFree(*MakeCall("*", {one_minus, one_minus}, arrow::decimal128(31, 4))));
  // A product whose type Spark caps at 38 digits can overflow it.
  auto wide = Column("w", arrow::decimal128(38, 10));
  EXPECT_FALSE(IsErrorFree(*MakeCall("*", {wide, wide}, arrow::decimal128(38, 6))));
  // A failing part anywhere fails the whole.
  EXPECT_FALSE(
      IsErrorFree(*MakeCall(">", {MakeCall("/", {x, x}, arrow::float64()), x}, arrow::boolean())));
}

TEST(ErrorFreeTest, CastsFailUnlessEveryValueFits) {
  auto a = Column("a", arrow::int32());
  auto s = Column("s", arrow::utf8());
  EXPECT_TRUE(IsErrorFree(*Cast(a, arrow::int64())));
  EXPECT_TRUE(IsErrorFree(*Cast(a, arrow::float64())));
  EXPECT_TRUE(IsErrorFree(*Cast(a, arrow::utf8())));
  EXPECT_TRUE(IsErrorFree(*Cast(Column("d", arrow::decimal128(10, 2)), arrow::decimal128(12, 4))));
  EXPECT_TRUE(IsErrorFree(*Cast(IntLiteral(0), arrow::decimal128(32, 4))));
  EXPECT_FALSE(IsErrorFree(*Cast(a, arrow::int8())));
  EXPECT_FALSE(IsErrorFree(*Cast(s, arrow::int32())));
  EXPECT_FALSE(IsErrorFree(*Cast(MakeBoundLiteral(arrow::MakeScalar("seven")), arrow::int32())));
  EXPECT_FALSE(IsErrorFree(*Cast(IntLiteral(1000), arrow::decimal128(3, 0))));
  // Functions not known to be total count as failing.
  EXPECT_FALSE(IsErrorFree(*MakeCall("upper", {s}, arrow::utf8())));
}

TEST(ErrorFreeTest, OnlyConditionalsWithAFailingBranchAreLoweredLazily) {
  auto a = Column("a", arrow::int32());
  auto x = Column("x", arrow::float64());
  auto positive = MakeCall(">", {a, IntLiteral(0)}, arrow::boolean());
  auto quotient = MakeCall("/", {x, x}, arrow::float64());
  auto function_of = [](const BoundExprPtr& expr) {
    auto lowered = LowerExpression(*expr);
    EXPECT_TRUE(lowered.ok()) << lowered.status().ToString();
    return lowered.ok() && lowered->call() ? lowered->call()->function_name : std::string();
  };
  EXPECT_EQ(function_of(CaseWhen({positive, x, x}, arrow::float64())), "case_when");
  EXPECT_EQ(function_of(CaseWhen({positive, quotient, x}, arrow::float64())), "parley_case_when");
  EXPECT_EQ(function_of(CaseWhen({positive, x, quotient}, arrow::float64())), "parley_case_when");
  // The first condition meets every row anyway.
  auto failing_condition = MakeCall(">", {quotient, x}, arrow::boolean());
  EXPECT_EQ(function_of(CaseWhen({failing_condition, x, x}, arrow::float64())), "case_when");
  EXPECT_EQ(function_of(MakeCall("COALESCE", {x, x}, arrow::float64())), "coalesce");
  EXPECT_EQ(function_of(MakeCall("COALESCE", {x, quotient}, arrow::float64())), "parley_coalesce");
  EXPECT_EQ(function_of(MakeCall("COALESCE", {quotient, x}, arrow::float64())), "coalesce");
}

}  // namespace
}  // namespace parley
