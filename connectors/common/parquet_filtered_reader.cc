#include "connectors/common/parquet_filtered_reader.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "arrow/array/builder_binary.h"
#include "arrow/array/data.h"
#include "arrow/array/util.h"
#include "arrow/buffer.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "arrow/util/bit_util.h"
#include "connectors/common/parquet_conjuncts.h"
#include "connectors/common/parquet_dictionary.h"
#include "parquet/arrow/schema.h"
#include "parquet/column_reader.h"
#include "parquet/exception.h"
#include "parquet/file_reader.h"
#include "parquet/metadata.h"
#include "parquet/schema.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using arrow::Status;

// How a column's raw Parquet values become Arrow values.
enum class Kind {
  kCopy4,              // INT32 as int32 or date32, FLOAT as float
  kCopy8,              // INT64 as int64, DOUBLE as double
  kDecimalInt32,       // INT32 as decimal128: sign-extended to 16 bytes
  kDecimalInt64,       // INT64 as decimal128
  kDictionaryStrings,  // BYTE_ARRAY stored as dictionary indexes only, as dictionary<int32, utf8>
};

// One read column and the raw values of the current batch: one slot per row (NULL rows hold
// 0), and for a nullable column one validity byte per row. An INT32, INT64 or string column
// chunk stored as dictionary indexes only is read as indexes (NULL rows hold 0) into its
// dictionary: a filter tests each dictionary value once, and only kept rows look their values
// up.
struct Column {
  int leaf = 0;
  std::shared_ptr<arrow::Field> field;
  Kind kind = Kind::kCopy8;
  parquet::Type::type physical = parquet::Type::INT64;
  bool nullable = false;
  bool filterable = false;                        // integer-valued: compared exactly
  std::shared_ptr<parquet::ColumnReader> reader;  // of the current row group
  bool loaded = false;                            // the current batch's values are read
  std::vector<uint64_t> raw;                      // 4- or 8-byte values, by row
  std::vector<int16_t> definitions;
  std::vector<uint8_t> valid;
  bool dictionary = false;  // the current row group's chunk is read as indexes
  std::vector<int32_t> indexes;
  const uint8_t* dictionary_values = nullptr;  // owned by `reader`
  int32_t dictionary_length = 0;
  std::vector<uint8_t> dictionary_pass;  // scratch: which dictionary values pass a test
  // kDictionaryStrings: the current chunk's dictionary as an Arrow array, once built.
  std::shared_ptr<arrow::Array> dictionary_array;
};

// What this reader tests of a column's value.
enum class Test {
  kRange,     // low <= value <= high, not NULL
  kNotEqual,  // value != low, not NULL
  kIsNull,
  kIsValid,
};

// A test of one column: the comparisons of a column with literals, merged into one range, or
// a `<>` or a NULL test.
struct Conjunct {
  size_t column = 0;
  Test test = Test::kRange;
  int64_t low = std::numeric_limits<int64_t>::min();
  int64_t high = std::numeric_limits<int64_t>::max();
};

// Narrows `range` to the values passing `op literal` (a comparison other than `<>`).
void Narrow(RawOp op, int64_t literal, Conjunct* range) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  int64_t low = kMin, high = kMax;
  switch (op) {
    case RawOp::kEqual: low = high = literal; break;
    case RawOp::kLess:
      if (literal == kMin)
        low = kMax, high = kMin;  // nothing passes
      else
        high = literal - 1;
      break;
    case RawOp::kLessEqual: high = literal; break;
    case RawOp::kGreater:
      if (literal == kMax)
        low = kMax, high = kMin;
      else
        low = literal + 1;
      break;
    default:  // kGreaterEqual
      low = literal;
      break;
  }
  range->low = std::max(range->low, low);
  range->high = std::min(range->high, high);
}

