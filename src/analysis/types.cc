// SQL type names, literal typing and Spark's widening rules, expressed over Arrow types.
#include "analysis/types.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "analysis/analysis_error.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "arrow/util/decimal.h"

namespace parley {
namespace {

constexpr int kMaxPrecision = 38;

std::shared_ptr<arrow::DataType> Decimal(int precision, int scale) {
  return arrow::decimal128(std::min(precision, kMaxPrecision), std::min(scale, kMaxPrecision));
}

// Precision and scale of the decimal that holds every value of `type` exactly.
std::pair<int, int> DecimalShape(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::INT8: return {3, 0};
    case arrow::Type::INT16: return {5, 0};
    case arrow::Type::INT32: return {10, 0};
    case arrow::Type::INT64: return {20, 0};
    default: {
      const auto& dec = static_cast<const arrow::DecimalType&>(type);
      return {dec.precision(), dec.scale()};
    }
  }
}

int NumericRank(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::INT8: return 1;
    case arrow::Type::INT16: return 2;
    case arrow::Type::INT32: return 3;
    case arrow::Type::INT64: return 4;
    case arrow::Type::DECIMAL128: return 5;
    case arrow::Type::FLOAT: return 6;
    case arrow::Type::DOUBLE: return 7;
    default: return 0;
  }
}

}  // namespace

bool IsNumeric(const arrow::DataType& type) { return NumericRank(type) > 0; }
bool IsIntegral(const arrow::DataType& type) {
  return NumericRank(type) >= 1 && NumericRank(type) <= 4;
}
bool IsStringLike(const arrow::DataType& type) {
  return type.id() == arrow::Type::STRING || type.id() == arrow::Type::LARGE_STRING;
}

Result<std::shared_ptr<arrow::DataType>> TypeFromName(const sql::TypeName& name,
                                                     SourcePosition pos) {
  const std::string& n = name.name;
  const auto& p = name.parameters;
  if (n == "INT" || n == "INTEGER") return arrow::int32();
  if (n == "BIGINT" || n == "LONG") return arrow::int64();
  if (n == "SMALLINT" || n == "SHORT") return arrow::int16();
  if (n == "TINYINT" || n == "BYTE") return arrow::int8();
  if (n == "BOOLEAN") return arrow::boolean();
  if (n == "FLOAT" || n == "REAL") return arrow::float32();
  if (n == "DOUBLE") return arrow::float64();
  if (n == "STRING" || n == "VARCHAR" || n == "CHAR") return arrow::utf8();
  if (n == "BINARY") return arrow::binary();
  if (n == "DATE") return arrow::date32();
  if (n == "TIMESTAMP" || n == "TIMESTAMP_LTZ") return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
  if (n == "TIMESTAMP_NTZ") return arrow::timestamp(arrow::TimeUnit::MICRO);
  if (n == "DECIMAL" || n == "DEC" || n == "NUMERIC") {
    int precision = p.empty() ? 10 : p[0];
    int scale = p.size() > 1 ? p[1] : 0;
    if (precision < 1 || precision > kMaxPrecision || scale < 0 || scale > precision) {
      return AnalysisError("DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION",
                           fmt::format("Decimal precision {} and scale {} are out of range "
                                       "(precision 1 to {}, scale 0 to precision).",
                                       precision, scale, kMaxPrecision),
                           pos);
    }
    return arrow::decimal128(precision, scale);
  }
  return AnalysisError("UNSUPPORTED_DATATYPE",
                       fmt::format("Unsupported data type \"{}\".", n), pos);
}

