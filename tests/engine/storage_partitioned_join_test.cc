// Storage-partitioned joins: which joins qualify, what EXPLAIN shows, and that every join type
// returns the rows of the engine's ordinary join.
#include "plan/storage_partitioned_join.h"

#include <gtest/gtest.h>

#include "analysis/query_binder.h"
#include "arrow/table.h"
#include "catalog/catalog_manager.h"
#include "exec/executor.h"
#include "plan/explain.h"
#include "plan/pushdown.h"
#include "sql/parser.h"
#include "testing/gtest_util.h"
#include "testing/query_harness.h"
#include "testing/test_connector.h"

namespace parley {
namespace {

const PlanNode* FindJoin(const PlanNode& node) {
  if (node.kind == PlanNode::Kind::kJoin) return &node;
  for (const auto& child : node.children) {
    if (const auto* join = FindJoin(*child)) return join;
  }
  return nullptr;
}

std::vector<std::string> Rows(const arrow::Table& table) {
  return testing::SortedRows(table).ValueOrDie();
}

constexpr int32_t kNull = INT32_MIN;

class StoragePartitionedJoinTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(EnsureComputeInitialized());
    testing::TestTableOptions by_k;
    by_k.filter_pushdown = true;
    by_k.column_pruning = true;
    by_k.partition_column = "k";
    by_k.partitions_per_key = 2;
    catalog_ = std::make_shared<testing::TestCatalog>();
    catalog_->AddTable("p1",
                       testing::MakeIntTable({"k", "x"}, {{3, 1, 2, 3, 1, 3, kNull, 5},
                                                          {30, 10, 20, 31, 11, 32, 90, 50}}),
                       by_k);
    catalog_->AddTable(
        "p2", testing::MakeIntTable({"k", "y"}, {{1, 3, 4, 3, kNull}, {10, 31, 40, 6, 7}}), by_k);
    testing::TestTableOptions by_y = by_k;
    by_y.partition_column = "y";
    catalog_->AddTable(
        "q", testing::MakeIntTable({"k", "y"}, {{1, 3, 4, 3, kNull}, {10, 31, 40, 6, 7}}), by_y);
    testing::TestTableOptions plain;
    plain.filter_pushdown = true;
    plain.column_pruning = true;
    plain.partitions = 2;
    catalog_->AddTable("plain",
                       testing::MakeIntTable({"k", "y"}, {{1, 3, 4, 3, kNull}, {10, 31, 40, 6, 7}}),
                       plain);
    ASSERT_OK(catalogs_.Register("tc", catalog_));
  }

  Result<PlanNodePtr> Plan(const std::string& text, PushdownOptions options = {}) {
    return testing::PlanSelect(text, &catalogs_, options);
  }

  Result<std::vector<std::string>> Run(const PlanNodePtr& plan, bool profile = false) {
    ScanRunOptions options;
    options.verify_pushdown = true;
    options.round_trip_tasks = true;
    ARROW_ASSIGN_OR_RAISE(auto result, ExecutePlan(plan, options, profile));
    return Rows(*result.table);
  }

  // Plan `text` both ways; expect the storage-partitioned plan (`partitioned`) or not, and the
  // same rows as the ordinary join.
  void ExpectSameRows(const std::string& text, bool partitioned) {
    ASSERT_OK_AND_ASSIGN(auto plan, Plan(text));
    ASSERT_NE(FindJoin(*plan), nullptr) << text;
    EXPECT_EQ(FindJoin(*plan)->storage_partitioned, partitioned) << text;
    PushdownOptions off;
    off.storage_partitioned_join = false;
    ASSERT_OK_AND_ASSIGN(auto ordinary, Plan(text, off));
    EXPECT_FALSE(FindJoin(*ordinary)->storage_partitioned);
    ASSERT_OK_AND_ASSIGN(auto rows, Run(plan));
    ASSERT_OK_AND_ASSIGN(auto expected, Run(ordinary));
    EXPECT_EQ(rows, expected) << text;
    EXPECT_FALSE(rows.empty()) << text;
    ASSERT_OK_AND_ASSIGN(auto profiled, Run(plan, /*profile=*/true));
    EXPECT_EQ(profiled, expected) << text;
  }

  SqlConf conf_;
  CatalogManager catalogs_{&conf_, PluginRegistry{}};
  std::shared_ptr<testing::TestCatalog> catalog_;
};

