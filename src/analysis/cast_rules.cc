// Spark's ANSI cast matrix for the scalar types, with the error condition and suggestion
// Spark gives each forbidden pair, and the casts between arrays, maps and structs.
#include "analysis/cast_rules.h"

#include <fmt/format.h>

#include <string>

#include "analysis/analysis_error.h"
#include "analysis/types.h"
#include "arrow/type.h"
#include "arrow/type_traits.h"
#include "functions/interval_literal.h"
#include "plan/bound_expression.h"

namespace parley {
namespace {

enum class Family { kNumeric, kBoolean, kDate, kTimestamp, kBinary, kInterval, kOther };

Family FamilyOf(const arrow::DataType& type) {
  if (IsNumeric(type)) return Family::kNumeric;
  if (IsIntervalType(type)) return Family::kInterval;
  switch (type.id()) {
    case arrow::Type::BOOL: return Family::kBoolean;
    case arrow::Type::DATE32: return Family::kDate;
    case arrow::Type::TIMESTAMP: return Family::kTimestamp;
    case arrow::Type::BINARY:
    case arrow::Type::LARGE_BINARY: return Family::kBinary;
    default: return Family::kOther;
  }
}

enum class Verdict { kAllowed, kWithFunction, kWithConf, kWithout, kNotImplemented };

// Spark casts an interval to a string or an exact number by the interval's fields (INTERVAL
// '2' YEAR is 2, INTERVAL '2' MONTH is 2, INTERVAL '3' DAY is 'INTERVAL '3' DAY'). Parley's
// interval types do not keep their fields, so those casts are refused rather than answered in
// another unit; the other casts from or to an interval Spark refuses too.
Verdict JudgeInterval(const arrow::DataType& from, const arrow::DataType& to) {
  if (from.Equals(to)) return Verdict::kAllowed;
  if (NeedsIntervalFields(from, to)) return Verdict::kNotImplemented;
  return Verdict::kWithout;
}

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

bool IsNested(const arrow::DataType& type) {
  return type.id() == arrow::Type::LIST || type.id() == arrow::Type::MAP ||
         type.id() == arrow::Type::STRUCT;
}

Verdict JudgeScalar(const arrow::DataType& from, const arrow::DataType& to) {
  const bool interval = FamilyOf(from) == Family::kInterval || FamilyOf(to) == Family::kInterval;
  return interval ? JudgeInterval(from, to) : Judge(FamilyOf(from), FamilyOf(to));
}

// Arrays, maps and structs cast to their own kind, part by part (struct fields by position,
// as many as the target has), and to STRING; Spark's ANSI mode casts them to nothing else.
Verdict JudgeNested(const arrow::DataType& from, const arrow::DataType& to) {
  if (from.id() == arrow::Type::NA) return Verdict::kAllowed;
  if (!IsNested(from) && !IsNested(to)) return JudgeScalar(from, to);
  if (arrow::is_string(to.id())) return Verdict::kAllowed;
  if (from.id() != to.id() || from.num_fields() != to.num_fields()) return Verdict::kWithout;
  for (int i = 0; i < from.num_fields(); ++i) {
    const auto& a = *from.field(i)->type();
    const auto& b = *to.field(i)->type();
    if (from.id() == arrow::Type::MAP && i == 0) {  // the entries struct: key, then value
      const auto& source = static_cast<const arrow::MapType&>(from);
      const auto& target = static_cast<const arrow::MapType&>(to);
      Verdict key = JudgeNested(*source.key_type(), *target.key_type());
      if (key != Verdict::kAllowed) return key;
      return JudgeNested(*source.item_type(), *target.item_type());
    }
    Verdict part = JudgeNested(a, b);
    // Spark suggests no configuration for the parts of a nested value, but names the cast
    // CAST_WITH_FUNC_SUGGESTION then.
    if (part != Verdict::kAllowed)
      return part == Verdict::kWithConf ? Verdict::kWithFunction : part;
  }
  return Verdict::kAllowed;
}

}  // namespace

bool NeedsIntervalFields(const arrow::DataType& from, const arrow::DataType& to) {
  return IsIntervalType(from) &&
         (arrow::is_string(to.id()) || arrow::is_integer(to.id()) || arrow::is_decimal(to.id()));
}

Status CheckAnsiCast(const arrow::DataType& from, const arrow::DataType& to, bool is_try,
                     const sql::Expr& cast) {
  Verdict verdict = IsNested(from) || IsNested(to) ? JudgeNested(from, to) : JudgeScalar(from, to);
  if (is_try && verdict == Verdict::kWithConf) verdict = Verdict::kWithout;
  if (verdict == Verdict::kAllowed) return Status::OK();
  const std::string from_name = SqlTypeName(from);
  const std::string to_name = SqlTypeName(to);
  if (verdict == Verdict::kNotImplemented) {
    return AnalysisError("NOT_IMPLEMENTED",
                         fmt::format("{} is not implemented: Parley's interval types do not keep "
                                     "their start and end fields, which decide the value of a "
                                     "cast from \"{}\" to \"{}\".",
                                     cast.source_text, from_name, to_name),
                         cast.pos);
  }
  std::string message =
      fmt::format("Cannot resolve \"{}\" due to data type mismatch: cannot cast \"{}\" to \"{}\"",
                  cast.source_text, from_name, to_name);
  std::string condition = "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION";
  if (verdict == Verdict::kWithFunction && (IsNested(from) || IsNested(to))) {
    condition = "DATATYPE_MISMATCH.CAST_WITH_FUNC_SUGGESTION";
    message += ".";
  } else if (verdict == Verdict::kWithFunction) {
    condition = "DATATYPE_MISMATCH.CAST_WITH_FUNC_SUGGESTION";
    message += fmt::format(
        ".\nTo convert values from \"{}\" to \"{}\", you can use the functions "
        "`{}` instead.",
        from_name, to_name, FamilyOf(to) == Family::kDate ? "DATE_FROM_UNIX_DATE" : "UNIX_DATE");
  } else if (verdict == Verdict::kWithConf) {
    condition = "DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION";
    message += fmt::format(
        " with ANSI mode on.\nIf you have to cast \"{}\" to \"{}\", you can set "
        "\"spark.sql.ansi.enabled\" as 'false'.",
        from_name, to_name);
  } else {
    message += ".";
  }
  return AnalysisError(condition, message, cast.pos);
}

}  // namespace parley