// The tests of `filter` this reader evaluates (see the header): one range per column for its
// comparisons, then `<>` and NULL tests, in the order their columns first appear.
std::vector<Conjunct> EvaluatedConjuncts(const cp::Expression& filter,
                                         const std::vector<Column>& columns) {
  std::vector<ColumnConjunct> simple;
  std::vector<cp::Expression> rest;
  SplitConjuncts(filter, &simple, &rest);
  std::vector<Conjunct> out;
  std::map<size_t, size_t> ranges;  // column -> its range in `out`
  for (const auto& conjunct : simple) {
    for (size_t i = 0; i < columns.size(); ++i) {
      const Column& column = columns[i];
      if (!column.filterable || column.field->name() != conjunct.column) continue;
      if (conjunct.op == RawOp::kIsNull || conjunct.op == RawOp::kIsValid) {
        out.push_back({i, conjunct.op == RawOp::kIsNull ? Test::kIsNull : Test::kIsValid});
        break;
      }
      auto raw = RawIntegerLiteral(*conjunct.literal, *column.field->type(), column.physical);
      if (!raw) break;
      if (conjunct.op == RawOp::kNotEqual) {
        out.push_back({i, Test::kNotEqual, *raw, *raw});
        break;
      }
      auto [range, added] = ranges.try_emplace(i, out.size());
      if (added) out.push_back({i, Test::kRange});
      Narrow(conjunct.op, *raw, &out[range->second]);
      break;
    }
  }
  return out;
}

// Keeps the rows that pass `conjunct` of rows[0, count), or of the rows 0..count-1 when
// `all`, in rows[0, kept); returns kept.
template <typename T, Test test, bool all>
size_t KeepPassing(const T* values, const uint8_t* valid, const Conjunct& conjunct, int32_t* rows,
                   size_t count) {
  const auto low = static_cast<uint64_t>(conjunct.low);
  const uint64_t width = static_cast<uint64_t>(conjunct.high) - low;
  size_t kept = 0;
  for (size_t i = 0; i < count; ++i) {
    const int32_t row = all ? static_cast<int32_t>(i) : rows[i];
    bool pass;
    if constexpr (test == Test::kRange) {
      pass = static_cast<uint64_t>(static_cast<int64_t>(values[row])) - low <= width;
    } else if constexpr (test == Test::kNotEqual) {
      pass = static_cast<int64_t>(values[row]) != conjunct.low;
    } else {
      pass = (valid == nullptr || valid[row] != 0) == (test == Test::kIsValid);
    }
    if (test != Test::kIsNull && test != Test::kIsValid && valid != nullptr) {
      pass = pass && valid[row] != 0;
    }
    rows[kept] = row;
    kept += pass ? 1 : 0;
  }
  return kept;
}

// Keeps the rows whose dictionary index passes `pass` (one byte per dictionary value, 0 or 1;
// validity bytes are 0 or 1 too), as KeepPassing does.
template <bool all, bool nullable>
size_t KeepIndexes(const Column& column, const uint8_t* pass, int32_t* rows, size_t count) {
  const int32_t* indexes = column.indexes.data();
  const uint8_t* valid = column.valid.data();
  size_t kept = 0;
  for (size_t i = 0; i < count; ++i) {
    const int32_t row = all ? static_cast<int32_t>(i) : rows[i];
    rows[kept] = row;
    if constexpr (nullable) {
      kept += pass[indexes[row]] & valid[row];
    } else {
      kept += pass[indexes[row]];
    }
  }
  return kept;
}

// Whether `value` passes a range or `<>` test.
bool ValuePasses(int64_t value, const Conjunct& conjunct) {
  if (conjunct.test == Test::kNotEqual) return value != conjunct.low;
  return static_cast<uint64_t>(value) - static_cast<uint64_t>(conjunct.low) <=
         static_cast<uint64_t>(conjunct.high) - static_cast<uint64_t>(conjunct.low);
}

