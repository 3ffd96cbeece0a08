// Read options and schema inference for the four formats. Options use Spark's names and
// defaults and are validated once here; the Arrow Dataset file formats and CSV scan options
// they configure are built from them on the driver and again on executors.
//
// Inference follows Spark where Arrow's own differs:
//   - Parquet and ORC take the first file's schema (every file's with mergeSchema).
//   - CSV columns are positional: the first line of the first file names them when `header` is
//     set (blank names become _c<i>, repeated names get their position appended, as Spark's
//     makeSafeHeader does), otherwise they are _c0, _c1, ...; without `inferSchema` every column
//     is STRING, with it Arrow infers types from the first block of every file.
//   - JSON infers from the first block of every file; timestamps stay strings (Spark's
//     inferTimestamp=false) and struct fields are sorted by name, as Spark does.
//   - Types merge across files by widening (integer < double) and otherwise fall back to
//     STRING for CSV and JSON; Parquet and ORC report CANNOT_MERGE_INCOMPATIBLE_DATA_TYPE.
//   - Columns that are NULL everywhere become STRING; dictionary columns their value type.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "arrow/csv/api.h"
#include "arrow/dataset/file_csv.h"
#include "arrow/dataset/file_json.h"
#include "arrow/dataset/file_orc.h"
#include "arrow/dataset/file_parquet.h"
#include "arrow/io/interfaces.h"
#include "arrow/record_batch.h"
#include "arrow/type.h"
#include "arrow/util/compression.h"
#include "connectors/files/files_format.h"
#include "connectors/files/files_listing.h"
#include "connectors/files/files_options.h"
#include "parley/connector/status.h"

namespace parley::files {
namespace {

namespace ds = arrow::dataset;

Status BadOption(const std::string& key, const std::string& value, const std::string& expected) {
  return InvalidError("INVALID_OPTION_VALUE", "The option " + QuoteIdentifier(key) +
                                                  " cannot be '" + value + "': expected " +
                                                  expected + ".");
}

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

Result<bool> BoolOption(const Options& options, const std::string& key, bool fallback) {
  auto it = options.find(key);
  if (it == options.end()) return fallback;
  std::string value = Lower(it->second);
  if (value == "true") return true;
  if (value == "false") return false;
  return BadOption(key, it->second, "true or false");
}

// A byte count: digits with an optional unit (b, k/kb, m/mb, g/gb), as Spark's byte settings.
Result<int64_t> BytesOption(const Options& options, const std::string& key, int64_t fallback) {
  auto it = options.find(key);
  if (it == options.end()) return fallback;
  std::string value = Lower(it->second);
  int64_t number = 0;
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  std::string unit = value.substr(static_cast<size_t>(end - value.data()));
  static const std::map<std::string, int> kShifts = {{"", 0},   {"b", 0},   {"k", 10}, {"kb", 10},
                                                     {"m", 20}, {"mb", 20}, {"g", 30}, {"gb", 30}};
  auto shift = kShifts.find(unit);
  if (error != std::errc() || number < 0 || shift == kShifts.end() ||
      number > (INT64_MAX >> shift->second)) {
    return BadOption(key, it->second, "a non-negative byte count such as 134217728 or 128m");
  }
  return number << shift->second;
}

// One character, written literally or as a Java-style escape ("\t", "\u0000"), as Spark's
// CSVExprUtils.toChar accepts.
std::optional<char> ParseChar(const std::string& text) {
  if (text.size() == 1) return text[0];
  if (text == "\\u0000") return '\0';
  if (text.size() == 2 && text[0] == '\\') {
    switch (text[1]) {
      case 't': return '\t';
      case 'r': return '\r';
      case 'b': return '\b';
      case 'f': return '\f';
      case '"': return '"';
      case '\'': return '\'';
      case '\\': return '\\';
      default: return std::nullopt;
    }
  }
  return std::nullopt;
}

Result<char> DelimiterOption(const Options& options) {
  auto it = options.find("sep");
  if (it == options.end()) it = options.find("delimiter");
  if (it == options.end()) return ',';
  const std::string& text = it->second;
  if (text.empty()) {
    return InvalidError("INVALID_DELIMITER_VALUE.EMPTY_STRING",
                        "Delimiter cannot be empty string.");
  }
  if (text == "\\") {
    return InvalidError("INVALID_DELIMITER_VALUE.SINGLE_BACKSLASH",
                        "Single backslash is prohibited. It has special meaning as beginning of "
                        "an escape sequence. To get the backslash character, pass a string "
                        "with two backslashes as the delimiter.");
  }
  std::optional<char> c = ParseChar(text);
  if (!c) {
    return InvalidError("INVALID_DELIMITER_VALUE.DELIMITER_LONGER_THAN_EXPECTED",
                        "Delimiter cannot be more than one character: " + text + ".");
  }
  return *c;
}

// ---- Type merging and normalisation.

bool IsInteger(const arrow::DataType& type) { return arrow::is_integer(type.id()); }
bool IsNumeric(const arrow::DataType& type) {
  return arrow::is_integer(type.id()) || arrow::is_floating(type.id());
}

Result<std::shared_ptr<arrow::DataType>> MergeTypes(const std::string& column,
                                                    const std::shared_ptr<arrow::DataType>& a,
                                                    const std::shared_ptr<arrow::DataType>& b,
                                                    bool string_fallback);

Result<arrow::FieldVector> MergeFields(const std::string& prefix, const arrow::FieldVector& a,
                                       const arrow::FieldVector& b, bool string_fallback) {
  arrow::FieldVector out = a;
  for (const auto& field : b) {
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const auto& f) { return f->name() == field->name(); });
    if (it == out.end()) {
      out.push_back(field);
      continue;
    }
    ARROW_ASSIGN_OR_RAISE(auto type, MergeTypes(prefix + field->name(), (*it)->type(),
                                                field->type(), string_fallback));
    *it = (*it)->WithType(std::move(type))->WithNullable(true);
  }
  return out;
}

