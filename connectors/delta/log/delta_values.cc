// Partition values and file statistics (§5) as typed Arrow scalars.
#include <nlohmann/json.hpp>

#include <string>

#include "arrow/scalar.h"
#include "arrow/type.h"
#include "arrow/util/decimal.h"
#include "connectors/delta/log/values.h"

namespace parley::delta {
namespace {

using nlohmann::json;

Result<std::shared_ptr<arrow::Scalar>> ParseDecimal(const std::string& text,
                                                    const arrow::Decimal128Type& type) {
  arrow::Decimal128 value;
  int32_t precision = 0, scale = 0;
  ARROW_RETURN_NOT_OK(arrow::Decimal128::FromString(text, &value, &precision, &scale));
  if (scale != type.scale()) {
    ARROW_ASSIGN_OR_RAISE(value, value.Rescale(scale, type.scale()));
  }
  if (!value.FitsInPrecision(type.precision())) {
    return Status::Invalid(text, " does not fit decimal(", type.precision(), ",", type.scale(),
                           ")");
  }
  return std::make_shared<arrow::Decimal128Scalar>(
      value, arrow::decimal128(type.precision(), type.scale()));
}

// Timestamps come as `YYYY-MM-DD HH:MM:SS[.ffffff]`, ISO `...T...[Z|+hh:mm]`, or a date.
Result<std::shared_ptr<arrow::Scalar>> ParseTimestamp(
    std::string text, const std::shared_ptr<arrow::DataType>& type) {
  auto parsed = arrow::Scalar::Parse(type, text);
  if (parsed.ok()) return parsed;
  if (!text.empty() && (text.back() == 'Z' || text.back() == 'z')) {
    text.pop_back();
    parsed = arrow::Scalar::Parse(type, text);
  }
  return parsed;
}

Result<std::shared_ptr<arrow::Scalar>> ParseText(const std::string& text,
                                                 const std::shared_ptr<arrow::DataType>& type) {
  switch (type->id()) {
    case arrow::Type::STRING: return std::make_shared<arrow::StringScalar>(text);
    case arrow::Type::BINARY: return std::make_shared<arrow::BinaryScalar>(text);
    case arrow::Type::DECIMAL128:
      return ParseDecimal(text, static_cast<const arrow::Decimal128Type&>(*type));
    case arrow::Type::TIMESTAMP: return ParseTimestamp(text, type);
    case arrow::Type::BOOL:
      if (text == "true" || text == "false") return arrow::MakeScalar(text == "true");
      return Status::Invalid("not a boolean");
    default: return arrow::Scalar::Parse(type, text);
  }
}

// A statistics value (JSON number or string) as a scalar of the column type, or null.
std::shared_ptr<arrow::Scalar> StatValue(const json& value,
                                         const std::shared_ptr<arrow::DataType>& type) {
  if (value.is_null() || value.is_object() || value.is_array()) return nullptr;
  // A JSON number that is not an integer of 64 bits was parsed as a double, whose 15-17
  // significant digits may have rounded a wider decimal's value (Spark writes every digit): such
  // a bound could skip a file holding a match, so it counts as unknown.
  if (value.is_number_float() && type->id() == arrow::Type::DECIMAL128 &&
      static_cast<const arrow::DecimalType&>(*type).precision() > 15) {
    return nullptr;
  }
  std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  if (value.is_number() && (arrow::is_integer(type->id()) || arrow::is_floating(type->id()))) {
    auto number = value.is_number_float() ? arrow::MakeScalar(value.get<double>())
                                          : arrow::MakeScalar(value.get<int64_t>());
    auto cast = number->CastTo(type);
    return cast.ok() ? *cast : nullptr;
  }
  auto parsed = ParseText(text, type);
  return parsed.ok() ? *parsed : nullptr;
}

}  // namespace

Result<std::shared_ptr<arrow::Scalar>> ParsePartitionValue(
    const std::optional<std::string>& value, const std::shared_ptr<arrow::DataType>& type,
    const std::string& column) {
  if (!value.has_value() || value->empty()) return arrow::MakeNullScalar(type);
  auto parsed = ParseText(*value, type);
  if (!parsed.ok()) {
    return InvalidError("DELTA_FAILED_CAST_PARTITION_VALUE",
                        "Failed to cast partition value `" + *value + "` to " + type->ToString() +
                            " for the partition column " + QuoteIdentifier(column) + ".");
  }
  return parsed;
}

FileStatistics ParseStatistics(
    const std::string& stats,
    const std::map<std::string, std::shared_ptr<arrow::DataType>>& columns) {
  FileStatistics out;
  if (stats.empty()) return out;
  json parsed = json::parse(stats, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) return out;
  if (auto it = parsed.find("numRecords"); it != parsed.end() && it->is_number_integer()) {
    out.num_records = it->get<int64_t>();
  }
  if (auto it = parsed.find("tightBounds"); it != parsed.end() && it->is_boolean()) {
    out.tight_bounds = it->get<bool>();
  }
  auto bounds = [&](const char* key, bool is_max,
                    std::map<std::string, std::shared_ptr<arrow::Scalar>>* into) {
    auto it = parsed.find(key);
    if (it == parsed.end() || !it->is_object()) return;
    for (const auto& [name, type] : columns) {
      auto value = it->find(name);
      if (value == it->end()) continue;
      auto scalar = StatValue(*value, type);
      if (scalar == nullptr || !scalar->is_valid) continue;
      if (is_max && type->id() == arrow::Type::TIMESTAMP) {
        // Statistics are truncated to milliseconds: the true maximum may be 999 µs later.
        auto& ts = static_cast<arrow::TimestampScalar&>(*scalar);
        const auto& unit = static_cast<const arrow::TimestampType&>(*type).unit();
        if (unit == arrow::TimeUnit::MICRO) ts.value += 999;
        if (unit == arrow::TimeUnit::NANO) ts.value += 999999;
      }
      (*into)[name] = std::move(scalar);
    }
  };
  bounds("minValues", false, &out.min_values);
  bounds("maxValues", true, &out.max_values);
  if (auto it = parsed.find("nullCount"); it != parsed.end() && it->is_object()) {
    for (const auto& [name, type] : columns) {
      auto value = it->find(name);
      if (value != it->end() && value->is_number_integer()) {
        out.null_counts[name] = value->get<int64_t>();
      }
    }
  }
  return out;
}

}  // namespace parley::delta
