// The query binder on its own (no execution): names resolved through the catalogs, the plan's
// shape and output (display names and types), Spark's analysis errors with their positions.
#include "analysis/query_binder.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "catalog/catalog_manager.h"
#include "sql/parser.h"
#include "testing/gtest_util.h"
#include "testing/test_connector.h"

namespace parley {
namespace {

class QueryBinderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto catalog = std::make_shared<testing::TestCatalog>();
    catalog->AddTable("a", testing::MakeIntTable({"k", "x"}, {{1, 2}, {10, 20}}), {});
    catalog->AddTable("b", testing::MakeIntTable({"k", "y"}, {{1, 3}, {30, 40}}), {});
    ASSERT_OK(catalogs_.Register("tc", catalog));
  }

  Result<PlanNodePtr> Bind(const std::string& query) {
    ARROW_ASSIGN_OR_RAISE(auto statement, sql::ParseStatement(query));
    return BindSelect(std::get<sql::SelectStatement>(statement.node), &catalogs_);
  }

  // The plan's output as `display:type` pairs.
  static std::string Output(const PlanNode& plan) {
    std::string out;
    for (const auto& field : plan.output) {
      if (!out.empty()) out += ", ";
      out += field.display + ":" + field.type->ToString();
    }
    return out;
  }

  // The kinds of the plan's first children from the root down, e.g. "Project Filter Scan".
  static std::string Spine(const PlanNode& plan) {
    static const std::map<PlanNode::Kind, std::string> kNames = {
        {PlanNode::Kind::kScan, "Scan"},       {PlanNode::Kind::kFilter, "Filter"},
        {PlanNode::Kind::kProject, "Project"}, {PlanNode::Kind::kAggregate, "Aggregate"},
        {PlanNode::Kind::kSort, "Sort"},       {PlanNode::Kind::kLimit, "Limit"},
        {PlanNode::Kind::kJoin, "Join"},       {PlanNode::Kind::kDistinct, "Distinct"},
        {PlanNode::Kind::kOneRow, "OneRow"},   {PlanNode::Kind::kValues, "Values"}};
    std::string out;
    for (const PlanNode* node = &plan; node != nullptr;
         node = node->children.empty() ? nullptr : node->children[0].get()) {
      if (!out.empty()) out += " ";
      auto name = kNames.find(node->kind);
      out += name == kNames.end() ? "?" : name->second;
    }
    return out;
  }

  // The condition and message of the error binding `query` gives.
  std::string ErrorOf(const std::string& query) {
    auto bound = Bind(query);
    if (bound.ok()) return "OK";
    return ErrorCondition(bound.status()) + ": " + bound.status().message();
  }

  SqlConf conf_;
  CatalogManager catalogs_{&conf_, PluginRegistry{}};
};

TEST_F(QueryBinderTest, StarAndExpressionsNameTheirColumnsAsSpark) {
  ASSERT_OK_AND_ASSIGN(auto plan, Bind("SELECT *, k + 1, x AS renamed FROM tc.default.a"));
  EXPECT_EQ(Output(*plan), "k:int32, x:int32, (k + 1):int32, renamed:int32");
  EXPECT_EQ(Spine(*plan), "Project Scan");
}

TEST_F(QueryBinderTest, WhereGroupByOrderByAndLimitStackInSparkOrder) {
  ASSERT_OK_AND_ASSIGN(auto plan, Bind("SELECT k, count(*) AS n FROM tc.default.a WHERE x > 1 "
                                       "GROUP BY k ORDER BY n DESC LIMIT 5"));
  EXPECT_EQ(Output(*plan), "k:int32, n:int64");
  const std::string spine = Spine(*plan);
  EXPECT_NE(spine.find("Aggregate"), std::string::npos) << spine;
  EXPECT_LT(spine.find("Limit"), spine.find("Sort")) << spine;
  EXPECT_LT(spine.find("Sort"), spine.find("Aggregate")) << spine;
  EXPECT_LT(spine.find("Aggregate"), spine.find("Filter")) << spine;
  EXPECT_EQ(spine.substr(spine.size() - 4), "Scan") << spine;
}

TEST_F(QueryBinderTest, SetOperationsWidenTheirColumnTypes) {
  ASSERT_OK_AND_ASSIGN(auto plan, Bind("SELECT k FROM tc.default.a UNION ALL "
                                       "SELECT CAST(k AS BIGINT) FROM tc.default.b"));
  EXPECT_EQ(Output(*plan), "k:int64");
}

TEST_F(QueryBinderTest, CommonTableExpressionsAreVisibleByName) {
  ASSERT_OK_AND_ASSIGN(auto plan, Bind("WITH c AS (SELECT k * 2 AS dk FROM tc.default.a) "
                                       "SELECT dk FROM c WHERE dk > 2"));
  EXPECT_EQ(Output(*plan), "dk:int32");
}

TEST_F(QueryBinderTest, UnknownNamesAreSparkErrorsWithTheirPosition) {
  EXPECT_EQ(ErrorOf("SELECT * FROM tc.default.missing").substr(0, 23), "TABLE_OR_VIEW_NOT_FOUND");
  const std::string column = ErrorOf("SELECT kk FROM tc.default.a");
  EXPECT_EQ(column.substr(0, 33), "UNRESOLVED_COLUMN.WITH_SUGGESTION") << column;
  EXPECT_NE(column.find("`kk`"), std::string::npos) << column;
  EXPECT_NE(column.find("`k`"), std::string::npos) << column;
  EXPECT_NE(column.find("line 1, column 8"), std::string::npos) << column;
}

TEST_F(QueryBinderTest, AnAmbiguousColumnNamesItsCandidates) {
  const std::string error = ErrorOf("SELECT k FROM tc.default.a JOIN tc.default.b ON a.k = b.k");
  EXPECT_EQ(error.substr(0, 19), "AMBIGUOUS_REFERENCE") << error;
  ASSERT_OK_AND_ASSIGN(auto plan, Bind("SELECT a.k, y FROM tc.default.a JOIN tc.default.b "
                                       "ON a.k = b.k"));
  EXPECT_EQ(Output(*plan), "k:int32, y:int32");
}

TEST_F(QueryBinderTest, AggregatesAndGroupingAreChecked) {
  EXPECT_EQ(ErrorOf("SELECT x, sum(k) FROM tc.default.a").substr(0, 16), "MISSING_GROUP_BY");
  const std::string missing = ErrorOf("SELECT x FROM tc.default.a GROUP BY k");
  EXPECT_EQ(missing.substr(0, 19), "MISSING_AGGREGATION") << missing;
  const std::string where = ErrorOf("SELECT k FROM tc.default.a WHERE sum(x) > 1");
  EXPECT_NE(where.find("INVALID_WHERE_CONDITION"), std::string::npos) << where;
}

}  // namespace
}  // namespace parley
