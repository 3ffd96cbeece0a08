// Which conjuncts count as simple, how literals become raw values, and when a range of raw
// values may pass a comparison.
#include "connectors/common/parquet_conjuncts.h"

#include <gtest/gtest.h>

#include <limits>

#include "arrow/compute/api_scalar.h"
#include "arrow/type.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

TEST(ParquetConjunctsTest, SplitsAtAndsKeepingSimpleShapesAndTheRest) {
  const auto a = cp::field_ref("a");
  const auto filter = cp::and_(
      {cp::less(a, cp::literal(5)),
       cp::call("and_kleene",
                {cp::is_null(cp::field_ref("b")), cp::greater_equal(cp::literal(2), a)}),
       cp::or_(cp::equal(a, cp::literal(1)), cp::equal(a, cp::literal(2))),
       cp::equal(a, cp::literal(arrow::MakeNullScalar(arrow::int32()))),
       cp::equal(a, cp::field_ref("b")), cp::is_valid(cp::field_ref(arrow::FieldRef("s", "x")))});
  std::vector<ColumnConjunct> simple;
  std::vector<cp::Expression> rest;
  SplitConjuncts(filter, &simple, &rest);
  ASSERT_EQ(simple.size(), 3u);
  EXPECT_EQ(simple[0].column, "a");
  EXPECT_EQ(simple[0].op, RawOp::kLess);
  EXPECT_EQ(simple[0].literal->ToString(), "5");
  EXPECT_EQ(simple[1].column, "b");
  EXPECT_EQ(simple[1].op, RawOp::kIsNull);
  EXPECT_EQ(simple[1].literal, nullptr);
  // 2 >= a is a <= 2.
  EXPECT_EQ(simple[2].op, RawOp::kLessEqual);
  EXPECT_EQ(simple[2].literal->ToString(), "2");
  // OR, a NULL literal, two columns, a nested field.
  EXPECT_EQ(rest.size(), 4u);
}

TEST(ParquetConjunctsTest, LiteralsBecomeRawValuesOnlyForTheirExactType) {
  const arrow::Decimal128Scalar cents(arrow::Decimal128(-1234), arrow::decimal128(9, 2));
  EXPECT_EQ(RawIntegerLiteral(cents, *arrow::decimal128(9, 2), parquet::Type::INT32), -1234);
  EXPECT_EQ(RawIntegerLiteral(cents, *arrow::decimal128(9, 3), parquet::Type::INT32), std::nullopt);
  const arrow::Decimal128Scalar wide(arrow::Decimal128("123456789012345678901"),
                                     arrow::decimal128(38, 0));
  EXPECT_EQ(RawIntegerLiteral(wide, *arrow::decimal128(38, 0), parquet::Type::INT64), std::nullopt);
  const arrow::Int64Scalar big(int64_t{1} << 40);
  EXPECT_EQ(RawIntegerLiteral(big, *arrow::int64(), parquet::Type::INT64), int64_t{1} << 40);
  EXPECT_EQ(RawIntegerLiteral(big, *arrow::int32(), parquet::Type::INT32), std::nullopt);
  const arrow::Date32Scalar day(19000);
  EXPECT_EQ(RawIntegerLiteral(day, *arrow::date32(), parquet::Type::INT32), 19000);
  EXPECT_EQ(RawIntegerLiteral(day, *arrow::int32(), parquet::Type::INT32), std::nullopt);
  EXPECT_EQ(RawIntegerLiteral(arrow::DoubleScalar(1.0), *arrow::float64(), parquet::Type::DOUBLE),
            std::nullopt);
  EXPECT_EQ(RawIntegerLiteral(*arrow::MakeNullScalar(arrow::int64()), *arrow::int64(),
                              parquet::Type::INT64),
            std::nullopt);
}

TEST(ParquetConjunctsTest, RangesPassWhenSomeValueCould) {
  EXPECT_TRUE(RangeMayPass(RawOp::kEqual, 5, 5, 9));
  EXPECT_FALSE(RangeMayPass(RawOp::kEqual, 4, 5, 9));
  EXPECT_FALSE(RangeMayPass(RawOp::kEqual, 10, 5, 9));
  EXPECT_FALSE(RangeMayPass(RawOp::kNotEqual, 5, 5, 5));
  EXPECT_TRUE(RangeMayPass(RawOp::kNotEqual, 5, 5, 6));
  EXPECT_FALSE(RangeMayPass(RawOp::kLess, 5, 5, 9));
  EXPECT_TRUE(RangeMayPass(RawOp::kLessEqual, 5, 5, 9));
  EXPECT_FALSE(RangeMayPass(RawOp::kGreater, 9, 5, 9));
  EXPECT_TRUE(RangeMayPass(RawOp::kGreaterEqual, 9, 5, 9));
  EXPECT_FALSE(RangeMayPass(RawOp::kGreaterEqual, 10, 5, 9));
  EXPECT_TRUE(RangeMayPass(RawOp::kLess, std::numeric_limits<int64_t>::min() + 1,
                           std::numeric_limits<int64_t>::min(), 0));
}

}  // namespace
}  // namespace parley
