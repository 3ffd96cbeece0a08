// SQL type names and literal typing, expressed over Arrow types.
#include "analysis/types.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "analysis/analysis_error.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "arrow/util/decimal.h"
#include "plan/type_rules.h"
#include "sql/parser.h"

namespace parley {
Result<std::shared_ptr<arrow::DataType>> TypeFromName(const sql::TypeName& name,
                                                      SourcePosition pos) {
  const std::string& n = name.name;
  const auto& p = name.parameters;
  if (n == "ARRAY" && name.children.size() == 1) {
    ARROW_ASSIGN_OR_RAISE(auto element, TypeFromName(name.children[0], pos));
    return arrow::list(std::move(element));
  }
  if (n == "MAP" && name.children.size() == 2) {
    ARROW_ASSIGN_OR_RAISE(auto key, TypeFromName(name.children[0], pos));
    ARROW_ASSIGN_OR_RAISE(auto value, TypeFromName(name.children[1], pos));
    if (key->id() == arrow::Type::MAP) {
      return AnalysisError("UNSUPPORTED_DATATYPE",
                           "Unsupported data type \"MAP\" as the key of a map.", pos);
    }
    return arrow::map(std::move(key), std::move(value));
  }
  if (n == "STRUCT" && name.children.size() == name.field_names.size()) {
    arrow::FieldVector fields;
    for (size_t i = 0; i < name.children.size(); ++i) {
      ARROW_ASSIGN_OR_RAISE(auto type, TypeFromName(name.children[i], pos));
      fields.push_back(arrow::field(name.field_names[i], std::move(type)));
    }
    return arrow::struct_(std::move(fields));
  }
  if (n == "INT" || n == "INTEGER") return arrow::int32();
  if (n == "BIGINT" || n == "LONG") return arrow::int64();
  if (n == "SMALLINT" || n == "SHORT") return arrow::int16();
  if (n == "TINYINT" || n == "BYTE") return arrow::int8();
  if (n == "BOOLEAN") return arrow::boolean();
  if (n == "FLOAT" || n == "REAL") return arrow::float32();
  if (n == "DOUBLE") return arrow::float64();
  if (n == "STRING" || n == "VARCHAR" || n == "CHAR" || n == "CHARACTER") return arrow::utf8();
  if (n == "BINARY") return arrow::binary();
  if (n == "DATE") return arrow::date32();
  if (n == "TIMESTAMP" || n == "TIMESTAMP_LTZ")
    return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
  if (n == "TIMESTAMP_NTZ") return arrow::timestamp(arrow::TimeUnit::MICRO);
  if (n == "DECIMAL" || n == "DEC" || n == "NUMERIC") {
    int precision = p.empty() ? 10 : p[0];
    int scale = p.size() > 1 ? p[1] : 0;
    if (precision < 1 || precision > kMaxDecimalPrecision || scale < 0 || scale > precision) {
      return AnalysisError("DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION",
                           fmt::format("Decimal precision {} and scale {} are out of range "
                                       "(precision 1 to {}, scale 0 to precision).",
                                       precision, scale, kMaxDecimalPrecision),
                           pos);
    }
    return arrow::decimal128(precision, scale);
  }
  return AnalysisError("UNSUPPORTED_DATATYPE", fmt::format("Unsupported data type \"{}\".", n),
                       pos);
}

Result<std::shared_ptr<arrow::Scalar>> LiteralValue(const sql::Expr& literal) {
  const std::string& text = literal.text;
  switch (literal.literal_kind) {
    case sql::LiteralKind::kNull: return arrow::MakeNullScalar(arrow::null());
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
        return AnalysisError(
            "INVALID_NUMERIC_LITERAL_RANGE",
            fmt::format("Numeric literal {} is outside the valid range for {}.", text, type),
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
      if (!st.ok() || precision > kMaxDecimalPrecision) {
        return AnalysisError("INVALID_NUMERIC_LITERAL_RANGE",
                             fmt::format("Numeric literal {} is outside the valid range for "
                                         "DECIMAL(38).",
                                         text),
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
    case sql::LiteralKind::kString: return std::make_shared<arrow::StringScalar>(text);
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
        return AnalysisError(
            "INVALID_TYPED_LITERAL",
            fmt::format("The value of the typed literal {} is invalid: '{}'.", name, text),
            literal.pos);
      }
      return *parsed;
    }
  }
  return Status::Invalid("unknown literal kind");
}

std::string CharVarcharDeclaration(const sql::TypeName& name) {
  if (name.parameters.size() != 1) return "";
  if (name.name == "VARCHAR") return fmt::format("varchar({})", name.parameters[0]);
  if (name.name == "CHAR" || name.name == "CHARACTER") {
    return fmt::format("char({})", name.parameters[0]);
  }
  return "";
}

Result<std::shared_ptr<arrow::DataType>> SchemaFromText(std::string_view text, SourcePosition pos) {
  ARROW_ASSIGN_OR_RAISE(auto name, sql::ParseSchema(text));
  return TypeFromName(name, pos);
}

}  // namespace parley
