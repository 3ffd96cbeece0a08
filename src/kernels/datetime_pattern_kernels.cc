// The row functions over Spark's datetime patterns (datetime_pattern.h):
//   parley_format_datetime(timestamp, utf8 pattern) -> utf8: the instant written by the pattern;
//   parley_parse_datetime(utf8 text, utf8 pattern, utf8 try_function) -> timestamp[us, UTC]:
//     the instant the text names; text the pattern does not read fails with
//     CANNOT_PARSE_TIMESTAMP naming `try_function` (wrap the call in TRY for NULL instead).
//   parley_next_day(int32 days, utf8 day_of_week) -> int32: the first date after `days` (since
//     the epoch) that falls on the named day (MO, MON or MONDAY, in any case);
//     ILLEGAL_DAY_OF_WEEK for another name.
// A pattern is compiled once for the rows that share it.
#include <optional>

#include "arrow/array/builder_binary.h"
#include "arrow/array/builder_primitive.h"
#include "kernels/civil_calendar.h"
#include "kernels/datetime_pattern.h"
#include "kernels/kernel_support.h"
#include "kernels/row_kernel.h"

namespace parley::kernels {
namespace {

namespace cp = arrow::compute;

// The pattern of each row, compiled when it differs from the row before's.
class RowPatterns {
 public:
  RowPatterns(const cp::ExecValue& patterns, DatetimePattern::Use use)
      : patterns_(patterns), use_(use) {}

  bool IsValid(int64_t row) const { return patterns_.IsValid(row); }

  Result<const DatetimePattern*> At(int64_t row) {
    std::string_view text = patterns_.Value(row);
    if (!compiled_ || compiled_->text() != text) {
      ARROW_ASSIGN_OR_RAISE(compiled_, DatetimePattern::Compile(text, use_));
    }
    return &*compiled_;
  }

 private:
  StringColumn patterns_;
  DatetimePattern::Use use_;
  std::optional<DatetimePattern> compiled_;
};

Status FormatExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  Column<int64_t> instants(batch[0]);
  RowPatterns patterns(batch[1], DatetimePattern::Use::kFormat);
  arrow::StringBuilder builder(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!instants.IsValid(row) || !patterns.IsValid(row)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    ARROW_ASSIGN_OR_RAISE(auto pattern, patterns.At(row));
    ARROW_RETURN_NOT_OK(builder.Append(pattern->Format(instants.Value(row))));
  }
  return FinishInto(&builder, out);
}

Status ParseExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  StringColumn texts(batch[0]);
  RowPatterns patterns(batch[1], DatetimePattern::Use::kParse);
  StringColumn try_functions(batch[2]);
  arrow::TimestampBuilder builder(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"),
                                  ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!texts.IsValid(row) || !patterns.IsValid(row)) {
      builder.UnsafeAppendNull();
      continue;
    }
    ARROW_ASSIGN_OR_RAISE(auto pattern, patterns.At(row));
    auto instant = pattern->Parse(texts.Value(row));
    if (!instant.ok()) {
      return CannotParseTimestamp(instant.status(), try_functions.Value(row));
    }
    builder.UnsafeAppend(*instant);
  }
  return FinishInto(&builder, out);
}

// The day of the week `name` names, 1 for Monday to 7 for Sunday.
Result<int> DayOfWeekNamed(std::string_view name) {
  static constexpr const char* kDays[] = {"MONDAY", "TUESDAY",  "WEDNESDAY", "THURSDAY",
                                          "FRIDAY", "SATURDAY", "SUNDAY"};
  std::string upper(name);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (int day = 0; day < 7; ++day) {
    std::string_view full = kDays[day];
    if (upper == full || upper == full.substr(0, 2) || upper == full.substr(0, 3)) return day + 1;
  }
  return MakeError(arrow::StatusCode::Invalid, "ILLEGAL_DAY_OF_WEEK",
                   "Illegal input for day of week: " + std::string(name) + ".");
}

}  // namespace

Status RegisterDatetimePatternKernels(cp::FunctionRegistry* registry) {
  Status next_day = RegisterRowFunction<int32_t, int32_t, std::string_view>(
      registry, "parley_next_day",
      [](int32_t days, std::string_view name) -> Result<std::optional<int32_t>> {
        ARROW_ASSIGN_OR_RAISE(int target, DayOfWeekNamed(name));
        // 1970-01-01 was a Thursday (4).
        int today = static_cast<int>(days + 3 - FloorDivide(days + 3, 7) * 7) + 1;
        int ahead = (target - today + 6) % 7 + 1;
        return std::optional<int32_t>(days + ahead);
      },
      "The next date that falls on a day of the week");
  ARROW_RETURN_NOT_OK(next_day);
  ARROW_RETURN_NOT_OK(AddFunction(
      registry, "parley_format_datetime",
      {cp::InputType(arrow::Type::TIMESTAMP), cp::InputType(arrow::utf8())},
      cp::OutputType(arrow::utf8()), FormatExec, "An instant written by a Spark datetime pattern"));
  return AddFunction(
      registry, "parley_parse_datetime",
      {cp::InputType(arrow::utf8()), cp::InputType(arrow::utf8()), cp::InputType(arrow::utf8())},
      cp::OutputType(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC")), ParseExec,
      "Text read by a Spark datetime pattern as an instant");
}

}  // namespace parley::kernels
