// Tests for result rendering: Java-compatible floating point, one cell of every common type,
// and whole tables in the table, csv and json forms (including chunked columns and NULLs).
#include "main/result_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "arrow/array.h"
#include "arrow/chunked_array.h"
#include "arrow/json/from_string.h"
#include "arrow/table.h"
#include "arrow/type.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

std::shared_ptr<arrow::Array> MakeArray(const std::shared_ptr<arrow::DataType>& type,
                                        const std::string& json) {
  auto result = arrow::json::ArrayFromJSONString(type, json);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ValueOrDie();
}

// Every cell of a one-column array, with NULL as "<null>".
std::vector<std::string> Cells(const std::shared_ptr<arrow::DataType>& type,
                               const std::string& json) {
  auto array = MakeArray(type, json);
  std::vector<std::string> out;
  for (int64_t i = 0; i < array->length(); ++i) {
    auto cell = FormatCell(*array, i);
    EXPECT_TRUE(cell.ok()) << cell.status().ToString();
    out.push_back(cell->value_or("<null>"));
  }
  return out;
}

using Strings = std::vector<std::string>;

TEST(FormatDoubleTest, MatchesJavaDoubleToString) {
  EXPECT_EQ(FormatDouble(1.0), "1.0");
  EXPECT_EQ(FormatDouble(0.1), "0.1");
  EXPECT_EQ(FormatDouble(-1.5), "-1.5");
  EXPECT_EQ(FormatDouble(100.0), "100.0");
  EXPECT_EQ(FormatDouble(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(FormatDouble(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(FormatDouble(9999999.0), "9999999.0");
  EXPECT_EQ(FormatDouble(1e7), "1.0E7");
  EXPECT_EQ(FormatDouble(1e10), "1.0E10");
  EXPECT_EQ(FormatDouble(123456789.0), "1.23456789E8");
  EXPECT_EQ(FormatDouble(0.001), "0.001");
  EXPECT_EQ(FormatDouble(0.0012345), "0.0012345");
  EXPECT_EQ(FormatDouble(1e-4), "1.0E-4");
  EXPECT_EQ(FormatDouble(-2.5e-5), "-2.5E-5");
  EXPECT_EQ(FormatDouble(1.7976931348623157e308), "1.7976931348623157E308");
  EXPECT_EQ(FormatDouble(0.0), "0.0");
  EXPECT_EQ(FormatDouble(-0.0), "-0.0");
  EXPECT_EQ(FormatDouble(std::nan("")), "NaN");
  EXPECT_EQ(FormatDouble(std::numeric_limits<double>::infinity()), "Infinity");
  EXPECT_EQ(FormatDouble(-std::numeric_limits<double>::infinity()), "-Infinity");
}

TEST(FormatDoubleTest, FloatUsesShortestFloatDigits) {
  EXPECT_EQ(FormatFloat(1.1f), "1.1");
  EXPECT_EQ(FormatFloat(0.1f), "0.1");
  EXPECT_EQ(FormatFloat(1e10f), "1.0E10");
  EXPECT_EQ(FormatFloat(3.4028235e38f), "3.4028235E38");
}

TEST(FormatCellTest, Scalars) {
  EXPECT_EQ(Cells(arrow::int64(), "[1, -42, null]"), (Strings{"1", "-42", "<null>"}));
  EXPECT_EQ(Cells(arrow::uint64(), "[18446744073709551615]"), (Strings{"18446744073709551615"}));
  EXPECT_EQ(Cells(arrow::int8(), "[-128]"), (Strings{"-128"}));
  EXPECT_EQ(Cells(arrow::boolean(), "[true, false]"), (Strings{"true", "false"}));
  EXPECT_EQ(Cells(arrow::float64(), "[1.0, 0.5, 1e10]"), (Strings{"1.0", "0.5", "1.0E10"}));
  EXPECT_EQ(Cells(arrow::float32(), "[0.1]"), (Strings{"0.1"}));
  EXPECT_EQ(Cells(arrow::utf8(), R"(["parley", "", "a,b"])"), (Strings{"parley", "", "a,b"}));
  EXPECT_EQ(Cells(arrow::large_utf8(), R"(["x"])"), (Strings{"x"}));
  EXPECT_EQ(Cells(arrow::binary(), R"(["ab", ""])"), (Strings{"ab", ""}));
  EXPECT_EQ(Cells(arrow::null(), "[null]"), (Strings{"<null>"}));
}

TEST(FormatCellTest, DecimalsKeepTheirScale) {
  EXPECT_EQ(Cells(arrow::decimal128(10, 2), R"(["1.50", "-0.05", "12.00"])"),
            (Strings{"1.50", "-0.05", "12.00"}));
  EXPECT_EQ(Cells(arrow::decimal128(5, 0), R"(["7"])"), (Strings{"7"}));
  EXPECT_EQ(Cells(arrow::decimal256(40, 3), R"(["1.500"])"), (Strings{"1.500"}));
}

TEST(FormatCellTest, DatesAndTimes) {
  // 19723 days after the epoch is 2024-01-01.
  EXPECT_EQ(Cells(arrow::date32(), "[19723, 0, -1]"),
            (Strings{"2024-01-01", "1970-01-01", "1969-12-31"}));
  EXPECT_EQ(Cells(arrow::date64(), "[1704067200000]"), (Strings{"2024-01-01"}));
  EXPECT_EQ(Cells(arrow::timestamp(arrow::TimeUnit::MICRO),
                  "[1704103200000000, 1704103200500000, 1704103200000123, -1]"),
            (Strings{"2024-01-01 10:00:00", "2024-01-01 10:00:00.5", "2024-01-01 10:00:00.000123",
                     "1969-12-31 23:59:59.999999"}));
  EXPECT_EQ(Cells(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"), "[0]"),
            (Strings{"1970-01-01 00:00:00"}));
  EXPECT_EQ(Cells(arrow::timestamp(arrow::TimeUnit::SECOND), "[86399]"),
            (Strings{"1970-01-01 23:59:59"}));
  EXPECT_EQ(Cells(arrow::timestamp(arrow::TimeUnit::NANO), "[1]"),
            (Strings{"1970-01-01 00:00:00.000000001"}));
  EXPECT_EQ(Cells(arrow::time64(arrow::TimeUnit::MICRO), "[37230250000]"),
            (Strings{"10:20:30.25"}));
}

TEST(FormatCellTest, NestedValues) {
  EXPECT_EQ(Cells(arrow::list(arrow::int32()), "[[1, null, 3], []]"),
            (Strings{"[1, null, 3]", "[]"}));
  EXPECT_EQ(
      Cells(arrow::struct_({arrow::field("a", arrow::int32()), arrow::field("b", arrow::utf8())}),
            R"([{"a": 1, "b": "x"}, {"a": null, "b": "y"}])"),
      (Strings{"{1, x}", "{null, y}"}));
  EXPECT_EQ(Cells(arrow::map(arrow::utf8(), arrow::float64()), R"([[["a", 1.0], ["b", null]]])"),
            (Strings{"{a -> 1.0, b -> null}"}));
}

TEST(FormatCellTest, DictionaryPrintsItsValues) {
  ASSERT_OK_AND_ASSIGN(auto array, arrow::json::DictArrayFromJSONString(
                                       arrow::dictionary(arrow::int8(), arrow::utf8()),
                                       "[1, null, 0]", R"(["x", "y"])"));
  ASSERT_OK_AND_ASSIGN(auto first, FormatCell(*array, 0));
  ASSERT_OK_AND_ASSIGN(auto second, FormatCell(*array, 1));
  ASSERT_OK_AND_ASSIGN(auto third, FormatCell(*array, 2));
  EXPECT_EQ(first, "y");
  EXPECT_EQ(second, std::nullopt);
  EXPECT_EQ(third, "x");
}

std::shared_ptr<arrow::Table> SampleTable() {
  auto schema =
      arrow::schema({arrow::field("id", arrow::int64()), arrow::field("name", arrow::utf8()),
                     arrow::field("score", arrow::float64())});
  return arrow::Table::Make(schema,
                            {MakeArray(arrow::int64(), "[1, 20, null]"),
                             MakeArray(arrow::utf8(), R"(["ann", null, "say \"hi\", bob"])"),
                             MakeArray(arrow::float64(), "[0.5, 1e10, null]")});
}

TEST(FormatResultTest, Table) {
  ASSERT_OK_AND_ASSIGN(auto text, FormatResult(*SampleTable(), ResultFormat::kTable));
  EXPECT_EQ(text,
            "+------+---------------+--------+\n"
            "|   id | name          |  score |\n"
            "+------+---------------+--------+\n"
            "|    1 | ann           |    0.5 |\n"
            "|   20 | NULL          | 1.0E10 |\n"
            "| NULL | say \"hi\", bob |   NULL |\n"
            "+------+---------------+--------+\n");
}

TEST(FormatResultTest, TableWithNoRowsShowsTheHeader) {
  auto schema = arrow::schema({arrow::field("x", arrow::utf8())});
  ASSERT_OK_AND_ASSIGN(auto table, arrow::Table::MakeEmpty(schema));
  ASSERT_OK_AND_ASSIGN(auto text, FormatResult(*table, ResultFormat::kTable));
  EXPECT_EQ(text, "+---+\n| x |\n+---+\n");
}

TEST(FormatResultTest, TableSpreadsLinesAndMeasuresWideCharacters) {
  auto schema =
      arrow::schema({arrow::field("s", arrow::utf8()), arrow::field("n", arrow::int32())});
  auto table =
      arrow::Table::Make(schema, {MakeArray(arrow::utf8(), R"(["a\nlonger b\n", "日本", "x\ty"])"),
                                  MakeArray(arrow::int32(), "[1, 22, 3]")});
  ASSERT_OK_AND_ASSIGN(auto text, FormatResult(*table, ResultFormat::kTable));
  EXPECT_EQ(text,
            "+----------+----+\n"
            "| s        |  n |\n"
            "+----------+----+\n"
            "| a        |  1 |\n"
            "| longer b |    |\n"
            "| 日本     | 22 |\n"
            "| x\\ty     |  3 |\n"
            "+----------+----+\n");
}

TEST(FormatResultTest, NoColumnsRendersNothing) {
  auto table = arrow::Table::Make(arrow::schema({}), arrow::ArrayVector{}, 0);
  for (auto format : {ResultFormat::kTable, ResultFormat::kCsv, ResultFormat::kJson}) {
    ASSERT_OK_AND_ASSIGN(auto text, FormatResult(*table, format));
    EXPECT_EQ(text, "");
  }
}

TEST(FormatResultTest, Csv) {
  auto schema =
      arrow::schema({arrow::field("id", arrow::int64()), arrow::field("name", arrow::utf8())});
  auto table =
      arrow::Table::Make(schema, {MakeArray(arrow::int64(), "[1, 2, null, 4]"),
                                  MakeArray(arrow::utf8(), R"(["plain", "a,\"b\"", "", null])")});
  ASSERT_OK_AND_ASSIGN(auto text, FormatResult(*table, ResultFormat::kCsv));
  EXPECT_EQ(text,
            "id,name\n"
            "1,plain\n"
            "2,\"a,\"\"b\"\"\"\n"
            ",\"\"\n"
            "4,\n");
}

TEST(FormatResultTest, CsvAcrossChunks) {
  auto schema =
      arrow::schema({arrow::field("i", arrow::int32()), arrow::field("j", arrow::int32())});
  auto i = std::make_shared<arrow::ChunkedArray>(
      arrow::ArrayVector{MakeArray(arrow::int32(), "[0, 1]"), MakeArray(arrow::int32(), "[2]")});
  auto j = std::make_shared<arrow::ChunkedArray>(
      arrow::ArrayVector{MakeArray(arrow::int32(), "[0]"), MakeArray(arrow::int32(), "[-1, -2]")});
  auto table = arrow::Table::Make(schema, {i, j});
  ASSERT_OK_AND_ASSIGN(auto text, FormatResult(*table, ResultFormat::kCsv));
  EXPECT_EQ(text, "i,j\n0,0\n1,-1\n2,-2\n");
}

TEST(FormatResultTest, JsonLines) {
  ASSERT_OK_AND_ASSIGN(auto text, FormatResult(*SampleTable(), ResultFormat::kJson));
  EXPECT_EQ(text,
            "{\"id\":1,\"name\":\"ann\",\"score\":0.5}\n"
            "{\"id\":20,\"name\":null,\"score\":1.0E10}\n"
            "{\"id\":null,\"name\":\"say \\\"hi\\\", bob\",\"score\":null}\n");
  // Every line is valid JSON.
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    EXPECT_TRUE(nlohmann::json::accept(line)) << line;
  }
}

TEST(FormatResultTest, JsonTypes) {
  auto schema = arrow::schema(
      {arrow::field("b", arrow::boolean()), arrow::field("d", arrow::decimal128(4, 2)),
       arrow::field("nan", arrow::float64()), arrow::field("day", arrow::date32()),
       arrow::field("l", arrow::list(arrow::int32())),
       arrow::field("s", arrow::struct_({arrow::field("x", arrow::utf8())})),
       arrow::field("m", arrow::map(arrow::int32(), arrow::utf8()))});
  auto table = arrow::Table::Make(
      schema,
      {MakeArray(arrow::boolean(), "[true]"), MakeArray(arrow::decimal128(4, 2), R"(["1.50"])"),
       MakeArray(arrow::float64(), "[NaN]"), MakeArray(arrow::date32(), "[19723]"),
       MakeArray(arrow::list(arrow::int32()), "[[1, null]]"),
       MakeArray(arrow::struct_({arrow::field("x", arrow::utf8())}), R"([{"x": "q"}])"),
       MakeArray(arrow::map(arrow::int32(), arrow::utf8()), R"([[[7, "seven"]]])")});
  ASSERT_OK_AND_ASSIGN(auto text, FormatResult(*table, ResultFormat::kJson));
  EXPECT_EQ(text,
            "{\"b\":true,\"d\":1.50,\"nan\":\"NaN\",\"day\":\"2024-01-01\",\"l\":[1,null],"
            "\"s\":{\"x\":\"q\"},\"m\":{\"7\":\"seven\"}}\n");
  EXPECT_TRUE(nlohmann::json::accept(text));
}

TEST(FormatResultTest, JsonKeepsEveryByteOfBinary) {
  auto table = arrow::Table::Make(arrow::schema({arrow::field("raw", arrow::binary())}),
                                  {MakeArray(arrow::binary(), R"(["\u0000\u00ff", ""])")});
  ASSERT_OK_AND_ASSIGN(auto text, FormatResult(*table, ResultFormat::kJson));
  EXPECT_EQ(text, "{\"raw\":\"[00 C3 BF]\"}\n{\"raw\":\"[]\"}\n");
}

TEST(ParseResultFormatTest, KnownAndUnknownNames) {
  ASSERT_OK_AND_ASSIGN(auto table, ParseResultFormat("table"));
  EXPECT_EQ(table, ResultFormat::kTable);
  ASSERT_OK_AND_ASSIGN(auto csv, ParseResultFormat("csv"));
  EXPECT_EQ(csv, ResultFormat::kCsv);
  ASSERT_OK_AND_ASSIGN(auto json, ParseResultFormat("json"));
  EXPECT_EQ(json, ResultFormat::kJson);
  EXPECT_FALSE(ParseResultFormat("xml").ok());
}

}  // namespace
}  // namespace parley
