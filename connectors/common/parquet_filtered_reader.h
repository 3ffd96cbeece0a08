// A Parquet reader that drops rows while it decodes, for the built-in connectors' scans.
//
// Parquet's Arrow reader turns every value of every read column into an Arrow array before
// anything can look at it: a DECIMAL(15,2) stored as INT64 becomes 16 bytes per row, and a
// filter above then takes the few rows it keeps out of those arrays. This reader decodes the
// raw column values of a batch of rows (Parquet's column readers, into buffers it reuses),
// evaluates the simple conjuncts of a row filter on them, and builds Arrow arrays of the rows
// that pass only; an integer column chunk stored as dictionary indexes only is read as
// indexes, its dictionary values tested once and looked up for the kept rows alone. It reads
// flat columns of fixed-width types: INT32 as int32, date32 or decimal128; INT64 as int64 or
// decimal128; FLOAT and DOUBLE; and strings the caller asked Parquet's Arrow reader to read as
// dictionary<int32, utf8> (ArrowReaderProperties::read_dictionary, granted only to chunks of
// dictionary indexes). Its output has exactly the schema and values Parquet's Arrow reader
// gives for the same columns, minus the dropped rows.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "arrow/compute/expression.h"
#include "arrow/record_batch.h"
#include "arrow/result.h"
#include "parquet/arrow/reader.h"

namespace parley {

/// \brief Rows of `row_groups` of `file`, columns `leaves` (leaf column indexes of top-level
/// columns, ascending), in batches of at most `batch_rows` input rows, keeping only rows for
/// which each conjunct of `filter` (an unbound Arrow expression over the file's column names)
/// that this reader evaluates is TRUE. It evaluates a conjunct that compares a read column
/// with a literal of exactly the column's Arrow type (equal, not_equal, less, less_equal,
/// greater, greater_equal; integer, date and decimal columns, not floating point, whose NaN
/// ordering differs from SQL's), or tests one for NULL (is_null, is_valid); it ignores the
/// others, so the rows returned are a superset of the rows `filter` keeps and the caller
/// still applies `filter` itself. Returns nullptr when the reader does not apply: a column of
/// another kind, or no conjunct it evaluates; the caller then reads with Parquet's Arrow
/// reader. Every row it drops is added to `*rows_dropped` (which must outlive the reader).
/// Parquet's exceptions surface as IOError from ReadNext.
arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> MakeFilteredParquetReader(
    std::shared_ptr<parquet::arrow::FileReader> file, std::vector<int> row_groups,
    const std::vector<int>& leaves, const arrow::compute::Expression& filter, int64_t batch_rows,
    std::atomic<int64_t>* rows_dropped);

}  // namespace parley
