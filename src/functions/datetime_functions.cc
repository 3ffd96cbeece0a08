// Date and time functions: construction, parts, truncation, month and day arithmetic, parsing.
// Parts and truncation are Arrow's temporal kernels; add_months and make_date are Parley's own
// kernels (kernels/kernels.h) because they clamp or fail as Spark does.
#include <fmt/format.h>

#include <map>

#include "arrow/compute/api.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "functions/datetime_arithmetic.h"
#include "functions/function_rules.h"
#include "functions/statement_clock.h"
#include "kernels/expression_kernels.h"
#include "plan/type_rules.h"
#include "sql/positioned_error.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

std::shared_ptr<arrow::DataType> TimestampType() {
  return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
}

bool IsDatetime(const arrow::DataType& type) {
  return type.id() == arrow::Type::DATE32 || type.id() == arrow::Type::TIMESTAMP;
}

// A date part function's argument: dates and timestamps as they are (Arrow's kernels read
// both), anything else as DATE.
Result<BoundExprPtr> DatePartArg(const FunctionCall& call, size_t index) {
  if (IsDatetime(*call.args[index]->type)) return call.args[index];
  return DateArg(call, index);
}

cp::Expression ToInt(cp::Expression value) {
  return cp::call("cast", {std::move(value)}, cp::CastOptions::Safe(arrow::int32()));
}

cp::Expression DaysOf(cp::Expression date) {
  return cp::call("cast", {std::move(date)}, cp::CastOptions::Safe(arrow::int32()));
}

cp::Expression DateOfDays(cp::Expression days) {
  return cp::call("cast", {std::move(days)}, cp::CastOptions::Safe(arrow::date32()));
}

// The date and time parts, by their bound names, with the Arrow kernel computing each.
cp::Expression LowerPart(const std::string& part, cp::Expression value) {
  if (part == "dayofweek") {
    return ToInt(cp::call("day_of_week", {std::move(value)},
                          cp::DayOfWeekOptions(/*count_from_zero=*/false, /*week_start=*/7)));
  }
  if (part == "dayofweek_iso") {
    return ToInt(cp::call("day_of_week", {std::move(value)},
                          cp::DayOfWeekOptions(/*count_from_zero=*/false, /*week_start=*/1)));
  }
  if (part == "weekday") {
    return ToInt(cp::call("day_of_week", {std::move(value)},
                          cp::DayOfWeekOptions(/*count_from_zero=*/true, /*week_start=*/1)));
  }
  static const std::map<std::string, std::string> kKernels = {
      {"year", "year"}, {"quarter", "quarter"},       {"month", "month"},
      {"day", "day"},   {"dayofyear", "day_of_year"}, {"weekofyear", "iso_week"},
      {"hour", "hour"}, {"minute", "minute"},         {"second", "second"}};
  return ToInt(cp::call(kKernels.at(part), {std::move(value)}));
}

bool IsTimePart(const std::string& part) {
  return part == "hour" || part == "minute" || part == "second";
}

// EXTRACT(SECOND ...) is DECIMAL(8, 6): the seconds with their fraction.
cp::Expression LowerSecondWithFraction(cp::Expression value) {
  auto seconds = cp::call("add", {cp::call("cast", {cp::call("second", {value})},
                                           cp::CastOptions::Safe(arrow::float64())),
                                  cp::call("subsecond", {value})});
  auto rounded = cp::call("round", {seconds}, cp::RoundOptions(6));
  cp::CastOptions options = cp::CastOptions::Safe(arrow::decimal128(8, 6));
  options.allow_decimal_truncate = true;
  return cp::call("cast", {rounded}, std::move(options));
}

