// Pushdown negotiation around joins: filters reach the scans through a join, and aggregate,
// limit and top-N are never offered to a scan below one.
#include <gtest/gtest.h>

#include "analysis/query_binder.h"
#include "arrow/table.h"
#include "catalog/catalog_manager.h"
#include "exec/executor.h"
#include "plan/pushdown.h"
#include "sql/parser.h"
#include "testing/gtest_util.h"
#include "testing/test_connector.h"

namespace parley {
namespace {

class PushdownJoinTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // The test connector evaluates accepted predicates with Arrow compute in its readers.
    ASSERT_OK(EnsureComputeInitialized());
    catalog_ = std::make_shared<testing::TestCatalog>();
    testing::TestTableOptions options;
    options.filter_pushdown = true;
    options.column_pruning = true;
    options.limit_pushdown = true;
    options.limit_complete = true;
    options.aggregate_complete = true;
    catalog_->AddTable("a", testing::MakeIntTable({"k", "x"}, {{1, 2, 3}, {10, 20, 30}}), options);
    catalog_->AddTable("b", testing::MakeIntTable({"k", "y"}, {{1, 3, 3}, {5, 6, 7}}), options);
    ASSERT_OK(catalogs_.Register("tc", catalog_));
  }

  Result<std::shared_ptr<arrow::Table>> Run(const std::string& text) {
    ARROW_ASSIGN_OR_RAISE(auto statement, sql::ParseStatement(text));
    ARROW_ASSIGN_OR_RAISE(auto plan,
                          BindSelect(std::get<sql::SelectStatement>(statement.node), &catalogs_));
    ARROW_ASSIGN_OR_RAISE(plan, NegotiatePushdown(plan));
    ARROW_ASSIGN_OR_RAISE(auto result, ExecutePlan(plan, ScanRunOptions{}));
    return result.table;
  }

  void ExpectNothingButFiltersPushed(const std::string& table) {
    auto log = catalog_->log(table);
    EXPECT_FALSE(log->pushed_limit.has_value()) << table;
    EXPECT_TRUE(log->pushed_top_n.empty()) << table;
    EXPECT_TRUE(log->pushed_aggregations.empty()) << table;
  }

  SqlConf conf_;
  CatalogManager catalogs_{&conf_, PluginRegistry{}};
  std::shared_ptr<testing::TestCatalog> catalog_;
};

TEST_F(PushdownJoinTest, WhereConjunctsReachEachSidesScan) {
  ASSERT_OK_AND_ASSIGN(auto table, Run("SELECT a.x, b.y FROM tc.default.a JOIN tc.default.b "
                                       "ON a.k = b.k WHERE a.x > 10 AND b.y > 6"));
  EXPECT_EQ(table->num_rows(), 1);
  EXPECT_EQ(catalog_->log("a")->accepted_predicates, std::vector<std::string>{"x > 10"});
  EXPECT_EQ(catalog_->log("b")->accepted_predicates, std::vector<std::string>{"y > 6"});
}

TEST_F(PushdownJoinTest, LimitAndTopNStayAboveTheJoin) {
  ASSERT_OK_AND_ASSIGN(auto limited,
                       Run("SELECT a.x FROM tc.default.a JOIN tc.default.b ON a.k = b.k LIMIT 2"));
  EXPECT_EQ(limited->num_rows(), 2);
  ASSERT_OK_AND_ASSIGN(auto top, Run("SELECT a.x, b.y FROM tc.default.a JOIN tc.default.b "
                                     "ON a.k = b.k ORDER BY b.y DESC LIMIT 1"));
  ASSERT_EQ(top->num_rows(), 1);
  ExpectNothingButFiltersPushed("a");
  ExpectNothingButFiltersPushed("b");
}

TEST_F(PushdownJoinTest, AggregatesStayAboveTheJoin) {
  ASSERT_OK_AND_ASSIGN(auto table, Run("SELECT count(*), max(b.y) FROM tc.default.a "
                                       "JOIN tc.default.b ON a.k = b.k"));
  ASSERT_EQ(table->num_rows(), 1);
  EXPECT_EQ(table->column(0)->GetScalar(0).ValueOrDie()->ToString(), "3");
  EXPECT_EQ(table->column(1)->GetScalar(0).ValueOrDie()->ToString(), "7");
  ExpectNothingButFiltersPushed("a");
  ExpectNothingButFiltersPushed("b");
}

}  // namespace
}  // namespace parley