Result<std::shared_ptr<arrow::DataType>> MergeTypes(const std::string& column,
                                                    const std::shared_ptr<arrow::DataType>& a,
                                                    const std::shared_ptr<arrow::DataType>& b,
                                                    bool string_fallback) {
  if (a->Equals(*b) || b->id() == arrow::Type::NA) return a;
  if (a->id() == arrow::Type::NA) return b;
  if (IsInteger(*a) && IsInteger(*b)) return arrow::int64();
  if (IsNumeric(*a) && IsNumeric(*b)) return arrow::float64();
  if (a->id() == arrow::Type::STRUCT && b->id() == arrow::Type::STRUCT) {
    ARROW_ASSIGN_OR_RAISE(auto fields,
                          MergeFields(column + ".", a->fields(), b->fields(), string_fallback));
    return arrow::struct_(std::move(fields));
  }
  if (a->id() == arrow::Type::LIST && b->id() == arrow::Type::LIST) {
    ARROW_ASSIGN_OR_RAISE(
        auto value, MergeTypes(column, a->field(0)->type(), b->field(0)->type(), string_fallback));
    return arrow::list(a->field(0)->WithType(std::move(value)));
  }
  if (string_fallback) return arrow::utf8();
  return InvalidError("CANNOT_MERGE_INCOMPATIBLE_DATA_TYPE",
                      "Failed to merge incompatible data types " + a->ToString() + " and " +
                          b->ToString() + " of the column " + QuoteIdentifier(column) + ".");
}

struct NormalizeRules {
  bool timestamps_as_strings = false;
  bool sort_struct_fields = false;
};

std::shared_ptr<arrow::DataType> Normalize(const std::shared_ptr<arrow::DataType>& type,
                                           const NormalizeRules& rules);

arrow::FieldVector NormalizeFields(const arrow::FieldVector& fields, const NormalizeRules& rules) {
  arrow::FieldVector out;
  for (const auto& field : fields) {
    out.push_back(arrow::field(field->name(), Normalize(field->type(), rules), field->nullable()));
  }
  if (rules.sort_struct_fields) {
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& x, const auto& y) { return x->name() < y->name(); });
  }
  return out;
}

