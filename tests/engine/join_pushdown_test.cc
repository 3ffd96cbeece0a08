// Join pushdown (SupportsPushDownJoin): what is offered, when, under which aliases, and that
// the rows are the same whether the source or the engine joins.
#include "plan/join_pushdown.h"

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

int CountJoins(const PlanNode& node) {
  int joins = node.kind == PlanNode::Kind::kJoin ? 1 : 0;
  for (const auto& child : node.children) joins += CountJoins(*child);
  return joins;
}

std::vector<std::string> Rows(const arrow::Table& table) {
  return testing::SortedRows(table).ValueOrDie();
}

class JoinPushdownTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(EnsureComputeInitialized());
    testing::TestTableOptions joins;
    joins.filter_pushdown = true;
    joins.column_pruning = true;
    joins.limit_pushdown = true;
    joins.join_pushdown = true;
    joins.partitions = 2;
    catalog_ = std::make_shared<testing::TestCatalog>();
    catalog_->AddTable("a", testing::MakeIntTable({"k", "x"}, {{1, 2, 3}, {10, 20, 30}}), joins);
    catalog_->AddTable("b", testing::MakeIntTable({"k", "y"}, {{1, 3, 3}, {5, 6, 7}}), joins);
    catalog_->AddTable("f", testing::MakeIntTable({"k", "x"}, {{3, 1}, {300, 100}}), joins);
    testing::TestTableOptions declines = joins;
    declines.accept_join = false;
    catalog_->AddTable("d", testing::MakeIntTable({"k", "y"}, {{1, 3, 3}, {5, 6, 7}}), declines);
    testing::TestTableOptions no_mixin = joins;
    no_mixin.join_pushdown = false;
    catalog_->AddTable("c", testing::MakeIntTable({"k", "y"}, {{1, 3, 3}, {5, 6, 7}}), no_mixin);
    other_ = std::make_shared<testing::TestCatalog>();
    other_->AddTable("e", testing::MakeIntTable({"k", "y"}, {{1, 3, 3}, {5, 6, 7}}), joins);
    ASSERT_OK(catalogs_.Register("tc", catalog_));
    ASSERT_OK(catalogs_.Register("other", other_));
  }

  Result<PlanNodePtr> Plan(const std::string& text, PushdownOptions options = {}) {
    return testing::PlanSelect(text, &catalogs_, options);
  }

  Result<std::vector<std::string>> Run(const PlanNodePtr& plan) {
    ScanRunOptions options;
    options.verify_pushdown = true;
    options.round_trip_tasks = true;
    ARROW_ASSIGN_OR_RAISE(auto result, ExecutePlan(plan, options));
    return Rows(*result.table);
  }

  // The rows of `text` with join pushdown off: the engine's own join.
  std::vector<std::string> EngineRows(const std::string& text) {
    PushdownOptions off;
    off.join_pushdown = false;
    auto plan = Plan(text, off);
    EXPECT_OK(plan.status());
    EXPECT_EQ(CountJoins(**plan), 1);
    auto rows = Run(*plan);
    EXPECT_OK(rows.status());
    return *rows;
  }

  SqlConf conf_;
  CatalogManager catalogs_{&conf_, PluginRegistry{}};
  std::shared_ptr<testing::TestCatalog> catalog_;
  std::shared_ptr<testing::TestCatalog> other_;
};

TEST_F(JoinPushdownTest, SparkAliasesRepeatedNamesApart) {
  std::vector<ColumnWithAlias> left, right;
  AliasJoinColumns({"k", "x", "k_1", "y", "ID"}, {"k", "X", "z", "id"}, &left, &right);
  auto text = [](const std::vector<ColumnWithAlias>& side) {
    std::vector<std::string> out;
    for (const auto& c : side)
      out.push_back(c.alias.empty() ? c.column : c.column + "->" + c.alias);
    return out;
  };
  // k_1 is used once, so claimed: the second k skips it.
  EXPECT_EQ(text(left), (std::vector<std::string>{"k", "x", "k_1", "y", "ID"}));
  EXPECT_EQ(text(right), (std::vector<std::string>{"k->k_2", "X->X_1", "z", "id->id_1"}));
}

