// The date and time functions that write or read text by a Spark datetime pattern
// (kernels/datetime_pattern.h): date_format, from_unixtime, unix_timestamp / to_unix_timestamp,
// to_date, to_timestamp, to_timestamp_ltz, to_timestamp_ntz and their try_ forms. The pattern
// must be a constant; it is checked when the query is analyzed.
#include "arrow/compute/api.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "functions/function_rules.h"
#include "functions/statement_clock.h"
#include "kernels/datetime_pattern.h"
#include "plan/type_rules.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using kernels::DatetimePattern;

constexpr const char* kDefaultPattern = "yyyy-MM-dd HH:mm:ss";

std::shared_ptr<arrow::DataType> TimestampType() {
  return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
}

std::shared_ptr<arrow::DataType> TimestampNtzType() {
  return arrow::timestamp(arrow::TimeUnit::MICRO);
}

BoundExprPtr NullOf(const std::shared_ptr<arrow::DataType>& type) {
  return MakeBoundLiteral(arrow::MakeNullScalar(type));
}

// The constant pattern argument `index` (`fallback` when the call has none), checked for `use`;
// nullopt when it is NULL.
Result<std::optional<std::string>> PatternArg(const FunctionCall& call, size_t index,
                                              DatetimePattern::Use use) {
  std::optional<std::string> pattern = kDefaultPattern;
  if (call.args.size() > index) {
    ARROW_ASSIGN_OR_RAISE(pattern, ConstantStringArg(call, index));
  }
  if (pattern) ARROW_RETURN_NOT_OK(DatetimePattern::Compile(*pattern, use).status());
  return pattern;
}

// A timestamp argument as microseconds (its zone, if any, kept).
Result<BoundExprPtr> InstantArg(const FunctionCall& call, size_t index) {
  if (call.args[index]->type->id() == arrow::Type::TIMESTAMP) {
    const auto& type = static_cast<const arrow::TimestampType&>(*call.args[index]->type);
    if (type.unit() == arrow::TimeUnit::MICRO) return call.args[index];
  }
  return TimestampArg(call, index);
}

// The text argument `index` read by `pattern` as an instant; a failure names `try_function`.
BoundExprPtr ParseCall(BoundExprPtr text, const std::string& pattern,
                       const std::string& try_function) {
  return Call("parley_parse_datetime",
              {std::move(text), StringLiteral(pattern), StringLiteral(try_function)},
              TimestampType());
}

// to_date, to_timestamp and their kin: `text` (or a date or timestamp) as `type`, read by the
// pattern when there is one, by CAST's rules when there is not; `try_form` makes failures NULL.
TypeRule ParseAs(std::shared_ptr<arrow::DataType> type, bool try_form, std::string try_function) {
  return [type, try_form, try_function](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 2));
    if (call.args.size() == 1) {
      const auto& from = *call.args[0]->type;
      if (!IsStringLike(from) && from.id() != arrow::Type::NA && from.id() != arrow::Type::DATE32 &&
          from.id() != arrow::Type::TIMESTAMP) {
        return UnexpectedInputType(call, 0, "(\"STRING\" or \"DATE\" or \"TIMESTAMP\")");
      }
      return MakeCall(try_form ? "TRY_CAST" : "CAST", {call.args[0]}, type);
    }
    ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto pattern, PatternArg(call, 1, DatetimePattern::Use::kParse));
    if (!pattern) return NullOf(type);
    BoundExprPtr parsed = ParseCall(text, *pattern, try_function);
    if (try_form) parsed = Call("TRY", {parsed}, TimestampType());
    return CastTo(parsed, type);
  };
}

}  // namespace

void RegisterDatetimePatternFunctions(FunctionRegistry* registry) {
  AddKernelLowering(registry, "parley_format_datetime", "parley_format_datetime");
  AddKernelLowering(registry, "parley_parse_datetime", "parley_parse_datetime");

  registry->AddTypeRule({"date_format"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    ARROW_ASSIGN_OR_RAISE(auto value, InstantArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto pattern, PatternArg(call, 1, DatetimePattern::Use::kFormat));
    if (!pattern) return NullOf(arrow::utf8());
    return Call("parley_format_datetime", {value, StringLiteral(*pattern)}, arrow::utf8());
  });

  // from_unixtime(seconds[, pattern]): the instant `seconds` after the epoch, as text.
  registry->AddTypeRule({"from_unixtime"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 2));
    const auto& type = *call.args[0]->type;
    if (!IsIntegral(type) && type.id() != arrow::Type::NA) {
      return UnexpectedInputType(call, 0, "BIGINT");
    }
    ARROW_ASSIGN_OR_RAISE(auto pattern, PatternArg(call, 1, DatetimePattern::Use::kFormat));
    if (!pattern) return NullOf(arrow::utf8());
    auto instant = Call("parley_seconds_to_timestamp", {CastTo(call.args[0], arrow::int64())},
                        TimestampType());
    return Call("parley_format_datetime", {instant, StringLiteral(*pattern)}, arrow::utf8());
  });
  registry->AddLowering("parley_seconds_to_timestamp", [](const BoundExpr&,
                                                          std::vector<cp::Expression> args) {
    auto seconds = cp::call(
        "cast", {args[0]}, cp::CastOptions::Safe(arrow::timestamp(arrow::TimeUnit::SECOND, "UTC")));
    return Result<cp::Expression>(
        cp::call("cast", {seconds}, cp::CastOptions::Safe(TimestampType())));
  });

  // unix_timestamp([x[, pattern]]): seconds since the epoch of now, a timestamp or date, or
  // text read by the pattern.
  registry->AddTypeRule(
      {"unix_timestamp", "to_unix_timestamp"},
      [](const FunctionCall& call) -> Result<BoundExprPtr> {
        ARROW_RETURN_NOT_OK(CheckArgCount(call, 0, 2));
        BoundExprPtr value;
        if (call.args.empty()) {
          value = MakeBoundLiteral(
              std::make_shared<arrow::TimestampScalar>(StatementMicros(), TimestampType()));
        } else if (call.args.size() == 2 || IsStringLike(*call.args[0]->type)) {
          ARROW_ASSIGN_OR_RAISE(auto text, StringArg(call, 0));
          ARROW_ASSIGN_OR_RAISE(auto pattern, PatternArg(call, 1, DatetimePattern::Use::kParse));
          if (!pattern) return NullOf(arrow::int64());
          value = ParseCall(text, *pattern, "try_to_timestamp");
        } else {
          ARROW_ASSIGN_OR_RAISE(value, InstantArg(call, 0));
        }
        // Whole seconds, rounded down (the lowering of unix_seconds, epoch_functions.cc).
        auto micros_per_second = MakeBoundLiteral(std::make_shared<arrow::Int64Scalar>(1000000));
        return Call("timestamp_to_epoch", {CastTo(value, TimestampType()), micros_per_second},
                    arrow::int64());
      });

  registry->AddTypeRule({"to_date"}, ParseAs(arrow::date32(), false, "try_to_date"));
  registry->AddTypeRule({"try_to_date"}, ParseAs(arrow::date32(), true, "try_to_date"));
  registry->AddTypeRule({"to_timestamp", "to_timestamp_ltz"},
                        ParseAs(TimestampType(), false, "try_to_timestamp"));
  registry->AddTypeRule({"try_to_timestamp"}, ParseAs(TimestampType(), true, "try_to_timestamp"));
  registry->AddTypeRule({"to_timestamp_ntz"},
                        ParseAs(TimestampNtzType(), false, "try_to_timestamp"));
}

}  // namespace parley
