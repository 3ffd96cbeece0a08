// Delta schema JSON <-> Arrow, column mapping, reshaping file columns, partition values.
#include "connectors/delta/log/delta_schema.h"

#include <nlohmann/json.hpp>

#include "arrow/api.h"
#include "arrow/json/from_string.h"

#include "connectors/delta/log/values.h"
#include "parley/connector/types.h"
#include "testing/gtest_util.h"

namespace parley::delta {
namespace {

constexpr char kAllTypes[] = R"json({"type":"struct","fields":[
  {"name":"b","type":"byte","nullable":true,"metadata":{}},
  {"name":"s","type":"short","nullable":true,"metadata":{}},
  {"name":"i","type":"integer","nullable":false,"metadata":{"comment":"the key"}},
  {"name":"l","type":"long","nullable":true,"metadata":{}},
  {"name":"f","type":"float","nullable":true,"metadata":{}},
  {"name":"d","type":"double","nullable":true,"metadata":{}},
  {"name":"bool","type":"boolean","nullable":true,"metadata":{}},
  {"name":"str","type":"string","nullable":true,"metadata":{}},
  {"name":"bin","type":"binary","nullable":true,"metadata":{}},
  {"name":"dt","type":"date","nullable":true,"metadata":{}},
  {"name":"ts","type":"timestamp","nullable":true,"metadata":{}},
  {"name":"ntz","type":"timestamp_ntz","nullable":true,"metadata":{}},
  {"name":"dec","type":"decimal(10,2)","nullable":true,"metadata":{}},
  {"name":"arr","type":{"type":"array","elementType":"integer","containsNull":false},"nullable":true,"metadata":{}},
  {"name":"m","type":{"type":"map","keyType":"string","valueType":"long","valueContainsNull":true},"nullable":true,"metadata":{}},
  {"name":"st","type":{"type":"struct","fields":[{"name":"x","type":"integer","nullable":true,"metadata":{"delta.columnMapping.id":7,"delta.columnMapping.physicalName":"col-x"}}]},"nullable":true,"metadata":{"delta.columnMapping.id":6,"delta.columnMapping.physicalName":"col-st"}}
]})json";

TEST(DeltaSchemaTest, ParsesEveryTypeIntoArrow) {
  ASSERT_OK_AND_ASSIGN(auto schema, SchemaFromDeltaJson(kAllTypes));
  auto plain = PlainSchema(*schema);
  auto expected = arrow::schema({
      arrow::field("b", arrow::int8()),
      arrow::field("s", arrow::int16()),
      arrow::field("i", arrow::int32(), false),
      arrow::field("l", arrow::int64()),
      arrow::field("f", arrow::float32()),
      arrow::field("d", arrow::float64()),
      arrow::field("bool", arrow::boolean()),
      arrow::field("str", arrow::utf8()),
      arrow::field("bin", arrow::binary()),
      arrow::field("dt", arrow::date32()),
      arrow::field("ts", arrow::timestamp(arrow::TimeUnit::MICRO, "UTC")),
      arrow::field("ntz", arrow::timestamp(arrow::TimeUnit::MICRO)),
      arrow::field("dec", arrow::decimal128(10, 2)),
      arrow::field("arr", arrow::list(arrow::field("element", arrow::int32(), false))),
      arrow::field("m", arrow::map(arrow::utf8(), arrow::int64())),
      arrow::field("st", arrow::struct_({arrow::field("x", arrow::int32())})),
  });
  EXPECT_TRUE(plain->Equals(*expected, /*check_metadata=*/false)) << plain->ToString();
  // The comment survives in the plain schema, for parley::Column.
  EXPECT_EQ(Column::FromField(*plain->field(2)).comment, "the key");
  EXPECT_EQ(plain->field(0)->metadata(), nullptr);
}

TEST(DeltaSchemaTest, RoundTripsThroughArrowKeepingFieldMetadata) {
  ASSERT_OK_AND_ASSIGN(auto schema, SchemaFromDeltaJson(kAllTypes));
  ASSERT_OK_AND_ASSIGN(std::string rendered, SchemaToDeltaJson(*schema));
  EXPECT_EQ(nlohmann::json::parse(rendered), nlohmann::json::parse(kAllTypes));
}

TEST(DeltaSchemaTest, RejectsUnknownTypesNamingTheColumn) {
  auto result = SchemaFromDeltaJson(
      R"({"type":"struct","fields":[{"name":"v","type":"variant","nullable":true,"metadata":{}}]})");
  ASSERT_RAISES_CONDITION("DELTA_UNSUPPORTED_DATA_TYPES", result);
  EXPECT_NE(result.status().message().find("v (variant)"), std::string::npos);
  ASSERT_RAISES_CONDITION("DELTA_UNSUPPORTED_DATA_TYPES",
                          SchemaToDeltaJson(*arrow::schema({arrow::field("u", arrow::uint32())})));
}

TEST(DeltaSchemaTest, ColumnMappingUsesPhysicalNamesAndIds) {
  ASSERT_OK_AND_ASSIGN(auto schema, SchemaFromDeltaJson(kAllTypes));
  ASSERT_OK_AND_ASSIGN(auto mode, ColumnMappingModeOf({{"delta.columnMapping.mode", "name"}}));
  EXPECT_EQ(mode, ColumnMappingMode::kName);
  ASSERT_RAISES_CONDITION("DELTA_MODE_NOT_SUPPORTED",
                          ColumnMappingModeOf({{"delta.columnMapping.mode", "other"}}));
  const auto& st = *schema->GetFieldByName("st");
  EXPECT_EQ(PhysicalName(st, ColumnMappingMode::kName), "col-st");
  EXPECT_EQ(PhysicalName(st, ColumnMappingMode::kNone), "st");

  auto physical = PhysicalSchema(*schema, ColumnMappingMode::kId);
  auto file_st = physical->GetFieldByName("col-st");
  ASSERT_NE(file_st, nullptr);
  EXPECT_EQ(file_st->type()->field(0)->name(), "col-x");
  EXPECT_EQ(file_st->metadata()->Get(kParquetFieldIdKey).ValueOrDie(), "6");

  // In id mode a file field is found by its field_id even under another name.
  arrow::FieldVector file_fields = {arrow::field(
      "renamed", arrow::int32(), true, arrow::key_value_metadata({kParquetFieldIdKey}, {"6"}))};
  EXPECT_EQ(FindFileField(file_fields, st, ColumnMappingMode::kId), 0);
  EXPECT_EQ(FindFileField(file_fields, st, ColumnMappingMode::kName), -1);
}