// The field names EXTRACT and date_part accept, by the part each means.
std::optional<std::string> ExtractPart(std::string field) {
  static const std::map<std::string, std::string> kFields = {{"year", "year"},
                                                             {"y", "year"},
                                                             {"years", "year"},
                                                             {"yr", "year"},
                                                             {"yrs", "year"},
                                                             {"quarter", "quarter"},
                                                             {"qtr", "quarter"},
                                                             {"month", "month"},
                                                             {"mon", "month"},
                                                             {"mons", "month"},
                                                             {"months", "month"},
                                                             {"week", "weekofyear"},
                                                             {"w", "weekofyear"},
                                                             {"weeks", "weekofyear"},
                                                             {"day", "day"},
                                                             {"d", "day"},
                                                             {"days", "day"},
                                                             {"dayofweek", "dayofweek"},
                                                             {"dow", "dayofweek"},
                                                             {"dayofweek_iso", "dayofweek_iso"},
                                                             {"dow_iso", "dayofweek_iso"},
                                                             {"doy", "dayofyear"},
                                                             {"hour", "hour"},
                                                             {"h", "hour"},
                                                             {"hours", "hour"},
                                                             {"hr", "hour"},
                                                             {"hrs", "hour"},
                                                             {"minute", "minute"},
                                                             {"m", "minute"},
                                                             {"min", "minute"},
                                                             {"mins", "minute"},
                                                             {"minutes", "minute"},
                                                             {"second", "extract_second"},
                                                             {"s", "extract_second"},
                                                             {"sec", "extract_second"},
                                                             {"seconds", "extract_second"},
                                                             {"secs", "extract_second"}};
  auto it = kFields.find(ToLowerAscii(field));
  if (it == kFields.end()) return std::nullopt;
  return it->second;
}

Result<BoundExprPtr> BindPart(const FunctionCall& call, const std::string& part, size_t index) {
  BoundExprPtr value;
  if (IsTimePart(part) || part == "extract_second") {
    ARROW_ASSIGN_OR_RAISE(value, TimestampArg(call, index));
  } else {
    ARROW_ASSIGN_OR_RAISE(value, DatePartArg(call, index));
  }
  auto type = part == "extract_second" ? arrow::decimal128(8, 6) : arrow::int32();
  return Call(part, {value}, type);
}

Result<BoundExprPtr> BindExtract(const FunctionCall& call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
  ARROW_ASSIGN_OR_RAISE(auto field, ConstantStringArg(call, 0));
  std::optional<std::string> part = field ? ExtractPart(*field) : std::nullopt;
  if (!part) {
    return AnalysisError("INVALID_EXTRACT_FIELD",
                         fmt::format("Cannot extract {} from {}.", field ? *field : "NULL",
                                     call.expr.children[1]->source_text),
                         call.expr.pos);
  }
  return BindPart(call, *part, 1);
}

// date_trunc's and trunc's unit names, by the unit of Arrow's floor_temporal.
std::optional<cp::CalendarUnit> TruncUnit(const std::string& format, bool date_only) {
  static const std::map<std::string, cp::CalendarUnit> kUnits = {
      {"year", cp::CalendarUnit::YEAR},
      {"yyyy", cp::CalendarUnit::YEAR},
      {"yy", cp::CalendarUnit::YEAR},
      {"quarter", cp::CalendarUnit::QUARTER},
      {"month", cp::CalendarUnit::MONTH},
      {"mm", cp::CalendarUnit::MONTH},
      {"mon", cp::CalendarUnit::MONTH},
      {"week", cp::CalendarUnit::WEEK},
      {"day", cp::CalendarUnit::DAY},
      {"dd", cp::CalendarUnit::DAY},
      {"hour", cp::CalendarUnit::HOUR},
      {"minute", cp::CalendarUnit::MINUTE},
      {"second", cp::CalendarUnit::SECOND},
      {"millisecond", cp::CalendarUnit::MILLISECOND},
      {"microsecond", cp::CalendarUnit::MICROSECOND}};
  auto it = kUnits.find(ToLowerAscii(format));
  if (it == kUnits.end()) return std::nullopt;
  // trunc on dates knows only the units from WEEK up.
  if (date_only && it->second < cp::CalendarUnit::WEEK) return std::nullopt;
  return it->second;
}

cp::Expression LowerTrunc(cp::Expression value, const BoundExpr& format) {
  auto unit = *TruncUnit(LiteralString(format), /*date_only=*/false);
  cp::RoundTemporalOptions options(1, unit, /*week_starts_monday=*/true);
  return cp::call("floor_temporal", {std::move(value)}, std::move(options));
}

