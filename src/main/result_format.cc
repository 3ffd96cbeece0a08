// Text rendering of results: each value's text is Spark's CAST(x AS STRING)
// (kernels/value_text.h; FormatCell and the table/csv forms use it); the JSON form turns a value
// into JSON, keeping numbers unquoted and nesting arrays, structs and maps.
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
#include "kernels/java_number_text.h"
#include "kernels/value_text.h"

namespace parley {
namespace {

using arrow::internal::checked_cast;
using kernels::AppendValueText;
using kernels::ForEachListElement;

void AppendJsonString(std::string_view text, std::string* out) {
  *out += nlohmann::json(std::string(text))
              .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Append the value at `row` as JSON; see ResultFormat::kJson for the mapping.
Status AppendJson(const arrow::Array& array, int64_t row, std::string* out) {
  if (array.IsNull(row)) {
    *out += "null";
    return Status::OK();
  }
  arrow::Type::type id = array.type_id();
  if (arrow::is_integer(id) || arrow::is_decimal(id) || id == arrow::Type::BOOL) {
    return AppendValueText(array, row, out);
  }
  if (kernels::IsFloatingPointType(id)) {
    bool finite = std::isfinite(kernels::FloatingPointValue(array, row));
    std::string text = kernels::FloatingPointText(array, row);
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
        RETURN_NOT_OK(AppendValueText(*map.keys(), offset + i, &key));
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
    case arrow::Type::BINARY:
    case arrow::Type::LARGE_BINARY:
    case arrow::Type::BINARY_VIEW:
    case arrow::Type::FIXED_SIZE_BINARY: {
      // Every byte, as hex in brackets ([0A FF]): JSON strings hold text, bytes need not be.
      ARROW_ASSIGN_OR_RAISE(auto scalar, array.GetScalar(row));
      const auto& bytes = *checked_cast<const arrow::BaseBinaryScalar&>(*scalar).value;
      std::string text = "[";
      for (int64_t i = 0; i < bytes.size(); ++i) {
        if (i > 0) text.push_back(' ');
        fmt::format_to(std::back_inserter(text), "{:02X}", bytes.data()[i]);
      }
      text.push_back(']');
      AppendJsonString(text, out);
      return Status::OK();
    }
    default: {
      std::string text;
      RETURN_NOT_OK(AppendValueText(array, row, &text));
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
  RETURN_NOT_OK(AppendValueText(array, row, &text));
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
