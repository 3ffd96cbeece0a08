// Reading Parquet string columns as dictionaries, for the built-in connectors' Parquet readers.
#pragma once

#include "parquet/metadata.h"
#include "parquet/properties.h"

namespace parley {

/// \brief Whether every data page of `chunk` is dictionary-encoded. A chunk whose writer did
/// not record page encoding statistics counts as not.
bool AllPagesDictionaryEncoded(const parquet::ColumnChunkMetaData& chunk);

/// \brief Marks in `properties` every top-level string column of the file that is stored as
/// dictionary indexes in all of its row groups, so that Parquet's Arrow reader returns it as
/// an Arrow dictionary. Decoding indexes instead of one string per row costs less than half,
/// expansion to plain strings included (two TPC-H lineitem flag columns: 270 ms instead of
/// 490), so readers expand the dictionary afterwards (an Arrow cast to the plain type) rather
/// than return it. Columns stored otherwise are left alone: building a dictionary from plain
/// values would cost more.
void ReadDictionaryEncodedStrings(const parquet::FileMetaData& metadata,
                                  parquet::ArrowReaderProperties* properties);

}  // namespace parley
