// The Delta catalog's procedures through the Session: CALL spark_catalog.system.<procedure>
// and the commands that stand for those calls (DESCRIBE HISTORY, DESCRIBE DETAIL, VACUUM), on
// catalog tables and on path tables, with their errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "parley/session.h"
#include "testing/gtest_util.h"
#include "testing/session_rows.h"

namespace parley {
namespace {

namespace fs = std::filesystem;
using Rows = std::vector<std::string>;

class DeltaProceduresTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device random;
    warehouse_ =
        fs::temp_directory_path() / ("parley-delta-procedures-" + std::to_string(random()));
    fs::create_directories(warehouse_);
    session_ = MakeSession("delta");
    Run("CREATE TABLE t (id INT) USING delta");
    Run("INSERT INTO t VALUES (1)");
    Run("INSERT INTO t VALUES (2)");
  }
  void TearDown() override { fs::remove_all(warehouse_); }

  std::shared_ptr<Session> MakeSession(const std::string& session_catalog) {
    SessionOptions options;
    options.warehouse = warehouse_.string();
    options.conf["spark.sql.catalog.spark_catalog"] = session_catalog;
    options.conf["spark.sql.catalog.mem"] = "memory";
    return Session::Make(options).ValueOrDie();
  }

  void Run(const std::string& sql) {
    auto status = session_->Sql(sql).status();
    ASSERT_TRUE(status.ok()) << sql << ": " << status.ToString();
  }

  // Column `column` of what `sql` returns, one string per row.
  Rows Column(const std::string& sql, const std::string& column, Session* session = nullptr) {
    auto result = (session == nullptr ? session_.get() : session)->Sql(sql);
    EXPECT_TRUE(result.ok()) << sql << ": " << result.status().ToString();
    if (!result.ok()) return {};
    auto chunks = (*result)->GetColumnByName(column);
    EXPECT_NE(chunks, nullptr) << column << " in " << (*result)->schema()->ToString();
    Rows out;
    if (chunks == nullptr) return out;
    for (int64_t i = 0; i < chunks->length(); ++i) {
      out.push_back(chunks->GetScalar(i).ValueOrDie()->ToString());
    }
    return out;
  }

  fs::path warehouse_;
  std::shared_ptr<Session> session_;
};

TEST_F(DeltaProceduresTest, DescribeHistoryIsACallOfTheTablesCatalog) {
  EXPECT_EQ(Column("DESCRIBE HISTORY t", "version"), (Rows{"2", "1", "0"}));
  EXPECT_EQ(Column("DESCRIBE HISTORY t", "operation"), (Rows{"WRITE", "WRITE", "CREATE TABLE"}));
  EXPECT_EQ(Column("DESCRIBE HISTORY t LIMIT 1", "version"), Rows{"2"});
  EXPECT_EQ(
      Column("CALL spark_catalog.system.describe_history(table => 't', limit => 2)", "version"),
      (Rows{"2", "1"}));
  EXPECT_EQ(Column("CALL spark_catalog.system.describe_history('default.t')", "version").size(),
            3u);
  EXPECT_EQ(
      Column("CALL spark_catalog.system.describe_history('spark_catalog.default.t', 1)", "version"),
      Rows{"2"});
}

TEST_F(DeltaProceduresTest, DescribeDetailIsACallOfTheTablesCatalog) {
  EXPECT_EQ(Column("DESCRIBE DETAIL t", "format"), Rows{"delta"});
  EXPECT_EQ(Column("DESCRIBE DETAIL t", "numFiles"), Rows{"2"});
  EXPECT_EQ(Column("CALL spark_catalog.system.describe_detail(table => 't')", "numFiles"),
            Rows{"2"});
}

TEST_F(DeltaProceduresTest, VacuumIsACallOfTheTablesCatalog) {
  Run("INSERT OVERWRITE t VALUES (3)");
  ASSERT_RAISES_CONDITION("DELTA_VACUUM_RETENTION_PERIOD_TOO_SHORT",
                          session_->Sql("VACUUM t RETAIN 0 HOURS"));
  ASSERT_RAISES_CONDITION(
      "DELTA_VACUUM_RETENTION_PERIOD_TOO_SHORT",
      session_->Sql("CALL spark_catalog.system.vacuum(table => 't', retention_hours => 0)"));
  Run("SET spark.databricks.delta.retentionDurationCheck.enabled=false");
  // The two files the overwrite removed: listed by a dry run (as a call and as the command),
  // then deleted.
  EXPECT_EQ(
      Column("CALL spark_catalog.system.vacuum('t', retention_hours => 0, dry_run => true)", "path")
          .size(),
      2u);
  EXPECT_EQ(Column("VACUUM t RETAIN 0 HOURS DRY RUN", "path").size(), 2u);
  EXPECT_EQ(Column("VACUUM t RETAIN 0 HOURS", "path").size(), 2u);
  EXPECT_EQ(Column("VACUUM t RETAIN 0 HOURS DRY RUN", "path").size(), 0u);
  EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT id FROM t"), Rows{"3"});
}

