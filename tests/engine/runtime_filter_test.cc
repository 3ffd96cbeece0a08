// Runtime filtering: a join's small build side prunes the scans of its probe side, only where
// that cannot change the result.
#include <gtest/gtest.h>

#include "analysis/query_binder.h"
#include "arrow/table.h"
#include "catalog/catalog_manager.h"
#include "exec/executor.h"
#include "plan/explain.h"
#include "plan/pushdown.h"
#include "plan/runtime_filter.h"
#include "sql/parser.h"
#include "testing/gtest_util.h"
#include "testing/query_harness.h"
#include "testing/test_connector.h"

namespace parley {
namespace {

class RuntimeFilterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(EnsureComputeInitialized());
    catalog_ = std::make_shared<testing::TestCatalog>();
    testing::TestTableOptions options;
    options.filter_pushdown = true;
    options.column_pruning = true;
    options.runtime_filtering = true;
    options.partitions = 3;
    catalog_->AddTable(
        "fact",
        testing::MakeIntTable(
            {"k", "v"}, {{1, 2, 3, 4, 5, 6, 7, 8, 9, 2}, {10, 20, 30, 40, 50, 60, 70, 80, 90, 21}}),
        options);
    catalog_->AddTable("dim", testing::MakeIntTable({"k", "w"}, {{2, 4, 6}, {0, 1, 0}}), options);
    testing::TestTableOptions plain;
    plain.filter_pushdown = true;
    plain.column_pruning = true;
    catalog_->AddTable("plain", testing::MakeIntTable({"k", "v"}, {{1, 2, 3}, {10, 20, 30}}),
                       plain);
    ASSERT_OK(catalogs_.Register("tc", catalog_));
  }

  // The final plan of `text`, with runtime filters placed when `runtime_filters`.
  Result<PlanNodePtr> Plan(const std::string& text, bool runtime_filters = true) {
    PushdownOptions options;
    options.physical.runtime_filters = runtime_filters;
    return testing::PlanSelect(text, &catalogs_, options);
  }

  // The sorted rows of `text`, as text.
  Result<std::vector<std::string>> Run(const std::string& text, const ScanRunOptions& options,
                                       bool runtime_filters = true) {
    ARROW_ASSIGN_OR_RAISE(auto plan, Plan(text, runtime_filters));
    ARROW_ASSIGN_OR_RAISE(auto result, ExecutePlan(plan, options));
    return testing::SortedRows(*result.table);
  }

  // Runs `text` planned without runtime filters (fresh logs), then with them and `options`,
  // and expects the same rows.
  void ExpectSameRows(const std::string& text, const ScanRunOptions& options) {
    ASSERT_OK_AND_ASSIGN(auto expected, Run(text, ScanRunOptions{}, /*runtime_filters=*/false));
    EXPECT_TRUE(catalog_->log("fact")->runtime_predicates.empty());
    ASSERT_OK_AND_ASSIGN(auto actual, Run(text, options));
    EXPECT_EQ(actual, expected) << text;
  }

  SqlConf conf_;
  CatalogManager catalogs_{&conf_, PluginRegistry{}};
  std::shared_ptr<testing::TestCatalog> catalog_;
};

TEST_F(RuntimeFilterTest, SmallBuildSideOffersItsKeysToTheProbeScan) {
  const std::string query =
      "SELECT f.v, d.w FROM tc.default.fact f JOIN tc.default.dim d ON f.k = d.k WHERE d.w = 0";
  ExpectSameRows(query, ScanRunOptions{});
  auto log = catalog_->log("fact");
  EXPECT_EQ(log->runtime_predicates, std::vector<std::string>{"k IN (2, 6)"});
  EXPECT_EQ(log->rows_after_runtime_filter, std::vector<int64_t>{3});
  EXPECT_TRUE(catalog_->log("dim")->runtime_predicates.empty());
}

TEST_F(RuntimeFilterTest, ManyKeysAreOfferedAsARange) {
  ScanRunOptions options;
  options.runtime_filter_max_in_list = 1;
  ExpectSameRows(
      "SELECT f.v FROM tc.default.fact f JOIN tc.default.dim d ON f.k = d.k "
      "WHERE d.w >= 0",
      options);
  EXPECT_EQ(catalog_->log("fact")->runtime_predicates,
            (std::vector<std::string>{"k >= 2", "k <= 6"}));
  EXPECT_EQ(catalog_->log("fact")->rows_after_runtime_filter, std::vector<int64_t>{6});
}

TEST_F(RuntimeFilterTest, LargeBuildSideOffersNothing) {
  ScanRunOptions options;
  options.runtime_filter_max_build_rows = 2;
  ExpectSameRows(
      "SELECT f.v FROM tc.default.fact f JOIN tc.default.dim d ON f.k = d.k "
      "WHERE d.w >= 0",
      options);
  EXPECT_TRUE(catalog_->log("fact")->runtime_predicates.empty());
}

