// Writing: file statistics (§5) collected while a data file is written, and partition values
// serialized as the log stores them.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <optional>
#include <string>

#include "arrow/array.h"
#include "arrow/builder.h"
#include "arrow/compute/api_aggregate.h"
#include "arrow/compute/api_scalar.h"
#include "arrow/compute/exec.h"
#include "arrow/record_batch.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "arrow/util/decimal.h"
#include "connectors/delta/log/values.h"

namespace parley::delta {
namespace {

using nlohmann::json;

// Strings keep at most this many characters in statistics, as delta-spark does.
constexpr size_t kStringPrefixLength = 32;
// Decimals up to this precision are exact as JSON numbers (doubles).
constexpr int kMaxDecimalStatsPrecision = 15;

struct CivilTime {
  int64_t year, month, day;
};

CivilTime CivilFromDays(int64_t days) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t day_of_era = days - era * 146097;
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t mp = (5 * day_of_year + 2) / 153;
  const int64_t day = day_of_year - (153 * mp + 2) / 5 + 1;
  const int64_t month = mp < 10 ? mp + 3 : mp - 9;
  return {year_of_era + era * 400 + (month <= 2), month, day};
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

std::string FormatDate(int64_t days) {
  CivilTime civil = CivilFromDays(days);
  char buffer[80];
  std::snprintf(buffer, sizeof(buffer), "%04lld-%02lld-%02lld", static_cast<long long>(civil.year),
                static_cast<long long>(civil.month), static_cast<long long>(civil.day));
  return buffer;
}

int64_t ToMicros(int64_t value, arrow::TimeUnit::type unit) {
  switch (unit) {
    case arrow::TimeUnit::SECOND: return value * 1000000;
    case arrow::TimeUnit::MILLI: return value * 1000;
    case arrow::TimeUnit::MICRO: return value;
    case arrow::TimeUnit::NANO: return FloorDiv(value, 1000);
  }
  return value;
}

// `yyyy-MM-dd<sep>HH:mm:ss.<fraction>`; `fraction_digits` is 3 or 6.
std::string FormatTimestamp(int64_t micros, char separator, int fraction_digits) {
  int64_t days = FloorDiv(micros, 86400000000LL);
  int64_t in_day = micros - days * 86400000000LL;
  int64_t seconds = in_day / 1000000;
  int64_t fraction = in_day % 1000000;
  if (fraction_digits == 3) fraction /= 1000;
  char buffer[160];
  std::snprintf(buffer, sizeof(buffer), "%s%c%02lld:%02lld:%02lld.%0*lld", FormatDate(days).c_str(),
                separator, static_cast<long long>(seconds / 3600),
                static_cast<long long>(seconds / 60 % 60), static_cast<long long>(seconds % 60),
                fraction_digits, static_cast<long long>(fraction));
  return buffer;
}

bool HasTimeZone(const arrow::DataType& type) {
  return !static_cast<const arrow::TimestampType&>(type).timezone().empty();
}

// A min or max value as its statistics JSON, or null when the type has no usable form.
json StatJson(const arrow::Scalar& scalar, bool is_max) {
  if (!scalar.is_valid) return nullptr;
  const auto& type = *scalar.type;
  switch (type.id()) {
    case arrow::Type::INT8: return static_cast<const arrow::Int8Scalar&>(scalar).value;
    case arrow::Type::INT16: return static_cast<const arrow::Int16Scalar&>(scalar).value;
    case arrow::Type::INT32: return static_cast<const arrow::Int32Scalar&>(scalar).value;
    case arrow::Type::INT64: return static_cast<const arrow::Int64Scalar&>(scalar).value;
    case arrow::Type::FLOAT: return static_cast<const arrow::FloatScalar&>(scalar).value;
    case arrow::Type::DOUBLE: return static_cast<const arrow::DoubleScalar&>(scalar).value;
    case arrow::Type::DECIMAL128: {
      const auto& decimal = static_cast<const arrow::Decimal128Type&>(type);
      if (decimal.precision() > kMaxDecimalStatsPrecision) return nullptr;
      return json::parse(scalar.ToString(), nullptr, false);
    }
    case arrow::Type::STRING: {
      std::string_view text = static_cast<const arrow::StringScalar&>(scalar).view();
      // Count characters, not bytes: cut at a code point boundary.
      size_t characters = 0, cut = 0;
      for (; cut < text.size(); ++cut) {
        if ((static_cast<unsigned char>(text[cut]) & 0xC0) != 0x80) {
          if (characters == kStringPrefixLength) break;
          ++characters;
        }
      }
      if (cut == text.size()) return std::string(text);
      // A prefix is a valid lower bound but not an upper one.
      return is_max ? json(nullptr) : json(std::string(text.substr(0, cut)));
    }
    case arrow::Type::DATE32:
      return FormatDate(static_cast<const arrow::Date32Scalar&>(scalar).value);
    case arrow::Type::TIMESTAMP: {
      const auto& ts_type = static_cast<const arrow::TimestampType&>(type);
      int64_t micros =
          ToMicros(static_cast<const arrow::TimestampScalar&>(scalar).value, ts_type.unit());
      // Milliseconds, truncated; readers widen the maximum by 999 µs.
      micros = FloorDiv(micros, 1000) * 1000;
      return FormatTimestamp(micros, 'T', 3) + (HasTimeZone(type) ? "Z" : "");
    }
    default: return nullptr;
  }
}

bool HasBounds(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::INT8:
    case arrow::Type::INT16:
    case arrow::Type::INT32:
    case arrow::Type::INT64:
    case arrow::Type::FLOAT:
    case arrow::Type::DOUBLE:
    case arrow::Type::DECIMAL128:
    case arrow::Type::STRING:
    case arrow::Type::DATE32:
    case arrow::Type::TIMESTAMP: return true;
    default: return false;
  }
}

}  // namespace

