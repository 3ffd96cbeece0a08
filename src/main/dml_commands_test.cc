// DELETE and its EXPLAIN on a table that can only delete by filters (SupportsDeleteV2): what
// the engine asks of it, and what it must never ask.
#include <gtest/gtest.h>

#include "arrow/table.h"
#include "parley/session.h"
#include "testing/gtest_util.h"
#include "testing/query_harness.h"
#include "testing/test_connector.h"

namespace parley {
namespace {

using testing::MakeIntTable;
using testing::TestCatalog;
using testing::TestTableOptions;

class FilterDeleteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SessionOptions options;
    options.conf["spark.sql.catalog.spark_catalog"] = "memory";
    ASSERT_OK_AND_ASSIGN(session_, Session::Make(options));
    catalog_ = std::make_shared<TestCatalog>();
    TestTableOptions deletable;
    deletable.delete_where = true;
    catalog_->AddTable("d", MakeIntTable({"a", "b"}, {{1, 2, 3}, {10, 20, 30}}), deletable);
    catalog_->AddTable("s", MakeIntTable({"a"}, {{2}}), TestTableOptions{});
    ASSERT_OK(session_->RegisterCatalog("tc", catalog_));
  }

  std::string Explain(const std::string& sql) {
    auto result = session_->Sql("EXPLAIN " + sql);
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    if (!result.ok()) return "";
    auto rows = testing::OrderedRows(**result);
    EXPECT_TRUE(rows.ok()) << rows.status().ToString();
    return rows.ok() && !rows->empty() ? (*rows)[0] : "";
  }

  std::shared_ptr<Session> session_;
  std::shared_ptr<TestCatalog> catalog_;
};

TEST_F(FilterDeleteTest, ExplainAsksCanDeleteWhereAndNeverDeletes) {
  std::string plan = Explain("DELETE FROM tc.default.d WHERE a = 2");
  EXPECT_NE(plan.find("DeleteFromTable `tc`.`default`.`d`"), std::string::npos) << plan;
  EXPECT_NE(plan.find("DeletePredicates: [a = 2]"), std::string::npos) << plan;
  EXPECT_EQ(catalog_->log("d")->can_delete_where, std::vector<std::string>{"a = 2"});
  EXPECT_TRUE(catalog_->log("d")->delete_where.empty());

  ASSERT_OK(session_->Sql("DELETE FROM tc.default.d WHERE a = 2").status());
  EXPECT_EQ(catalog_->log("d")->delete_where, std::vector<std::string>{"a = 2"});
}

TEST_F(FilterDeleteTest, ExplainOfARefusedConditionFailsLikeTheDelete) {
  auto explained = session_->Sql("EXPLAIN DELETE FROM tc.default.d WHERE a + 1 = 2");
  ASSERT_RAISES_CONDITION("UNSUPPORTED_FEATURE.TABLE_OPERATION", explained);
  auto deleted = session_->Sql("DELETE FROM tc.default.d WHERE a + 1 = 2");
  ASSERT_RAISES_CONDITION("UNSUPPORTED_FEATURE.TABLE_OPERATION", deleted);
  EXPECT_TRUE(catalog_->log("d")->delete_where.empty());
}

TEST_F(FilterDeleteTest, SubqueryConditionIsRefusedBeforeAnythingIsAsked) {
  for (const char* sql : {"DELETE FROM tc.default.d WHERE a IN (SELECT a FROM tc.default.s)",
                          "DELETE FROM tc.default.d WHERE a = 2 AND "
                          "b > (SELECT max(a) FROM tc.default.s)",
                          "EXPLAIN DELETE FROM tc.default.d WHERE EXISTS "
                          "(SELECT 1 FROM tc.default.s WHERE s.a = d.a)"}) {
    auto result = session_->Sql(sql);
    ASSERT_RAISES_CONDITION("UNSUPPORTED_FEATURE.TABLE_OPERATION", result);
    EXPECT_NE(result.status().message().find("DELETE with a subquery in its condition"),
              std::string::npos)
        << result.status().ToString();
  }
  EXPECT_TRUE(catalog_->log("d")->can_delete_where.empty());
  EXPECT_TRUE(catalog_->log("d")->delete_where.empty());
}

}  // namespace
}  // namespace parley
