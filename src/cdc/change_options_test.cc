// The options of a change read: ranges, modes, booleans and their errors.
#include "cdc/change_options.h"

#include <gtest/gtest.h>

#include "testing/gtest_util.h"

namespace parley {
namespace {

TEST(ChangeOptionsTest, NoOptionsIsAnUnboundedReadWithTheDefaults) {
  ASSERT_OK_AND_ASSIGN(auto request, ParseChangeOptions({}));
  EXPECT_EQ(request.info.range.kind, ChangelogRange::Kind::kUnbounded);
  EXPECT_EQ(request.info.deduplication_mode, DeduplicationMode::kDropCarryovers);
  EXPECT_FALSE(request.info.compute_updates);
}

TEST(ChangeOptionsTest, VersionRangeKeepsBoundsAsWrittenAndKeysIgnoreCase) {
  ASSERT_OK_AND_ASSIGN(auto request, ParseChangeOptions({{"STARTINGVERSION", "1"},
                                                         {"endingVersion", "v9"},
                                                         {"startingBoundInclusive", "FALSE"},
                                                         {"DeduplicationMode", "NETCHANGES"},
                                                         {"computeUpdates", "True"},
                                                         {"customOption", "x"}}));
  const auto& range = request.info.range;
  EXPECT_EQ(range.kind, ChangelogRange::Kind::kVersion);
  EXPECT_EQ(range.starting_version, "1");
  EXPECT_EQ(range.ending_version, "v9");
  EXPECT_FALSE(range.starting_bound_inclusive);
  EXPECT_TRUE(range.ending_bound_inclusive);
  EXPECT_EQ(request.info.deduplication_mode, DeduplicationMode::kNetChanges);
  EXPECT_TRUE(request.info.compute_updates);
  EXPECT_EQ(request.scan_options.at("customoption"), "x");
  EXPECT_EQ(request.scan_options.at("startingversion"), "1");
}

TEST(ChangeOptionsTest, TimestampRangeIsInMicrosecondsUtc) {
  ASSERT_OK_AND_ASSIGN(auto request,
                       ParseChangeOptions({{"startingTimestamp", "1970-01-01 00:00:01"},
                                           {"endingTimestamp", "1970-01-01T00:00:02Z"}}));
  EXPECT_EQ(request.info.range.kind, ChangelogRange::Kind::kTimestamp);
  EXPECT_EQ(request.info.range.starting_timestamp, 1000000);
  EXPECT_EQ(request.info.range.ending_timestamp, 2000000);
}

TEST(ChangeOptionsTest, ErrorsCarryTheirConditionsAndParameters) {
  ASSERT_RAISES_CONDITION("INVALID_CDC_OPTION.INVALID_DEDUPLICATION_MODE",
                          ParseChangeOptions({{"deduplicationMode", "Sometimes"}}));
  EXPECT_EQ(
      ErrorParameters(ParseChangeOptions({{"deduplicationMode", "Sometimes"}}).status()).at("mode"),
      "sometimes");
  ASSERT_RAISES_CONDITION(
      "INVALID_CDC_OPTION.CONFLICTING_RANGE_TYPES",
      ParseChangeOptions({{"startingVersion", "1"}, {"endingTimestamp", "2024-01-01"}}));
  ASSERT_RAISES_CONDITION("INVALID_CDC_OPTION.MISSING_STARTING_VERSION",
                          ParseChangeOptions({{"endingVersion", "5"}}));
  ASSERT_RAISES_CONDITION("INVALID_CDC_OPTION.MISSING_STARTING_TIMESTAMP",
                          ParseChangeOptions({{"endingTimestamp", "2024-01-01"}}));
  ASSERT_RAISES_CONDITION("INVALID_CDC_OPTION.INVALID_TIMESTAMP",
                          ParseChangeOptions({{"startingTimestamp", "yesterday"}}));
  EXPECT_EQ(ErrorParameters(ParseChangeOptions({{"startingTimestamp", "yesterday"}}).status())
                .at("timestamp"),
            "yesterday");
  ASSERT_RAISES_CONDITION("INVALID_OPTION_VALUE",
                          ParseChangeOptions({{"computeUpdates", "maybe"}}));
}

TEST(ChangeOptionsTest, TheModeIsCheckedBeforeTheRange) {
  ASSERT_RAISES_CONDITION(
      "INVALID_CDC_OPTION.INVALID_DEDUPLICATION_MODE",
      ParseChangeOptions({{"endingVersion", "5"}, {"deduplicationMode", "bad"}}));
}

}  // namespace
}  // namespace parley