template <typename T, bool all>
size_t KeepPassing(Column& column, const Conjunct& conjunct, int32_t* rows, size_t count) {
  if (conjunct.test == Test::kRange && conjunct.low > conjunct.high) return 0;
  const uint8_t* valid = column.nullable ? column.valid.data() : nullptr;
  const bool null_test = conjunct.test == Test::kIsNull || conjunct.test == Test::kIsValid;
  if (column.dictionary && !null_test) {
    // Test each dictionary value once; NULL rows hold index 0, so the table has a slot 0.
    const T* dictionary = reinterpret_cast<const T*>(column.dictionary_values);
    column.dictionary_pass.assign(static_cast<size_t>(std::max(column.dictionary_length, 1)), 0);
    for (int32_t i = 0; i < column.dictionary_length; ++i) {
      column.dictionary_pass[i] = ValuePasses(static_cast<int64_t>(dictionary[i]), conjunct);
    }
    return column.nullable
               ? KeepIndexes<all, true>(column, column.dictionary_pass.data(), rows, count)
               : KeepIndexes<all, false>(column, column.dictionary_pass.data(), rows, count);
  }
  const T* values = reinterpret_cast<const T*>(column.raw.data());
  switch (conjunct.test) {
    case Test::kRange:
      return KeepPassing<T, Test::kRange, all>(values, valid, conjunct, rows, count);
    case Test::kNotEqual:
      return KeepPassing<T, Test::kNotEqual, all>(values, valid, conjunct, rows, count);
    case Test::kIsNull:
      return KeepPassing<T, Test::kIsNull, all>(values, valid, conjunct, rows, count);
    default: return KeepPassing<T, Test::kIsValid, all>(values, valid, conjunct, rows, count);
  }
}

// Keeps the rows of rows[0, count) (all rows 0..count-1 when `all`) that pass `conjunct`.
size_t Keep(Column& column, const Conjunct& conjunct, bool all, int32_t* rows, size_t count) {
  if (column.physical == parquet::Type::INT32) {
    return all ? KeepPassing<int32_t, true>(column, conjunct, rows, count)
               : KeepPassing<int32_t, false>(column, conjunct, rows, count);
  }
  return all ? KeepPassing<int64_t, true>(column, conjunct, rows, count)
             : KeepPassing<int64_t, false>(column, conjunct, rows, count);
}

// Reads `rows` rows with `read_batch` (Parquet's ReadBatch or ReadBatchWithDictionary) into
// `slots`, one per row.
template <typename Slot, typename ReadBatch>
Status LoadSlots(int64_t rows, int16_t* definitions, Column* column, Slot* slots,
                 const ReadBatch& read_batch) {
  int64_t done = 0, dense = 0;
  while (done < rows) {
    int64_t values_read = 0;
    int16_t* levels_out = definitions ? definitions + done : nullptr;
    const int64_t levels = read_batch(rows - done, levels_out, slots + dense, &values_read);
    if (levels <= 0) {
      return Status::IOError("column '", column->field->name(), "' ended ", rows - done,
                             " rows before its row group");
    }
    done += levels;
    dense += values_read;
  }
  if (definitions != nullptr) {
    // Values arrive packed (NULLs take no slot); spread them to their rows, last first.
    for (int64_t row = rows - 1; row >= 0; --row) {
      const bool present = definitions[row] > 0;
      column->valid[row] = present ? 1 : 0;
      slots[row] = present ? slots[--dense] : Slot{};
    }
  }
  return Status::OK();
}

// Reads the next `rows` rows of a column into its slots: values, or dictionary indexes in
// `column->indexes`.
template <typename PhysicalType>
Status LoadValues(int64_t rows, Column* column) {
  using T = typename PhysicalType::c_type;
  auto* reader = static_cast<parquet::TypedColumnReader<PhysicalType>*>(column->reader.get());
  int16_t* definitions = column->nullable ? column->definitions.data() : nullptr;
  // Slots are sized on first use: a chunk read as indexes needs no value slots and back.
  if (column->dictionary) {
    if (column->indexes.size() < static_cast<size_t>(rows)) column->indexes.resize(rows);
    return LoadSlots(rows, definitions, column, column->indexes.data(),
                     [&](int64_t n, int16_t* levels, int32_t* out, int64_t* read) {
                       const T* dictionary = nullptr;
                       int32_t length = 0;
                       const int64_t got = reader->ReadBatchWithDictionary(
                           n, levels, nullptr, out, read, &dictionary, &length);
                       if (dictionary != nullptr) {
                         column->dictionary_values = reinterpret_cast<const uint8_t*>(dictionary);
                         column->dictionary_length = length;
                       }
                       return got;
                     });
  }
  if (column->raw.size() < static_cast<size_t>(rows)) column->raw.resize(rows);
  return LoadSlots(rows, definitions, column, reinterpret_cast<T*>(column->raw.data()),
                   [&](int64_t n, int16_t* levels, T* out, int64_t* read) {
                     return reader->ReadBatch(n, levels, nullptr, out, read);
                   });
}