Result<std::shared_ptr<arrow::Scalar>> LiteralValue(const sql::Expr& literal) {
  const std::string& text = literal.text;
  switch (literal.literal_kind) {
    case sql::LiteralKind::kNull:
      return arrow::MakeNullScalar(arrow::null());
    case sql::LiteralKind::kBoolean:
      return std::make_shared<arrow::BooleanScalar>(text == "true" || text == "TRUE");
    case sql::LiteralKind::kInteger: {
      char suffix = text.empty() ? '\0' : static_cast<char>(::toupper(text.back()));
      bool has_suffix = suffix == 'L' || suffix == 'S' || suffix == 'Y';
      std::string digits = has_suffix ? text.substr(0, text.size() - 1) : text;
      int64_t value = 0;
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      bool fits64 = ec == std::errc() && end == digits.data() + digits.size();
      auto out_of_range = [&](const char* type) {
        return AnalysisError("INVALID_NUMERIC_LITERAL_RANGE",
                             fmt::format("Numeric literal {} is outside the valid range for {}.",
                                         text, type),
                             literal.pos);
      };
      if (suffix == 'L') {
        if (!fits64) return out_of_range("BIGINT");
        return std::make_shared<arrow::Int64Scalar>(value);
      }
      if (suffix == 'S') {
        if (!fits64 || value < INT16_MIN || value > INT16_MAX) return out_of_range("SMALLINT");
        return std::make_shared<arrow::Int16Scalar>(static_cast<int16_t>(value));
      }
      if (suffix == 'Y') {
        if (!fits64 || value < INT8_MIN || value > INT8_MAX) return out_of_range("TINYINT");
        return std::make_shared<arrow::Int8Scalar>(static_cast<int8_t>(value));
      }
      if (fits64 && value >= INT32_MIN && value <= INT32_MAX) {
        return std::make_shared<arrow::Int32Scalar>(static_cast<int32_t>(value));
      }
      if (fits64) return std::make_shared<arrow::Int64Scalar>(value);
      [[fallthrough]];
    }
    case sql::LiteralKind::kDecimal: {
      std::string digits = text;
      if (digits.size() > 2 && (digits.ends_with("BD") || digits.ends_with("bd"))) {
        digits.resize(digits.size() - 2);
      }
      arrow::Decimal128 value;
      int32_t precision = 0;
      int32_t scale = 0;
      auto st = arrow::Decimal128::FromString(digits, &value, &precision, &scale);
      if (!st.ok() || precision > kMaxPrecision) {
        return AnalysisError("INVALID_NUMERIC_LITERAL_RANGE",
                             fmt::format("Numeric literal {} is outside the valid range for "
                                         "DECIMAL(38).", text),
                             literal.pos);
      }
      if (scale < 0) {
        ARROW_ASSIGN_OR_RAISE(value, value.Rescale(scale, 0));
        precision -= scale;
        scale = 0;
      }
      precision = std::max(precision, scale);
      return std::make_shared<arrow::Decimal128Scalar>(value, arrow::decimal128(precision, scale));
    }
    case sql::LiteralKind::kDouble: {
      bool is_float = !text.empty() && (text.back() == 'F' || text.back() == 'f');
      bool has_suffix = is_float || (!text.empty() && (text.back() == 'D' || text.back() == 'd'));
      std::string digits = has_suffix ? text.substr(0, text.size() - 1) : text;
      double value = std::strtod(digits.c_str(), nullptr);
      if (is_float) return std::make_shared<arrow::FloatScalar>(static_cast<float>(value));
      return std::make_shared<arrow::DoubleScalar>(value);
    }
    case sql::LiteralKind::kString:
      return std::make_shared<arrow::StringScalar>(text);
    case sql::LiteralKind::kBinary: {
      std::string bytes;
      for (size_t i = 0; i + 1 < text.size(); i += 2) {
        bytes.push_back(static_cast<char>(std::stoi(text.substr(i, 2), nullptr, 16)));
      }
      return std::make_shared<arrow::BinaryScalar>(bytes);
    }
    case sql::LiteralKind::kDate:
    case sql::LiteralKind::kTimestamp:
    case sql::LiteralKind::kTimestampNtz: {
      std::shared_ptr<arrow::DataType> type;
      const char* name = "DATE";
      if (literal.literal_kind == sql::LiteralKind::kDate) {
        type = arrow::date32();
      } else if (literal.literal_kind == sql::LiteralKind::kTimestamp) {
        type = arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
        name = "TIMESTAMP";
      } else {
        type = arrow::timestamp(arrow::TimeUnit::MICRO);
        name = "TIMESTAMP_NTZ";
      }
      // Text without an offset is a wall-clock time in the session time zone (UTC).
      auto parsed = arrow::Scalar::Parse(type, text);
      if (!parsed.ok() && type->id() == arrow::Type::TIMESTAMP) {
        auto local = arrow::Scalar::Parse(arrow::timestamp(arrow::TimeUnit::MICRO), text);
        if (local.ok()) parsed = (*local)->CastTo(type);
      }
      if (!parsed.ok()) {
        return AnalysisError("INVALID_TYPED_LITERAL",
                             fmt::format("The value of the typed literal {} is invalid: '{}'.",
                                         name, text),
                             literal.pos);
      }
      return *parsed;
    }
  }
  return Status::Invalid("unknown literal kind");
}