// One column's running statistics; struct columns hold their children's.
struct StatisticsCollector::Column {
  std::shared_ptr<arrow::Field> field;
  int64_t null_count = 0;
  bool bounded = false;  // min/max collected
  bool has_nan = false;
  std::shared_ptr<arrow::Scalar> min, max;
  std::vector<Column> children;

  static Column For(const std::shared_ptr<arrow::Field>& field) {
    Column column;
    column.field = field;
    column.bounded = HasBounds(*field->type());
    if (field->type()->id() == arrow::Type::STRUCT) {
      for (const auto& child : field->type()->fields()) column.children.push_back(For(child));
    }
    return column;
  }

  Status Update(const std::shared_ptr<arrow::Array>& array) {
    null_count += array->null_count();
    if (!children.empty()) {
      const auto& structs = static_cast<const arrow::StructArray&>(*array);
      for (size_t i = 0; i < children.size(); ++i) {
        // A child is null where its parent is: flatten folds the parent's validity in.
        ARROW_ASSIGN_OR_RAISE(auto child, structs.GetFlattenedField(static_cast<int>(i)));
        ARROW_RETURN_NOT_OK(children[i].Update(child));
      }
      return Status::OK();
    }
    if (!bounded || has_nan || array->length() == array->null_count()) return Status::OK();
    if (arrow::is_floating(array->type_id())) {
      ARROW_ASSIGN_OR_RAISE(auto nan, arrow::compute::CallFunction("is_nan", {array}));
      ARROW_ASSIGN_OR_RAISE(auto any, arrow::compute::Any(nan));
      auto& flag = static_cast<const arrow::BooleanScalar&>(*any.scalar());
      // NaN sorts above every number in Spark: a file holding one has no usable bounds.
      if (flag.is_valid && flag.value) {
        has_nan = true;
        return Status::OK();
      }
    }
    if (array->type_id() == arrow::Type::STRING) {
      return UpdateStrings(static_cast<const arrow::StringArray&>(*array));
    }
    ARROW_ASSIGN_OR_RAISE(auto min_max, arrow::compute::MinMax(array));
    const auto& pair = static_cast<const arrow::StructScalar&>(*min_max.scalar());
    ARROW_RETURN_NOT_OK(Merge(pair.value[0], /*is_max=*/false));
    return Merge(pair.value[1], /*is_max=*/true);
  }

  // Strings compared as bytes (UTF-8 order is code point order) over views of the values: the
  // compute kernel copies each candidate into a std::string.
  Status UpdateStrings(const arrow::StringArray& strings) {
    std::optional<std::string_view> low, high;
    for (int64_t i = 0; i < strings.length(); ++i) {
      if (strings.IsNull(i)) continue;
      std::string_view value = strings.GetView(i);
      if (!low || value < *low) low = value;
      if (!high || value > *high) high = value;
    }
    ARROW_RETURN_NOT_OK(Merge(std::make_shared<arrow::StringScalar>(std::string(*low)),
                              /*is_max=*/false));
    return Merge(std::make_shared<arrow::StringScalar>(std::string(*high)), /*is_max=*/true);
  }

