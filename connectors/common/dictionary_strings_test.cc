// Expanding dictionary-encoded strings: the same rows as Arrow's cast, NULLs, slices and index
// widths included; what is left to the cast; a corrupt index.
#include "connectors/common/dictionary_strings.h"

#include <gtest/gtest.h>

#include "arrow/array/array_dict.h"
#include "arrow/array/util.h"
#include "arrow/compute/cast.h"
#include "arrow/json/from_string.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

std::shared_ptr<arrow::Array> ArrayOf(const std::shared_ptr<arrow::DataType>& type,
                                      const std::string& json) {
  return arrow::json::ArrayFromJSONString(type, json).ValueOrDie();
}

std::shared_ptr<arrow::Array> DictionaryOf(const std::shared_ptr<arrow::DataType>& index_type,
                                           const std::string& indices,
                                           const std::shared_ptr<arrow::Array>& values) {
  return arrow::DictionaryArray::FromArrays(arrow::dictionary(index_type, values->type()),
                                            ArrayOf(index_type, indices), values)
      .ValueOrDie();
}

// What Arrow's cast gives for the same column: the rows the expansion must equal.
std::shared_ptr<arrow::Array> CastOf(const arrow::Array& column,
                                     const std::shared_ptr<arrow::DataType>& type) {
  return arrow::compute::Cast(column, type).ValueOrDie();
}

TEST(DictionaryStringsTest, ExpandsAsTheCastDoes) {
  auto values = ArrayOf(arrow::utf8(), R"(["N", "", "returned", "é"])");
  for (const auto& index_type : {arrow::int8(), arrow::int16(), arrow::int32(), arrow::int64()}) {
    auto column = DictionaryOf(index_type, "[2, 0, null, 1, 3, 3, null, 0]", values);
    for (int64_t offset : {0, 3}) {
      auto slice = column->Slice(offset);
      ASSERT_OK_AND_ASSIGN(auto expanded, ExpandDictionaryStrings(*slice, arrow::utf8()));
      ASSERT_NE(expanded, nullptr) << index_type->ToString();
      ASSERT_OK(expanded->ValidateFull());
      EXPECT_TRUE(expanded->Equals(*CastOf(*slice, arrow::utf8())))
          << index_type->ToString() << " offset " << offset << ": " << expanded->ToString();
      EXPECT_EQ(expanded->null_count(), offset == 0 ? 2 : 1);
    }
  }
}

// A column of NULLs only may come with an empty dictionary.
TEST(DictionaryStringsTest, AllNullRowsOverAnEmptyDictionary) {
  auto column = DictionaryOf(arrow::int32(), "[null, null, null]", ArrayOf(arrow::utf8(), "[]"));
  ASSERT_OK_AND_ASSIGN(auto expanded, ExpandDictionaryStrings(*column, arrow::utf8()));
  ASSERT_NE(expanded, nullptr);
  ASSERT_OK(expanded->ValidateFull());
  EXPECT_TRUE(expanded->Equals(*ArrayOf(arrow::utf8(), "[null, null, null]")));
}

TEST(DictionaryStringsTest, ViewAndLargeDictionariesBecomePlainStrings) {
  for (const auto& value_type : {arrow::utf8_view(), arrow::large_utf8()}) {
    auto values = ArrayOf(value_type, R"(["A", "a value longer than twelve bytes", "F"])");
    auto column = DictionaryOf(arrow::int32(), "[1, 0, 2, null, 1]", values);
    ASSERT_OK_AND_ASSIGN(auto expanded, ExpandDictionaryStrings(*column, arrow::utf8()));
    ASSERT_NE(expanded, nullptr) << value_type->ToString();
    EXPECT_EQ(expanded->ToString(), ArrayOf(arrow::utf8(),
                                            R"(["a value longer than twelve bytes", "A", "F", null,
                          "a value longer than twelve bytes"])")
                                        ->ToString());
  }
}

TEST(DictionaryStringsTest, LeavesOtherColumnsToTheCast) {
  auto strings = ArrayOf(arrow::utf8(), R"(["x", "y"])");
  // Not a dictionary; a target that is not a plain string or binary.
  ASSERT_OK_AND_ASSIGN(auto plain, ExpandDictionaryStrings(*strings, arrow::utf8()));
  EXPECT_EQ(plain, nullptr);
  auto column = DictionaryOf(arrow::int32(), "[0, 1]", strings);
  ASSERT_OK_AND_ASSIGN(auto large, ExpandDictionaryStrings(*column, arrow::large_utf8()));
  EXPECT_EQ(large, nullptr);
  // Binary values would need a UTF-8 check to become strings.
  auto binary = DictionaryOf(arrow::int32(), "[0, 1]", ArrayOf(arrow::binary(), R"(["x", "y"])"));
  ASSERT_OK_AND_ASSIGN(auto unchecked, ExpandDictionaryStrings(*binary, arrow::utf8()));
  EXPECT_EQ(unchecked, nullptr);
  ASSERT_OK_AND_ASSIGN(auto bytes, ExpandDictionaryStrings(*binary, arrow::binary()));
  ASSERT_NE(bytes, nullptr);
  EXPECT_TRUE(bytes->Equals(*ArrayOf(arrow::binary(), R"(["x", "y"])")));
  // A NULL in the dictionary itself.
  auto null_value =
      DictionaryOf(arrow::int32(), "[0, 1]", ArrayOf(arrow::utf8(), R"(["x", null])"));
  ASSERT_OK_AND_ASSIGN(auto left, ExpandDictionaryStrings(*null_value, arrow::utf8()));
  EXPECT_EQ(left, nullptr);
}

TEST(DictionaryStringsTest, IndexOutsideTheDictionaryFails) {
  auto values = ArrayOf(arrow::utf8(), R"(["x", "y"])");
  auto type = arrow::dictionary(arrow::int32(), arrow::utf8());
  // Built without validation, as a corrupt file could yield it.
  auto column =
      std::make_shared<arrow::DictionaryArray>(type, ArrayOf(arrow::int32(), "[0, 2]"), values);
  auto expanded = ExpandDictionaryStrings(*column, arrow::utf8());
  ASSERT_FALSE(expanded.ok());
  EXPECT_NE(expanded.status().message().find("outside its dictionary"), std::string::npos);
}

}  // namespace
}  // namespace parley