std::shared_ptr<arrow::DataType> Normalize(const std::shared_ptr<arrow::DataType>& type,
                                           const NormalizeRules& rules) {
  switch (type->id()) {
    case arrow::Type::NA: return arrow::utf8();
    case arrow::Type::TIMESTAMP: return rules.timestamps_as_strings ? arrow::utf8() : type;
    case arrow::Type::DICTIONARY:
      return Normalize(static_cast<const arrow::DictionaryType&>(*type).value_type(), rules);
    // Spark has one string and one binary type; files from arrow-rs writers (DataFusion,
    // Polars, delta-rs) carry the view and large layouts, which readers cast back.
    case arrow::Type::STRING_VIEW:
    case arrow::Type::LARGE_STRING: return arrow::utf8();
    case arrow::Type::BINARY_VIEW:
    case arrow::Type::LARGE_BINARY: return arrow::binary();
    case arrow::Type::STRUCT: return arrow::struct_(NormalizeFields(type->fields(), rules));
    case arrow::Type::LIST: {
      const auto& item = type->field(0);
      return arrow::list(item->WithType(Normalize(item->type(), rules)));
    }
    default: return type;
  }
}

// Merge the per-file schemas (by column name) and normalise the result.
Result<std::shared_ptr<arrow::Schema>> MergeSchemas(
    const std::vector<std::shared_ptr<arrow::Schema>>& schemas, bool string_fallback,
    const NormalizeRules& rules) {
  arrow::FieldVector fields;
  for (const auto& schema : schemas) {
    ARROW_ASSIGN_OR_RAISE(fields, MergeFields("", fields, schema->fields(), string_fallback));
  }
  return arrow::schema(NormalizeFields(fields, rules));
}

// Spark's CSVUtils.makeSafeHeader: blank names become _c<i>; a name repeated
// (case-insensitively) gets its position appended.
std::vector<std::string> SafeHeader(const std::vector<std::string>& names) {
  std::map<std::string, int> counts;
  for (const auto& name : names) ++counts[Lower(name)];
  std::vector<std::string> out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) {
      out.push_back("_c" + std::to_string(i));
    } else if (counts[Lower(names[i])] > 1) {
      out.push_back(names[i] + std::to_string(i));
    } else {
      out.push_back(names[i]);
    }
  }
  return out;
}

arrow::csv::ParseOptions CsvParseOptions(const ReadOptions& options) {
  auto parse = arrow::csv::ParseOptions::Defaults();
  parse.delimiter = options.delimiter;
  parse.quoting = options.quoting;
  parse.quote_char = options.quote;
  parse.escaping = options.escaping;
  parse.escape_char = options.escape;
  parse.newlines_in_values = options.multi_line;
  // Spark's default PERMISSIVE mode: missing trailing fields are NULL, extra ones are dropped.
  parse.pad_short_rows = true;
  parse.ignore_extra_columns = true;
  return parse;
}

// The column names of a CSV file: its first line's cells (header) or _c<i>, counted from the
// first line, read as text with Arrow's streaming reader.
Result<std::vector<std::string>> CsvColumnNames(const ReadOptions& options,
                                                const ds::FileSource& source) {
  ARROW_ASSIGN_OR_RAISE(auto input, source.OpenCompressed());
  auto read = arrow::csv::ReadOptions::Defaults();
  read.use_threads = false;
  read.autogenerate_column_names = true;
  auto convert = arrow::csv::ConvertOptions::Defaults();
  convert.default_column_type = arrow::utf8();
  convert.null_values.clear();
  ARROW_ASSIGN_OR_RAISE(auto reader, arrow::csv::StreamingReader::Make(
                                         arrow::io::default_io_context(), std::move(input), read,
                                         CsvParseOptions(options), convert));
  std::shared_ptr<arrow::RecordBatch> first;
  ARROW_RETURN_NOT_OK(reader->ReadNext(&first));
  const int num_columns = reader->schema()->num_fields();
  std::vector<std::string> names;
  for (int i = 0; i < num_columns; ++i) {
    if (!options.header) {
      names.push_back("_c" + std::to_string(i));
      continue;
    }
    std::string name;
    if (first != nullptr && first->num_rows() > 0 && first->column(i)->IsValid(0)) {
      ARROW_ASSIGN_OR_RAISE(auto cell, first->column(i)->GetScalar(0));
      name = static_cast<const arrow::StringScalar&>(*cell).value->ToString();
    }
    names.push_back(std::move(name));
  }
  return options.header ? SafeHeader(names) : names;
}

