// Persistent views through the Session: a view of the warehouse catalog outlives its session
// (a new session on the same warehouse reads it, as a restarted `parley --warehouse` does), it
// keeps the settings it was created with, a damaged view file is a clear error, and a catalog
// of tables and views that is not a RelationCatalog is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "parley/connector/view.h"
#include "parley/session.h"
#include "testing/gtest_util.h"
#include "testing/session_rows.h"

namespace parley {
namespace {

namespace fs = std::filesystem;
using Rows = std::vector<std::string>;

class PersistentViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device random;
    warehouse_ = fs::temp_directory_path() / ("parley-views-" + std::to_string(random()));
    fs::create_directories(warehouse_);
  }
  void TearDown() override { fs::remove_all(warehouse_); }

  std::shared_ptr<Session> NewSession() {
    SessionOptions options;
    options.warehouse = warehouse_.string();
    return Session::Make(options).ValueOrDie();
  }

  fs::path warehouse_;
};

TEST_F(PersistentViewTest, AViewOutlivesItsSession) {
  {
    auto session = NewSession();
    ASSERT_OK(session->Sql("CREATE NAMESPACE sales").status());
    ASSERT_OK(session->Sql("CREATE TABLE sales.orders (id INT, amount INT)").status());
    ASSERT_OK(session->Sql("INSERT INTO sales.orders VALUES (1, 10), (2, 20), (3, 30)").status());
    ASSERT_OK(session->Sql("USE sales").status());
    ASSERT_OK(session
                  ->Sql("CREATE VIEW big (id COMMENT 'order id', amount) COMMENT 'large' AS "
                        "SELECT id, amount FROM orders WHERE amount > 15")
                  .status());
  }
  EXPECT_TRUE(fs::exists(warehouse_ / "sales" / ".big.view"));
  auto session = NewSession();
  // Read from another namespace: `orders` still means sales.orders.
  EXPECT_EQ(testing::SessionRows(session.get(), "SELECT id FROM sales.big ORDER BY id"),
            (Rows{"2", "3"}));
  EXPECT_EQ(testing::SessionRows(session.get(), "SHOW VIEWS IN sales"), (Rows{"sales,big,false"}));
  EXPECT_EQ(testing::SessionRows(session.get(), "DESCRIBE sales.big"),
            (Rows{"id,int,order id", "amount,int,NULL"}));
  ASSERT_OK(session->Sql("DROP VIEW sales.big").status());
  EXPECT_FALSE(fs::exists(warehouse_ / "sales" / ".big.view"));
  auto after = NewSession();
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND", after->Sql("SELECT * FROM sales.big"));
}

// A SQL function of the warehouse catalog outlives its session too. Unlike a view's, its
// body's names resolve in the namespace current at the call, as in Spark.
TEST_F(PersistentViewTest, ASqlFunctionOutlivesItsSession) {
  {
    auto session = NewSession();
    ASSERT_OK(session->Sql("CREATE NAMESPACE sales").status());
    ASSERT_OK(session->Sql("CREATE TABLE sales.orders (id INT, amount INT)").status());
    ASSERT_OK(session->Sql("INSERT INTO sales.orders VALUES (1, 10), (2, 20), (3, 30)").status());
    ASSERT_OK(session->Sql("USE sales").status());
    ASSERT_OK(session
                  ->Sql("CREATE FUNCTION taxed(amount INT, rate DECIMAL(3, 2) DEFAULT 0.10) "
                        "RETURNS DECIMAL(12, 2) COMMENT 'with tax' RETURN amount * (1 + rate)")
                  .status());
    ASSERT_OK(session
                  ->Sql("CREATE FUNCTION above(floor INT) RETURNS TABLE (id INT, amount INT) "
                        "RETURN SELECT id, amount FROM orders WHERE amount > floor")
                  .status());
  }
  EXPECT_TRUE(fs::exists(warehouse_ / "sales" / ".taxed.function"));
  auto session = NewSession();
  EXPECT_EQ(testing::SessionRows(session.get(),
                                 "SELECT sales.taxed(amount), sales.taxed(amount, rate => 0.5) "
                                 "FROM sales.orders ORDER BY id"),
            (Rows{"11.00,15.00", "22.00,30.00", "33.00,45.00"}));
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND", session->Sql("SELECT * FROM sales.above(15)"));
  ASSERT_OK(session->Sql("USE sales").status());
  EXPECT_EQ(testing::SessionRows(session.get(), "SELECT id FROM above(15) ORDER BY id"),
            (Rows{"2", "3"}));
  // Columns are named as Spark names calls of SQL functions: by the name the call resolved to,
  // the arguments in the parameters' order.
  ASSERT_OK_AND_ASSIGN(auto named, session->Sql("SELECT sales.taxed(rate => 0.5, amount => 1), "
                                                "sales.taxed(2) + 1"));
  EXPECT_EQ(named->schema()->field_names(),
            (std::vector<std::string>{"spark_catalog.sales.taxed(1, 0.5)",
                                      "(spark_catalog.sales.taxed(2) + 1)"}));
  EXPECT_EQ(testing::SessionRows(session.get(), "SHOW USER FUNCTIONS IN sales"),
            (Rows{"spark_catalog.sales.above", "spark_catalog.sales.taxed"}));
  ASSERT_OK(session->Sql("DROP TABLE sales.orders").status());
  ASSERT_RAISES_CONDITION("SCHEMA_NOT_EMPTY", session->Sql("DROP NAMESPACE sales"));
  ASSERT_OK(session->Sql("DROP FUNCTION sales.taxed").status());
  EXPECT_FALSE(fs::exists(warehouse_ / "sales" / ".taxed.function"));
  auto after = NewSession();
  ASSERT_RAISES_CONDITION("UNRESOLVED_ROUTINE", after->Sql("SELECT sales.taxed(1)"));
  ASSERT_RAISES_CONDITION("ROUTINE_NOT_FOUND", after->Sql("DROP FUNCTION sales.taxed"));
}