Status Load(int64_t rows, Column* column) {
  switch (column->physical) {
    case parquet::Type::INT32:
      ARROW_RETURN_NOT_OK(LoadValues<parquet::Int32Type>(rows, column));
      break;
    case parquet::Type::INT64:
      ARROW_RETURN_NOT_OK(LoadValues<parquet::Int64Type>(rows, column));
      break;
    case parquet::Type::FLOAT:
      ARROW_RETURN_NOT_OK(LoadValues<parquet::FloatType>(rows, column));
      break;
    case parquet::Type::BYTE_ARRAY:
      ARROW_RETURN_NOT_OK(LoadValues<parquet::ByteArrayType>(rows, column));
      break;
    default: ARROW_RETURN_NOT_OK(LoadValues<parquet::DoubleType>(rows, column)); break;
  }
  column->loaded = true;
  return Status::OK();
}

template <typename PhysicalType>
Status SkipValues(int64_t rows, Column* column) {
  auto* reader = static_cast<parquet::TypedColumnReader<PhysicalType>*>(column->reader.get());
  while (rows > 0) {
    const int64_t skipped = reader->Skip(rows);
    if (skipped <= 0) {
      return Status::IOError("column '", column->field->name(), "' ended ", rows,
                             " rows before its row group");
    }
    rows -= skipped;
  }
  return Status::OK();
}

Status Skip(int64_t rows, Column* column) {
  switch (column->physical) {
    case parquet::Type::INT32: return SkipValues<parquet::Int32Type>(rows, column);
    case parquet::Type::INT64: return SkipValues<parquet::Int64Type>(rows, column);
    case parquet::Type::FLOAT: return SkipValues<parquet::FloatType>(rows, column);
    case parquet::Type::BYTE_ARRAY: return SkipValues<parquet::ByteArrayType>(rows, column);
    default: return SkipValues<parquet::DoubleType>(rows, column);
  }
}

// The validity bitmap of `column`'s rows rows[0, count) (all `batch` rows when count ==
// batch), nullptr when none is NULL, and the NULL count.
arrow::Result<std::pair<std::shared_ptr<arrow::Buffer>, int64_t>> GatherValidity(
    const Column& column, const int32_t* rows, int64_t count, int64_t batch) {
  std::shared_ptr<arrow::Buffer> validity;
  int64_t nulls = 0;
  if (!column.nullable) return std::make_pair(validity, nulls);
  for (int64_t i = 0; i < count; ++i) nulls += column.valid[count == batch ? i : rows[i]] == 0;
  if (nulls > 0) {
    ARROW_ASSIGN_OR_RAISE(validity, arrow::AllocateEmptyBitmap(count));
    uint8_t* bits = validity->mutable_data();
    for (int64_t i = 0; i < count; ++i) {
      if (column.valid[count == batch ? i : rows[i]] != 0) arrow::bit_util::SetBit(bits, i);
    }
  }
  return std::make_pair(validity, nulls);
}

// The current chunk's string dictionary as an Arrow utf8 array (built once per chunk).
arrow::Result<std::shared_ptr<arrow::Array>> StringDictionary(Column* column) {
  if (column->dictionary_array != nullptr) return column->dictionary_array;
  const auto* values = reinterpret_cast<const parquet::ByteArray*>(column->dictionary_values);
  arrow::StringBuilder builder;
  for (int32_t i = 0; i < column->dictionary_length; ++i) {
    ARROW_RETURN_NOT_OK(builder.Append(reinterpret_cast<const char*>(values[i].ptr),
                                       static_cast<int32_t>(values[i].len)));
  }
  ARROW_ASSIGN_OR_RAISE(column->dictionary_array, builder.Finish());
  return column->dictionary_array;
}

