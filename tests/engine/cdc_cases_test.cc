// Every scenario of specs/cdc-cases.json through the memory connector's changelog, end to end:
// each case runs in a session (tests/cdc/cdc_cases.h is the runner).
#include <gtest/gtest.h>

#include "testing/gtest_util.h"
#include "tests/cdc/cdc_cases.h"

namespace parley {
namespace {

TEST(CdcCasesTest, EveryScenarioOfTheSpecPasses) {
  ASSERT_OK_AND_ASSIGN(auto outcomes, testing::RunCdcCaseFile(PARLEY_CDC_CASES_PATH));
  ASSERT_FALSE(outcomes.empty());
  for (const auto& outcome : outcomes) {
    EXPECT_TRUE(outcome.passed) << outcome.name << ": " << outcome.detail;
  }
}

}  // namespace
}  // namespace parley
