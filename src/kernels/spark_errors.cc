// ToSparkError: Arrow's error texts matched to Spark's conditions.
#include "kernels/spark_errors.h"

#include <string>

namespace parley {

Status ToSparkError(const Status& status) {
  if (status.ok() || !ErrorCondition(status).empty()) return status;
  const std::string& message = status.message();
  if (status.IsOutOfMemory()) {
    return MakeError(status.code(), "UNABLE_TO_ACQUIRE_MEMORY",
                     "Unable to acquire the memory the statement needs (" + message +
                         "). Raise parley.memory.limit, or make the statement hold fewer rows "
                         "at once.");
  }
  auto contains = [&](const char* text) { return message.find(text) != std::string::npos; };
  if (contains("divide by zero")) {
    return MakeError(status.code(), "DIVIDE_BY_ZERO",
                     "Division by zero. Use `try_divide` to tolerate divisor being 0 and return "
                     "NULL instead. (" +
                         message + ")");
  }
  if (contains("overflow")) {
    return MakeError(status.code(), "ARITHMETIC_OVERFLOW", message);
  }
  if (contains("Failed to parse") || contains("Invalid value") || contains("invalid value")) {
    return MakeError(status.code(), "CAST_INVALID_INPUT", message);
  }
  if (contains("Rounded value")) {  // round, bround, ceil and floor to a scale
    return MakeError(
        status.code(), "NUMERIC_VALUE_OUT_OF_RANGE.WITHOUT_SUGGESTION",
        "The rounded value cannot be represented as the result's decimal type. (" + message + ")");
  }
  if (contains("does not fit in precision") ||
      contains("Rescaling Decimal value would cause data loss")) {
    return MakeError(status.code(), "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION",
                     "The value cannot be represented as the target decimal type. If necessary "
                     "set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error. (" +
                         message + ")");
  }
  if (contains("would lose data") || contains("out of bounds") || contains("not in range")) {
    return MakeError(status.code(), "CAST_OVERFLOW", message);
  }
  return MakeError(status.code(), "INTERNAL_ERROR", message);
}

}  // namespace parley
