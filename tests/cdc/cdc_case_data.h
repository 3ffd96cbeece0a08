// JSON values of the change-data scenario format as Arrow data: type names (`bigint`, `string`,
// `timestamp`, `struct<id:bigint,value:string>`...), rows as JSON objects (timestamps as
// ISO-8601 text, binary as hex, structs as objects), and rows rendered back as text so that
// result and expectation compare as multisets.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arrow/type_fwd.h"
#include "parley/connector/status.h"

namespace parley::testing {

/// \brief The Arrow type of a Spark SQL type name as the format writes it (TIMESTAMP is
/// microseconds in UTC).
Result<std::shared_ptr<arrow::DataType>> CaseType(const std::string& name);

/// \brief The schema of a case: `[[name, type], ...]`.
Result<std::shared_ptr<arrow::Schema>> CaseSchema(const nlohmann::json& schema);

/// \brief A table of `rows` (JSON objects keyed by column name; a missing key is NULL).
Result<std::shared_ptr<arrow::Table>> CaseTable(const std::shared_ptr<arrow::Schema>& schema,
                                                const nlohmann::json& rows);

/// \brief Each row of `table` as one line of text, all columns in order.
Result<std::vector<std::string>> RowTexts(const arrow::Table& table);

}  // namespace parley::testing