  Status Merge(const std::shared_ptr<arrow::Scalar>& value, bool is_max) {
    auto& current = is_max ? max : min;
    if (!value->is_valid) return Status::OK();
    if (current == nullptr) {
      current = value;
      return Status::OK();
    }
    ARROW_ASSIGN_OR_RAISE(
        auto compared, arrow::compute::CallFunction(is_max ? "greater" : "less", {value, current}));
    const auto& flag = static_cast<const arrow::BooleanScalar&>(*compared.scalar());
    if (flag.is_valid && flag.value) current = value;
    return Status::OK();
  }

  void Render(json* mins, json* maxes, json* nulls) const {
    const std::string& name = field->name();
    if (!children.empty()) {
      json child_mins = json::object(), child_maxes = json::object(), child_nulls = json::object();
      for (const auto& child : children) child.Render(&child_mins, &child_maxes, &child_nulls);
      if (!child_mins.empty()) (*mins)[name] = std::move(child_mins);
      if (!child_maxes.empty()) (*maxes)[name] = std::move(child_maxes);
      (*nulls)[name] = std::move(child_nulls);
      return;
    }
    (*nulls)[name] = null_count;
    if (has_nan) return;
    if (min) {
      json value = StatJson(*min, false);
      if (!value.is_null()) (*mins)[name] = std::move(value);
    }
    if (max) {
      json value = StatJson(*max, true);
      if (!value.is_null()) (*maxes)[name] = std::move(value);
    }
  }
};

StatisticsCollector::StatisticsCollector(const arrow::Schema& schema, int indexed_columns) {
  for (int i = 0; i < schema.num_fields() && i < indexed_columns; ++i) {
    columns_.push_back(Column::For(schema.field(i)));
  }
}

StatisticsCollector::~StatisticsCollector() = default;

Status StatisticsCollector::Update(const arrow::RecordBatch& batch) {
  num_records_ += batch.num_rows();
  for (size_t i = 0; i < columns_.size(); ++i) {
    ARROW_RETURN_NOT_OK(columns_[i].Update(batch.column(static_cast<int>(i))));
  }
  return Status::OK();
}

std::string StatisticsCollector::ToJson() const {
  json mins = json::object(), maxes = json::object(), nulls = json::object();
  for (const auto& column : columns_) column.Render(&mins, &maxes, &nulls);
  json stats = {{"numRecords", num_records_},
                {"minValues", std::move(mins)},
                {"maxValues", std::move(maxes)},
                {"nullCount", std::move(nulls)}};
  return stats.dump();
}

Result<std::optional<std::string>> FormatPartitionValue(const arrow::Scalar& value) {
  if (!value.is_valid) return std::nullopt;
  const auto& type = *value.type;
  switch (type.id()) {
    case arrow::Type::STRING: {
      std::string text(static_cast<const arrow::StringScalar&>(value).view());
      // An empty string partitions as NULL, as in Hive and Spark.
      if (text.empty()) return std::nullopt;
      return text;
    }
    case arrow::Type::DATE32:
      return FormatDate(static_cast<const arrow::Date32Scalar&>(value).value);
    case arrow::Type::TIMESTAMP: {
      const auto& ts_type = static_cast<const arrow::TimestampType&>(type);
      int64_t micros =
          ToMicros(static_cast<const arrow::TimestampScalar&>(value).value, ts_type.unit());
      if (HasTimeZone(type)) return FormatTimestamp(micros, 'T', 6) + "Z";
      return FormatTimestamp(micros, ' ', 6);
    }
    case arrow::Type::BOOL:
    case arrow::Type::INT8:
    case arrow::Type::INT16:
    case arrow::Type::INT32:
    case arrow::Type::INT64:
    case arrow::Type::FLOAT:
    case arrow::Type::DOUBLE:
    case arrow::Type::DECIMAL128: return value.ToString();
    default:
      return InvalidError(
          "DELTA_INVALID_PARTITION_COLUMN_TYPE",
          "Using a column of type " + type.ToString() + " as a partition column is not supported.");
  }
}

}  // namespace parley::delta
