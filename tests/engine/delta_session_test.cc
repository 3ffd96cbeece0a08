// Delta reads through the Session that drop rows while decoding (the filtered Parquet reader):
// the rows equal those of an unfiltered copy, EXPLAIN ANALYZE's rowsFiltered proves the path
// is taken, and deletion vectors, `_metadata` and column mapping still give exactly their rows.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
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

class DeltaSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device random;
    warehouse_ = fs::temp_directory_path() / ("parley-delta-session-" + std::to_string(random()));
    fs::create_directories(warehouse_);
    SessionOptions options;
    options.warehouse = warehouse_.string();
    options.conf["spark.sql.catalog.spark_catalog"] = "delta";
    options.conf["spark.sql.catalog.mem"] = "memory";
    options.conf["parley.test.roundTripTasks"] = "true";
    options.conf["parley.verifyPushdown"] = "true";
    ASSERT_OK_AND_ASSIGN(session_, Session::Make(options));
    Run("CREATE NAMESPACE mem.db");
  }
  void TearDown() override { fs::remove_all(warehouse_); }

  void Run(const std::string& sql) {
    auto status = session_->Sql(sql).status();
    ASSERT_TRUE(status.ok()) << sql << ": " << status.ToString();
  }

  std::vector<std::string> Rows(const std::string& sql) {
    return testing::SessionRows(session_.get(), sql);
  }

  std::string Analyze(const std::string& query) {
    return testing::ExplainAnalyze(session_.get(), query);
  }

  static int64_t Metric(const std::string& plan, const std::string& name) {
    return testing::PlanMetric(plan, name);
  }

  // Inserts ids [first, first + count) into `table` (id, k, d, amount) in one statement, so
  // one file: k is NULL every 5th id, d every 7th, amount every 11th.
  void InsertRows(const std::string& table, int first, int count) {
    using namespace std::chrono;
    std::string values;
    for (int id = first; id < first + count; ++id) {
      year_month_day day{sys_days{year{2024} / January / 1} + days{id}};
      char date[32];
      std::snprintf(date, sizeof(date), "DATE '%04d-%02u-%02u'", static_cast<int>(day.year()),
                    static_cast<unsigned>(day.month()), static_cast<unsigned>(day.day()));
      values +=
          std::string(values.empty() ? "" : ", ") + "(" + std::to_string(id) + ", " +
          (id % 5 == 0 ? "NULL" : std::to_string(id % 13)) + ", " + (id % 7 == 0 ? "NULL" : date) +
          ", " +
          (id % 11 == 0 ? "NULL" : "CAST(" + std::to_string(id * 1.25) + " AS DECIMAL(15,2))") +
          ")";
    }
    Run("INSERT INTO " + table + " VALUES " + values);
  }

  // A table of ids 0..199 in four files of 50 rows.
  void CreateTable(const std::string& table, const std::string& properties = "") {
    Run("CREATE TABLE " + table + " (id INT, k INT, d DATE, amount DECIMAL(15,2)) USING delta" +
        (properties.empty() ? "" : " TBLPROPERTIES (" + properties + ")"));
    for (int first = 0; first < 200; first += 50) InsertRows(table, first, 50);
  }

  fs::path warehouse_;
  std::shared_ptr<Session> session_;
};

const std::vector<std::string> kPredicates = {
    "id = 37",
    "id <> 37",
    "id >= 20 AND id < 120",
    "id > 150 AND k IS NOT NULL",
    "k = 3",
    "k IS NULL",
    "d < DATE '2024-02-15'",
    "d >= DATE '2024-03-01' AND d <= DATE '2024-04-01'",
    "d IS NULL",
    "amount >= 100.00 AND amount < 150.5",
    "amount > 200",
    "amount IS NULL AND id < 100",
    "id < 100 AND (k = 1 OR k = 2)",
};

TEST_F(DeltaSessionTest, FilteredReadsEqualAnUnfilteredCopy) {
  CreateTable("t");
  Run("CREATE TABLE mem.db.expected AS SELECT * FROM t");
  int64_t filtered = 0;
  for (const auto& predicate : kPredicates) {
    const std::string columns = "SELECT id, k, d, amount FROM ";
    const std::string where = " WHERE " + predicate + " ORDER BY id";
    auto rows = Rows(columns + "t" + where);
    EXPECT_FALSE(rows.empty()) << predicate;
    EXPECT_EQ(rows, Rows(columns + "mem.db.expected" + where)) << predicate;
    std::string plan = Analyze(columns + "t" + where);
    ASSERT_GE(Metric(plan, "rowsFiltered"), 0) << plan;
    filtered += Metric(plan, "rowsFiltered");
  }
  EXPECT_GT(filtered, 0);
  // Statistics keep one file of four; the reader drops its 49 other rows while decoding.
  std::string plan = Analyze("SELECT id, amount FROM t WHERE id = 37");
  EXPECT_EQ(Metric(plan, "filesRead"), 1) << plan;
  EXPECT_EQ(Metric(plan, "rowsFiltered"), 49) << plan;
  plan = Analyze("SELECT id FROM t WHERE d IS NULL");
  EXPECT_EQ(Metric(plan, "rowsFiltered"), 200 - 29) << plan;
}