// The dictionary<int32, utf8> array of `column`'s rows rows[0, count) (all `batch` rows when
// count == batch): their indexes into the chunk's dictionary.
arrow::Result<std::shared_ptr<arrow::Array>> GatherDictionaryStrings(Column* column,
                                                                     const int32_t* rows,
                                                                     int64_t count, int64_t batch) {
  ARROW_ASSIGN_OR_RAISE(auto dictionary, StringDictionary(column));
  ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Buffer> indexes,
                        arrow::AllocateBuffer(count * static_cast<int64_t>(sizeof(int32_t))));
  auto* out = reinterpret_cast<int32_t*>(indexes->mutable_data());
  for (int64_t i = 0; i < count; ++i) out[i] = column->indexes[count == batch ? i : rows[i]];
  ARROW_ASSIGN_OR_RAISE(auto validity, GatherValidity(*column, rows, count, batch));
  auto data =
      arrow::ArrayData::Make(column->field->type(), count,
                             {std::move(validity.first), std::move(indexes)}, validity.second);
  data->dictionary = dictionary->data();
  return arrow::MakeArray(std::move(data));
}

// The Arrow array of `column`'s rows rows[0, count) (all `batch` rows when count == batch).
arrow::Result<std::shared_ptr<arrow::Array>> Gather(Column* column_in, const int32_t* rows,
                                                    int64_t count, int64_t batch) {
  if (column_in->kind == Kind::kDictionaryStrings) {
    return GatherDictionaryStrings(column_in, rows, count, batch);
  }
  const Column& column = *column_in;
  const bool wide = column.kind == Kind::kDecimalInt32 || column.kind == Kind::kDecimalInt64;
  const int width = wide ? 16 : column.kind == Kind::kCopy4 ? 4 : 8;
  ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Buffer> values,
                        arrow::AllocateBuffer(count * width));
  uint8_t* out = values->mutable_data();
  const bool all = count == batch;
  // Where row i's value is: its slot, or its dictionary value (none for a NULL row).
  const uint8_t* source = column.dictionary ? column.dictionary_values
                                            : reinterpret_cast<const uint8_t*>(column.raw.data());
  auto slot = [&](int64_t i) -> int64_t {
    const int64_t row = all ? i : rows[i];
    if (!column.dictionary) return row;
    return column.nullable && column.valid[row] == 0 ? -1 : column.indexes[row];
  };
  if (!wide && all && !column.dictionary) {
    std::memcpy(out, source, static_cast<size_t>(count * width));
  } else if (!wide) {
    for (int64_t i = 0; i < count; ++i) {
      const int64_t at = slot(i);
      if (at < 0) {
        std::memset(out + i * width, 0, width);
      } else {
        std::memcpy(out + i * width, source + at * width, width);
      }
    }
  } else {
    auto* words = reinterpret_cast<int64_t*>(out);
    const auto* narrow = reinterpret_cast<const int32_t*>(source);
    const auto* full = reinterpret_cast<const int64_t*>(source);
    for (int64_t i = 0; i < count; ++i) {
      const int64_t at = slot(i);
      const int64_t value = at < 0 ? 0 : column.kind == Kind::kDecimalInt32 ? narrow[at] : full[at];
      words[2 * i] = value;  // little-endian: low word, then the sign extension
      words[2 * i + 1] = value < 0 ? -1 : 0;
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto validity, GatherValidity(column, rows, count, batch));
  return arrow::MakeArray(arrow::ArrayData::Make(column.field->type(), count,
                                                 {std::move(validity.first), std::move(values)},
                                                 validity.second));
}

// Asks a column reader to hand out dictionary indexes (ReadBatchWithDictionary). Parquet's
// RowGroupReader::ColumnWithExposeEncoding does so only when the chunk's page encoding
// statistics list the dictionary page first; some writers (tpchgen-cli) list it after the
// data pages, so the caller checks the statistics itself (AllPagesDictionaryEncoded).
struct DictionaryExposer : parquet::ColumnReader {
  static void Expose(parquet::ColumnReader* reader) {
    (reader->*&DictionaryExposer::SetExposedEncoding)(parquet::ExposedEncoding::DICTIONARY);
  }
};

