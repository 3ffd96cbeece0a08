// QueryControl: the stop token and deadline checks, and parley.memory.limit's values.
#include "exec/query_control.h"

#include <gtest/gtest.h>

#include "testing/gtest_util.h"

namespace parley {
namespace {

TEST(QueryControlTest, ChecksTheTokenAndTheDeadline) {
  QueryControl control;
  EXPECT_OK(control.Check());
  arrow::StopSource source;
  control.stop_token = source.token();
  EXPECT_OK(control.Check());
  source.RequestStop();
  ASSERT_RAISES_CONDITION("OPERATION_CANCELED", control.Check());

  QueryControl timed;
  timed.deadline = std::chrono::steady_clock::now() + std::chrono::hours(1);
  EXPECT_OK(timed.Check());
  timed.deadline = std::chrono::steady_clock::now() - std::chrono::milliseconds(1);
  ASSERT_RAISES_CONDITION("OPERATION_CANCELED", timed.Check());
}

TEST(QueryControlTest, ParsesMemoryLimits) {
  EXPECT_EQ(ParseMemoryLimit("1048576"), 1048576);
  EXPECT_EQ(ParseMemoryLimit("10b"), 10);
  EXPECT_EQ(ParseMemoryLimit("10k"), 10 << 10);
  EXPECT_EQ(ParseMemoryLimit("10KB"), 10 << 10);
  EXPECT_EQ(ParseMemoryLimit("512m"), int64_t{512} << 20);
  EXPECT_EQ(ParseMemoryLimit("4g"), int64_t{4} << 30);
  EXPECT_EQ(ParseMemoryLimit("2Tb"), int64_t{2} << 40);
  EXPECT_EQ(ParseMemoryLimit("100%"), MachineMemory() / 100 * 100);
  EXPECT_EQ(ParseMemoryLimit("80%"), MachineMemory() / 100 * 80);
  for (const char* bad : {"", "m", "-1", "1.5g", "12q", "4 g", "0%", "101%", "10bb", "99999999999t",
                          "9999999999999999999"}) {
    EXPECT_EQ(ParseMemoryLimit(bad), std::nullopt) << bad;
  }
}

TEST(QueryControlTest, MemoryLimitRefusesAllocationsPastIt) {
  arrow::MemoryPool* pool =
      MemoryPoolWithLimit(arrow::default_memory_pool()->bytes_allocated() + (1 << 20));
  EXPECT_EQ(MemoryPoolWithLimit(12345), MemoryPoolWithLimit(12345));
  uint8_t* small = nullptr;
  ASSERT_OK(pool->Allocate(1 << 10, &small));
  uint8_t* large = nullptr;
  EXPECT_TRUE(pool->Allocate(int64_t{1} << 21, &large).IsOutOfMemory());
  pool->Free(small, 1 << 10);
}

}  // namespace
}  // namespace parley
