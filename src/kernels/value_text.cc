#include "kernels/value_text.h"

#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <iterator>

#include "arrow/array/builder_binary.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "arrow/type_traits.h"
#include "arrow/util/float16.h"
#include "kernels/decimal_text.h"
#include "kernels/java_number_text.h"
#include "kernels/kernel_support.h"
#include "kernels/utf8_text.h"

namespace parley::kernels {
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
void AppendBinary(std::string_view bytes, std::string* out) { *out += MakeValidUtf8(bytes); }

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

}  // namespace

Status AppendValueText(const arrow::Array& array, int64_t row, std::string* out) {
  return AppendText(array, row, out);
}

Status RegisterValueTextKernel(arrow::compute::FunctionRegistry* registry) {
  namespace cp = arrow::compute;
  auto exec = [](cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
    auto values = batch[0].array.ToArray();
    arrow::StringBuilder builder(ctx->memory_pool());
    ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
    std::string text;
    for (int64_t row = 0; row < batch.length; ++row) {
      if (values->IsNull(row)) {
        ARROW_RETURN_NOT_OK(builder.AppendNull());
        continue;
      }
      text.clear();
      ARROW_RETURN_NOT_OK(AppendText(*values, row, &text));
      ARROW_RETURN_NOT_OK(builder.Append(text));
    }
    return FinishInto(&builder, out);
  };
  return AddFunction(registry, "parley_value_text", {cp::InputType::Any()},
                     cp::OutputType(arrow::utf8()), exec, "The text of each value");
}

bool IsFloatingPointType(arrow::Type::type id) { return IsFloatingPoint(id); }

double FloatingPointValue(const arrow::Array& array, int64_t row) {
  double result = 0;
  WithFloatingPoint(array, row, [&](auto value) { result = static_cast<double>(value); });
  return result;
}

std::string FloatingPointText(const arrow::Array& array, int64_t row) {
  return FormatFloatingPoint(array, row);
}

}  // namespace parley::kernels
