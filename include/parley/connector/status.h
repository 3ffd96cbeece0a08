// Errors that cross the connector API.
//
// Every fallible function returns arrow::Status or arrow::Result<T>; no exception crosses the
// API. A user-facing error carries a Spark-style error condition (for example
// `TABLE_OR_VIEW_NOT_FOUND` or `UNSUPPORTED_FEATURE.TABLE_OPERATION`) as an ErrorDetail attached
// to the status, and its message names the object at fault. Tests assert on the condition.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "arrow/result.h"
#include "arrow/status.h"

namespace parley {

using arrow::Result;
using arrow::Status;

/// \brief Status detail holding a Spark-style error condition and its SQLSTATE.
class ErrorDetail : public arrow::StatusDetail {
 public:
  ErrorDetail(std::string condition, std::string sqlstate,
              std::map<std::string, std::string> parameters = {})
      : condition_(std::move(condition)),
        sqlstate_(std::move(sqlstate)),
        parameters_(std::move(parameters)) {}

  static constexpr const char* kTypeId = "parley::ErrorDetail";
  const char* type_id() const override { return kTypeId; }
  std::string ToString() const override { return condition_; }

  /// The condition name, e.g. `UNRESOLVED_COLUMN.WITH_SUGGESTION`.
  const std::string& condition() const { return condition_; }
  /// The five-character SQLSTATE, or empty when the condition has none.
  const std::string& sqlstate() const { return sqlstate_; }
  /// The condition's message parameters by name (e.g. changelogName), when the raiser gave them.
  const std::map<std::string, std::string>& parameters() const { return parameters_; }

 private:
  std::string condition_;
  std::string sqlstate_;
  std::map<std::string, std::string> parameters_;
};

/// \brief Make an error status whose message reads `[CONDITION] message` and which carries
/// an ErrorDetail. The SQLSTATE is looked up from the condition's class when known.
Status MakeError(arrow::StatusCode code, std::string_view condition, std::string_view message);

/// \brief MakeError that also records the condition's message parameters by name.
Status MakeErrorWithParameters(arrow::StatusCode code, std::string_view condition,
                               std::map<std::string, std::string> parameters,
                               std::string_view message);

/// \brief Shorthand for MakeError with StatusCode::Invalid (analysis and user errors).
Status InvalidError(std::string_view condition, std::string_view message);

/// \brief Return the error condition a status carries, or an empty string when it has none.
std::string ErrorCondition(const Status& status);

/// \brief The message parameters a status carries (empty when it has none).
std::map<std::string, std::string> ErrorParameters(const Status& status);

/// \brief Quote an identifier part the way Spark prints it in messages: `name`.
std::string QuoteIdentifier(std::string_view part);

}  // namespace parley