class FilteredParquetReader : public arrow::RecordBatchReader {
 public:
  FilteredParquetReader(std::shared_ptr<parquet::arrow::FileReader> file,
                        std::vector<int> row_groups, std::vector<Column> columns,
                        std::vector<Conjunct> conjuncts, int64_t batch_rows,
                        std::atomic<int64_t>* rows_dropped)
      : file_(std::move(file)),
        row_groups_(std::move(row_groups)),
        columns_(std::move(columns)),
        conjuncts_(std::move(conjuncts)),
        batch_rows_(batch_rows),
        rows_dropped_(rows_dropped),
        rows_(static_cast<size_t>(batch_rows)) {
    arrow::FieldVector fields;
    for (auto& column : columns_) {
      fields.push_back(column.field);
      if (column.nullable) {
        column.definitions.resize(static_cast<size_t>(batch_rows));
        column.valid.resize(static_cast<size_t>(batch_rows));
      }
    }
    schema_ = arrow::schema(std::move(fields));
  }

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }

  Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    try {
      return ReadFiltered(batch);
    } catch (const parquet::ParquetException& error) {
      return Status::IOError(error.what());
    }
  }

 private:
  Status ReadFiltered(std::shared_ptr<arrow::RecordBatch>* batch) {
    *batch = nullptr;
    while (true) {
      if (rows_left_ == 0) {
        if (next_group_ == row_groups_.size()) return Status::OK();
        const int group = row_groups_[next_group_++];
        group_ = file_->parquet_reader()->RowGroup(group);
        rows_left_ = group_->metadata()->num_rows();
        for (auto& column : columns_) {
          column.reader = group_->Column(column.leaf);
          column.dictionary =
              (column.filterable || column.kind == Kind::kDictionaryStrings) &&
              AllPagesDictionaryEncoded(*group_->metadata()->ColumnChunk(column.leaf));
          if (column.kind == Kind::kDictionaryStrings && !column.dictionary) {
            return Status::IOError("column '", column.field->name(), "' of row group ", group,
                                   " is not stored as dictionary indexes only");
          }
          if (column.dictionary) DictionaryExposer::Expose(column.reader.get());
          column.dictionary_values = nullptr;
          column.dictionary_length = 0;
          column.dictionary_array = nullptr;
        }
        continue;
      }
      const int64_t rows = std::min(rows_left_, batch_rows_);
      rows_left_ -= rows;
      ARROW_ASSIGN_OR_RAISE(size_t kept, Select(rows));
      *rows_dropped_ += rows - static_cast<int64_t>(kept);
      if (kept == 0) continue;
      arrow::ArrayVector arrays;
      for (auto& column : columns_) {
        ARROW_ASSIGN_OR_RAISE(auto array,
                              Gather(&column, rows_.data(), static_cast<int64_t>(kept), rows));
        arrays.push_back(std::move(array));
      }
      *batch = arrow::RecordBatch::Make(schema_, static_cast<int64_t>(kept), std::move(arrays));
      return Status::OK();
    }
  }

  // Reads the next `rows` rows of every column, the filtered ones first, and leaves in rows_
  // the rows every conjunct keeps; columns whose values no kept row needs are skipped.
  arrow::Result<size_t> Select(int64_t rows) {
    for (auto& column : columns_) column.loaded = false;
    size_t kept = static_cast<size_t>(rows);
    bool all = true;  // rows_ does not list the kept rows yet: all are kept
    for (const auto& conjunct : conjuncts_) {
      if (kept == 0) break;
      Column& column = columns_[conjunct.column];
      if (!column.loaded) ARROW_RETURN_NOT_OK(Load(rows, &column));
      kept = Keep(column, conjunct, all, rows_.data(), kept);
      all = false;
    }
    for (auto& column : columns_) {
      if (column.loaded) continue;
      ARROW_RETURN_NOT_OK(kept == 0 ? Skip(rows, &column) : Load(rows, &column));
    }
    return kept;
  }

  std::shared_ptr<parquet::arrow::FileReader> file_;
  std::vector<int> row_groups_;
  std::vector<Column> columns_;
  std::vector<Conjunct> conjuncts_;
  int64_t batch_rows_;
  std::atomic<int64_t>* rows_dropped_;
  std::shared_ptr<arrow::Schema> schema_;
  std::vector<int32_t> rows_;  // the kept rows of the current batch
  std::shared_ptr<parquet::RowGroupReader> group_;
  size_t next_group_ = 0;
  int64_t rows_left_ = 0;  // in the current row group
};