Result<std::shared_ptr<arrow::Schema>> InferCsv(const ReadOptions& options,
                                                const Listing& listing) {
  const auto& first = listing.files.front();
  auto names = CsvColumnNames(options, ds::FileSource(first, listing.filesystem));
  if (!names.ok()) {
    return FileReadError(DisplayPath(*listing.filesystem, first.path()), names.status());
  }
  arrow::FieldVector text_fields;
  for (const auto& name : *names) text_fields.push_back(arrow::field(name, arrow::utf8()));
  auto text_schema = arrow::schema(text_fields);
  if (!options.infer_schema) return text_schema;

  ARROW_ASSIGN_OR_RAISE(auto format, MakeArrowFormat(options));
  format->default_fragment_scan_options =
      MakeCsvScanOptions(options, *text_schema, options.header ? 1 : 0);
  // Inference must not be steered by the text types: drop them.
  auto& convert = static_cast<ds::CsvFragmentScanOptions&>(*format->default_fragment_scan_options)
                      .convert_options;
  convert.column_types.clear();
  std::vector<std::shared_ptr<arrow::Schema>> schemas;
  for (const auto& file : listing.files) {
    auto schema = format->Inspect(ds::FileSource(file, listing.filesystem));
    if (!schema.ok()) {
      return FileReadError(DisplayPath(*listing.filesystem, file.path()), schema.status());
    }
    schemas.push_back(*std::move(schema));
  }
  return MergeSchemas(schemas, /*string_fallback=*/true, {});
}

Result<std::shared_ptr<arrow::Schema>> InferWithArrow(const ReadOptions& options,
                                                      const Listing& listing) {
  ARROW_ASSIGN_OR_RAISE(auto format, MakeArrowFormat(options));
  const bool binary =
      options.format == FileFormatKind::kParquet || options.format == FileFormatKind::kOrc;
  const size_t count = binary && !options.merge_schema ? 1 : listing.files.size();
  std::vector<std::shared_ptr<arrow::Schema>> schemas;
  for (size_t i = 0; i < count; ++i) {
    const auto& file = listing.files[i];
    auto schema = format->Inspect(ds::FileSource(file, listing.filesystem));
    if (!schema.ok()) {
      std::string display = DisplayPath(*listing.filesystem, file.path());
      return binary ? FooterReadError(display, schema.status())
                    : FileReadError(display, schema.status());
    }
    schemas.push_back(*std::move(schema));
  }
  NormalizeRules rules;
  if (options.format == FileFormatKind::kJson) {
    rules.timestamps_as_strings = true;
    rules.sort_struct_fields = true;
  }
  return MergeSchemas(schemas, /*string_fallback=*/!binary, rules);
}

}  // namespace

const char* FormatName(FileFormatKind format) {
  switch (format) {
    case FileFormatKind::kParquet: return "parquet";
    case FileFormatKind::kCsv: return "csv";
    case FileFormatKind::kJson: return "json";
    case FileFormatKind::kOrc: return "orc";
  }
  return "parquet";
}

