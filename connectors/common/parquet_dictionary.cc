#include "connectors/common/parquet_dictionary.h"

#include "parquet/schema.h"
#include "parquet/types.h"

namespace parley {

bool AllPagesDictionaryEncoded(const parquet::ColumnChunkMetaData& chunk) {
  if (!chunk.has_dictionary_page() || chunk.encoding_stats().empty()) return false;
  for (const auto& stats : chunk.encoding_stats()) {
    bool data_page = stats.page_type == parquet::PageType::DATA_PAGE ||
                     stats.page_type == parquet::PageType::DATA_PAGE_V2;
    if (data_page && stats.encoding != parquet::Encoding::PLAIN_DICTIONARY &&
        stats.encoding != parquet::Encoding::RLE_DICTIONARY) {
      return false;
    }
  }
  return true;
}

void ReadDictionaryEncodedStrings(const parquet::FileMetaData& metadata,
                                  parquet::ArrowReaderProperties* properties) {
  const parquet::SchemaDescriptor& schema = *metadata.schema();
  for (int column = 0; column < schema.num_columns(); ++column) {
    const parquet::ColumnDescriptor& descriptor = *schema.Column(column);
    if (descriptor.physical_type() != parquet::Type::BYTE_ARRAY ||
        !descriptor.logical_type()->is_string() || descriptor.path()->ToDotVector().size() != 1) {
      continue;
    }
    bool dictionary = metadata.num_row_groups() > 0;
    for (int group = 0; group < metadata.num_row_groups() && dictionary; ++group) {
      dictionary = AllPagesDictionaryEncoded(*metadata.RowGroup(group)->ColumnChunk(column));
    }
    if (dictionary) properties->set_read_dictionary(column, true);
  }
}

}  // namespace parley
