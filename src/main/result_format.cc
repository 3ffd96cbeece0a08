// Text rendering of results. One recursive function turns a value into Spark's display text
// (FormatCell and the table/csv forms use it); a second one turns a value into JSON, keeping
// numbers unquoted and nesting arrays, structs and maps. Floating point goes through
// std::to_chars, whose shortest round-trip digits are the digits Java's Double.toString picks;
// only the layout (plain below 1e7, `d.dddE<n>` outside [1e-3, 1e7)) is Java's own.
#include "main/result_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <iterator>
#include <nlohmann/json.hpp>
#include <vector>

#include "arrow/array.h"
#include "arrow/record_batch.h"
#include "arrow/scalar.h"
#include "arrow/table.h"
#include "arrow/type.h"
#include "arrow/type_traits.h"
#include "arrow/util/checked_cast.h"
#include "arrow/util/float16.h"
#include "kernels/decimal_text.h"
#include "kernels/java_number_text.h"
#include "kernels/utf8_text.h"

namespace parley {
namespace {

using arrow::internal::checked_cast;

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

void AppendDate(int64_t days_since_epoch, std::string* out) {
  std::chrono::year_month_day ymd{std::chrono::sys_days{std::chrono::days{days_since_epoch}}};
  fmt::format_to(std::back_inserter(*out), "{:04}-{:02}-{:02}", static_cast<int>(ymd.year()),
                 static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
}

int64_t UnitsPerSecond(arrow::TimeUnit::type unit) {
  switch (unit) {
    case arrow::TimeUnit::SECOND: return 1;
    case arrow::TimeUnit::MILLI: return 1000;
    case arrow::TimeUnit::MICRO: return 1000000;
    case arrow::TimeUnit::NANO: return 1000000000;
  }
  return 1;
}

int DigitsOf(int64_t units_per_second) {
  int digits = 0;
  for (int64_t u = units_per_second; u > 1; u /= 10) ++digits;
  return digits;
}

// Append `hh:mm:ss[.fff]` for a time of day given in `unit`s since midnight; the fraction
// loses its trailing zeros, as Spark prints it.
void AppendTimeOfDay(int64_t units_since_midnight, arrow::TimeUnit::type unit, std::string* out) {
  int64_t per_second = UnitsPerSecond(unit);
  int64_t seconds = FloorDiv(units_since_midnight, per_second);
  int64_t fraction = units_since_midnight - seconds * per_second;
  fmt::format_to(std::back_inserter(*out), "{:02}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60,
                 seconds % 60);
  if (fraction != 0) {
    std::string digits = fmt::format("{:0{}}", fraction, DigitsOf(per_second));
    digits.erase(digits.find_last_not_of('0') + 1);
    out->push_back('.');
    *out += digits;
  }
}

void AppendTimestamp(int64_t value, arrow::TimeUnit::type unit, std::string* out) {
  constexpr int64_t kSecondsPerDay = 86400;
  int64_t per_day = kSecondsPerDay * UnitsPerSecond(unit);
  int64_t days = FloorDiv(value, per_day);
  AppendDate(days, out);
  out->push_back(' ');
  AppendTimeOfDay(value - days * per_day, unit, out);
}

// A year-month interval as Spark prints one: INTERVAL '-1-2' YEAR TO MONTH.
void AppendYearMonthInterval(int32_t months, std::string* out) {
  int64_t magnitude = months < 0 ? -int64_t{months} : months;
  *out += fmt::format("INTERVAL '{}{}-{}' YEAR TO MONTH", months < 0 ? "-" : "", magnitude / 12,
                      magnitude % 12);
}

// A day-time interval of microseconds as Spark prints one:
// INTERVAL '1 02:03:04.5' DAY TO SECOND.
void AppendDayTimeInterval(int64_t micros, std::string* out) {
  bool negative = micros < 0;
  uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(micros) : static_cast<uint64_t>(micros);
  uint64_t seconds = magnitude / 1000000;
  uint64_t fraction = magnitude % 1000000;
  *out += fmt::format("INTERVAL '{}{} {:02}:{:02}:{:02}", negative ? "-" : "", seconds / 86400,
                      seconds / 3600 % 24, seconds / 60 % 60, seconds % 60);
  if (fraction != 0) {
    std::string digits = fmt::format("{:06}", fraction);
    digits.erase(digits.find_last_not_of('0') + 1);
    *out += "." + digits;
  }
  *out += "' DAY TO SECOND";
}

// Binary as CAST(x AS STRING) writes it: the bytes read as UTF-8, each invalid sequence as
// U+FFFD.
void AppendBinary(std::string_view bytes, std::string* out) {
  *out += kernels::MakeValidUtf8(bytes);
}

void AppendJsonString(std::string_view text, std::string* out) {
  *out += nlohmann::json(std::string(text))
              .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

template <typename ArrayType>
void AppendInteger(const arrow::Array& array, int64_t row, std::string* out) {
  fmt::format_to(std::back_inserter(*out), "{}", checked_cast<const ArrayType&>(array).Value(row));
}

// The value of a floating-point cell as a float or double, whichever the column holds.
template <typename Visit>
void WithFloatingPoint(const arrow::Array& array, int64_t row, Visit&& visit) {
  switch (array.type_id()) {
    case arrow::Type::HALF_FLOAT:
      visit(arrow::util::Float16::FromBits(
                checked_cast<const arrow::HalfFloatArray&>(array).Value(row))
                .ToFloat());
      return;
    case arrow::Type::FLOAT:
      visit(checked_cast<const arrow::FloatArray&>(array).Value(row));
      return;
    default: visit(checked_cast<const arrow::DoubleArray&>(array).Value(row)); return;
  }
}

std::string FormatFloatingPoint(const arrow::Array& array, int64_t row) {
  std::string text;
  WithFloatingPoint(array, row, [&](auto value) { text = JavaFloatingPointText(value); });
  return text;
}

bool IsFloatingPoint(arrow::Type::type id) {
  return id == arrow::Type::HALF_FLOAT || id == arrow::Type::FLOAT || id == arrow::Type::DOUBLE;
}

template <typename ListArrayType, typename Element>
Status ForEachElementOf(const arrow::Array& array, int64_t row, Element&& element) {
  const auto& list = checked_cast<const ListArrayType&>(array);
  int64_t offset = list.value_offset(row);
  for (int64_t i = 0; i < list.value_length(row); ++i) {
    RETURN_NOT_OK(element(*list.values(), offset + i, i));
  }
  return Status::OK();
}

// Calls `element(values, index, position)` for each element of the list (list, large list or
// fixed-size list) at `row`, in order: the element is `values[index]`, the `position`th one.
template <typename Element>
Status ForEachListElement(const arrow::Array& array, int64_t row, Element&& element) {
  switch (array.type_id()) {
    case arrow::Type::LIST: return ForEachElementOf<arrow::ListArray>(array, row, element);
    case arrow::Type::LARGE_LIST:
      return ForEachElementOf<arrow::LargeListArray>(array, row, element);
    default: return ForEachElementOf<arrow::FixedSizeListArray>(array, row, element);
  }
}

Status AppendText(const arrow::Array& array, int64_t row, std::string* out);

// An element of an array, map or struct: NULL inside a value is `null`, as Spark's
// CAST(x AS STRING) writes it.
Status AppendNestedText(const arrow::Array& array, int64_t row, std::string* out) {
  if (array.IsNull(row)) {
    *out += "null";
    return Status::OK();
  }
  return AppendText(array, row, out);
}

Status AppendListText(const arrow::Array& array, int64_t row, std::string* out) {
  out->push_back('[');
  RETURN_NOT_OK(ForEachListElement(
      array, row, [out](const arrow::Array& values, int64_t index, int64_t position) {
        if (position > 0) *out += ", ";
        return AppendNestedText(values, index, out);
      }));
  out->push_back(']');
  return Status::OK();
}

Status AppendMapText(const arrow::Array& array, int64_t row, std::string* out) {
  const auto& map = checked_cast<const arrow::MapArray&>(array);
  out->push_back('{');
  int64_t offset = map.value_offset(row);
  for (int64_t i = 0; i < map.value_length(row); ++i) {
    if (i > 0) *out += ", ";
    RETURN_NOT_OK(AppendNestedText(*map.keys(), offset + i, out));
    *out += " -> ";
    RETURN_NOT_OK(AppendNestedText(*map.items(), offset + i, out));
  }
  out->push_back('}');
  return Status::OK();
}

Status AppendStructText(const arrow::Array& array, int64_t row, std::string* out) {
  const auto& st = checked_cast<const arrow::StructArray&>(array);
  out->push_back('{');
  for (int i = 0; i < st.num_fields(); ++i) {
    if (i > 0) *out += ", ";
    RETURN_NOT_OK(AppendNestedText(*st.field(i), row, out));
  }
  out->push_back('}');
  return Status::OK();
}

// Append Spark's display text of the value at `row`; NULL appends `NULL`.
Status AppendText(const arrow::Array& array, int64_t row, std::string* out) {
  if (array.IsNull(row)) {
    *out += "NULL";
    return Status::OK();
  }
  switch (array.type_id()) {
    case arrow::Type::BOOL:
      *out += checked_cast<const arrow::BooleanArray&>(array).Value(row) ? "true" : "false";
      return Status::OK();
    case arrow::Type::INT8: AppendInteger<arrow::Int8Array>(array, row, out); return Status::OK();
    case arrow::Type::INT16: AppendInteger<arrow::Int16Array>(array, row, out); return Status::OK();
    case arrow::Type::INT32: AppendInteger<arrow::Int32Array>(array, row, out); return Status::OK();
    case arrow::Type::INT64: AppendInteger<arrow::Int64Array>(array, row, out); return Status::OK();
    case arrow::Type::UINT8: AppendInteger<arrow::UInt8Array>(array, row, out); return Status::OK();
    case arrow::Type::UINT16:
      AppendInteger<arrow::UInt16Array>(array, row, out);
      return Status::OK();
    case arrow::Type::UINT32:
      AppendInteger<arrow::UInt32Array>(array, row, out);
      return Status::OK();
    case arrow::Type::UINT64:
      AppendInteger<arrow::UInt64Array>(array, row, out);
      return Status::OK();
    case arrow::Type::HALF_FLOAT:
    case arrow::Type::FLOAT:
    case arrow::Type::DOUBLE: *out += FormatFloatingPoint(array, row); return Status::OK();
    case arrow::Type::DECIMAL32:
      *out += checked_cast<const arrow::Decimal32Array&>(array).FormatValue(row);
      return Status::OK();
    case arrow::Type::DECIMAL64:
      *out += checked_cast<const arrow::Decimal64Array&>(array).FormatValue(row);
      return Status::OK();
    case arrow::Type::DECIMAL128: {
      // Plainly, as Spark prints decimals (Arrow would write a small one as 0E-37).
      const auto& decimals = checked_cast<const arrow::Decimal128Array&>(array);
      const auto& type = checked_cast<const arrow::Decimal128Type&>(*array.type());
      *out += PlainDecimalText(arrow::Decimal128(decimals.GetValue(row)), type.scale());
      return Status::OK();
    }
    case arrow::Type::DECIMAL256:
      *out += checked_cast<const arrow::Decimal256Array&>(array).FormatValue(row);
      return Status::OK();
    case arrow::Type::STRING:
      *out += checked_cast<const arrow::StringArray&>(array).GetView(row);
      return Status::OK();
    case arrow::Type::LARGE_STRING:
      *out += checked_cast<const arrow::LargeStringArray&>(array).GetView(row);
      return Status::OK();
    case arrow::Type::STRING_VIEW:
      *out += checked_cast<const arrow::StringViewArray&>(array).GetView(row);
      return Status::OK();
    case arrow::Type::BINARY:
      AppendBinary(checked_cast<const arrow::BinaryArray&>(array).GetView(row), out);
      return Status::OK();
    case arrow::Type::LARGE_BINARY:
      AppendBinary(checked_cast<const arrow::LargeBinaryArray&>(array).GetView(row), out);
      return Status::OK();
    case arrow::Type::BINARY_VIEW:
      AppendBinary(checked_cast<const arrow::BinaryViewArray&>(array).GetView(row), out);
      return Status::OK();
    case arrow::Type::FIXED_SIZE_BINARY:
      AppendBinary(checked_cast<const arrow::FixedSizeBinaryArray&>(array).GetView(row), out);
      return Status::OK();
    case arrow::Type::DATE32:
      AppendDate(checked_cast<const arrow::Date32Array&>(array).Value(row), out);
      return Status::OK();
    case arrow::Type::DATE64:
      AppendDate(
          FloorDiv(checked_cast<const arrow::Date64Array&>(array).Value(row), int64_t{86400000}),
          out);
      return Status::OK();
    case arrow::Type::TIMESTAMP:
      AppendTimestamp(checked_cast<const arrow::TimestampArray&>(array).Value(row),
                      checked_cast<const arrow::TimestampType&>(*array.type()).unit(), out);
      return Status::OK();
    case arrow::Type::INTERVAL_MONTHS:
      AppendYearMonthInterval(checked_cast<const arrow::MonthIntervalArray&>(array).Value(row),
                              out);
      return Status::OK();
    case arrow::Type::DURATION: {
      const auto& type = checked_cast<const arrow::DurationType&>(*array.type());
      if (type.unit() != arrow::TimeUnit::MICRO) break;
      AppendDayTimeInterval(checked_cast<const arrow::DurationArray&>(array).Value(row), out);
      return Status::OK();
    }
    case arrow::Type::TIME32:
      AppendTimeOfDay(checked_cast<const arrow::Time32Array&>(array).Value(row),
                      checked_cast<const arrow::Time32Type&>(*array.type()).unit(), out);
      return Status::OK();
    case arrow::Type::TIME64:
      AppendTimeOfDay(checked_cast<const arrow::Time64Array&>(array).Value(row),
                      checked_cast<const arrow::Time64Type&>(*array.type()).unit(), out);
      return Status::OK();
    case arrow::Type::LIST:
    case arrow::Type::LARGE_LIST:
    case arrow::Type::FIXED_SIZE_LIST: return AppendListText(array, row, out);
    case arrow::Type::MAP: return AppendMapText(array, row, out);
    case arrow::Type::STRUCT: return AppendStructText(array, row, out);
    case arrow::Type::DICTIONARY: {
      const auto& dict = checked_cast<const arrow::DictionaryArray&>(array);
      return AppendText(*dict.dictionary(), dict.GetValueIndex(row), out);
    }
    case arrow::Type::EXTENSION:
      return AppendText(*checked_cast<const arrow::ExtensionArray&>(array).storage(), row, out);
    default: break;
  }
  // Types Spark has no display form for (unions, durations other than microseconds, views,
  // run-end encoded arrays) print as Arrow prints their scalars.
  ARROW_ASSIGN_OR_RAISE(auto scalar, array.GetScalar(row));
  *out += scalar->ToString();
  return Status::OK();
}

// Append the value at `row` as JSON; see ResultFormat::kJson for the mapping.
Status AppendJson(const arrow::Array& array, int64_t row, std::string* out) {
  if (array.IsNull(row)) {
    *out += "null";
    return Status::OK();
  }
  arrow::Type::type id = array.type_id();
  if (arrow::is_integer(id) || arrow::is_decimal(id) || id == arrow::Type::BOOL) {
    return AppendText(array, row, out);
  }
  if (IsFloatingPoint(id)) {
    bool finite = true;
    WithFloatingPoint(array, row, [&](auto value) { finite = std::isfinite(value); });
    std::string text = FormatFloatingPoint(array, row);
    if (finite) {
      *out += text;
    } else {
      AppendJsonString(text, out);  // JSON has no NaN or Infinity; Spark quotes them too.
    }
    return Status::OK();
  }
  switch (id) {
    case arrow::Type::LIST:
    case arrow::Type::LARGE_LIST:
    case arrow::Type::FIXED_SIZE_LIST:
      out->push_back('[');
      RETURN_NOT_OK(ForEachListElement(
          array, row, [out](const arrow::Array& values, int64_t index, int64_t position) {
            if (position > 0) out->push_back(',');
            return AppendJson(values, index, out);
          }));
      out->push_back(']');
      return Status::OK();
    case arrow::Type::MAP: {
      const auto& map = checked_cast<const arrow::MapArray&>(array);
      int64_t offset = map.value_offset(row);
      out->push_back('{');
      for (int64_t i = 0; i < map.value_length(row); ++i) {
        if (i > 0) out->push_back(',');
        std::string key;
        RETURN_NOT_OK(AppendText(*map.keys(), offset + i, &key));
        AppendJsonString(key, out);
        out->push_back(':');
        RETURN_NOT_OK(AppendJson(*map.items(), offset + i, out));
      }
      out->push_back('}');
      return Status::OK();
    }
    case arrow::Type::STRUCT: {
      const auto& st = checked_cast<const arrow::StructArray&>(array);
      out->push_back('{');
      for (int i = 0; i < st.num_fields(); ++i) {
        if (i > 0) out->push_back(',');
        AppendJsonString(st.struct_type()->field(i)->name(), out);
        out->push_back(':');
        RETURN_NOT_OK(AppendJson(*st.field(i), row, out));
      }
      out->push_back('}');
      return Status::OK();
    }
    case arrow::Type::DICTIONARY: {
      const auto& dict = checked_cast<const arrow::DictionaryArray&>(array);
      return AppendJson(*dict.dictionary(), dict.GetValueIndex(row), out);
    }
    case arrow::Type::EXTENSION:
      return AppendJson(*checked_cast<const arrow::ExtensionArray&>(array).storage(), row, out);
    default: {
      std::string text;
      RETURN_NOT_OK(AppendText(array, row, &text));
      AppendJsonString(text, out);
      return Status::OK();
    }
  }
}

// Calls `row_fn(batch, row)` for every row of `table`, in order.
template <typename RowFn>
Status ForEachRow(const arrow::Table& table, RowFn&& row_fn) {
  arrow::TableBatchReader reader(table);
  while (true) {
    std::shared_ptr<arrow::RecordBatch> batch;
    RETURN_NOT_OK(reader.ReadNext(&batch));
    if (batch == nullptr) return Status::OK();
    for (int64_t row = 0; row < batch->num_rows(); ++row) {
      RETURN_NOT_OK(row_fn(*batch, row));
    }
  }
}

// Terminal columns a UTF-8 string takes: one per code point, two for East Asian wide and
// fullwidth characters.
size_t DisplayWidth(std::string_view text) {
  size_t width = 0;
  for (size_t i = 0; i < text.size();) {
    auto byte = static_cast<unsigned char>(text[i]);
    int length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
    uint32_t cp = length == 1 ? byte : byte & (0xFF >> (length + 1));
    for (int k = 1; k < length && i + k < text.size(); ++k) {
      cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    }
    bool wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
                (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
                (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
                (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
                (cp >= 0x20000 && cp <= 0x3FFFD);
    width += wide ? 2 : 1;
    i += length;
  }
  return width;
}

// The lines a value occupies in a table cell: one per line of the text (a final line break
// adds no empty line), with tabs and carriage returns escaped so the box stays aligned.
std::vector<std::string> CellLines(std::string_view text) {
  std::vector<std::string> lines(1);
  for (size_t i = 0; i < text.size(); ++i) {
    switch (text[i]) {
      case '\n':
        if (i + 1 < text.size()) lines.emplace_back();
        break;
      case '\t': lines.back() += "\\t"; break;
      case '\r': lines.back() += "\\r"; break;
      default: lines.back().push_back(text[i]);
    }
  }
  return lines;
}

Result<std::string> FormatAsTable(const arrow::Table& table) {
  int num_columns = table.num_columns();
  // rows[0] is the header; rows[r + 1] holds the lines of each cell of result row r.
  using Row = std::vector<std::vector<std::string>>;
  std::vector<Row> rows(1);
  for (int c = 0; c < num_columns; ++c) rows[0].push_back(CellLines(table.field(c)->name()));
  RETURN_NOT_OK(ForEachRow(table, [&](const arrow::RecordBatch& batch, int64_t row) {
    Row& lines = rows.emplace_back();
    for (int c = 0; c < num_columns; ++c) {
      ARROW_ASSIGN_OR_RAISE(auto cell, FormatCell(*batch.column(c), row));
      lines.push_back(CellLines(cell ? *cell : "NULL"));
    }
    return Status::OK();
  }));

  std::vector<size_t> widths(num_columns);
  std::vector<bool> right_aligned(num_columns);
  std::string border = "+";
  for (int c = 0; c < num_columns; ++c) {
    for (const auto& row : rows) {
      for (const auto& line : row[c]) widths[c] = std::max(widths[c], DisplayWidth(line));
    }
    arrow::Type::type id = table.field(c)->type()->id();
    right_aligned[c] = arrow::is_numeric(id) || arrow::is_decimal(id);
    border.append(widths[c] + 2, '-');
    border.push_back('+');
  }
  border.push_back('\n');

  std::string out = border;
  for (size_t r = 0; r < rows.size(); ++r) {
    size_t height = 1;
    for (const auto& cell : rows[r]) height = std::max(height, cell.size());
    for (size_t k = 0; k < height; ++k) {
      out.push_back('|');
      for (int c = 0; c < num_columns; ++c) {
        const auto& cell = rows[r][c];
        std::string_view line = k < cell.size() ? std::string_view(cell[k]) : "";
        size_t padding = widths[c] - DisplayWidth(line);
        out.push_back(' ');
        if (right_aligned[c]) out.append(padding, ' ');
        out += line;
        if (!right_aligned[c]) out.append(padding, ' ');
        out += " |";
      }
      out.push_back('\n');
    }
    if (r == 0) out += border;
  }
  if (rows.size() > 1) out += border;
  return out;
}

void AppendCsvField(std::string_view field, std::string* out) {
  if (!field.empty() && field.find_first_of(",\"\r\n") == std::string_view::npos) {
    *out += field;
    return;
  }
  out->push_back('"');
  for (char c : field) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

Result<std::string> FormatAsCsv(const arrow::Table& table) {
  std::string out;
  for (int c = 0; c < table.num_columns(); ++c) {
    if (c > 0) out.push_back(',');
    AppendCsvField(table.field(c)->name(), &out);
  }
  out.push_back('\n');
  RETURN_NOT_OK(ForEachRow(table, [&](const arrow::RecordBatch& batch, int64_t row) {
    for (int c = 0; c < batch.num_columns(); ++c) {
      if (c > 0) out.push_back(',');
      ARROW_ASSIGN_OR_RAISE(auto cell, FormatCell(*batch.column(c), row));
      if (cell) AppendCsvField(*cell, &out);
    }
    out.push_back('\n');
    return Status::OK();
  }));
  return out;
}

Result<std::string> FormatAsJson(const arrow::Table& table) {
  std::string out;
  RETURN_NOT_OK(ForEachRow(table, [&](const arrow::RecordBatch& batch, int64_t row) {
    out.push_back('{');
    for (int c = 0; c < batch.num_columns(); ++c) {
      if (c > 0) out.push_back(',');
      AppendJsonString(batch.schema()->field(c)->name(), &out);
      out.push_back(':');
      RETURN_NOT_OK(AppendJson(*batch.column(c), row, &out));
    }
    out += "}\n";
    return Status::OK();
  }));
  return out;
}

}  // namespace

Result<ResultFormat> ParseResultFormat(std::string_view name) {
  if (name == "table") return ResultFormat::kTable;
  if (name == "csv") return ResultFormat::kCsv;
  if (name == "json") return ResultFormat::kJson;
  return Status::Invalid("Unknown output format '", name, "': expected table, csv or json");
}

Result<std::optional<std::string>> FormatCell(const arrow::Array& array, int64_t row) {
  if (array.IsNull(row)) return std::nullopt;
  std::string text;
  RETURN_NOT_OK(AppendText(array, row, &text));
  return text;
}

std::string FormatDouble(double value) { return JavaFloatingPointText(value); }

std::string FormatFloat(float value) { return JavaFloatingPointText(value); }

Result<std::string> FormatResult(const arrow::Table& table, ResultFormat format) {
  if (table.num_columns() == 0) return std::string();
  switch (format) {
    case ResultFormat::kTable: return FormatAsTable(table);
    case ResultFormat::kCsv: return FormatAsCsv(table);
    case ResultFormat::kJson: return FormatAsJson(table);
  }
  return Status::Invalid("Unknown result format");
}

}  // namespace parley