TEST_F(JoinPushdownTest, AnAcceptedJoinBecomesOneScanOfTheJoinedRelation) {
  const std::string query =
      "SELECT a.x, b.y, b.k FROM tc.default.a JOIN tc.default.b ON a.k = b.k WHERE b.y > 5";
  ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
  EXPECT_EQ(CountJoins(*plan), 0);
  // Filters were offered to each side first; the join after, with b's k aliased apart.
  EXPECT_EQ(catalog_->log("b")->accepted_predicates, std::vector<std::string>{"y > 5"});
  EXPECT_EQ(catalog_->log("a")->pushed_joins, std::vector<std::string>{"k = k_1 [k, x] [k_1, y]"});
  EXPECT_TRUE(catalog_->log("b")->join_offers.empty());
  EXPECT_EQ(catalog_->log("a")->pruned_columns, (std::vector<std::string>{"x", "k_1", "y"}));
  ASSERT_OK_AND_ASSIGN(auto text, ExplainPlan(plan, sql::ExplainMode::kFormatted));
  EXPECT_NE(text.find("PushedJoin: Inner `tc`.`default`.`b` ON k = k_1, left [k, x], right "
                      "[k AS k_1, y], right PushedPredicates [y > 5]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("RequiredColumns: [x, k_1, y]"), std::string::npos) << text;
  EXPECT_EQ(text.find("BroadcastHashJoin"), std::string::npos) << text;
  ASSERT_OK_AND_ASSIGN(auto rows, Run(plan));
  EXPECT_EQ(rows, (std::vector<std::string>{"30,6,3", "30,7,3"}));
  EXPECT_EQ(rows, EngineRows(query));
}

TEST_F(JoinPushdownTest, TheResidualConditionGoesWithTheKeys) {
  const std::string query =
      "SELECT a.x, b.y FROM tc.default.a JOIN tc.default.b ON a.k = b.k AND (b.y = 6 OR a.x = 10)";
  ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
  EXPECT_EQ(CountJoins(*plan), 0);
  EXPECT_EQ(catalog_->log("a")->pushed_joins,
            std::vector<std::string>{"(k = k_1) AND ((y = 6) OR (x = 10)) [k, x] [k_1, y]"});
  ASSERT_OK_AND_ASSIGN(auto rows, Run(plan));
  EXPECT_EQ(rows, (std::vector<std::string>{"10,5", "30,6"}));
  EXPECT_EQ(rows, EngineRows(query));
}

TEST_F(JoinPushdownTest, JoinsCascadeIntoOneScan) {
  const std::string query =
      "SELECT a.x, b.y, f.x FROM tc.default.a JOIN tc.default.b ON a.k = b.k "
      "JOIN tc.default.f ON b.k = f.k";
  ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
  EXPECT_EQ(CountJoins(*plan), 0);
  // The second offer's left side is the joined relation [k, x, k_1, y]; f's k and x are
  // repeated names and k_1 is taken.
  EXPECT_EQ(
      catalog_->log("a")->pushed_joins,
      (std::vector<std::string>{"k = k_1 [k, x] [k_1, y]", "k_1 = k_2 [k, x, k_1, y] [k_2, x_1]"}));
  ASSERT_OK_AND_ASSIGN(auto rows, Run(plan));
  EXPECT_EQ(rows, (std::vector<std::string>{"10,5,100", "30,6,300", "30,7,300"}));
}

TEST_F(JoinPushdownTest, AggregatesAreOfferedAfterTheJoin) {
  const std::string query =
      "SELECT b.k, count(*), max(a.x) FROM tc.default.a JOIN tc.default.b ON a.k = b.k "
      "GROUP BY b.k";
  ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
  EXPECT_EQ(CountJoins(*plan), 0);
  ASSERT_EQ(catalog_->log("a")->pushed_aggregations.size(), 1u);
  EXPECT_NE(catalog_->log("a")->pushed_aggregations[0].find("k_1"), std::string::npos)
      << catalog_->log("a")->pushed_aggregations[0];
  ASSERT_OK_AND_ASSIGN(auto rows, Run(plan));
  EXPECT_EQ(rows, (std::vector<std::string>{"1,1,10", "3,2,30"}));
  EXPECT_EQ(rows, EngineRows(query));
}

TEST_F(JoinPushdownTest, ADecliningSourceKeepsTheEnginesJoin) {
  const std::string query = "SELECT d.y, a.x FROM tc.default.d JOIN tc.default.a ON d.k = a.k";
  ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
  EXPECT_EQ(CountJoins(*plan), 1);
  EXPECT_EQ(catalog_->log("d")->join_offers, std::vector<std::string>{"k = k_1 [k, y] [k_1, x]"});
  EXPECT_TRUE(catalog_->log("d")->pushed_joins.empty());
  ASSERT_OK_AND_ASSIGN(auto rows, Run(plan));
  EXPECT_EQ(rows, (std::vector<std::string>{"5,10", "6,30", "7,30"}));
}

TEST_F(JoinPushdownTest, NothingIsOfferedWhenASideLacksTheMixIn) {
  const std::string query = "SELECT a.x, c.y FROM tc.default.a JOIN tc.default.c ON a.k = c.k";
  ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
  EXPECT_EQ(CountJoins(*plan), 1);
  EXPECT_TRUE(catalog_->log("a")->join_offers.empty());
  ASSERT_OK_AND_ASSIGN(auto rows, Run(plan));
  EXPECT_EQ(rows, (std::vector<std::string>{"10,5", "30,6", "30,7"}));
}

TEST_F(JoinPushdownTest, OuterAndCrossJoinsAreNotOffered) {
  for (const std::string query :
       {"SELECT a.x, b.y FROM tc.default.a LEFT JOIN tc.default.b ON a.k = b.k",
        "SELECT a.x, b.y FROM tc.default.a CROSS JOIN tc.default.b"}) {
    ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
    EXPECT_EQ(CountJoins(*plan), 1) << query;
    ASSERT_OK_AND_ASSIGN(auto rows, Run(plan));
    EXPECT_EQ(rows, EngineRows(query)) << query;
  }
  EXPECT_TRUE(catalog_->log("a")->join_offers.empty());
}

TEST_F(JoinPushdownTest, IncompatibleSidesAreNotOffered) {
  const std::string query = "SELECT a.x, e.y FROM tc.default.a JOIN other.default.e ON a.k = e.k";
  ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
  EXPECT_EQ(CountJoins(*plan), 1);
  EXPECT_TRUE(catalog_->log("a")->join_offers.empty());
  ASSERT_OK_AND_ASSIGN(auto rows, Run(plan));
  EXPECT_EQ(rows, (std::vector<std::string>{"10,5", "30,6", "30,7"}));
}

TEST_F(JoinPushdownTest, AnUntranslatableConditionOrResidualFilterMeansNoOffer) {
  for (const std::string query :
       {"SELECT a.x, b.y FROM tc.default.a JOIN tc.default.b ON a.k = b.k AND a.x + 1 > b.y",
        "SELECT a.x, b.y FROM tc.default.a JOIN tc.default.b ON a.k = b.k WHERE b.y + 1 > 6"}) {
    ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
    EXPECT_EQ(CountJoins(*plan), 1) << query;
    ASSERT_OK_AND_ASSIGN(auto rows, Run(plan));
    EXPECT_EQ(rows, EngineRows(query)) << query;
  }
  EXPECT_TRUE(catalog_->log("a")->join_offers.empty());
}

TEST_F(JoinPushdownTest, TheSettingTurnsItOff) {
  PushdownOptions off;
  off.join_pushdown = false;
  ASSERT_OK_AND_ASSIGN(auto plan,
                       Plan("SELECT a.x FROM tc.default.a JOIN tc.default.b ON a.k = b.k", off));
  EXPECT_EQ(CountJoins(*plan), 1);
  EXPECT_TRUE(catalog_->log("a")->join_offers.empty());
  conf_.Set("spark.sql.optimizer.datasourceV2JoinPushdown", "false");
  EXPECT_FALSE(PushdownOptionsFor(conf_).join_pushdown);
  conf_.Unset("spark.sql.optimizer.datasourceV2JoinPushdown");
  EXPECT_TRUE(PushdownOptionsFor(conf_).join_pushdown);
}

}  // namespace
}  // namespace parley
