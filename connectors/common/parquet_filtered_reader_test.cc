// The filtered Parquet reader returns exactly what Parquet's Arrow reader returns for the same
// columns, filtered by the conjuncts it evaluates, across pages, row groups, NULLs and both
// encodings; and it declines what it cannot read.
#include "connectors/common/parquet_filtered_reader.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "arrow/array/util.h"
#include "arrow/builder.h"
#include "arrow/compute/api_vector.h"
#include "arrow/compute/exec.h"
#include "arrow/compute/initialize.h"
#include "arrow/io/memory.h"
#include "arrow/scalar.h"
#include "arrow/table.h"
#include "connectors/common/parquet_dictionary.h"
#include "parquet/arrow/reader.h"
#include "parquet/arrow/writer.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

constexpr int64_t kRows = 2500;
const arrow::EqualOptions kNansEqual = arrow::EqualOptions::Defaults().nans_equal(true);

// 2500 rows in row groups of 1000, small pages: `i32` (NULL every 11th row, dictionary
// pages), `i64` (plain pages, values beyond 32 bits), `day` (date32), `price` (DECIMAL(9,2)
// stored as INT32, NULL every 13th row), `amount` (DECIMAL(18,3) stored as INT64), `ratio`
// (double with NaN), `code` (string).
Result<std::shared_ptr<arrow::Buffer>> WriteFile() {
  arrow::Int32Builder i32;
  arrow::Int64Builder i64;
  arrow::Date32Builder day;
  arrow::Decimal128Builder price(arrow::decimal128(9, 2));
  arrow::Decimal128Builder amount(arrow::decimal128(18, 3));
  arrow::DoubleBuilder ratio;
  arrow::StringBuilder code;
  for (int64_t row = 0; row < kRows; ++row) {
    ARROW_RETURN_NOT_OK(row % 11 == 0 ? i32.AppendNull()
                                      : i32.Append(static_cast<int32_t>(row * 7 % 100 - 50)));
    ARROW_RETURN_NOT_OK(i64.Append((row - 1250) * 10'000'000'000 + row % 3));
    ARROW_RETURN_NOT_OK(day.Append(static_cast<int32_t>(18000 + row % 400)));
    ARROW_RETURN_NOT_OK(row % 13 == 0 ? price.AppendNull()
                                      : price.Append(arrow::Decimal128(row * 37 % 20000 - 10000)));
    ARROW_RETURN_NOT_OK(amount.Append(arrow::Decimal128((row - 1250) * 123456789)));
    ARROW_RETURN_NOT_OK(ratio.Append(row % 17 == 0 ? std::nan("") : row / 1000.0));
    ARROW_RETURN_NOT_OK(row % 7 == 0 ? code.AppendNull()
                                     : code.Append("c" + std::to_string(row % 5)));
  }
  arrow::ArrayVector columns(7);
  ARROW_RETURN_NOT_OK(i32.Finish(&columns[0]));
  ARROW_RETURN_NOT_OK(i64.Finish(&columns[1]));
  ARROW_RETURN_NOT_OK(day.Finish(&columns[2]));
  ARROW_RETURN_NOT_OK(price.Finish(&columns[3]));
  ARROW_RETURN_NOT_OK(amount.Finish(&columns[4]));
  ARROW_RETURN_NOT_OK(ratio.Finish(&columns[5]));
  ARROW_RETURN_NOT_OK(code.Finish(&columns[6]));
  auto schema = arrow::schema(
      {arrow::field("i32", arrow::int32()), arrow::field("i64", arrow::int64(), false),
       arrow::field("day", arrow::date32(), false), arrow::field("price", arrow::decimal128(9, 2)),
       arrow::field("amount", arrow::decimal128(18, 3), false),
       arrow::field("ratio", arrow::float64()), arrow::field("code", arrow::utf8())});
  auto table = arrow::Table::Make(schema, columns);
  ARROW_ASSIGN_OR_RAISE(auto sink, arrow::io::BufferOutputStream::Create());
  auto properties = parquet::WriterProperties::Builder()
                        .enable_store_decimal_as_integer()
                        ->disable_dictionary("i64")
                        ->write_batch_size(50)
                        ->data_pagesize(256)
                        ->build();
  ARROW_RETURN_NOT_OK(
      parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), sink, 1000, properties));
  return sink->Finish();
}

class ParquetFilteredReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(cp::Initialize());
    ASSERT_OK_AND_ASSIGN(file_, WriteFile());
    ASSERT_OK_AND_ASSIGN(auto reader, Open());
    const auto& metadata = *reader->parquet_reader()->metadata();
    ASSERT_EQ(metadata.num_row_groups(), 3);
    ASSERT_EQ(metadata.schema()->Column(3)->physical_type(), parquet::Type::INT32);
    ASSERT_EQ(metadata.schema()->Column(4)->physical_type(), parquet::Type::INT64);
  }

  Result<std::shared_ptr<parquet::arrow::FileReader>> Open() const {
    parquet::arrow::FileReaderBuilder builder;
    ARROW_RETURN_NOT_OK(builder.Open(std::make_shared<arrow::io::BufferReader>(file_)));
    if (dictionary_strings_) {
      parquet::ArrowReaderProperties properties;
      ReadDictionaryEncodedStrings(*builder.raw_reader()->metadata(), &properties);
      builder.properties(properties);
    }
    std::unique_ptr<parquet::arrow::FileReader> reader;
    ARROW_ASSIGN_OR_RAISE(reader, builder.Build());
    return std::shared_ptr<parquet::arrow::FileReader>(std::move(reader));
  }

  // What the filtered reader returns for `leaves` and `filter`, in one table; nullptr when it
  // declines.
  Result<std::shared_ptr<arrow::Table>> ReadFiltered(const std::vector<int>& leaves,
                                                     const cp::Expression& filter,
                                                     int64_t batch_rows = 300) const {
    ARROW_ASSIGN_OR_RAISE(auto reader, Open());
    ARROW_ASSIGN_OR_RAISE(auto batches, MakeFilteredParquetReader(reader, {0, 1, 2}, leaves, filter,
                                                                  batch_rows, &rows_dropped_));
    if (batches == nullptr) return nullptr;
    ARROW_ASSIGN_OR_RAISE(auto table, arrow::Table::FromRecordBatchReader(batches.get()));
    return table->CombineChunks();
  }

  // Parquet's Arrow reader over the same columns, then `filter` (rows where it is TRUE).
  Result<std::shared_ptr<arrow::Table>> ReadThenFilter(const std::vector<int>& leaves,
                                                       const cp::Expression& filter) const {
    ARROW_ASSIGN_OR_RAISE(auto reader, Open());
    ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Table> table, reader->ReadTable(leaves));
    ARROW_ASSIGN_OR_RAISE(table, table->CombineChunks());
    ARROW_ASSIGN_OR_RAISE(auto bound, filter.Bind(*table->schema()));
    ARROW_ASSIGN_OR_RAISE(auto batch, table->CombineChunksToBatch());
    ARROW_ASSIGN_OR_RAISE(auto mask, cp::ExecuteScalarExpression(bound, cp::ExecBatch(*batch)));
    if (mask.is_scalar()) {
      ARROW_ASSIGN_OR_RAISE(mask, arrow::MakeArrayFromScalar(*mask.scalar(), table->num_rows()));
    }
    ARROW_ASSIGN_OR_RAISE(auto filtered, cp::Filter(table, mask));
    return filtered.table()->CombineChunks();
  }

  // Checks that reading `leaves` under `filter` gives exactly the rows `evaluated` keeps.
  void ExpectRows(const std::vector<int>& leaves, const cp::Expression& filter,
                  const cp::Expression& evaluated, int64_t batch_rows = 300) {
    rows_dropped_ = 0;
    ASSERT_OK_AND_ASSIGN(auto actual, ReadFiltered(leaves, filter, batch_rows));
    ASSERT_NE(actual, nullptr) << filter.ToString();
    EXPECT_EQ(rows_dropped_, kRows - actual->num_rows());
    ASSERT_OK_AND_ASSIGN(auto expected, ReadThenFilter(leaves, evaluated));

    EXPECT_TRUE(actual->schema()->Equals(*expected->schema(), /*check_metadata=*/true));
    EXPECT_TRUE(actual->Equals(*expected, kNansEqual)) << filter.ToString() << "\nactual:\n"
                                                       << actual->ToString() << "\nexpected:\n"
                                                       << expected->ToString();
  }

  const std::vector<int> kFixedWidth = {0, 1, 2, 3, 4, 5};
  std::shared_ptr<arrow::Buffer> file_;
  mutable std::atomic<int64_t> rows_dropped_{0};
  // Whether string columns stored as dictionary indexes read as Arrow dictionaries
  // (connectors/common/parquet_dictionary.h), as the connectors read them.
  bool dictionary_strings_ = false;
};

