// Date/time arithmetic: the cases of datetime_arithmetic.h, each mapped to a date function or
// to Arrow's checked timestamp arithmetic.
#include "functions/datetime_arithmetic.h"

#include <fmt/format.h>

#include <limits>

#include "arrow/scalar.h"
#include "arrow/type.h"
#include "functions/interval_literal.h"
#include "kernels/kernels.h"
#include "plan/type_rules.h"
#include "sql/positioned_error.h"

namespace parley {
namespace {

constexpr int64_t kMicrosPerDay = 86400LL * 1000 * 1000;

bool IsDate(const BoundExpr& e) { return e.type->id() == arrow::Type::DATE32; }
bool IsTimestamp(const BoundExpr& e) { return e.type->id() == arrow::Type::TIMESTAMP; }
bool IsMonths(const BoundExpr& e) { return e.type->id() == arrow::Type::INTERVAL_MONTHS; }
bool IsDuration(const BoundExpr& e) { return e.type->id() == arrow::Type::DURATION; }
bool IsConstant(const BoundExpr& e) {
  return e.kind == BoundExpr::Kind::kLiteral && e.literal->is_valid;
}

int64_t MonthsOf(const BoundExpr& interval) {
  return static_cast<const arrow::MonthIntervalScalar&>(*interval.literal).value;
}
int64_t MicrosOf(const BoundExpr& interval) {
  return static_cast<const arrow::DurationScalar&>(*interval.literal).value;
}

std::shared_ptr<arrow::DataType> MicrosDuration() {
  return arrow::duration(arrow::TimeUnit::MICRO);
}

Status Mismatch(const sql::Expr& expr, const BoundExpr& left, const BoundExpr& right) {
  return AnalysisError(
      "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES",
      fmt::format("Cannot resolve \"{}\" due to data type mismatch: the left and right operands "
                  "of the binary operator have incompatible types (\"{}\" and \"{}\").",
                  expr.source_text, SqlTypeName(*left.type), SqlTypeName(*right.type)),
      expr.pos);
}

// A date or timestamp moved by `months` (sign applied): folded when constant.
// A result that overflows is left to the kernel, which raises the error when the row is read.
BoundExprPtr AddMonths(const BoundExprPtr& value, int32_t months) {
  if (IsConstant(*value) && IsDate(*value)) {
    int32_t days = static_cast<const arrow::Date32Scalar&>(*value->literal).value;
    auto moved = AddMonthsToDays(days, months);
    if (moved.ok()) {
      return MakeBoundLiteral(std::make_shared<arrow::Date32Scalar>(*moved));
    }
  } else if (IsConstant(*value)) {
    int64_t micros = static_cast<const arrow::TimestampScalar&>(*value->literal).value;
    auto moved = AddMonthsToMicros(micros, months);
    if (moved.ok()) {
      return MakeBoundLiteral(std::make_shared<arrow::TimestampScalar>(*moved, value->type));
    }
  }
  auto literal = MakeBoundLiteral(std::make_shared<arrow::Int32Scalar>(months));
  if (IsDate(*value)) return MakeCall("add_months", {value, literal}, value->type);
  return MakeCall("timestamp_add_months", {value, literal}, value->type);
}

// A date moved by whole days: folded when constant.
BoundExprPtr AddDays(const BoundExprPtr& date, const BoundExprPtr& days, bool subtract) {
  if (IsConstant(*date) && IsConstant(*days) && days->type->id() == arrow::Type::INT32) {
    int64_t base = static_cast<const arrow::Date32Scalar&>(*date->literal).value;
    int64_t delta = static_cast<const arrow::Int32Scalar&>(*days->literal).value;
    int64_t result = subtract ? base - delta : base + delta;
    if (result >= INT32_MIN && result <= INT32_MAX) {
      return MakeBoundLiteral(std::make_shared<arrow::Date32Scalar>(static_cast<int32_t>(result)));
    }
  }
  return MakeCall(subtract ? "date_sub" : "date_add", {date, CastTo(days, arrow::int32())},
                  arrow::date32());
}

// A timestamp moved by a day-time interval: folded when constant.
BoundExprPtr AddMicros(const BoundExprPtr& timestamp, const BoundExprPtr& interval, bool subtract) {
  if (IsConstant(*timestamp) && IsConstant(*interval)) {
    int64_t base = static_cast<const arrow::TimestampScalar&>(*timestamp->literal).value;
    int64_t delta = MicrosOf(*interval);
    int64_t result = 0;
    bool overflow = subtract ? __builtin_sub_overflow(base, delta, &result)
                             : __builtin_add_overflow(base, delta, &result);
    if (!overflow) {
      return MakeBoundLiteral(std::make_shared<arrow::TimestampScalar>(result, timestamp->type));
    }
  }
  return MakeCall(subtract ? "-" : "+", {timestamp, interval}, timestamp->type);
}

}  // namespace

BoundExprPtr AddDaysToDate(const BoundExprPtr& date, const BoundExprPtr& days, bool subtract) {
  return AddDays(date, days, subtract);
}

BoundExprPtr AddMonthsToDate(const BoundExprPtr& date, const BoundExprPtr& months) {
  if (IsConstant(*months) && months->type->id() == arrow::Type::INT32) {
    return AddMonths(date, static_cast<const arrow::Int32Scalar&>(*months->literal).value);
  }
  return MakeCall("add_months", {date, months}, arrow::date32());
}

bool IsDatetimeArithmetic(const BoundExpr& left, const BoundExpr& right) {
  auto datetime = [](const BoundExpr& e) {
    return IsDate(e) || IsTimestamp(e) || IsIntervalType(*e.type);
  };
  return datetime(left) || datetime(right);
}

Result<BoundExprPtr> BindDatetimeArithmetic(const sql::Expr& expr, const std::string& op,
                                            BoundExprPtr left, BoundExprPtr right) {
  bool subtract = op == "-";
  const sql::Expr* interval_expr = expr.children[1].get();
  // interval + x is x + interval.
  if (!subtract && IsIntervalType(*left->type) && !IsIntervalType(*right->type)) {
    std::swap(left, right);
    interval_expr = expr.children[0].get();
  }
  if (op != "+" && op != "-") return Mismatch(expr, *left, *right);
  // An interval operand must be a literal, as INTERVAL values come only from literals.
  if ((IsIntervalType(*right->type) && !IsConstant(*right)) ||
      (IsIntervalType(*left->type) && !IsConstant(*left))) {
    return Mismatch(expr, *left, *right);
  }
  if (IsDate(*left) && (IsIntegral(*right->type) || right->type->id() == arrow::Type::NA)) {
    return AddDays(left, right, subtract);
  }
  if (!subtract && IsDate(*right) && IsIntegral(*left->type)) return AddDays(right, left, false);
  if ((IsDate(*left) || IsTimestamp(*left)) && IsMonths(*right)) {
    int64_t months = subtract ? -MonthsOf(*right) : MonthsOf(*right);
    if (months > std::numeric_limits<int32_t>::max()) {
      return MakeError(arrow::StatusCode::Invalid,
                       "INTERVAL_ARITHMETIC_OVERFLOW.WITHOUT_SUGGESTION",
                       "Integer overflow while operating with intervals. Try devising "
                       "appropriate values for the interval parameters.");
    }
    return AddMonths(left, static_cast<int32_t>(months));
  }
  if (IsDate(*left) && IsDuration(*right)) {
    int64_t micros = MicrosOf(*right);
    if (IsDaysInterval(*interval_expr) && micros % kMicrosPerDay == 0) {
      auto days = MakeBoundLiteral(
          std::make_shared<arrow::Int32Scalar>(static_cast<int32_t>(micros / kMicrosPerDay)));
      return AddDays(left, days, subtract);
    }
    left = CastTo(left, arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"));
  }
  if (IsTimestamp(*left) && IsDuration(*right)) return AddMicros(left, right, subtract);
  if (subtract && IsDate(*left) && IsDate(*right)) {
    return MakeCall("date_minus_date", {left, right}, MicrosDuration());
  }
  if (subtract && IsTimestamp(*left) && (IsTimestamp(*right) || IsDate(*right))) {
    return MakeCall("-", {left, CastTo(right, left->type)}, MicrosDuration());
  }
  if (IsMonths(*left) && IsMonths(*right)) {
    int64_t months = MonthsOf(*left) + (subtract ? -MonthsOf(*right) : MonthsOf(*right));
    if (months >= INT32_MIN && months <= INT32_MAX) {
      return MakeBoundLiteral(
          std::make_shared<arrow::MonthIntervalScalar>(static_cast<int32_t>(months)));
    }
  }
  if (IsDuration(*left) && IsDuration(*right)) {
    int64_t micros = 0;
    bool overflow = subtract ? __builtin_sub_overflow(MicrosOf(*left), MicrosOf(*right), &micros)
                             : __builtin_add_overflow(MicrosOf(*left), MicrosOf(*right), &micros);
    if (!overflow) {
      return MakeBoundLiteral(std::make_shared<arrow::DurationScalar>(micros, MicrosDuration()));
    }
  }
  return Mismatch(expr, *left, *right);
}

}  // namespace parley
