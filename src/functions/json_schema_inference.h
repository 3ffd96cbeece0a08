// schema_of_json: the type Spark infers for JSON text, as Spark writes a type
// (`STRUCT<a: BIGINT, b: ARRAY<DOUBLE>>`).
#pragma once

#include <string>
#include <string_view>

namespace parley {

/// \brief The schema of the JSON value `text` starts with: integers BIGINT (DECIMAL(n, 0) past
/// 64 bits), other numbers DOUBLE, objects STRUCTs of their keys in name order, arrays ARRAYs
/// of their elements' common type; NULL, and values of no common type, STRING. Text that is not
/// JSON is STRING too.
std::string InferJsonSchema(std::string_view text);

}  // namespace parley