Result<ReadOptions> ParseReadOptions(FileFormatKind format, const Options& options) {
  ReadOptions out;
  out.format = format;
  out.raw = options;
  if (auto it = options.find("path"); it != options.end()) out.path = it->second;
  if (auto it = options.find("basepath"); it != options.end()) out.base_path = it->second;
  ARROW_ASSIGN_OR_RAISE(out.merge_schema, BoolOption(options, "mergeschema", false));
  ARROW_ASSIGN_OR_RAISE(out.max_partition_bytes,
                        BytesOption(options, "maxpartitionbytes", out.max_partition_bytes));
  if (out.max_partition_bytes == 0) {
    return BadOption("maxpartitionbytes", options.at("maxpartitionbytes"), "a positive size");
  }
  ARROW_ASSIGN_OR_RAISE(out.open_cost_in_bytes,
                        BytesOption(options, "opencostinbytes", out.open_cost_in_bytes));
  const int64_t threads = std::max<int64_t>(1, std::thread::hardware_concurrency());
  if (auto it = options.find("minpartitionnum"); it != options.end()) {
    int64_t value = 0;
    auto [end, error] =
        std::from_chars(it->second.data(), it->second.data() + it->second.size(), value);
    if (error != std::errc() || end != it->second.data() + it->second.size() || value <= 0) {
      return BadOption("minpartitionnum", it->second, "a positive integer");
    }
    out.min_partition_num = value;
  } else {
    out.min_partition_num = threads;
  }
  ARROW_ASSIGN_OR_RAISE(out.header, BoolOption(options, "header", false));
  ARROW_ASSIGN_OR_RAISE(out.infer_schema, BoolOption(options, "inferschema", false));
  ARROW_ASSIGN_OR_RAISE(out.multi_line, BoolOption(options, "multiline", false));
  ARROW_ASSIGN_OR_RAISE(out.delimiter, DelimiterOption(options));
  if (auto it = options.find("quote"); it != options.end()) {
    if (it->second.empty()) {
      out.quoting = false;  // Spark: an empty quote turns quoting off
    } else {
      std::optional<char> quote = ParseChar(it->second);
      if (!quote) return BadOption("quote", it->second, "one character");
      out.quote = *quote;
    }
  }
  if (auto it = options.find("escape"); it != options.end()) {
    std::optional<char> escape = ParseChar(it->second);
    if (!escape) return BadOption("escape", it->second, "one character");
    out.escaping = true;
    out.escape = *escape;
  }
  if (auto it = options.find("nullvalue"); it != options.end()) out.null_value = it->second;
  return out;
}

Result<std::shared_ptr<ds::FileFormat>> MakeArrowFormat(const ReadOptions& options) {
  switch (options.format) {
    case FileFormatKind::kParquet: return std::make_shared<ds::ParquetFileFormat>();
    case FileFormatKind::kOrc: return std::make_shared<ds::OrcFileFormat>();
    case FileFormatKind::kJson: {
      auto format = std::make_shared<ds::JsonFileFormat>();
      auto scan_options = std::make_shared<ds::JsonFragmentScanOptions>();
      scan_options->parse_options.newlines_in_values = options.multi_line;
      format->default_fragment_scan_options = std::move(scan_options);
      return format;
    }
    case FileFormatKind::kCsv: {
      auto format = std::make_shared<ds::CsvFileFormat>();
      format->parse_options = CsvParseOptions(options);
      return format;
    }
  }
  return Status::Invalid("unknown file format");
}

std::shared_ptr<ds::FragmentScanOptions> MakeCsvScanOptions(const ReadOptions& options,
                                                            const arrow::Schema& data_schema,
                                                            int skip_rows) {
  auto scan_options = std::make_shared<ds::CsvFragmentScanOptions>();
  scan_options->parse_options = CsvParseOptions(options);
  auto& read = scan_options->read_options;
  read.use_threads = false;
  read.autogenerate_column_names = false;
  read.skip_rows = skip_rows;
  read.column_names = data_schema.field_names();
  auto& convert = scan_options->convert_options;
  convert.null_values = {options.null_value};
  convert.strings_can_be_null = true;
  convert.quoted_strings_can_be_null = false;
  convert.true_values = {"true", "True", "TRUE"};
  convert.false_values = {"false", "False", "FALSE"};
  for (const auto& field : data_schema.fields()) {
    convert.column_types[field->name()] = field->type();
  }
  return scan_options;
}

bool IsSplittable(const ReadOptions& options, const std::string& path) {
  if (options.multi_line) return false;
  if (options.format != FileFormatKind::kCsv && options.format != FileFormatKind::kJson) {
    return false;
  }
  size_t slash = path.find_last_of('/');
  size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return true;
  std::string extension = Lower(path.substr(dot + 1));
  if (extension == "gz") return false;
  auto compression = arrow::util::Codec::GetCompressionType(extension);
  return !compression.ok() || *compression == arrow::Compression::UNCOMPRESSED;
}

Result<std::shared_ptr<arrow::Schema>> InferDataSchema(const ReadOptions& options,
                                                       const Listing& listing) {
  if (options.format == FileFormatKind::kCsv) return InferCsv(options, listing);
  return InferWithArrow(options, listing);
}

}  // namespace parley::files
