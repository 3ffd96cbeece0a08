// Filter pushdown through joins: where WHERE and ON conjuncts land for each join type.
#include "plan/filter_pushdown.h"

#include <gtest/gtest.h>

#include "analysis/query_binder.h"
#include "catalog/catalog_manager.h"
#include "sql/parser.h"
#include "testing/gtest_util.h"
#include "testing/test_connector.h"

namespace parley {
namespace {

class FilterPushdownTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto catalog = std::make_shared<testing::TestCatalog>();
    catalog->AddTable("a", testing::MakeIntTable({"k", "x"}, {{1, 2}, {10, 20}}), {});
    catalog->AddTable("b", testing::MakeIntTable({"k", "y"}, {{1, 3}, {30, 40}}), {});
    ASSERT_OK(catalogs_.Register("tc", catalog));
  }

  // The bound plan of `query`, filters pushed down; returns its Join node.
  Result<const PlanNode*> PushedJoin(const std::string& query) {
    ARROW_ASSIGN_OR_RAISE(auto statement, sql::ParseStatement(query));
    ARROW_ASSIGN_OR_RAISE(plan_,
                          BindSelect(std::get<sql::SelectStatement>(statement.node), &catalogs_));
    plan_ = PushDownFilters(plan_);
    const PlanNode* node = plan_.get();
    while (node->kind != PlanNode::Kind::kJoin) {
      if (node->children.empty()) return Status::Invalid("no join");
      node = node->children[0].get();
    }
    return node;
  }

  // Whether `node` is a Filter whose input is a scan (after any renaming projection).
  static bool FiltersScan(const PlanNode& node) {
    if (node.kind == PlanNode::Kind::kProject) return FiltersScan(*node.children[0]);
    return node.kind == PlanNode::Kind::kFilter && node.children[0]->kind == PlanNode::Kind::kScan;
  }

  SqlConf conf_;
  CatalogManager catalogs_{&conf_, PluginRegistry{}};
  PlanNodePtr plan_;
};

TEST_F(FilterPushdownTest, InnerJoinSendsOneSidedConjunctsToTheirSide) {
  ASSERT_OK_AND_ASSIGN(auto join, PushedJoin("SELECT * FROM tc.default.a JOIN tc.default.b "
                                             "ON a.k = b.k AND a.x > 1 WHERE b.y > 2"));
  EXPECT_EQ(join->join_keys.size(), 1u);
  EXPECT_EQ(join->condition, nullptr);
  EXPECT_TRUE(FiltersScan(*join->children[0]));
  EXPECT_TRUE(FiltersScan(*join->children[1]));
  EXPECT_EQ(plan_->children[0].get(), join);
}

TEST_F(FilterPushdownTest, CommaJoinTakesTwoSidedWhereConjunctsAsKeys) {
  ASSERT_OK_AND_ASSIGN(auto join, PushedJoin("SELECT * FROM tc.default.a, tc.default.b "
                                             "WHERE a.k = b.k AND a.x < b.y"));
  EXPECT_EQ(join->join_type, PlanJoinType::kInner);
  ASSERT_EQ(join->join_keys.size(), 1u);
  ASSERT_NE(join->condition, nullptr);
  EXPECT_EQ(join->condition->ToString(), "(x < y)");
}

TEST_F(FilterPushdownTest, LeftJoinKeepsThePreservedSideWhole) {
  ASSERT_OK_AND_ASSIGN(auto join, PushedJoin("SELECT * FROM tc.default.a LEFT JOIN tc.default.b "
                                             "ON a.k = b.k AND a.x > 1 AND b.y > 2 "
                                             "WHERE b.y > 5 OR b.y IS NULL"));
  EXPECT_EQ(join->join_type, PlanJoinType::kLeftOuter);
  // ON: the left-only conjunct stays in the join, the right-only one filters the right.
  ASSERT_NE(join->condition, nullptr);
  EXPECT_EQ(join->condition->ToString(), "(x > 1)");
  EXPECT_EQ(join->children[0]->kind, PlanNode::Kind::kScan);
  EXPECT_TRUE(FiltersScan(*join->children[1]));
  // WHERE on the null-supplying side, true on NULL-extended rows, stays above the join.
  EXPECT_EQ(plan_->children[0]->kind, PlanNode::Kind::kFilter);
}

TEST_F(FilterPushdownTest, NullRejectingWhereMakesAnOuterJoinInner) {
  ASSERT_OK_AND_ASSIGN(auto join, PushedJoin("SELECT * FROM tc.default.a LEFT JOIN tc.default.b "
                                             "ON a.k = b.k WHERE b.y + 1 > 5"));
  EXPECT_EQ(join->join_type, PlanJoinType::kInner);
  EXPECT_TRUE(FiltersScan(*join->children[1]));
  EXPECT_EQ(plan_->children[0].get(), join);
}

TEST_F(FilterPushdownTest, NullRejectingWhereOnOneSideOfAFullJoin) {
  ASSERT_OK_AND_ASSIGN(auto join, PushedJoin("SELECT * FROM tc.default.a FULL JOIN tc.default.b "
                                             "ON a.k = b.k WHERE a.x IN (1, 2)"));
  // Rows without a left match fail `a.x IN (...)`: only the left side is preserved now.
  EXPECT_EQ(join->join_type, PlanJoinType::kLeftOuter);
  EXPECT_TRUE(FiltersScan(*join->children[0]));
  ASSERT_OK_AND_ASSIGN(join, PushedJoin("SELECT * FROM tc.default.a FULL JOIN tc.default.b "
                                        "ON a.k = b.k WHERE a.x > 1 AND NOT (b.y = 3)"));
  EXPECT_EQ(join->join_type, PlanJoinType::kInner);
}

TEST_F(FilterPushdownTest, FullJoinPushesNothing) {
  ASSERT_OK_AND_ASSIGN(auto join,
                       PushedJoin("SELECT * FROM tc.default.a FULL JOIN tc.default.b "
                                  "ON a.k = b.k AND b.y > 2 WHERE a.x > 1 OR b.y IS NULL"));
  EXPECT_EQ(join->join_type, PlanJoinType::kFullOuter);
  EXPECT_EQ(join->children[0]->kind, PlanNode::Kind::kScan);
  EXPECT_FALSE(FiltersScan(*join->children[1]));
  ASSERT_NE(join->condition, nullptr);
  EXPECT_EQ(plan_->children[0]->kind, PlanNode::Kind::kFilter);
}

}  // namespace
}  // namespace parley
