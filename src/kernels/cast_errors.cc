// Spark's cast errors (cast_errors.h).
#include "kernels/cast_errors.h"

#include <fmt/format.h>

#include "plan/bound_expression.h"

namespace parley {

Status CastOverflowError(std::string_view value_text, std::string_view from,
                         const arrow::DataType& to) {
  return MakeError(arrow::StatusCode::Invalid, "CAST_OVERFLOW",
                   fmt::format("The value {} of the type \"{}\" cannot be cast to \"{}\" due to an "
                               "overflow. Use `try_cast` to tolerate overflow and return NULL "
                               "instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" "
                               "to bypass this error.",
                               value_text, from, SqlTypeName(to)));
}

Status CastInvalidInputError(std::string_view value_text, std::string_view from,
                             const arrow::DataType& to) {
  return MakeError(
      arrow::StatusCode::Invalid, "CAST_INVALID_INPUT",
      fmt::format("The value {} of the type \"{}\" cannot be cast to \"{}\" because it "
                  "is malformed. Correct the value as per the syntax, or change its "
                  "target type. Use `try_cast` to tolerate malformed input and return "
                  "NULL instead.",
                  value_text, from, SqlTypeName(to)));
}

}  // namespace parley