// Parley writes no deletion vectors: Spark's golden tables have them (one with column mapping)
// in some of their files. Files with a deletion vector are read whole, the others drop rows
// while decoding.
TEST_F(DeltaSessionTest, DeletionVectorTablesKeepExactlyTheirRows) {
  for (const std::string name : {"dv-with-columnmapping", "dv-partitioned-with-checkpoint"}) {
    const fs::path golden = fs::path(PARLEY_DELTA_GOLDEN_DIR) / name;
    if (!fs::exists(golden)) GTEST_SKIP() << golden << " is absent";
    const std::string table = "delta.`" + golden.string() + "`";
    const std::string expected = "mem.db.`" + name + "`";
    Run("CREATE TABLE " + expected + " AS SELECT * FROM " + table);
    const std::string all = "SELECT part, col1, col2 FROM ";
    ASSERT_EQ(Rows(all + table + " ORDER BY col1"), Rows(all + expected + " ORDER BY col1"));
    for (const std::string predicate :
         {"col1 >= 10 AND col1 < 40", "col1 <> 7", "col1 = 33", "col1 IS NULL", "col1 > 20"}) {
      const std::string where = " WHERE " + predicate + " ORDER BY col1";
      EXPECT_EQ(Rows(all + table + where), Rows(all + expected + where)) << name << predicate;
    }
    std::string plan = Analyze(all + table + " WHERE col1 >= 10 AND col1 < 40");
    EXPECT_GT(Metric(plan, "deletedRowsSkipped"), 0) << plan;
    EXPECT_GT(Metric(plan, "rowsFiltered"), 0) << plan;
  }
}

TEST_F(DeltaSessionTest, MetadataColumnKeepsRowIndexesUnderAFilter) {
  CreateTable("t");
  std::vector<std::string> expected;
  for (int id = 60; id < 70; ++id) {
    expected.push_back(std::to_string(id) + "," + std::to_string(id - 50));
  }
  const std::string query =
      "SELECT id, _metadata.row_index FROM t WHERE id >= 60 AND id < 70 ORDER BY id";
  EXPECT_EQ(Rows(query), expected);
  std::string plan = Analyze(query);
  EXPECT_EQ(Metric(plan, "rowsFiltered"), 0) << plan;
}

TEST_F(DeltaSessionTest, CopyOnWriteDeleteRewritesTheRowsItKeeps) {
  CreateTable("t");
  Run("DELETE FROM t WHERE id > 20 AND id < 190");
  EXPECT_EQ(Rows("SELECT count(*), min(id), max(id) FROM t"), std::vector<std::string>{"31,0,199"});
}

TEST_F(DeltaSessionTest, RenamedColumnFiltersOnItsPhysicalName) {
  Run("CREATE TABLE cm (id INT, v INT) USING delta TBLPROPERTIES ("
      "'delta.columnMapping.mode' = 'name')");
  Run("INSERT INTO cm VALUES (1, 10), (2, 20), (3, NULL), (4, 40)");
  Run("ALTER TABLE cm RENAME COLUMN v TO w");
  Run("ALTER TABLE cm RENAME COLUMN id TO v");
  Run("INSERT INTO cm VALUES (5, 50), (6, 5), (7, NULL)");
  EXPECT_EQ(Rows("SELECT v, w FROM cm WHERE w > 15 ORDER BY v"),
            (std::vector<std::string>{"2,20", "4,40", "5,50"}));
  EXPECT_EQ(Rows("SELECT v, w FROM cm WHERE v >= 3 AND w IS NULL ORDER BY v"),
            (std::vector<std::string>{"3,NULL", "7,NULL"}));
  std::string plan = Analyze("SELECT v, w FROM cm WHERE w > 15");
  EXPECT_EQ(Metric(plan, "rowsFiltered"), 4) << plan;
}

}  // namespace
}  // namespace parley