Result<BoundExprPtr> BindCurrent(const FunctionCall& call, bool date) {
  int64_t micros = StatementMicros();
  if (!date)
    return MakeBoundLiteral(std::make_shared<arrow::TimestampScalar>(micros, TimestampType()));
  int64_t micros_per_day = 86400LL * 1000 * 1000;
  int64_t days = micros / micros_per_day - (micros % micros_per_day < 0 ? 1 : 0);
  return MakeBoundLiteral(std::make_shared<arrow::Date32Scalar>(static_cast<int32_t>(days)));
}

void AddPart(FunctionRegistry* registry, std::vector<std::string> names, std::string part) {
  registry->AddTypeRule(names, [part](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    return BindPart(call, part, 0);
  });
  registry->AddLowering(part, [part](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(LowerPart(part, std::move(args[0])));
  });
}

}  // namespace

void RegisterDatetimeFunctions(FunctionRegistry* registry) {
  AddPart(registry, {"year"}, "year");
  AddPart(registry, {"quarter"}, "quarter");
  AddPart(registry, {"month"}, "month");
  AddPart(registry, {"day", "dayofmonth"}, "day");
  AddPart(registry, {"dayofweek"}, "dayofweek");
  AddPart(registry, {"weekday"}, "weekday");
  AddPart(registry, {"dayofyear"}, "dayofyear");
  AddPart(registry, {"weekofyear"}, "weekofyear");
  AddPart(registry, {"hour"}, "hour");
  AddPart(registry, {"minute"}, "minute");
  AddPart(registry, {"second"}, "second");
  registry->AddLowering("dayofweek_iso", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(LowerPart("dayofweek_iso", std::move(args[0])));
  });
  registry->AddLowering("extract_second", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(LowerSecondWithFraction(std::move(args[0])));
  });
  registry->AddTypeRule({"extract", "date_part", "datepart"}, BindExtract);

  registry->AddTypeRule({"date_add", "dateadd"},
                        [](const FunctionCall& call) -> Result<BoundExprPtr> {
                          ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
                          ARROW_ASSIGN_OR_RAISE(auto date, DateArg(call, 0));
                          ARROW_ASSIGN_OR_RAISE(auto days, IntArg(call, 1));
                          return AddDaysToDate(date, days, /*subtract=*/false);
                        });
  registry->AddTypeRule({"date_sub"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    ARROW_ASSIGN_OR_RAISE(auto date, DateArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto days, IntArg(call, 1));
    return AddDaysToDate(date, days, /*subtract=*/true);
  });
  registry->AddLowering("date_add", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(DateOfDays(cp::call("add_checked", {DaysOf(args[0]), args[1]})));
  });
  registry->AddLowering("date_sub", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(
        DateOfDays(cp::call("subtract_checked", {DaysOf(args[0]), args[1]})));
  });

  registry->AddTypeRule({"add_months"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    ARROW_ASSIGN_OR_RAISE(auto date, DateArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto months, IntArg(call, 1));
    return AddMonthsToDate(date, months);
  });
  registry->AddLowering("add_months", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(cp::call("parley_add_months", std::move(args)));
  });
  registry->AddLowering(
      "timestamp_add_months", [](const BoundExpr&, std::vector<cp::Expression> args) {
        return Result<cp::Expression>(cp::call("parley_timestamp_add_months", std::move(args)));
      });

  registry->AddLowering("date_minus_date", [](const BoundExpr&, std::vector<cp::Expression> args) {
    auto days = cp::call("subtract_checked", {DaysOf(args[0]), DaysOf(args[1])});
    auto micros = cp::call("multiply_checked",
                           {cp::call("cast", {days}, cp::CastOptions::Safe(arrow::int64())),
                            cp::literal(int64_t{86400} * 1000 * 1000)});
    return Result<cp::Expression>(
        cp::call("cast", {micros}, cp::CastOptions::Safe(arrow::duration(arrow::TimeUnit::MICRO))));
  });

  registry->AddTypeRule({"datediff", "date_diff"},
                        [](const FunctionCall& call) -> Result<BoundExprPtr> {
                          ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
                          ARROW_ASSIGN_OR_RAISE(auto end, DateArg(call, 0));
                          ARROW_ASSIGN_OR_RAISE(auto start, DateArg(call, 1));
                          return Call("datediff", {end, start}, arrow::int32());
                        });
  registry->AddLowering("datediff", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(cp::call("subtract_checked", {DaysOf(args[0]), DaysOf(args[1])}));
  });

  registry->AddTypeRule({"months_between"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 3));
    ARROW_ASSIGN_OR_RAISE(auto first, TimestampArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto second, TimestampArg(call, 1));
    BoundExprPtr round_off = MakeBoundLiteral(std::make_shared<arrow::BooleanScalar>(true));
    if (call.args.size() == 3) {
      round_off = call.args[2];
      if (round_off->type->id() == arrow::Type::NA) round_off = CastTo(round_off, arrow::boolean());
      if (round_off->type->id() != arrow::Type::BOOL)
        return UnexpectedInputType(call, 2, "BOOLEAN");
      if (round_off->kind != BoundExpr::Kind::kLiteral) {
        return AnalysisError("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                             fmt::format("Cannot resolve \"{}\" due to data type mismatch: the "
                                         "input `roundOff` should be a foldable \"BOOLEAN\" "
                                         "expression.",
                                         call.expr.source_text),
                             call.expr.pos);
      }
    }
    return Call("months_between", {first, CastTo(second, first->type), round_off},
                arrow::float64());
  });
  registry->AddLowering("months_between", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(cp::call("parley_months_between", std::move(args)));
  });

  registry->AddTypeRule({"last_day"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto date, DateArg(call, 0));
    return Call("last_day", {date}, arrow::date32());
  });
  registry->AddLowering("last_day", [](const BoundExpr&, std::vector<cp::Expression> args) {
    auto first =
        cp::call("floor_temporal", {args[0]}, cp::RoundTemporalOptions(1, cp::CalendarUnit::MONTH));
    auto next = cp::call("parley_add_months", {first, cp::literal(1)});
    return Result<cp::Expression>(DateOfDays(cp::call("subtract", {DaysOf(next), cp::literal(1)})));
  });

  registry->AddTypeRule({"make_date"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 3));
    std::vector<BoundExprPtr> args;
    for (size_t i = 0; i < 3; ++i) {
      ARROW_ASSIGN_OR_RAISE(auto arg, IntArg(call, i));
      args.push_back(arg);
    }
    return Call("make_date", std::move(args), arrow::date32());
  });
  registry->AddLowering("make_date", [](const BoundExpr&, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(cp::call("parley_make_date", std::move(args)));
  });

  registry->AddTypeRule({"date_trunc"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    ARROW_ASSIGN_OR_RAISE(auto format, ConstantStringArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto value, TimestampArg(call, 1));
    if (!format || !TruncUnit(*format, /*date_only=*/false)) {
      return MakeBoundLiteral(arrow::MakeNullScalar(value->type));
    }
    return Call("date_trunc", {StringLiteral(*format), value}, value->type);
  });
  registry->AddLowering("date_trunc", [](const BoundExpr& call, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(LowerTrunc(std::move(args[1]), *call.args[0]));
  });
  registry->AddTypeRule({"trunc"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    ARROW_ASSIGN_OR_RAISE(auto value, DateArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto format, ConstantStringArg(call, 1));
    if (!format || !TruncUnit(*format, /*date_only=*/true)) {
      return MakeBoundLiteral(arrow::MakeNullScalar(arrow::date32()));
    }
    return Call("trunc", {value, StringLiteral(*format)}, arrow::date32());
  });
  registry->AddLowering("trunc", [](const BoundExpr& call, std::vector<cp::Expression> args) {
    return Result<cp::Expression>(LowerTrunc(std::move(args[0]), *call.args[1]));
  });

  registry->AddTypeRule({"current_date", "curdate"},
                        [](const FunctionCall& call) -> Result<BoundExprPtr> {
                          ARROW_RETURN_NOT_OK(CheckArgCount(call, 0));
                          return BindCurrent(call, true);
                        });
  registry->AddTypeRule({"current_timestamp", "now", "localtimestamp"},
                        [](const FunctionCall& call) -> Result<BoundExprPtr> {
                          ARROW_RETURN_NOT_OK(CheckArgCount(call, 0));
                          return BindCurrent(call, false);
                        });
}

}  // namespace parley
