// Spark's conversions between timestamps or dates and counts since the epoch, and the names of
// days and months: timestamp_seconds / timestamp_millis / timestamp_micros, unix_seconds /
// unix_millis / unix_micros, unix_date, date_from_unix_date, dayname, monthname and next_day.
#include <fmt/format.h>

#include "arrow/compute/api.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "functions/function_rules.h"
#include "plan/type_rules.h"
#include "sql/positioned_error.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

std::shared_ptr<arrow::DataType> Timestamp() {
  return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
}

BoundExprPtr BigintLiteral(int64_t value) {
  return MakeBoundLiteral(std::make_shared<arrow::Int64Scalar>(value));
}

// timestamp_seconds / millis / micros: the count times `micros_per_unit` microseconds (checked,
// ARITHMETIC_OVERFLOW beyond BIGINT), a fraction of a second kept to the microsecond.
TypeRule FromEpoch(int64_t micros_per_unit, bool fractional) {
  return [micros_per_unit, fractional](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    const auto& type = *call.args[0]->type;
    bool accepted = fractional ? IsNumeric(type) : IsIntegral(type);
    if (!accepted && type.id() != arrow::Type::NA) {
      return UnexpectedInputType(call, 0, fractional ? "NUMERIC" : "INTEGRAL");
    }
    auto count = type.id() == arrow::Type::NA ? CastTo(call.args[0], arrow::int64()) : call.args[0];
    if (IsIntegral(*count->type)) count = CastTo(count, arrow::int64());
    BoundExprPtr micros = count;
    if (micros_per_unit != 1) {
      ARROW_ASSIGN_OR_RAISE(micros, call.bind_operator("*", count, BigintLiteral(micros_per_unit)));
    }
    if (!micros->type->Equals(*arrow::int64())) {
      micros = MakeCall("CAST", {micros}, arrow::int64());
    }
    return Call("micros_to_timestamp", {micros}, Timestamp());
  };
}

// unix_seconds / millis / micros: the timestamp's microseconds divided by `micros_per_unit`,
// rounded down.
TypeRule ToEpoch(int64_t micros_per_unit) {
  return [micros_per_unit](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    if (call.args[0]->type->id() != arrow::Type::TIMESTAMP &&
        call.args[0]->type->id() != arrow::Type::NA) {
      return UnexpectedInputType(call, 0, "TIMESTAMP");
    }
    auto value = CastTo(call.args[0], Timestamp());
    return Call("timestamp_to_epoch", {value, BigintLiteral(micros_per_unit)}, arrow::int64());
  };
}

// dayname and monthname: the three-letter English name of a date's (or timestamp's) day or
// month.
TypeRule NameOf(std::string format) {
  return [format](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto date, DateArg(call, 0));
    return Call("date_name", {date, StringLiteral(format)}, arrow::utf8());
  };
}

}  // namespace

void RegisterEpochFunctions(FunctionRegistry* registry) {
  registry->AddTypeRule({"timestamp_seconds"}, FromEpoch(1000000, true));
  registry->AddTypeRule({"timestamp_millis"}, FromEpoch(1000, false));
  registry->AddTypeRule({"timestamp_micros"}, FromEpoch(1, false));
  registry->AddLowering("micros_to_timestamp", [](const BoundExpr& call,
                                                  std::vector<cp::Expression> args) {
    return Result<cp::Expression>(cp::call("cast", {args[0]}, cp::CastOptions::Safe(call.type)));
  });
  registry->AddTypeRule({"unix_seconds"}, ToEpoch(1000000));
  registry->AddTypeRule({"unix_millis"}, ToEpoch(1000));
  registry->AddTypeRule({"unix_micros"}, ToEpoch(1));
  registry->AddLowering(
      "timestamp_to_epoch", [](const BoundExpr& call, std::vector<cp::Expression> args) {
        auto micros = cp::call("cast", {args[0]}, cp::CastOptions::Unsafe(arrow::int64()));
        int64_t unit = static_cast<const arrow::Int64Scalar&>(*call.args[1]->literal).value;
        if (unit == 1) return Result<cp::Expression>(micros);
        // Floor division: (micros - ((micros % unit) + unit) % unit) / unit, exact in 64 bits.
        auto k = cp::literal(unit);
        auto remainder = cp::call(
            "subtract", {micros, cp::call("multiply", {cp::call("divide", {micros, k}), k})});
        auto positive = cp::call("if_else", {cp::call("less", {remainder, cp::literal(int64_t{0})}),
                                             cp::call("add", {remainder, k}), remainder});
        return Result<cp::Expression>(
            cp::call("divide", {cp::call("subtract", {micros, positive}), k}));
      });
  registry->AddTypeRule({"unix_date"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto date, DateArg(call, 0));
    return Call("unix_date", {date}, arrow::int32());
  });
  registry->AddTypeRule({"date_from_unix_date"},
                        [](const FunctionCall& call) -> Result<BoundExprPtr> {
                          ARROW_RETURN_NOT_OK(CheckArgCount(call, 1));
                          ARROW_ASSIGN_OR_RAISE(auto days, IntArg(call, 0));
                          return Call("date_from_unix_date", {days}, arrow::date32());
                        });
  for (const std::string name : {"unix_date", "date_from_unix_date"}) {
    registry->AddLowering(name, [](const BoundExpr& call, std::vector<cp::Expression> args) {
      return Result<cp::Expression>(
          cp::call("cast", {args[0]}, cp::CastOptions::Unsafe(call.type)));
    });
  }
  // next_day(date, day_of_week): the first later date on that day.
  registry->AddTypeRule({"next_day"}, [](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2));
    ARROW_ASSIGN_OR_RAISE(auto date, DateArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto name, StringArg(call, 1));
    return Call("next_day", {date, name}, arrow::date32());
  });
  registry->AddLowering("next_day", [](const BoundExpr&, std::vector<cp::Expression> args) {
    auto days = cp::call("cast", {args[0]}, cp::CastOptions::Unsafe(arrow::int32()));
    auto next = cp::call("parley_next_day", {days, args[1]});
    return Result<cp::Expression>(
        cp::call("cast", {next}, cp::CastOptions::Unsafe(arrow::date32())));
  });
  registry->AddTypeRule({"dayname"}, NameOf("%a"));
  registry->AddTypeRule({"monthname"}, NameOf("%b"));
  registry->AddLowering("date_name", [](const BoundExpr& call, std::vector<cp::Expression> args) {
    auto seconds = cp::call("cast", {args[0]},
                            cp::CastOptions::Safe(arrow::timestamp(arrow::TimeUnit::SECOND)));
    cp::StrftimeOptions options(LiteralString(*call.args[1]), "C");
    return Result<cp::Expression>(cp::call("strftime", {seconds}, options));
  });
}

}  // namespace parley
