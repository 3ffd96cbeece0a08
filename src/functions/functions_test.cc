// Unit tests of the function library's parts that SQL cannot observe directly: the registry's
// lookups, the calendar arithmetic under add_months, the statement clock, and the kernels on
// inputs that mix arrays and scalars.
#include <gtest/gtest.h>

#include <thread>

#include "arrow/array/builder_binary.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/compute/api.h"
#include "arrow/scalar.h"
#include "exec/executor.h"
#include "functions/function_registry.h"
#include "functions/statement_clock.h"
#include "kernels/kernels.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

TEST(FunctionRegistryTest, AliasesShareOneRuleAndUnknownNamesAreAbsent) {
  const auto& registry = FunctionRegistry::Builtin();
  ASSERT_NE(registry.FindTypeRule("substring"), nullptr);
  ASSERT_NE(registry.FindTypeRule("substr"), nullptr);
  EXPECT_EQ(registry.FindTypeRule("no_such_function"), nullptr);
  // Names are matched as given: the binder lower-cases them first.
  EXPECT_EQ(registry.FindTypeRule("SUBSTRING"), nullptr);
  EXPECT_NE(registry.FindLowering("add_months"), nullptr);
  EXPECT_EQ(registry.FindLowering("substr"), nullptr);
}

TEST(CalendarTest, DaysFromCivilMatchesKnownDates) {
  EXPECT_EQ(DaysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(DaysFromCivil(2000, 3, 1), 11017);
  EXPECT_EQ(DaysFromCivil(1969, 12, 31), -1);
  EXPECT_EQ(DaysFromCivil(1, 1, 1), -719162);
}

TEST(CalendarTest, AddMonthsClampsToTheEndOfTheMonth) {
  int32_t jan31 = static_cast<int32_t>(DaysFromCivil(2024, 1, 31));
  EXPECT_EQ(AddMonthsToDays(jan31, 1).ValueOrDie(), DaysFromCivil(2024, 2, 29));
  EXPECT_EQ(AddMonthsToDays(jan31, 13).ValueOrDie(), DaysFromCivil(2025, 2, 28));
  EXPECT_EQ(AddMonthsToDays(jan31, -2).ValueOrDie(), DaysFromCivil(2023, 11, 30));
  int32_t before_epoch = static_cast<int32_t>(DaysFromCivil(1969, 5, 31));
  EXPECT_EQ(AddMonthsToDays(before_epoch, 1).ValueOrDie(), DaysFromCivil(1969, 6, 30));
  int64_t micros_per_day = 86400LL * 1000 * 1000;
  int64_t evening = DaysFromCivil(1969, 12, 31) * micros_per_day + 20LL * 3600 * 1000 * 1000;
  EXPECT_EQ(AddMonthsToMicros(evening, 2).ValueOrDie(),
            DaysFromCivil(1970, 2, 28) * micros_per_day + 20LL * 3600 * 1000 * 1000);
}

TEST(CalendarTest, AddMonthsPastTheTypesRangeOverflows) {
  int32_t jan31 = static_cast<int32_t>(DaysFromCivil(2024, 1, 31));
  ASSERT_RAISES_CONDITION("ARITHMETIC_OVERFLOW", AddMonthsToDays(jan31, 2147483647));
  ASSERT_RAISES_CONDITION("ARITHMETIC_OVERFLOW", AddMonthsToDays(jan31, -2147483648LL));
  ASSERT_RAISES_CONDITION("ARITHMETIC_OVERFLOW", AddMonthsToDays(jan31, int64_t{1} << 62));
  // The last month whose day still fits DATE's days, and the one after it.
  EXPECT_TRUE(AddMonthsToDays(0, 70000000).ok());
  ASSERT_RAISES_CONDITION("ARITHMETIC_OVERFLOW", AddMonthsToDays(0, 71000000));
  // A timestamp's range ends near year 294247: days that fit DATE overflow its microseconds.
  ASSERT_RAISES_CONDITION("ARITHMETIC_OVERFLOW", AddMonthsToMicros(0, 12 * 300000));
  EXPECT_TRUE(AddMonthsToMicros(0, 12 * 290000).ok());
}

TEST(StatementClockTest, OneInstantPerStatementAndNestedClocksKeepIt) {
  int64_t outer_time = 0;
  {
    StatementClock outer;
    outer_time = StatementMicros();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    EXPECT_EQ(StatementMicros(), outer_time);
    {
      StatementClock nested;
      EXPECT_EQ(StatementMicros(), outer_time);
    }
    EXPECT_EQ(StatementMicros(), outer_time);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  EXPECT_GT(StatementMicros(), outer_time);
}

TEST(KernelsTest, SubstringAndLocateTakeArraysAndScalars) {
  ASSERT_OK(EnsureComputeInitialized());
  ASSERT_OK(RegisterParleyKernels());
  arrow::StringBuilder text_builder;
  ASSERT_OK(text_builder.AppendValues({"héllo", "ab"}));
  ASSERT_OK(text_builder.AppendNull());
  ASSERT_OK_AND_ASSIGN(auto text, text_builder.Finish());
  arrow::Int32Builder pos_builder;
  ASSERT_OK(pos_builder.AppendValues({-4, 2, 1}));
  ASSERT_OK_AND_ASSIGN(auto pos, pos_builder.Finish());
  ASSERT_OK_AND_ASSIGN(
      auto sliced,
      arrow::compute::CallFunction(
          "parley_substring", {text, pos, arrow::Datum(std::make_shared<arrow::Int32Scalar>(2))}));
  auto result = sliced.make_array();
  ASSERT_EQ(result->length(), 3);
  EXPECT_EQ(result->GetScalar(0).ValueOrDie()->ToString(), "él");
  EXPECT_EQ(result->GetScalar(1).ValueOrDie()->ToString(), "b");
  EXPECT_TRUE(result->IsNull(2));

  ASSERT_OK_AND_ASSIGN(
      auto located,
      arrow::compute::CallFunction("parley_locate",
                                   {arrow::Datum(std::make_shared<arrow::StringScalar>("l")), text,
                                    arrow::Datum(std::make_shared<arrow::Int32Scalar>(4))}));
  auto positions = located.make_array();
  EXPECT_EQ(positions->GetScalar(0).ValueOrDie()->ToString(), "4");
  EXPECT_EQ(positions->GetScalar(1).ValueOrDie()->ToString(), "0");
  EXPECT_TRUE(positions->IsNull(2));
}

}  // namespace
}  // namespace parley
