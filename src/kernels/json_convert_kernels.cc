// Spark's conversions between JSON text and typed values (json_document.h):
//   parley_from_json(utf8 text, marker, utf8 options) -> the marker's type (a struct, array or
//     map): the text read as Spark's PERMISSIVE mode reads it. A value that does not convert is
//     NULL (a struct keeps the fields that do, and `_corrupt_record` gets the text); text that
//     is not JSON is a struct of NULLs, or NULL for an array or map; empty text is NULL. With
//     mode FAILFAST, text that does not read is MALFORMED_RECORD_IN_PARSING.
//   parley_to_json(struct, array or map, utf8 options) -> utf8: the value as JSON, a struct's
//     NULL fields left out unless ignoreNullFields is false.
// `options` is the JSON object of the call's options (timestampFormat, dateFormat, mode...).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "arrow/array/builder_base.h"
#include "arrow/util/base64.h"
#include "arrow/util/decimal.h"
#include "kernels/datetime_pattern.h"
#include "kernels/decimal_text.h"
#include "kernels/java_number_text.h"
#include "kernels/json_document.h"
#include "kernels/kernel_support.h"
#include "kernels/value_text.h"

namespace parley::kernels {
namespace {

namespace cp = arrow::compute;
using arrow::internal::checked_cast;

constexpr int64_t kMicrosPerDay = 86400LL * 1000000;

// The options of one call.
struct JsonOptions {
  std::optional<DatetimePattern> timestamp_format;
  std::optional<DatetimePattern> timestamp_ntz_format;
  std::optional<DatetimePattern> date_format;
  bool fail_fast = false;
  bool ignore_null_fields = true;
  bool sort_keys = false;
};

Result<JsonOptions> OptionsOf(std::string_view text, DatetimePattern::Use use) {
  JsonOptions options;
  auto document = ParseJson(text);
  if (!document || document->kind != JsonValue::Kind::kObject) return options;
  for (size_t i = 0; i < document->keys.size(); ++i) {
    std::string key = document->keys[i];
    std::transform(key.begin(), key.end(), key.begin(), ::tolower);
    const std::string& value = document->items[i].text;
    if (key == "timestampformat") {
      ARROW_ASSIGN_OR_RAISE(options.timestamp_format, DatetimePattern::Compile(value, use));
    } else if (key == "timestampntzformat") {
      ARROW_ASSIGN_OR_RAISE(options.timestamp_ntz_format, DatetimePattern::Compile(value, use));
    } else if (key == "dateformat") {
      ARROW_ASSIGN_OR_RAISE(options.date_format, DatetimePattern::Compile(value, use));
    } else if (key == "mode") {
      std::string mode = value;
      std::transform(mode.begin(), mode.end(), mode.begin(), ::toupper);
      options.fail_fast = mode == "FAILFAST";
    } else if (key == "ignorenullfields") {
      options.ignore_null_fields = value != "false";
    } else if (key == "sortkeys") {
      options.sort_keys = value == "true";
    }
  }
  return options;
}

// Instants in the text forms Spark reads without a timestampFormat.
const std::vector<DatetimePattern>& DefaultInstantPatterns() {
  static const std::vector<DatetimePattern> patterns = [] {
    std::vector<DatetimePattern> made;
    for (const char* text :
         {"yyyy-MM-dd'T'HH:mm[:ss][.SSSSSSSSS][XXX]", "yyyy-MM-dd[ HH:mm[:ss][.SSSSSSSSS]][XXX]"}) {
      made.push_back(*DatetimePattern::Compile(text, DatetimePattern::Use::kParse));
    }
    return made;
  }();
  return patterns;
}

std::optional<int64_t> ParseInstant(const std::string& text,
                                    const std::optional<DatetimePattern>& format) {
  if (format) {
    auto parsed = format->Parse(text);
    if (parsed.ok()) return *parsed;
    return std::nullopt;
  }
  for (const auto& pattern : DefaultInstantPatterns()) {
    auto parsed = pattern.Parse(text);
    if (parsed.ok()) return *parsed;
  }
  return std::nullopt;
}

using ScalarPtr = std::shared_ptr<arrow::Scalar>;

std::optional<double> SpecialDouble(const std::string& text) {
  if (text == "NaN") return std::nan("");
  if (text == "Infinity" || text == "+Infinity" || text == "+INF" || text == "INF") {
    return INFINITY;
  }
  if (text == "-Infinity" || text == "-INF") return -INFINITY;
  return std::nullopt;
}

// `value` (nullptr: absent) as a scalar of `type`; nullopt when it does not convert. `failed`
// is set when a part inside a struct did not convert (the struct keeps its other fields).
std::optional<ScalarPtr> Convert(const JsonValue* value,
                                 const std::shared_ptr<arrow::DataType>& type,
                                 const JsonOptions& options, bool* failed);

std::optional<ScalarPtr> ConvertStruct(const JsonValue& value,
                                       const std::shared_ptr<arrow::DataType>& type,
                                       const JsonOptions& options, bool* failed) {
  if (value.kind != JsonValue::Kind::kObject) return std::nullopt;
  std::vector<ScalarPtr> fields;
  for (const auto& field : type->fields()) {
    auto converted = Convert(value.Field(field->name()), field->type(), options, failed);
    if (!converted) {
      *failed = true;
      converted = arrow::MakeNullScalar(field->type());
    }
    fields.push_back(*converted);
  }
  return std::make_shared<arrow::StructScalar>(std::move(fields), type);
}

std::optional<ScalarPtr> Convert(const JsonValue* value,
                                 const std::shared_ptr<arrow::DataType>& type,
                                 const JsonOptions& options, bool* failed) {
  if (value == nullptr || value->kind == JsonValue::Kind::kNull) {
    return arrow::MakeNullScalar(type);
  }
  using Kind = JsonValue::Kind;
  const bool is_number = value->kind == Kind::kInteger || value->kind == Kind::kFloat;
  switch (type->id()) {
    case arrow::Type::BOOL:
      if (value->kind != Kind::kBoolean) return std::nullopt;
      return std::make_shared<arrow::BooleanScalar>(value->boolean);
    case arrow::Type::INT8:
    case arrow::Type::INT16:
    case arrow::Type::INT32:
    case arrow::Type::INT64: {
      if (value->kind != Kind::kInteger) return std::nullopt;
      auto scalar = arrow::Scalar::Parse(type, value->text);
      if (!scalar.ok()) return std::nullopt;
      return *scalar;
    }
    case arrow::Type::FLOAT:
    case arrow::Type::DOUBLE: {
      double number;
      if (is_number) {
        number = value->number;
      } else if (value->kind == Kind::kString && SpecialDouble(value->text)) {
        number = *SpecialDouble(value->text);
      } else {
        return std::nullopt;
      }
      if (type->id() == arrow::Type::FLOAT) {
        return std::make_shared<arrow::FloatScalar>(static_cast<float>(number));
      }
      return std::make_shared<arrow::DoubleScalar>(number);
    }
    case arrow::Type::DECIMAL128: {
      if (!is_number) return std::nullopt;
      const auto& decimal = checked_cast<const arrow::Decimal128Type&>(*type);
      auto text = ParseDecimalText(value->text);
      if (!text) return std::nullopt;
      auto rounded = RoundDigitsToDecimal(text->digits, text->exponent, text->negative,
                                          decimal.precision(), decimal.scale());
      if (!rounded) return std::nullopt;
      return std::make_shared<arrow::Decimal128Scalar>(*rounded, type);
    }
    case arrow::Type::STRING:
      if (value->kind == Kind::kString) return std::make_shared<arrow::StringScalar>(value->text);
      return std::make_shared<arrow::StringScalar>(WriteJson(*value));
    case arrow::Type::DATE32: {
      if (value->kind != Kind::kString) return std::nullopt;
      auto instant = ParseInstant(value->text, options.date_format);
      if (!instant) return std::nullopt;
      int64_t days = *instant / kMicrosPerDay - (*instant % kMicrosPerDay < 0 ? 1 : 0);
      return std::make_shared<arrow::Date32Scalar>(static_cast<int32_t>(days));
    }
    case arrow::Type::TIMESTAMP: {
      const auto& timestamp = checked_cast<const arrow::TimestampType&>(*type);
      if (value->kind == Kind::kInteger) {
        return std::make_shared<arrow::TimestampScalar>(
            static_cast<int64_t>(value->number) * 1000000, type);
      }
      if (value->kind != Kind::kString) return std::nullopt;
      auto instant =
          ParseInstant(value->text, timestamp.timezone().empty() ? options.timestamp_ntz_format
                                                                 : options.timestamp_format);
      if (!instant) return std::nullopt;
      return std::make_shared<arrow::TimestampScalar>(*instant, type);
    }
    case arrow::Type::STRUCT: return ConvertStruct(*value, type, options, failed);
    case arrow::Type::LIST: {
      if (value->kind != Kind::kArray) return std::nullopt;
      const auto& element = type->field(0)->type();
      std::unique_ptr<arrow::ArrayBuilder> builder;
      if (!arrow::MakeBuilder(arrow::default_memory_pool(), element, &builder).ok()) {
        return std::nullopt;
      }
      for (const auto& item : value->items) {
        bool inner_failed = false;
        auto converted = Convert(&item, element, options, &inner_failed);
        if (!converted || inner_failed || !builder->AppendScalar(**converted).ok()) {
          return std::nullopt;
        }
      }
      auto values = builder->Finish();
      if (!values.ok()) return std::nullopt;
      return std::make_shared<arrow::ListScalar>(*values, type);
    }
    case arrow::Type::MAP: {
      if (value->kind != Kind::kObject) return std::nullopt;
      const auto& map = checked_cast<const arrow::MapType&>(*type);
      std::unique_ptr<arrow::ArrayBuilder> keys;
      std::unique_ptr<arrow::ArrayBuilder> items;
      if (!arrow::MakeBuilder(arrow::default_memory_pool(), map.key_type(), &keys).ok() ||
          !arrow::MakeBuilder(arrow::default_memory_pool(), map.item_type(), &items).ok()) {
        return std::nullopt;
      }
      for (size_t i = 0; i < value->keys.size(); ++i) {
        JsonValue key;
        key.kind = Kind::kString;
        key.text = value->keys[i];
        bool inner_failed = false;
        auto converted_key = Convert(&key, map.key_type(), options, &inner_failed);
        auto converted_item = Convert(&value->items[i], map.item_type(), options, &inner_failed);
        if (!converted_key || !converted_item || inner_failed ||
            !keys->AppendScalar(**converted_key).ok() ||
            !items->AppendScalar(**converted_item).ok()) {
          return std::nullopt;
        }
      }
      auto key_array = keys->Finish();
      auto item_array = items->Finish();
      if (!key_array.ok() || !item_array.ok()) return std::nullopt;
      auto entries =
          arrow::StructArray::Make({*key_array, *item_array}, {map.key_field(), map.item_field()});
      if (!entries.ok()) return std::nullopt;
      return std::make_shared<arrow::MapScalar>(*entries, type);
    }
    default: return std::nullopt;
  }
}

bool IsBlank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

Status Malformed(std::string_view text) {
  return MakeError(arrow::StatusCode::Invalid, "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION",
                   fmt::format("Malformed records are detected in record parsing: [{}]. Parse "
                               "Mode: FAILFAST. To process malformed records as null result, try "
                               "setting the option 'mode' as 'PERMISSIVE'.",
                               text));
}

// One text read as `type` (a struct, array or map).
Result<ScalarPtr> FromJson(std::string_view text, const std::shared_ptr<arrow::DataType>& type,
                           const JsonOptions& options) {
  if (IsBlank(text)) return arrow::MakeNullScalar(type);
  auto document = ParseJson(text);
  bool failed = !document;
  std::optional<ScalarPtr> converted;
  if (document) converted = Convert(&*document, type, options, &failed);
  if (!converted) failed = true;
  if (failed && options.fail_fast) return Malformed(text);
  if (type->id() != arrow::Type::STRUCT) {
    return converted && !failed ? *converted : arrow::MakeNullScalar(type);
  }
  std::vector<ScalarPtr> fields;
  for (int i = 0; i < type->num_fields(); ++i) {
    const auto& field = type->field(i);
    if (failed && field->name() == "_corrupt_record") {
      fields.push_back(std::make_shared<arrow::StringScalar>(std::string(text)));
    } else if (converted) {
      fields.push_back(checked_cast<const arrow::StructScalar&>(**converted).value[i]);
    } else {
      fields.push_back(arrow::MakeNullScalar(field->type()));
    }
  }
  return std::make_shared<arrow::StructScalar>(std::move(fields), type);
}

Status FromJsonExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  auto type = batch[1].type()->GetSharedPtr();
  StringColumn texts(batch[0]);
  StringColumn options_text(batch[2]);
  ARROW_ASSIGN_OR_RAISE(auto options,
                        OptionsOf(options_text.Value(0), DatetimePattern::Use::kParse));
  std::unique_ptr<arrow::ArrayBuilder> builder;
  ARROW_RETURN_NOT_OK(arrow::MakeBuilder(ctx->memory_pool(), type, &builder));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!texts.IsValid(row)) {
      ARROW_RETURN_NOT_OK(builder->AppendNull());
      continue;
    }
    ARROW_ASSIGN_OR_RAISE(auto value, FromJson(texts.Value(row), type, options));
    ARROW_RETURN_NOT_OK(builder->AppendScalar(*value));
  }
  return FinishInto(builder.get(), out);
}