TEST(DeltaSchemaTest, ConformsFileColumnsToTableTypes) {
  ASSERT_OK_AND_ASSIGN(auto schema, SchemaFromDeltaJson(
                                        R"({"type":"struct","fields":[
        {"name":"st","type":{"type":"struct","fields":[
          {"name":"x","type":"long","nullable":true,"metadata":{"delta.columnMapping.physicalName":"col-x"}},
          {"name":"y","type":"string","nullable":true,"metadata":{"delta.columnMapping.physicalName":"col-y"}}]},
         "nullable":true,"metadata":{"delta.columnMapping.physicalName":"col-st"}}]})"));
  // The file has the struct under physical names, x narrower (type widening), and no y.
  auto file_type = arrow::struct_({arrow::field("col-x", arrow::int32())});
  ASSERT_OK_AND_ASSIGN(auto file_column,
                       arrow::json::ArrayFromJSONString(file_type, R"([{"col-x": 1}, null])"));
  ASSERT_OK_AND_ASSIGN(auto conformed,
                       ConformColumn(file_column, *schema->field(0), ColumnMappingMode::kName));
  auto expected_type =
      arrow::struct_({arrow::field("x", arrow::int64()), arrow::field("y", arrow::utf8())});
  ASSERT_OK_AND_ASSIGN(auto expected, arrow::json::ArrayFromJSONString(
                                          expected_type, R"([{"x": 1, "y": null}, null])"));
  EXPECT_TRUE(conformed->Equals(*expected)) << conformed->ToString();
}

TEST(DeltaValuesTest, ParsesPartitionValuesPerType) {
  auto parse = [](std::optional<std::string> text, std::shared_ptr<arrow::DataType> type) {
    return ParsePartitionValue(text, type, "p").ValueOrDie();
  };
  EXPECT_EQ(parse("42", arrow::int32())->ToString(), "42");
  EXPECT_EQ(parse("-1.5", arrow::float64())->ToString(), "-1.5");
  EXPECT_EQ(parse("12.3", arrow::decimal128(5, 2))->ToString(), "12.30");
  EXPECT_EQ(parse("2021-03-04", arrow::date32())->ToString(), "2021-03-04");
  EXPECT_EQ(parse("true", arrow::boolean())->ToString(), "true");
  EXPECT_EQ(parse("a b%", arrow::utf8())->ToString(), "a b%");
  auto ts = arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
  auto legacy = parse("2021-03-04 05:06:07.123456", ts);
  auto iso = parse("2021-03-04T05:06:07.123456Z", ts);
  EXPECT_TRUE(legacy->Equals(*iso));
  EXPECT_EQ(static_cast<const arrow::TimestampScalar&>(*legacy).value, 1614834367123456);
  EXPECT_FALSE(parse(std::nullopt, arrow::int32())->is_valid);
  EXPECT_FALSE(parse("", arrow::utf8())->is_valid);
  ASSERT_RAISES_CONDITION("DELTA_FAILED_CAST_PARTITION_VALUE",
                          ParsePartitionValue(std::string("abc"), arrow::int32(), "p"));
}

TEST(DeltaValuesTest, ParsesStatisticsWideningTimestampMaxima) {
  auto ts = arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
  FileStatistics stats =
      ParseStatistics(R"({"numRecords":3,"minValues":{"a":1,"t":"2021-01-01T00:00:00.000Z"},)"
                      R"("maxValues":{"a":9,"t":"2021-01-01T00:00:01.000Z"},"nullCount":{"a":0}})",
                      {{"a", arrow::int64()}, {"t", ts}});
  EXPECT_EQ(stats.num_records, 3);
  EXPECT_EQ(stats.min_values.at("a")->ToString(), "1");
  EXPECT_EQ(stats.max_values.at("a")->ToString(), "9");
  EXPECT_EQ(static_cast<const arrow::TimestampScalar&>(*stats.max_values.at("t")).value,
            1609459201000000 + 999);
  EXPECT_EQ(stats.null_counts.at("a"), 0);
  EXPECT_FALSE(ParseStatistics("{not json", {}).num_records.has_value());
}

TEST(DeltaValuesTest, DecimalBoundsBeyondADoublesDigitsAreUnknown) {
  FileStatistics stats = ParseStatistics(
      R"({"numRecords":1,"minValues":{"big":12345678901234567890123456789012.123456,)"
      R"("small":12345678.91},"maxValues":{"big":12345678901234567890123456789012.123456,)"
      R"("small":12345678.91}})",
      {{"big", arrow::decimal128(38, 6)}, {"small", arrow::decimal128(10, 2)}});
  EXPECT_EQ(stats.min_values.count("big"), 0u);
  EXPECT_EQ(stats.max_values.count("big"), 0u);
  EXPECT_EQ(stats.min_values.at("small")->ToString(), "12345678.91");
  EXPECT_EQ(stats.max_values.at("small")->ToString(), "12345678.91");
}

}  // namespace
}  // namespace parley::delta