namespace {

// The type of an arithmetic result that needs `precision` digits, `scale` of them fractional:
// beyond 38 digits Spark keeps the integral digits and gives up fraction digits, down to 6
// (spark.sql.decimalOperations.allowPrecisionLoss, true by default).
std::shared_ptr<arrow::DataType> ArithmeticDecimal(int precision, int scale) {
  if (precision <= kMaxPrecision) return arrow::decimal128(precision, scale);
  int integral = precision - scale;
  int min_scale = std::min(scale, 6);
  return arrow::decimal128(kMaxPrecision, std::max(kMaxPrecision - integral, min_scale));
}

}  // namespace

std::shared_ptr<arrow::DataType> ExactDecimalOf(const arrow::DataType& type) {
  auto [precision, scale] = DecimalShape(type);
  return Decimal(precision, scale);
}

std::shared_ptr<arrow::DataType> DecimalResultType(char op, const arrow::DataType& left,
                                                   const arrow::DataType& right) {
  auto [p1, s1] = DecimalShape(left);
  auto [p2, s2] = DecimalShape(right);
  switch (op) {
    case '+':
    case '-': {
      int scale = std::max(s1, s2);
      return ArithmeticDecimal(std::max(p1 - s1, p2 - s2) + scale + 1, scale);
    }
    case '*':
      return ArithmeticDecimal(p1 + p2 + 1, s1 + s2);
    case '/': {
      int scale = std::max(6, s1 + p2 + 1);
      return ArithmeticDecimal(p1 - s1 + s2 + scale, scale);
    }
    default: {
      int scale = std::max(s1, s2);
      return ArithmeticDecimal(std::min(p1 - s1, p2 - s2) + scale, scale);
    }
  }
}

std::shared_ptr<arrow::DataType> CommonType(const std::shared_ptr<arrow::DataType>& left,
                                            const std::shared_ptr<arrow::DataType>& right) {
  if (left->Equals(*right)) return left;
  if (left->id() == arrow::Type::NA) return right;
  if (right->id() == arrow::Type::NA) return left;
  int lr = NumericRank(*left);
  int rr = NumericRank(*right);
  if (lr > 0 && rr > 0) {
    if (lr == 5 || rr == 5) {
      if (std::max(lr, rr) > 5) return arrow::float64();
      auto [p1, s1] = DecimalShape(*left);
      auto [p2, s2] = DecimalShape(*right);
      int scale = std::max(s1, s2);
      return Decimal(std::max(p1 - s1, p2 - s2) + scale, scale);
    }
    return lr >= rr ? left : right;
  }
  // ANSI: a string operand converts to the other side's type (and fails on bad input).
  if (IsStringLike(*left) && (rr > 0 || right->id() == arrow::Type::DATE32 ||
                              right->id() == arrow::Type::TIMESTAMP ||
                              right->id() == arrow::Type::BOOL)) {
    return right;
  }
  if (IsStringLike(*right) && (lr > 0 || left->id() == arrow::Type::DATE32 ||
                               left->id() == arrow::Type::TIMESTAMP ||
                               left->id() == arrow::Type::BOOL)) {
    return left;
  }
  if (left->id() == arrow::Type::DATE32 && right->id() == arrow::Type::TIMESTAMP) return right;
  if (right->id() == arrow::Type::DATE32 && left->id() == arrow::Type::TIMESTAMP) return left;
  if (IsStringLike(*left) && IsStringLike(*right)) return arrow::utf8();
  return nullptr;
}

}  // namespace parley