TEST_F(DeltaProceduresTest, PathTablesUseTheCatalogOfTheirFormat) {
  const std::string path = (warehouse_ / "default" / "t").string();
  // The session catalog here has no procedures: delta.`/path` still reaches Delta's.
  auto memory_session = MakeSession("memory");
  EXPECT_EQ(Column("DESCRIBE HISTORY delta.`" + path + "`", "version", memory_session.get()),
            (Rows{"2", "1", "0"}));
  EXPECT_EQ(Column("DESCRIBE DETAIL delta.`" + path + "`", "numFiles", memory_session.get()),
            Rows{"2"});
  EXPECT_EQ(Column("VACUUM delta.`" + path + "` DRY RUN", "path", memory_session.get()).size(), 0u);
  EXPECT_EQ(
      Column("CALL spark_catalog.system.describe_history('delta.`" + path + "`', 1)", "version"),
      Rows{"2"});
}

TEST_F(DeltaProceduresTest, Errors) {
  Run("CREATE NAMESPACE mem.n");
  Run("CREATE TABLE mem.n.x (a INT)");
  ASSERT_RAISES_CONDITION("DELTA_ONLY_OPERATION", session_->Sql("VACUUM mem.n.x"));
  ASSERT_RAISES_CONDITION("DELTA_ONLY_OPERATION", session_->Sql("DESCRIBE HISTORY mem.n.x"));
  ASSERT_RAISES_CONDITION("DELTA_ONLY_OPERATION", session_->Sql("DESCRIBE DETAIL mem.n.x"));
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND", session_->Sql("DESCRIBE HISTORY nope"));
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND",
                          session_->Sql("CALL spark_catalog.system.vacuum(table => 'nope')"));
  ASSERT_RAISES_CONDITION("REQUIRED_PARAMETER_NOT_FOUND",
                          session_->Sql("CALL spark_catalog.system.vacuum()"));
  ASSERT_RAISES_CONDITION("INVALID_PARAMETER_VALUE.NULL",
                          session_->Sql("CALL spark_catalog.system.vacuum(table => NULL)"));
  ASSERT_RAISES_CONDITION(
      "CAST_INVALID_INPUT",
      session_->Sql("CALL spark_catalog.system.vacuum('t', retention_hours => 'abc')"));
  ASSERT_RAISES_CONDITION("UNRECOGNIZED_PARAMETER_NAME",
                          session_->Sql("CALL spark_catalog.system.vacuum('t', retain => 1)"));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR",
                          session_->Sql("CALL spark_catalog.system.vacuum('t.')"));
  ASSERT_RAISES_CONDITION("FAILED_TO_LOAD_ROUTINE",
                          session_->Sql("CALL spark_catalog.system.nope()"));
  ASSERT_RAISES_CONDITION("MISSING_CATALOG_ABILITY.PROCEDURES",
                          session_->Sql("CALL mem.system.vacuum('t')"));
}

TEST_F(DeltaProceduresTest, ShowAndDescribeProcedures) {
  EXPECT_EQ(Column("SHOW PROCEDURES IN spark_catalog.system", "procedure_name"),
            (Rows{"describe_detail", "describe_history", "vacuum"}));
  EXPECT_EQ(Column("SHOW PROCEDURES IN spark_catalog.default", "procedure_name"), Rows{});
  EXPECT_EQ(Column("DESCRIBE PROCEDURE spark_catalog.system.vacuum", "procedure_desc"),
            (Rows{"Procedure:   vacuum",
                  "Description: Delete the files a Delta table no longer references and that are "
                  "older than the retention.",
                  "Parameters:  IN table           STRING  'the table: db.t, t, or delta.`/path`'",
                  "             IN retention_hours DOUBLE  DEFAULT NULL 'keep files younger than "
                  "this (168)'",
                  "             IN dry_run         BOOLEAN DEFAULT false 'list the files instead "
                  "of deleting them'"}));
}

}  // namespace
}  // namespace parley