TEST_F(StoragePartitionedJoinTest, JoinsOnThePartitionKeysRunPerKeyGroup) {
  const std::string query =
      "SELECT p1.k, p1.x, p2.y FROM tc.default.p1 JOIN tc.default.p2 ON p1.k = p2.k";
  ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
  ASSERT_OK_AND_ASSIGN(auto groups, GroupJoinPartitions(*FindJoin(*plan)));
  ASSERT_TRUE(groups.has_value());
  // Values 1, 2, 3, 4, 5 and NULL: p1 has two partitions for 1 and for 3 (2 per key at most).
  ASSERT_EQ(groups->left.size(), 6u);
  EXPECT_EQ(groups->left[0].size(), 2u);
  ASSERT_OK_AND_ASSIGN(auto text, ExplainPlan(plan, sql::ExplainMode::kFormatted));
  EXPECT_NE(text.find("StoragePartitionedJoin: [identity(k) = identity(k)], 6 key groups"),
            std::string::npos)
      << text;
  ASSERT_OK_AND_ASSIGN(auto rows, Run(plan));
  EXPECT_EQ(rows, (std::vector<std::string>{"1,10,10", "1,11,10", "3,30,31", "3,30,6", "3,31,31",
                                            "3,31,6", "3,32,31", "3,32,6"}));
  ExpectSameRows(query, true);
}

TEST_F(StoragePartitionedJoinTest, EveryJoinTypeMatchesTheOrdinaryJoin) {
  for (const std::string join : {"LEFT JOIN", "RIGHT JOIN", "FULL JOIN"}) {
    ExpectSameRows("SELECT p1.k, p1.x, p2.k, p2.y FROM tc.default.p1 " + join +
                       " tc.default.p2 ON p1.k = p2.k",
                   true);
  }
  for (const std::string join : {"LEFT SEMI JOIN", "LEFT ANTI JOIN"}) {
    ExpectSameRows("SELECT p1.k, p1.x FROM tc.default.p1 " + join + " tc.default.p2 ON p1.k = p2.k",
                   true);
  }
}

TEST_F(StoragePartitionedJoinTest, MoreJoinKeysAndFiltersKeepIt) {
  ExpectSameRows(
      "SELECT p1.x, p2.y FROM tc.default.p1 JOIN tc.default.p2 "
      "ON p1.k = p2.k AND p1.x = p2.y",
      true);
  ExpectSameRows(
      "SELECT p1.x, p2.y FROM tc.default.p1 JOIN tc.default.p2 "
      "ON p1.k = p2.k WHERE p1.x + 1 > 12 AND p2.y > 6",
      true);
}

TEST_F(StoragePartitionedJoinTest, MismatchedKeysFallBackToTheOrdinaryJoin) {
  // q is partitioned by y, not by the join key; plain reports no partitioning; and a join on
  // p1.x = p2.y pairs no partition keys.
  ExpectSameRows("SELECT p1.x, q.y FROM tc.default.p1 JOIN tc.default.q ON p1.k = q.k", false);
  ExpectSameRows(
      "SELECT p1.x, plain.y FROM tc.default.p1 JOIN tc.default.plain "
      "ON p1.k = plain.k",
      false);
  ExpectSameRows("SELECT p1.x, p2.y FROM tc.default.p1 JOIN tc.default.p2 ON p1.x = p2.y", false);
}

TEST_F(StoragePartitionedJoinTest, TheSettingTurnsItOff) {
  conf_.Set("spark.sql.sources.v2.bucketing.enabled", "false");
  EXPECT_FALSE(PushdownOptionsFor(conf_).storage_partitioned_join);
  ASSERT_OK_AND_ASSIGN(auto plan, Plan("SELECT p1.x FROM tc.default.p1 JOIN tc.default.p2 "
                                       "ON p1.k = p2.k",
                                       PushdownOptionsFor(conf_)));
  EXPECT_FALSE(FindJoin(*plan)->storage_partitioned);
  ASSERT_OK_AND_ASSIGN(auto text, ExplainPlan(plan, sql::ExplainMode::kFormatted));
  EXPECT_EQ(text.find("StoragePartitionedJoin"), std::string::npos) << text;
}

}  // namespace
}  // namespace parley