// A global temporary view is the process's: another session reads it, until one drops it.
TEST_F(PersistentViewTest, GlobalTemporaryViewsAreSharedBySessions) {
  auto first = NewSession();
  auto second = NewSession();
  ASSERT_OK(first->Sql("CREATE GLOBAL TEMPORARY VIEW shared_view AS SELECT 7 AS x").status());
  ASSERT_OK(first->Sql("CREATE TEMPORARY VIEW own_view AS SELECT 8 AS x").status());
  EXPECT_EQ(testing::SessionRows(second.get(), "SELECT x FROM global_temp.shared_view"),
            (Rows{"7"}));
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND", second->Sql("SELECT x FROM own_view"));
  ASSERT_OK(second->Sql("DROP VIEW global_temp.shared_view").status());
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND",
                          first->Sql("SELECT x FROM global_temp.shared_view"));
}

TEST_F(PersistentViewTest, ADamagedViewFileIsAClearError) {
  auto session = NewSession();
  ASSERT_OK(session->Sql("CREATE VIEW v AS SELECT 1 AS x").status());
  std::ofstream(warehouse_ / "default" / ".v.view") << "{\"version\": 1, \"queryText\": 3}";
  auto read = session->Sql("SELECT * FROM v");
  ASSERT_RAISES_CONDITION("INTERNAL_ERROR_METADATA_CATALOG", read);
  EXPECT_NE(read.status().message().find("`spark_catalog`.`default`.`v`"), std::string::npos)
      << read.status().ToString();
  // The damaged view can still be dropped.
  ASSERT_OK(session->Sql("DROP VIEW v").status());
}

TEST_F(PersistentViewTest, ADamagedFunctionFileIsAClearError) {
  auto session = NewSession();
  ASSERT_OK(session->Sql("CREATE FUNCTION f(a INT) RETURNS INT RETURN a").status());
  std::ofstream(warehouse_ / "default" / ".f.function") << "{\"version\": 1, \"body\": 3}";
  auto read = session->Sql("SELECT f(1)");
  ASSERT_RAISES_CONDITION("INTERNAL_ERROR_METADATA_CATALOG", read);
  EXPECT_NE(read.status().message().find("`spark_catalog`.`default`.`f`"), std::string::npos)
      << read.status().ToString();
  ASSERT_OK(session->Sql("DROP FUNCTION f").status());
  ASSERT_RAISES_CONDITION("UNRESOLVED_ROUTINE", session->Sql("SELECT f(1)"));
}

// A catalog with tables and views but no RelationCatalog.
class TablesAndViewsCatalog : public TableCatalog, public ViewCatalog {
 public:
  Status Initialize(const std::string& name, const Options&) override { return Status::OK(); }
  std::string name() const override { return "split"; }
  Result<std::vector<Identifier>> ListTables(const std::vector<std::string>&) override {
    return std::vector<Identifier>{};
  }
  Result<std::shared_ptr<Table>> LoadTable(const Identifier&) override {
    return InvalidError("TABLE_OR_VIEW_NOT_FOUND", "none");
  }
  Result<std::vector<Identifier>> ListViews(const std::vector<std::string>&) override {
    return std::vector<Identifier>{};
  }
  Result<ViewInfo> LoadView(const Identifier&) override {
    return InvalidError("TABLE_OR_VIEW_NOT_FOUND", "none");
  }
  Status CreateView(const Identifier&, const ViewInfo&) override { return Status::OK(); }
  Status ReplaceView(const Identifier&, const ViewInfo&) override { return Status::OK(); }
  Result<bool> DropView(const Identifier&) override { return false; }
  Status RenameView(const Identifier&, const Identifier&) override { return Status::OK(); }
};

TEST_F(PersistentViewTest, ACatalogOfTablesAndViewsMustBeARelationCatalog) {
  auto session = NewSession();
  auto registered = session->RegisterCatalog("split", std::make_shared<TablesAndViewsCatalog>());
  ASSERT_RAISES_CONDITION("INVALID_CATALOG_IMPLEMENTATION", registered);
  EXPECT_NE(registered.message().find("`split`"), std::string::npos) << registered.ToString();
}

TEST_F(PersistentViewTest, AViewKeepsTheSettingsItWasCreatedWith) {
  auto session = NewSession();
  ASSERT_OK(session->Sql("SET spark.sql.caseSensitive=false").status());
  ASSERT_OK(session->Sql("CREATE VIEW v AS SELECT 1 AS x").status());
  std::ifstream file(warehouse_ / "default" / ".v.view");
  std::string body((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  EXPECT_NE(body.find("\"spark.sql.caseSensitive\":\"false\""), std::string::npos) << body;
  // Reading the view sets them for its query only: the session's own stay.
  ASSERT_OK(session->Sql("SET spark.sql.caseSensitive=true").status());
  EXPECT_EQ(testing::SessionRows(session.get(), "SELECT * FROM v"), (Rows{"1"}));
  EXPECT_EQ(testing::SessionRows(session.get(), "SET spark.sql.caseSensitive"),
            (Rows{"spark.sql.caseSensitive,true"}));
}

}  // namespace
}  // namespace parley