cp::Expression Decimal(int64_t unscaled, int precision, int scale) {
  return cp::literal(
      arrow::Decimal128Scalar(arrow::Decimal128(unscaled), arrow::decimal128(precision, scale)));
}

cp::Expression Day(int32_t days) { return cp::literal(arrow::Date32Scalar(days)); }

cp::Expression Call(const std::string& name, std::vector<cp::Expression> args) {
  return cp::call(name, std::move(args));
}

TEST_F(ParquetFilteredReaderTest, KeepsExactlyTheRowsOfEveryComparison) {
  const auto i32 = cp::field_ref("i32");
  const auto i64 = cp::field_ref("i64");
  const auto day = cp::field_ref("day");
  const auto price = cp::field_ref("price");
  const auto amount = cp::field_ref("amount");
  const std::vector<cp::Expression> filters = {
      cp::greater_equal(i32, cp::literal(int32_t{10})),
      cp::less(i32, cp::literal(int32_t{-20})),
      cp::equal(i32, cp::literal(int32_t{-1})),
      cp::not_equal(i32, cp::literal(int32_t{-1})),
      cp::less_equal(i64, cp::literal(int64_t{-3'000'000'000'000})),
      cp::greater(i64, cp::literal(int64_t{9'000'000'000'001})),
      cp::and_(cp::greater_equal(day, Day(18100)), cp::less(day, Day(18200))),
      cp::and_(cp::greater_equal(price, Decimal(-500, 9, 2)),
               cp::less_equal(price, Decimal(2500, 9, 2))),
      cp::greater(amount, Decimal(int64_t{100} * 123456789, 18, 3)),
      cp::is_null(price),
      cp::is_valid(i32),
      cp::is_null(amount),
      // A literal first: 10 < i32 is i32 > 10.
      Call("less", {cp::literal(int32_t{10}), i32}),
      Call("greater_equal", {Day(18010), day}),
      // Comparisons of one column merge into one range: overlapping, contradictory, at the
      // ends of the raw type.
      cp::and_({cp::greater(i32, cp::literal(int32_t{-30})),
                cp::less_equal(i32, cp::literal(int32_t{40})),
                cp::greater_equal(i32, cp::literal(int32_t{-10})),
                cp::not_equal(i32, cp::literal(int32_t{0}))}),
      cp::and_(cp::greater(i32, cp::literal(int32_t{5})), cp::less(i32, cp::literal(int32_t{3}))),
      cp::and_(cp::equal(day, Day(18007)), cp::greater_equal(day, Day(18007))),
      cp::less(i64, cp::literal(std::numeric_limits<int64_t>::min())),
      cp::greater(i64, cp::literal(std::numeric_limits<int64_t>::max())),
      cp::less_equal(i64, cp::literal(std::numeric_limits<int64_t>::max())),
      // Several conjuncts over several columns, nested ANDs.
      cp::and_(
          {cp::greater_equal(day, Day(18050)), cp::less(day, Day(18300)),
           cp::and_(cp::greater_equal(price, Decimal(0, 9, 2)),
                    cp::less(i32, cp::literal(int32_t{30}))),
           Call("and_kleene", {cp::not_equal(i64, cp::literal(int64_t{1})), cp::is_valid(price)})}),
  };
  for (const auto& filter : filters) {
    SCOPED_TRACE(filter.ToString());
    ExpectRows(kFixedWidth, filter, filter);
  }
}

