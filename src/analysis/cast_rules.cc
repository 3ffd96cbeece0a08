// Spark's ANSI cast matrix for the scalar types, with the error condition and suggestion
// Spark gives each forbidden pair.
#include "analysis/cast_rules.h"

#include <fmt/format.h>

#include <string>

#include "analysis/analysis_error.h"
#include "analysis/types.h"
#include "arrow/type.h"
#include "plan/bound_expression.h"

namespace parley {
namespace {

enum class Family { kNumeric, kBoolean, kDate, kTimestamp, kBinary, kOther };

Family FamilyOf(const arrow::DataType& type) {
  if (IsNumeric(type)) return Family::kNumeric;
  switch (type.id()) {
    case arrow::Type::BOOL:
      return Family::kBoolean;
    case arrow::Type::DATE32:
      return Family::kDate;
    case arrow::Type::TIMESTAMP:
      return Family::kTimestamp;
    case arrow::Type::BINARY:
    case arrow::Type::LARGE_BINARY:
      return Family::kBinary;
    default:
      return Family::kOther;
  }
}

enum class Verdict { kAllowed, kWithFunction, kWithConf, kWithout };

Verdict Judge(Family from, Family to) {
  using F = Family;
  if (from == F::kOther || to == F::kOther || from == to) return Verdict::kAllowed;
  if (from == F::kNumeric && to == F::kDate) return Verdict::kWithFunction;
  if (from == F::kDate && to == F::kNumeric) return Verdict::kWithFunction;
  if ((from == F::kDate || from == F::kTimestamp) && to == F::kBoolean) return Verdict::kWithConf;
  if (from == F::kBoolean && to == F::kTimestamp) return Verdict::kWithConf;
  if (from == F::kNumeric && to == F::kBinary) return Verdict::kWithConf;
  if (from == F::kBinary || to == F::kBinary) return Verdict::kWithout;
  if (from == F::kBoolean && to == F::kDate) return Verdict::kWithout;
  return Verdict::kAllowed;  // numbers, booleans, dates and timestamps among themselves
}

}  // namespace

Status CheckAnsiCast(const arrow::DataType& from, const arrow::DataType& to, bool is_try,
                     const sql::Expr& cast) {
  Verdict verdict = Judge(FamilyOf(from), FamilyOf(to));
  if (is_try && verdict == Verdict::kWithConf) verdict = Verdict::kWithout;
  if (verdict == Verdict::kAllowed) return Status::OK();
  const std::string from_name = SqlTypeName(from);
  const std::string to_name = SqlTypeName(to);
  std::string message = fmt::format(
      "Cannot resolve \"{}\" due to data type mismatch: cannot cast \"{}\" to \"{}\"",
      cast.source_text, from_name, to_name);
  std::string condition = "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION";
  if (verdict == Verdict::kWithFunction) {
    condition = "DATATYPE_MISMATCH.CAST_WITH_FUNC_SUGGESTION";
    message += fmt::format(".\nTo convert values from \"{}\" to \"{}\", you can use the functions "
                           "`{}` instead.",
                           from_name, to_name,
                           FamilyOf(to) == Family::kDate ? "DATE_FROM_UNIX_DATE" : "UNIX_DATE");
  } else if (verdict == Verdict::kWithConf) {
    condition = "DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION";
    message += fmt::format(" with ANSI mode on.\nIf you have to cast \"{}\" to \"{}\", you can set "
                           "\"spark.sql.ansi.enabled\" as 'false'.",
                           from_name, to_name);
  } else {
    message += ".";
  }
  return AnalysisError(condition, message, cast.pos);
}

}  // namespace parley
