// Error conditions: building statuses that carry a Spark-style condition and reading it back.
#include "parley/connector/status.h"

#include <fmt/format.h>

#include <utility>

namespace parley {
namespace {

// SQLSTATE of the conditions Parley raises, keyed by the condition's class (the part before
// the first '.'). Values follow Spark's error-conditions table.
std::string SqlStateFor(std::string_view condition) {
  static const std::pair<const char*, const char*> kStates[] = {
      {"AMBIGUOUS_REFERENCE", "42704"},
      {"ARITHMETIC_OVERFLOW", "22003"},
      {"ASSIGNMENT_ARITY_MISMATCH", "42802"},
      {"CANNOT_MERGE_INCOMPATIBLE_DATA_TYPE", "42825"},
      {"CANNOT_REPLACE_MISSING_TABLE", "42P01"},
      {"CAST_INVALID_INPUT", "22018"},
      {"CAST_OVERFLOW_IN_TABLE_INSERT", "22003"},
      {"CATALOG_NOT_FOUND", "42P08"},
      {"COLUMN_ALREADY_EXISTS", "42711"},
      {"COLUMN_NOT_DEFINED_IN_TABLE", "42703"},
      {"CONNECTOR_CONTRACT_VIOLATION", "XX000"},
      {"CREATE_VIEW_COLUMN_ARITY_MISMATCH", "21S01"},
      {"CYCLIC_FUNCTION_REFERENCE", "42887"},
      {"DATATYPE_MISMATCH", "42K09"},
      {"DATATYPE_MISSING_SIZE", "42K01"},
      {"DELTA_DELETION_VECTOR_CHECKSUM_MISMATCH", "XXKDS"},
      {"DELTA_DELETION_VECTOR_SIZE_MISMATCH", "XXKDS"},
      {"DELTA_FAILED_CAST_PARTITION_VALUE", "22018"},
      {"DELTA_FILE_NOT_FOUND", "42K03"},
      {"DELTA_ILLEGAL_OPTION", "42616"},
      {"DELTA_INVALID_CHARACTERS_IN_COLUMN_NAMES", "42K05"},
      {"DELTA_INVALID_PROTOCOL_VERSION", "KD004"},
      {"DELTA_INVALID_SCHEMA_STRING", "XXKDS"},
      {"DELTA_MISSING_DELTA_TABLE", "42P01"},
      {"DELTA_MODE_NOT_SUPPORTED", "0AKDC"},
      {"DELTA_OPERATION_MISSING_PATH", "42601"},
      {"DELTA_PARTITION_COLUMN_NOT_FOUND", "42703"},
      {"DELTA_STATE_RECOVER_ERROR", "XXKDS"},
      {"DELTA_TIMESTAMP_EARLIER_THAN_COMMIT_RETENTION", "42816"},
      {"DELTA_TIMESTAMP_GREATER_THAN_COMMIT", "42816"},
      {"DELTA_TIMESTAMP_INVALID", "42816"},
      {"DELTA_UNSUPPORTED_DATA_TYPES", "0AKDC"},
      {"DELTA_UNSUPPORTED_FEATURES_FOR_READ", "56038"},
      {"DELTA_UNSUPPORTED_SOURCE", "0AKDD"},
      {"DELTA_UNSUPPORTED_TIME_TRAVEL_MULTIPLE_FORMATS", "42613"},
      {"DELTA_VERSIONS_NOT_CONTIGUOUS", "KD00C"},
      {"DELTA_VERSION_NOT_FOUND", "22003"},
      {"DIVIDE_BY_ZERO", "22012"},
      {"DUPLICATED_MAP_KEY", "23505"},
      {"DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT", "4274K"},
      {"DUPLICATE_ROUTINE_PARAMETER_NAMES", "42734"},
      {"DUPLICATE_ROUTINE_RETURNS_COLUMNS", "42711"},
      {"EXPECT_TABLE_NOT_VIEW", "42809"},
      {"FAILED_READ_FILE", "KD001"},
      {"FAILED_TO_LOAD_ROUTINE", "38000"},
      {"FIELD_ALREADY_EXISTS", "42710"},
      {"FIELD_NOT_FOUND", "42704"},
      {"FILES_COMMIT_FAILED", "58030"},
      {"FILES_TABLE_CHANGED_DURING_LISTING", "40001"},
      {"INCOMPATIBLE_DATA_FOR_TABLE", "KD000"},
      {"INCOMPATIBLE_VIEW_SCHEMA_CHANGE", "51024"},
      {"INJECTED_FAULT", "XX000"},
      {"INSERT_COLUMN_ARITY_MISMATCH", "21S01"},
      {"INTERNAL_ERROR", "XX000"},
      {"INTERVAL_ARITHMETIC_OVERFLOW", "22015"},
      {"INVALID_ARRAY_INDEX", "22003"},
      {"INVALID_ARRAY_INDEX_IN_ELEMENT_AT", "22003"},
      {"INVALID_CONF_VALUE", "22022"},
      {"INVALID_DEFAULT_VALUE", "42623"},
      {"INVALID_DELIMITER_VALUE", "42602"},
      {"INVALID_ESC", "42604"},
      {"INVALID_EXTRACT_BASE_FIELD_TYPE", "42000"},
      {"INVALID_INDEX_OF_ZERO", "22003"},
      {"INVALID_INLINE_TABLE", "42000"},
      {"INVALID_LIMIT_LIKE_EXPRESSION", "42K0E"},
      {"INVALID_OPTION_VALUE", "42K06"},
      {"INVALID_PARAMETER_VALUE", "22023"},
      {"INVALID_PARTITION_COLUMN", "42000"},
      {"INVALID_PARTITION_SPEC", "42K0C"},
      {"INVALID_PROPERTY_KEY", "42602"},
      {"INVALID_SCHEMA_OR_RELATION_NAME", "42602"},
      {"INVALID_SUBQUERY_EXPRESSION", "42823"},
      {"INVALID_TEMP_OBJ_QUALIFIER", "42602"},
      {"JOIN_CONDITION_IS_NOT_BOOLEAN_TYPE", "42K0E"},
      {"MISSING_CATALOG_ABILITY", "0A000"},
      {"NAMED_PARAMETERS_NOT_SUPPORTED", "4274K"},
      {"NON_PARTITION_COLUMN", "42000"},
      {"NOT_A_SCALAR_FUNCTION", "42887"},
      {"NOT_A_TABLE_FUNCTION", "42887"},
      {"NOT_IMPLEMENTED", "0A000"},
      {"NOT_NULL_ASSERT_VIOLATION", "42000"},
      {"NOT_SUPPORTED_CHANGE_COLUMN", "0A000"},
      {"NULL_MAP_KEY", "2200E"},
      {"NUMERIC_VALUE_OUT_OF_RANGE", "22003"},
      {"OPERATION_CANCELED", "HY008"},
      {"PARSE_SYNTAX_ERROR", "42601"},
      {"PARTITIONS_NOT_FOUND", "428FT"},
      {"PARTITION_COLUMN_NOT_FOUND_IN_SCHEMA", "42000"},
      {"PATH_NOT_FOUND", "42K03"},
      {"RECURSIVE_VIEW", "42K0H"},
      {"REQUIRED_PARAMETER_NOT_FOUND", "4274K"},
      {"REQUIRES_SINGLE_PART_NAMESPACE", "42K05"},
      {"ROUTINE_ALREADY_EXISTS", "42723"},
      {"ROUTINE_NOT_FOUND", "42883"},
      {"SCALAR_SUBQUERY_TOO_MANY_ROWS", "21000"},
      {"SCHEMA_ALREADY_EXISTS", "42P06"},
      {"SCHEMA_NOT_EMPTY", "2BP01"},
      {"SCHEMA_NOT_FOUND", "42704"},
      {"SQL_CONF_NOT_FOUND", "42K0I"},
      {"TABLE_OR_VIEW_ALREADY_EXISTS", "42P07"},
      {"TABLE_OR_VIEW_NOT_FOUND", "42P01"},
      {"TASK_WRITE_FAILED", "58030"},
      {"TEMP_TABLE_OR_VIEW_ALREADY_EXISTS", "42P07"},
      {"UNABLE_TO_ACQUIRE_MEMORY", "53200"},
      {"UNABLE_TO_INFER_SCHEMA", "42KD9"},
      {"UNEXPECTED_POSITIONAL_ARGUMENT", "4274K"},
      {"UNRECOGNIZED_PARAMETER_NAME", "4274K"},
      {"UNRESOLVED_COLUMN", "42703"},
      {"UNRESOLVED_ROUTINE", "42883"},
      {"UNRESOLVED_USING_COLUMN_FOR_JOIN", "42703"},
      {"UNSET_NONEXISTENT_PROPERTIES", "42K0J"},
      {"UNSUPPORTED_DATATYPE", "0A000"},
      {"UNSUPPORTED_FEATURE", "0A000"},
      {"UNSUPPORTED_OVERWRITE", "42902"},
      {"UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY", "0A000"},
      {"USER_DEFINED_FUNCTIONS", "42601"},
      {"WRONG_COMMAND_FOR_OBJECT_TYPE", "42809"},
      {"WRONG_NUM_ARGS", "42605"},
  };
  std::string_view cls = condition.substr(0, condition.find('.'));
  for (const auto& [name, state] : kStates) {
    if (cls == name) return state;
  }
  return {};
}

}  // namespace

Status MakeError(arrow::StatusCode code, std::string_view condition, std::string_view message) {
  auto detail = std::make_shared<ErrorDetail>(std::string(condition), SqlStateFor(condition));
  return Status(code, fmt::format("[{}] {}", condition, message), std::move(detail));
}

Status MakeErrorWithParameters(arrow::StatusCode code, std::string_view condition,
                               std::map<std::string, std::string> parameters,
                               std::string_view message) {
  auto detail = std::make_shared<ErrorDetail>(std::string(condition), SqlStateFor(condition),
                                              std::move(parameters));
  return Status(code, fmt::format("[{}] {}", condition, message), std::move(detail));
}

Status InvalidError(std::string_view condition, std::string_view message) {
  return MakeError(arrow::StatusCode::Invalid, condition, message);
}

std::string ErrorCondition(const Status& status) {
  if (status.ok() || status.detail() == nullptr) return {};
  if (std::string_view(status.detail()->type_id()) != ErrorDetail::kTypeId) return {};
  return static_cast<const ErrorDetail&>(*status.detail()).condition();
}

std::map<std::string, std::string> ErrorParameters(const Status& status) {
  if (status.ok() || status.detail() == nullptr) return {};
  if (std::string_view(status.detail()->type_id()) != ErrorDetail::kTypeId) return {};
  return static_cast<const ErrorDetail&>(*status.detail()).parameters();
}

std::string QuoteIdentifier(std::string_view part) {
  std::string quoted = "`";
  for (char c : part) {
    if (c == '`') quoted += '`';
    quoted += c;
  }
  quoted += '`';
  return quoted;
}

}  // namespace parley
