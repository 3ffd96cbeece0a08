// Which Parquet string columns are read as dictionaries, and that they read back as the
// strings written, NULLs included.
#include "connectors/common/parquet_dictionary.h"

#include <gtest/gtest.h>

#include <string>

#include "arrow/builder.h"
#include "arrow/compute/cast.h"
#include "arrow/io/memory.h"
#include "arrow/table.h"
#include "parquet/arrow/reader.h"
#include "parquet/arrow/writer.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

// 3000 rows in row groups of 1000: `flag` takes 3 values and NULL (dictionary pages only),
// `note` a different value per row with a dictionary page limit that forces plain pages,
// `id` an int.
Result<std::shared_ptr<arrow::Buffer>> WriteFile() {
  arrow::StringBuilder flags, notes;
  arrow::Int64Builder ids;
  for (int64_t row = 0; row < 3000; ++row) {
    ARROW_RETURN_NOT_OK(row % 7 == 0 ? flags.AppendNull()
                                     : flags.Append(std::string(1, "AFR"[row % 3])));
    ARROW_RETURN_NOT_OK(notes.Append("note number " + std::to_string(row)));
    ARROW_RETURN_NOT_OK(ids.Append(row));
  }
  ARROW_ASSIGN_OR_RAISE(auto flag, flags.Finish());
  ARROW_ASSIGN_OR_RAISE(auto note, notes.Finish());
  ARROW_ASSIGN_OR_RAISE(auto id, ids.Finish());
  auto table = arrow::Table::Make(
      arrow::schema({arrow::field("flag", arrow::utf8()), arrow::field("note", arrow::utf8()),
                     arrow::field("id", arrow::int64())}),
      {flag, note, id});
  ARROW_ASSIGN_OR_RAISE(auto sink, arrow::io::BufferOutputStream::Create());
  auto properties = parquet::WriterProperties::Builder()
                        .dictionary_pagesize_limit(64)
                        ->write_batch_size(50)
                        ->data_pagesize(256)
                        ->build();
  ARROW_RETURN_NOT_OK(
      parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), sink, 1000, properties));
  return sink->Finish();
}

TEST(ParquetDictionaryTest, OnlyStringColumnsStoredAsIndexesEverywhereReadAsDictionaries) {
  ASSERT_OK_AND_ASSIGN(auto file, WriteFile());
  parquet::arrow::FileReaderBuilder builder;
  ASSERT_OK(builder.Open(std::make_shared<arrow::io::BufferReader>(file)));
  const parquet::FileMetaData& metadata = *builder.raw_reader()->metadata();
  ASSERT_EQ(metadata.num_row_groups(), 3);
  EXPECT_TRUE(AllPagesDictionaryEncoded(*metadata.RowGroup(1)->ColumnChunk(0)));
  EXPECT_FALSE(AllPagesDictionaryEncoded(*metadata.RowGroup(1)->ColumnChunk(1)));

  parquet::ArrowReaderProperties properties;
  ReadDictionaryEncodedStrings(metadata, &properties);
  EXPECT_TRUE(properties.read_dictionary(0));
  EXPECT_FALSE(properties.read_dictionary(1));
  EXPECT_FALSE(properties.read_dictionary(2));

  builder.properties(properties);
  ASSERT_OK_AND_ASSIGN(auto reader, builder.Build());
  ASSERT_OK_AND_ASSIGN(auto read, reader->ReadTable());
  ASSERT_EQ(read->column(0)->type()->id(), arrow::Type::DICTIONARY);
  ASSERT_OK_AND_ASSIGN(auto expanded, arrow::compute::Cast(read->column(0), arrow::utf8()));
  auto flags = expanded.chunked_array();
  ASSERT_EQ(flags->length(), 3000);
  int64_t row = 0;
  for (const auto& chunk : flags->chunks()) {
    const auto& strings = static_cast<const arrow::StringArray&>(*chunk);
    for (int64_t i = 0; i < strings.length(); ++i, ++row) {
      if (row % 7 == 0) {
        EXPECT_TRUE(strings.IsNull(i)) << row;
      } else {
        EXPECT_EQ(strings.GetString(i), std::string(1, "AFR"[row % 3])) << row;
      }
    }
  }
  EXPECT_EQ(read->column(1)->type()->id(), arrow::Type::STRING);
}

}  // namespace
}  // namespace parley