TEST_F(ParquetFilteredReaderTest, LeavesOtherConjunctsToTheCaller) {
  const auto i32 = cp::field_ref("i32");
  const auto kept = cp::greater(i32, cp::literal(int32_t{0}));
  const std::vector<cp::Expression> others = {
      cp::or_(cp::equal(cp::field_ref("day"), Day(18001)),
              cp::equal(cp::field_ref("day"), Day(18002))),
      // Floating point: NaN orders above every number in SQL, not in IEEE comparisons.
      cp::greater(cp::field_ref("ratio"), cp::literal(0.5)),
      // A literal of another type than the column's.
      cp::greater(i32, cp::literal(int64_t{40})),
      cp::greater(cp::field_ref("price"), Decimal(100, 10, 2)),
      // NULL literal, a column not read, an unknown column, a function.
      cp::greater(i32, cp::literal(arrow::MakeNullScalar(arrow::int32()))),
      cp::equal(cp::field_ref("code"), cp::literal("c1")),
      cp::equal(cp::field_ref("missing"), cp::literal(int32_t{1})),
      cp::not_(cp::equal(i32, cp::literal(int32_t{5}))),
  };
  for (const auto& other : others) {
    SCOPED_TRACE(other.ToString());
    ASSERT_OK_AND_ASSIGN(auto actual, ReadFiltered(kFixedWidth, cp::and_(kept, other)));
    ASSERT_NE(actual, nullptr);
    ASSERT_OK_AND_ASSIGN(auto expected, ReadThenFilter(kFixedWidth, kept));
    EXPECT_TRUE(actual->Equals(*expected, kNansEqual));
  }
}

TEST_F(ParquetFilteredReaderTest, BatchesOfAnySizeAcrossPagesAndRowGroups) {
  const auto filter = cp::and_(cp::greater_equal(cp::field_ref("day"), Day(18100)),
                               cp::is_valid(cp::field_ref("price")));
  for (int64_t batch_rows : {1, 7, 300, 1000, 4096}) {
    SCOPED_TRACE(batch_rows);
    ExpectRows(kFixedWidth, filter, filter, batch_rows);
  }
}

TEST_F(ParquetFilteredReaderTest, ReadsSomeColumnsFilteringOnAnyOfThem) {
  const auto filter = cp::less(cp::field_ref("amount"), Decimal(0, 18, 3));
  ExpectRows({2, 4}, filter, filter);
  // The filtered column is read first although it comes last; the other columns follow it.
  ExpectRows({0, 3, 4}, filter, filter);
  // A conjunct on a column outside the read ones is left to the caller.
  ASSERT_OK_AND_ASSIGN(auto unfiltered, ReadFiltered({0, 1}, filter));
  EXPECT_EQ(unfiltered, nullptr);
}

TEST_F(ParquetFilteredReaderTest, AllRowsOrNone) {
  const auto everything =
      cp::greater(cp::field_ref("i64"), cp::literal(std::numeric_limits<int64_t>::min()));
  ASSERT_OK_AND_ASSIGN(auto all, ReadFiltered(kFixedWidth, everything));
  ASSERT_NE(all, nullptr);
  ASSERT_OK_AND_ASSIGN(auto whole, ReadThenFilter(kFixedWidth, cp::literal(true)));
  EXPECT_TRUE(all->Equals(*whole, kNansEqual));

  ASSERT_OK_AND_ASSIGN(auto reader, Open());
  ASSERT_OK_AND_ASSIGN(
      auto batches,
      MakeFilteredParquetReader(reader, {0, 1, 2}, kFixedWidth,
                                cp::less(cp::field_ref("day"), Day(17000)), 300, &rows_dropped_));
  ASSERT_NE(batches, nullptr);
  rows_dropped_ = 0;
  std::shared_ptr<arrow::RecordBatch> batch;
  ASSERT_OK(batches->ReadNext(&batch));
  EXPECT_EQ(batch, nullptr);
  EXPECT_EQ(rows_dropped_, kRows);
}