TEST_F(RuntimeFilterTest, UnfilteredBuildSideOffersNothing) {
  const std::string query = "SELECT f.v FROM tc.default.fact f JOIN tc.default.dim d ON f.k = d.k";
  ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
  EXPECT_TRUE(plan->children[0]->runtime_filters.empty());
  ExpectSameRows(query, ScanRunOptions{});
  EXPECT_TRUE(catalog_->log("fact")->runtime_predicates.empty());
}

TEST_F(RuntimeFilterTest, ReachesTheScanThroughProjectionsAndGroupKeys) {
  // A semi join keeps its sides (an inner join would be reordered by estimates); the filter
  // the source cannot take keeps the subquery's estimate below the aggregate's.
  ExpectSameRows(
      "SELECT s.k, s.total FROM (SELECT k AS kk, k, sum(v) AS total FROM tc.default.fact "
      "GROUP BY k) s WHERE s.kk IN (SELECT k FROM tc.default.dim WHERE w + 0 = 1)",
      ScanRunOptions{});
  EXPECT_EQ(catalog_->log("fact")->runtime_predicates, std::vector<std::string>{"k IN (4)"});
}

TEST_F(RuntimeFilterTest, SemiJoinFiltersItsLeftSide) {
  ExpectSameRows(
      "SELECT v FROM tc.default.fact WHERE k IN (SELECT k FROM tc.default.dim WHERE w = 1)",
      ScanRunOptions{});
  EXPECT_EQ(catalog_->log("fact")->runtime_predicates, std::vector<std::string>{"k IN (4)"});
}

TEST_F(RuntimeFilterTest, NeverWhereRemovedRowsWouldChangeTheResult) {
  // The preserved side of an outer join, the left side of an anti join, a side below a limit.
  for (const std::string query :
       {"SELECT f.v, d.w FROM tc.default.dim d RIGHT JOIN tc.default.fact f ON f.k = d.k",
        "SELECT v FROM tc.default.fact WHERE k NOT IN (SELECT k FROM tc.default.dim)",
        "SELECT f.v FROM (SELECT * FROM tc.default.fact LIMIT 8) f "
        "JOIN tc.default.dim d ON f.k = d.k"}) {
    ExpectSameRows(query, ScanRunOptions{});
    EXPECT_TRUE(catalog_->log("fact")->runtime_predicates.empty()) << query;
  }
}

TEST_F(RuntimeFilterTest, OnlySourcesThatImplementTheMixInAreTargets) {
  ASSERT_OK_AND_ASSIGN(auto plan, Plan("SELECT p.v FROM tc.default.plain p JOIN "
                                       "tc.default.dim d ON p.k = d.k WHERE d.w = 0"));
  ASSERT_EQ(plan->kind, PlanNode::Kind::kProject);
  const PlanNode& join = *plan->children[0];
  ASSERT_EQ(join.kind, PlanNode::Kind::kJoin);
  EXPECT_TRUE(join.runtime_filters.empty());
  ExpectSameRows(
      "SELECT p.v FROM tc.default.plain p JOIN tc.default.dim d ON p.k = d.k "
      "WHERE d.w = 0",
      ScanRunOptions{});
}

TEST_F(RuntimeFilterTest, ExplainShowsTheJoinsRuntimeFilterAndAnalyzeWhatWasOffered) {
  const std::string query =
      "SELECT f.v FROM tc.default.fact f JOIN tc.default.dim d ON f.k = d.k WHERE d.w = 0";
  ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
  ASSERT_OK_AND_ASSIGN(auto text, ExplainPlan(plan, sql::ExplainMode::kFormatted));
  EXPECT_NE(text.find("RuntimeFilter: [k -> `tc`.`default`.`fact`.k]"), std::string::npos) << text;
  ASSERT_OK_AND_ASSIGN(auto simple, ExplainPlan(plan, sql::ExplainMode::kSimple));
  EXPECT_NE(simple.find("RuntimeFilter [k -> `tc`.`default`.`fact`.k]"), std::string::npos)
      << simple;
  EXPECT_EQ(text.find("RuntimeFilters:"), std::string::npos) << text;
  ASSERT_OK(ExecutePlan(plan, ScanRunOptions{}, /*profile=*/true).status());
  ASSERT_OK_AND_ASSIGN(text, ExplainPlan(plan, sql::ExplainMode::kFormatted));
  EXPECT_NE(text.find("RuntimeFilters: [k IN (2, 6)]"), std::string::npos) << text;
}

}  // namespace
}  // namespace parley
