// Subplan reuse: an aggregation a query repeats over the same scan runs once, with the same
// rows as when each place computes its own.
#include "plan/subplan_reuse.h"

#include <gtest/gtest.h>

#include "arrow/table.h"
#include "catalog/catalog_manager.h"
#include "exec/executor.h"
#include "plan/explain.h"
#include "plan/pushdown.h"
#include "testing/gtest_util.h"
#include "testing/query_harness.h"
#include "testing/test_connector.h"

namespace parley {
namespace {

class SubplanReuseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(EnsureComputeInitialized());
    catalog_ = std::make_shared<testing::TestCatalog>();
    testing::TestTableOptions options;
    options.filter_pushdown = true;
    options.column_pruning = true;
    options.runtime_filtering = true;
    options.partitions = 2;
    catalog_->AddTable(
        "sales", testing::MakeIntTable({"k", "v"}, {{1, 2, 3, 1, 2, 3, 3}, {5, 6, 7, 8, 9, 4, 1}}),
        options);
    ASSERT_OK(catalogs_.Register("tc", catalog_));
  }

  Result<PlanNodePtr> Plan(const std::string& text, bool reuse = true) {
    PushdownOptions options;
    options.physical.reuse_subplans = reuse;
    return testing::PlanSelect(text, &catalogs_, options);
  }

  // The rows of `text` (as text, sorted) and how many scan tasks ran.
  Result<std::pair<std::vector<std::string>, size_t>> Run(const std::string& text, bool reuse) {
    ARROW_ASSIGN_OR_RAISE(auto plan, Plan(text, reuse));
    ARROW_ASSIGN_OR_RAISE(auto result, ExecutePlan(plan, ScanRunOptions{}));
    ARROW_ASSIGN_OR_RAISE(auto rows, testing::SortedRows(*result.table));
    return std::make_pair(std::move(rows), result.task_metrics.size());
  }

  SqlConf conf_;
  CatalogManager catalogs_{&conf_, PluginRegistry{}};
  std::shared_ptr<testing::TestCatalog> catalog_;
};

// A common table expression referenced twice (TPC-H Q15's shape): its aggregation over the
// scan runs once, and both places read its rows.
TEST_F(SubplanReuseTest, RepeatedAggregationRunsOnce) {
  const std::string query =
      "WITH totals AS (SELECT k, sum(v) AS total FROM tc.default.sales WHERE v > 1 GROUP BY k) "
      "SELECT k, total FROM totals WHERE total = (SELECT max(total) FROM totals)";
  ASSERT_OK_AND_ASSIGN(auto separate, Run(query, /*reuse=*/false));
  ASSERT_OK_AND_ASSIGN(auto reused, Run(query, /*reuse=*/true));
  EXPECT_EQ(separate.first, std::vector<std::string>{"2,15"});
  EXPECT_EQ(reused.first, separate.first);
  EXPECT_EQ(separate.second, 4u);  // two scans of two partitions
  EXPECT_EQ(reused.second, 2u);
  ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
  EXPECT_EQ(FindReusedSubplans(*plan, {}).size(), 1u);
}

// Aggregations that differ anywhere (a filter, a function, the grouping) are each computed.
TEST_F(SubplanReuseTest, DifferentAggregationsAreNotShared) {
  for (const std::string query : {
           "SELECT a.k FROM (SELECT k, sum(v) AS s FROM tc.default.sales WHERE v > 1 GROUP BY k) a "
           "JOIN (SELECT k, sum(v) AS s FROM tc.default.sales WHERE v > 2 GROUP BY k) b "
           "ON a.k = b.k AND a.s = b.s",
           "SELECT a.k FROM (SELECT k, sum(v) AS s FROM tc.default.sales GROUP BY k) a "
           "JOIN (SELECT k, max(v) AS s FROM tc.default.sales GROUP BY k) b "
           "ON a.k = b.k AND a.s = b.s",
       }) {
    ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
    EXPECT_TRUE(FindReusedSubplans(*plan, {}).empty()) << query;
    ASSERT_OK_AND_ASSIGN(auto separate, Run(query, /*reuse=*/false));
    ASSERT_OK_AND_ASSIGN(auto reused, Run(query, /*reuse=*/true));
    EXPECT_EQ(reused, separate) << query;
  }
}

// Subplans are compared structurally, through their columns by position: the same aggregation
// written twice under other names is shared, and the plan records the reuse for EXPLAIN.
TEST_F(SubplanReuseTest, SameAggregationUnderOtherNamesIsShared) {
  const std::string query =
      "SELECT a.key FROM (SELECT k AS key, sum(v) AS s FROM tc.default.sales GROUP BY k) a "
      "JOIN (SELECT k AS other, sum(v) AS t FROM tc.default.sales GROUP BY k) b "
      "ON a.key = b.other AND a.s = b.t";
  ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
  ASSERT_EQ(FindReusedSubplans(*plan, {}).size(), 1u);
  ASSERT_OK_AND_ASSIGN(auto text, ExplainPlan(plan, sql::ExplainMode::kFormatted));
  EXPECT_NE(text.find("ReusedSubplan HashAggregate"), std::string::npos) << text;
  EXPECT_NE(text.find("Reuses: ("), std::string::npos) << text;
  ASSERT_OK_AND_ASSIGN(auto separate, Run(query, /*reuse=*/false));
  ASSERT_OK_AND_ASSIGN(auto reused, Run(query, /*reuse=*/true));
  EXPECT_EQ(reused.first, separate.first);
  EXPECT_EQ(reused.first.size(), 3u);
  EXPECT_EQ(reused.second, 2u);  // one scan of two partitions
}

// A scan that a runtime filter narrows is narrowed for one place only: not shared.
TEST_F(SubplanReuseTest, ExcludedScansAreNotShared) {
  const std::string query =
      "WITH totals AS (SELECT k, sum(v) AS total FROM tc.default.sales GROUP BY k) "
      "SELECT a.k FROM totals a JOIN totals b ON a.k = b.k";
  ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
  ASSERT_EQ(FindReusedSubplans(*plan, {}).size(), 1u);
  std::set<const PlanNode*> scans;
  std::vector<const PlanNode*> stack = {plan.get()};
  while (!stack.empty()) {
    const PlanNode* node = stack.back();
    stack.pop_back();
    if (node->kind == PlanNode::Kind::kScan) scans.insert(node);
    for (const auto& child : node->children) stack.push_back(child.get());
  }
  EXPECT_TRUE(FindReusedSubplans(*plan, scans).empty());
  ASSERT_OK_AND_ASSIGN(auto separate, Run(query, /*reuse=*/false));
  ASSERT_OK_AND_ASSIGN(auto reused, Run(query, /*reuse=*/true));
  EXPECT_EQ(reused.first, separate.first);
  EXPECT_EQ(reused.first.size(), 3u);
}

}  // namespace
}  // namespace parley