TEST_F(ParquetFilteredReaderTest, ReadsStringsStoredAsDictionaryIndexesAsDictionaries) {
  dictionary_strings_ = true;
  const auto filter = cp::and_(cp::greater_equal(cp::field_ref("day"), Day(18100)),
                               cp::less(cp::field_ref("i32"), cp::literal(int32_t{20})));
  for (int64_t batch_rows : {7, 300, 4096}) {
    SCOPED_TRACE(batch_rows);
    ExpectRows({0, 2, 6}, filter, filter, batch_rows);
    ExpectRows({6, 1}, cp::less(cp::field_ref("i64"), cp::literal(int64_t{0})),
               cp::less(cp::field_ref("i64"), cp::literal(int64_t{0})), batch_rows);
  }
  ASSERT_OK_AND_ASSIGN(auto table, ReadFiltered({2, 6}, filter));
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->schema()->field(1)->type()->id(), arrow::Type::DICTIONARY);
  EXPECT_GT(table->column(1)->null_count(), 0);
}

TEST_F(ParquetFilteredReaderTest, DeclinesWhatItCannotRead) {
  const auto filter = cp::greater(cp::field_ref("i32"), cp::literal(int32_t{0}));
  // A string column among the read ones, not read as a dictionary.
  ASSERT_OK_AND_ASSIGN(auto with_strings, ReadFiltered({0, 6}, filter));
  EXPECT_EQ(with_strings, nullptr);
  // No conjunct it evaluates.
  ASSERT_OK_AND_ASSIGN(auto no_filter, ReadFiltered(kFixedWidth, cp::literal(true)));
  EXPECT_EQ(no_filter, nullptr);
  ASSERT_OK_AND_ASSIGN(auto floating, ReadFiltered(kFixedWidth, cp::greater(cp::field_ref("ratio"),
                                                                            cp::literal(0.5))));
  EXPECT_EQ(floating, nullptr);
}

TEST(ParquetFilteredReaderNestedTest, DeclinesNestedColumns) {
  arrow::Int32Builder values;
  ASSERT_OK(values.AppendValues(std::vector<int32_t>{1, 2, 3}));
  ASSERT_OK_AND_ASSIGN(auto value, values.Finish());
  ASSERT_OK_AND_ASSIGN(auto point, arrow::StructArray::Make({value}, {"x"}));
  auto table = arrow::Table::Make(
      arrow::schema({arrow::field("id", arrow::int32()), arrow::field("point", point->type())}),
      {value, point});
  ASSERT_OK_AND_ASSIGN(auto sink, arrow::io::BufferOutputStream::Create());
  ASSERT_OK(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), sink, 10));
  ASSERT_OK_AND_ASSIGN(auto file, sink->Finish());
  parquet::arrow::FileReaderBuilder builder;
  ASSERT_OK(builder.Open(std::make_shared<arrow::io::BufferReader>(file)));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<parquet::arrow::FileReader> reader, builder.Build());
  std::atomic<int64_t> dropped{0};
  ASSERT_OK_AND_ASSIGN(
      auto batches, MakeFilteredParquetReader(
                        std::move(reader), {0}, {0, 1},
                        cp::greater(cp::field_ref("id"), cp::literal(int32_t{1})), 10, &dropped));
  EXPECT_EQ(batches, nullptr);
}

}  // namespace
}  // namespace parley