// Writing: the value at `row` of `array` as JSON.
Status WriteValue(const arrow::Array& array, int64_t row, const JsonOptions& options,
                  std::string* out);

std::string InstantText(int64_t micros, const std::optional<DatetimePattern>& format,
                        const char* fallback) {
  if (format) return format->Format(micros);
  static const auto kDefault = [](const char* text) {
    return *DatetimePattern::Compile(text, DatetimePattern::Use::kFormat);
  };
  static const DatetimePattern kInstant = kDefault("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
  static const DatetimePattern kLocal = kDefault("yyyy-MM-dd'T'HH:mm:ss[.SSS]");
  static const DatetimePattern kDate = kDefault("yyyy-MM-dd");
  std::string_view which = fallback;
  const DatetimePattern& pattern = which == "instant" ? kInstant
                                   : which == "local" ? kLocal
                                                      : kDate;
  return pattern.Format(micros);
}

Status WriteValue(const arrow::Array& array, int64_t row, const JsonOptions& options,
                  std::string* out) {
  if (array.IsNull(row)) {
    out->append("null");
    return Status::OK();
  }
  switch (array.type_id()) {
    case arrow::Type::FLOAT:
    case arrow::Type::DOUBLE: {
      double value = FloatingPointValue(array, row);
      std::string text = FloatingPointText(array, row);
      if (std::isfinite(value)) {
        out->append(text);
      } else {
        AppendJsonString(text, out);
      }
      return Status::OK();
    }
    case arrow::Type::STRING:
      AppendJsonString(checked_cast<const arrow::StringArray&>(array).GetView(row), out);
      return Status::OK();
    case arrow::Type::BINARY:
      AppendJsonString(
          arrow::util::base64_encode(checked_cast<const arrow::BinaryArray&>(array).GetView(row)),
          out);
      return Status::OK();
    case arrow::Type::DATE32: {
      int64_t days = checked_cast<const arrow::Date32Array&>(array).Value(row);
      AppendJsonString(InstantText(days * kMicrosPerDay, options.date_format, "date"), out);
      return Status::OK();
    }
    case arrow::Type::TIMESTAMP: {
      const auto& timestamp = checked_cast<const arrow::TimestampType&>(*array.type());
      int64_t micros = checked_cast<const arrow::TimestampArray&>(array).Value(row);
      bool local = timestamp.timezone().empty();
      AppendJsonString(
          InstantText(micros, local ? options.timestamp_ntz_format : options.timestamp_format,
                      local ? "local" : "instant"),
          out);
      return Status::OK();
    }
    case arrow::Type::LIST:
    case arrow::Type::LARGE_LIST:
    case arrow::Type::FIXED_SIZE_LIST: {
      out->push_back('[');
      ARROW_RETURN_NOT_OK(ForEachListElement(
          array, row, [&](const arrow::Array& values, int64_t index, int64_t position) {
            if (position > 0) out->push_back(',');
            return WriteValue(values, index, options, out);
          }));
      out->push_back(']');
      return Status::OK();
    }
    case arrow::Type::MAP: {
      const auto& map = checked_cast<const arrow::MapArray&>(array);
      out->push_back('{');
      for (int64_t i = 0; i < map.value_length(row); ++i) {
        int64_t entry = map.value_offset(row) + i;
        if (i > 0) out->push_back(',');
        std::string key;
        if (map.keys()->type_id() == arrow::Type::STRUCT) {
          // A struct key is written as its fields in brackets, as Spark writes a row: [1,x].
          const auto& fields = checked_cast<const arrow::StructArray&>(*map.keys());
          key.push_back('[');
          for (int f = 0; f < fields.num_fields(); ++f) {
            if (f > 0) key.push_back(',');
            ARROW_RETURN_NOT_OK(AppendValueText(*fields.field(f), entry, &key));
          }
          key.push_back(']');
        } else {
          ARROW_RETURN_NOT_OK(AppendValueText(*map.keys(), entry, &key));
        }
        AppendJsonString(key, out);
        out->push_back(':');
        ARROW_RETURN_NOT_OK(WriteValue(*map.items(), entry, options, out));
      }
      out->push_back('}');
      return Status::OK();
    }
    case arrow::Type::STRUCT: {
      const auto& structs = checked_cast<const arrow::StructArray&>(array);
      out->push_back('{');
      bool first = true;
      std::vector<int> order(structs.num_fields());
      for (int i = 0; i < structs.num_fields(); ++i) order[i] = i;
      if (options.sort_keys) {
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
          return structs.type()->field(a)->name() < structs.type()->field(b)->name();
        });
      }
      for (int i : order) {
        const auto& field = *structs.field(i);
        if (field.IsNull(row) && options.ignore_null_fields) continue;
        if (!first) out->push_back(',');
        first = false;
        AppendJsonString(structs.type()->field(i)->name(), out);
        out->push_back(':');
        ARROW_RETURN_NOT_OK(WriteValue(field, row, options, out));
      }
      out->push_back('}');
      return Status::OK();
    }
    default:
      // Booleans, integers and decimals: their text is their JSON.
      return AppendValueText(array, row, out);
  }
}

Status ToJsonExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  ARROW_ASSIGN_OR_RAISE(auto values, ArgumentArray(batch, 0));
  StringColumn options_text(batch[1]);
  ARROW_ASSIGN_OR_RAISE(auto options,
                        OptionsOf(options_text.Value(0), DatetimePattern::Use::kFormat));
  arrow::StringBuilder builder(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (values->IsNull(row)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    std::string text;
    ARROW_RETURN_NOT_OK(WriteValue(*values, row, options, &text));
    ARROW_RETURN_NOT_OK(builder.Append(text));
  }
  return FinishInto(&builder, out);
}

}  // namespace

Status RegisterJsonConvertKernels(cp::FunctionRegistry* registry) {
  ARROW_RETURN_NOT_OK(AddAnyInputFunction(registry, "parley_from_json", cp::Arity::Ternary(),
                                          cp::OutputType(InputTypeAt<1>), FromJsonExec,
                                          "JSON text read as a typed value"));
  return AddAnyInputFunction(registry, "parley_to_json", cp::Arity::Binary(),
                             cp::OutputType(arrow::utf8()), ToJsonExec,
                             "A struct, array or map written as JSON");
}

}  // namespace parley::kernels
