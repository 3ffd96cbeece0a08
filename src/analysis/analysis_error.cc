// Analysis error construction and SQL type names for messages and DESCRIBE.
#include "analysis/analysis_error.h"

#include <fmt/format.h>

#include "arrow/type.h"

namespace parley {

Status AnalysisError(std::string_view condition, std::string_view message, SourcePosition pos) {
  return InvalidError(condition,
                      fmt::format("{} (line {}, column {})", message, pos.line, pos.column));
}

std::string SqlTypeName(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::NA: return "VOID";
    case arrow::Type::BOOL: return "BOOLEAN";
    case arrow::Type::INT8: return "TINYINT";
    case arrow::Type::INT16: return "SMALLINT";
    case arrow::Type::INT32: return "INT";
    case arrow::Type::INT64: return "BIGINT";
    case arrow::Type::FLOAT: return "FLOAT";
    case arrow::Type::DOUBLE: return "DOUBLE";
    case arrow::Type::STRING:
    case arrow::Type::LARGE_STRING:
    case arrow::Type::STRING_VIEW: return "STRING";
    case arrow::Type::BINARY:
    case arrow::Type::LARGE_BINARY: return "BINARY";
    case arrow::Type::DATE32: return "DATE";
    case arrow::Type::TIMESTAMP: {
      const auto& ts = static_cast<const arrow::TimestampType&>(type);
      return ts.timezone().empty() ? "TIMESTAMP_NTZ" : "TIMESTAMP";
    }
    case arrow::Type::DECIMAL128:
    case arrow::Type::DECIMAL256: {
      const auto& dec = static_cast<const arrow::DecimalType&>(type);
      return fmt::format("DECIMAL({},{})", dec.precision(), dec.scale());
    }
    default: return type.ToString();
  }
}

}  // namespace parley