// How `leaf`'s values become `type`, when this reader reads that pair.
std::optional<Kind> KindOf(parquet::Type::type physical, const arrow::DataType& type) {
  const arrow::Type::type id = type.id();
  switch (physical) {
    case parquet::Type::INT32:
      if (id == arrow::Type::INT32 || id == arrow::Type::DATE32) return Kind::kCopy4;
      if (id == arrow::Type::DECIMAL128) return Kind::kDecimalInt32;
      return std::nullopt;
    case parquet::Type::INT64:
      if (id == arrow::Type::INT64) return Kind::kCopy8;
      if (id == arrow::Type::DECIMAL128) return Kind::kDecimalInt64;
      return std::nullopt;
    case parquet::Type::FLOAT:
      return id == arrow::Type::FLOAT ? std::optional<Kind>(Kind::kCopy4) : std::nullopt;
    case parquet::Type::DOUBLE:
      return id == arrow::Type::DOUBLE ? std::optional<Kind>(Kind::kCopy8) : std::nullopt;
    case parquet::Type::BYTE_ARRAY: {
      if (id != arrow::Type::DICTIONARY) return std::nullopt;
      const auto& dictionary = static_cast<const arrow::DictionaryType&>(type);
      if (dictionary.index_type()->id() != arrow::Type::INT32 ||
          dictionary.value_type()->id() != arrow::Type::STRING) {
        return std::nullopt;
      }
      return Kind::kDictionaryStrings;
    }
    default: return std::nullopt;
  }
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> MakeFilteredParquetReader(
    std::shared_ptr<parquet::arrow::FileReader> file, std::vector<int> row_groups,
    const std::vector<int>& leaves, const cp::Expression& filter, int64_t batch_rows,
    std::atomic<int64_t>* rows_dropped) {
  std::shared_ptr<parquet::FileMetaData> metadata = file->parquet_reader()->metadata();
  const parquet::SchemaDescriptor& schema = *metadata->schema();
  std::map<int, const parquet::arrow::SchemaField*> top_level_leaves;
  for (const auto& field : file->manifest().schema_fields) {
    if (field.is_leaf()) top_level_leaves[field.column_index] = &field;
  }
  std::vector<Column> columns;
  for (int leaf : leaves) {
    auto found = top_level_leaves.find(leaf);
    if (found == top_level_leaves.end()) return nullptr;
    const parquet::ColumnDescriptor& descriptor = *schema.Column(leaf);
    if (descriptor.max_repetition_level() != 0 || descriptor.max_definition_level() > 1) {
      return nullptr;
    }
    Column column;
    column.leaf = leaf;
    column.field = found->second->field;
    column.physical = descriptor.physical_type();
    auto kind = KindOf(column.physical, *column.field->type());
    if (!kind) return nullptr;
    column.kind = *kind;
    if (column.kind == Kind::kDictionaryStrings) {
      // Read as Parquet's Arrow reader was asked to (ArrowReaderProperties::read_dictionary):
      // only chunks of dictionary indexes can be.
      for (int group : row_groups) {
        if (!AllPagesDictionaryEncoded(*metadata->RowGroup(group)->ColumnChunk(leaf))) {
          return nullptr;
        }
      }
    }
    column.nullable = descriptor.max_definition_level() == 1;
    column.filterable =
        column.physical == parquet::Type::INT32 || column.physical == parquet::Type::INT64;
    columns.push_back(std::move(column));
  }
  std::vector<Conjunct> conjuncts = EvaluatedConjuncts(filter, columns);
  if (conjuncts.empty()) return nullptr;
  return std::make_shared<FilteredParquetReader>(std::move(file), std::move(row_groups),
                                                 std::move(columns), std::move(conjuncts),
                                                 batch_rows, rows_dropped);
}

}  // namespace parley
