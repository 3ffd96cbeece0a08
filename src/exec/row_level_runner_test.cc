// The row-level runner streaming a MERGE into a Delta table's write tasks: copied, updated,
// deleted and inserted rows interleaved over several files, query batches and write tasks,
// with row tracking and the change data feed; and failures (a write task, the cardinality
// rule) part-way through, after other tasks wrote files, leaving the table as it was.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "arrow/scalar.h"
#include "arrow/table.h"
#include "parley/connector/fault_injection.h"
#include "parley/session.h"
#include "testing/gtest_util.h"
#include "testing/query_harness.h"
#include "testing/session_rows.h"

namespace parley {
namespace {

namespace fs = std::filesystem;

class RowLevelStreamingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device random;
    warehouse_ = fs::temp_directory_path() / ("parley-row-level-" + std::to_string(random()));
    fs::create_directories(warehouse_);
    SessionOptions options;
    options.warehouse = warehouse_.string();
    options.conf["spark.sql.catalog.spark_catalog"] = "delta";
    // Tasks of 4 rows: the rewrite of 24 rows runs as several tasks, each its own file.
    options.conf["parley.write.rowsPerTask"] = "4";
    ASSERT_OK_AND_ASSIGN(session_, Session::Make(options));
    Run("CREATE TABLE t (id INT, v STRING) USING delta TBLPROPERTIES ("
        "'delta.enableRowTracking' = 'true', 'delta.enableChangeDataFeed' = 'true')");
    // Versions 1 to 3: three files of eight rows.
    for (int file = 0; file < 3; ++file) {
      std::string rows;
      for (int id = file * 8 + 1; id <= file * 8 + 8; ++id) {
        rows += std::string(rows.empty() ? "" : ", ") + "(" + std::to_string(id) + ", 'v" +
                std::to_string(id) + "')";
      }
      Run("INSERT INTO t VALUES " + rows);
    }
  }
  void TearDown() override {
    // Armed faults are the process's: disarm them for the tests that follow.
    ASSERT_OK(SetFaultInjection(""));
    fs::remove_all(warehouse_);
  }

  void Run(const std::string& sql) { ASSERT_OK(session_->Sql(sql).status()); }

  // Rows of a result as "v1,v2,..." in result order.
  std::vector<std::string> Rows(const std::string& sql) {
    return testing::SessionRows(session_.get(), sql);
  }

  // Every file under the warehouse (data, change data and log), relative to it.
  std::set<std::string> Files() const {
    std::set<std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(warehouse_)) {
      if (entry.is_regular_file()) files.insert(fs::relative(entry.path(), warehouse_).string());
    }
    return files;
  }

  static constexpr const char* kTracked =
      "SELECT id, v, _metadata.row_id, _metadata.row_commit_version FROM t ORDER BY id";

  fs::path warehouse_;
  std::shared_ptr<Session> session_;
};

TEST_F(RowLevelStreamingTest, MergeStreamsInterleavedChangesIntoSeveralTasks) {
  const auto before = Rows(kTracked);
  ASSERT_EQ(before.size(), 24u);
  // Updates, deletes and copies in every file; target 5 pairs with two source rows of which
  // one applies (updated once), target 6 with two that do not apply (copied once).
  auto result = Rows(
      "MERGE INTO t USING (SELECT * FROM VALUES (2, 'u2', 'u'), (3, NULL, 'd'), "
      "(5, 'skip', 's'), (5, 'u5', 'u'), (6, 'x', 's'), (6, 'y', 's'), (7, 'u7', 'u'), "
      "(10, 'u10', 'u'), (12, NULL, 'd'), (23, 'u23', 'u'), (24, NULL, 'd'), "
      "(30, 'i30', 'u'), (31, 'i31', 'd') AS s(id, v, op)) s ON t.id = s.id "
      "WHEN MATCHED AND s.op = 'u' THEN UPDATE SET v = s.v "
      "WHEN MATCHED AND s.op = 'd' THEN DELETE "
      "WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v)");
  ASSERT_EQ(result, std::vector<std::string>({"10,5,3,2"}));

  // Copied rows keep row id and version; updated ones keep the id and take version 4;
  // inserted ones get fresh ids above the high-water mark.
  std::vector<std::string> expected;
  const std::set<int> updated = {2, 5, 7, 10, 23}, deleted = {3, 12, 24};
  for (size_t i = 0; i < before.size(); ++i) {
    const int id = static_cast<int>(i) + 1;
    if (deleted.count(id)) continue;
    if (!updated.count(id)) {
      expected.push_back(before[i]);
      continue;
    }
    // before[i] is "id,v,row_id,version": keep the row id, change the value and version.
    const auto first = before[i].find(',');
    const auto second = before[i].find(',', first + 1);
    const auto third = before[i].find(',', second + 1);
    expected.push_back(std::to_string(id) + ",u" + std::to_string(id) + "," +
                       before[i].substr(second + 1, third - second - 1) + ",4");
  }
  EXPECT_EQ(Rows("SELECT id, v, _metadata.row_id, _metadata.row_commit_version FROM t "
                 "WHERE id < 30 ORDER BY id"),
            expected);
  EXPECT_EQ(Rows("SELECT id, v, _metadata.row_id >= 24, _metadata.row_commit_version FROM t "
                 "WHERE id >= 30 ORDER BY id"),
            std::vector<std::string>({"30,i30,true,4", "31,i31,true,4"}));
  EXPECT_EQ(Rows("SELECT count(DISTINCT _metadata.row_id) FROM t"),
            std::vector<std::string>({"23"}));

  EXPECT_EQ(Rows("SELECT id, v, _change_type FROM table_changes('t', 4, 4) "
                 "ORDER BY id, _change_type"),
            std::vector<std::string>(
                {"2,u2,update_postimage", "2,v2,update_preimage", "3,v3,delete",
                 "5,u5,update_postimage", "5,v5,update_preimage", "7,u7,update_postimage",
                 "7,v7,update_preimage", "10,u10,update_postimage", "10,v10,update_preimage",
                 "12,v12,delete", "23,u23,update_postimage", "23,v23,update_preimage",
                 "24,v24,delete", "30,i30,insert", "31,i31,insert"}));
  // 23 rows in tasks of 4 rows: at least six data files.
  auto files = Rows("SELECT count(DISTINCT _metadata.file_path) FROM t");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_GE(std::stoi(files[0]), 6);
}

TEST_F(RowLevelStreamingTest, FailedTaskLeavesTheTableAndNoFiles) {
  const auto rows = Rows(kTracked);
  const auto files = Files();
  Run("SET spark.task.maxFailures=1");
  // The third task fails; the first two have written their files by then.
  Run("SET parley.test.faultInjection=task.beforeCommit@2");
  ASSERT_RAISES_CONDITION("INJECTED_FAULT",
                          session_
                              ->Sql("MERGE INTO t USING (SELECT * FROM VALUES (2, 'x') "
                                    "AS s(id, v)) s ON t.id = s.id "
                                    "WHEN MATCHED THEN UPDATE SET v = s.v")
                              .status());
  EXPECT_EQ(Files(), files);
  EXPECT_EQ(Rows(kTracked), rows);
}

TEST_F(RowLevelStreamingTest, CardinalityViolationInTheLastFileLeavesTheTableAndNoFiles) {
  const auto rows = Rows(kTracked);
  const auto files = Files();
  ASSERT_RAISES_CONDITION(
      "MERGE_CARDINALITY_VIOLATION",
      session_
          ->Sql("MERGE INTO t USING (SELECT * FROM VALUES (1, 'a'), (23, 'x'), (23, 'y') "
                "AS s(id, v)) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v")
          .status());
  EXPECT_EQ(Files(), files);
  EXPECT_EQ(Rows(kTracked), rows);
}

TEST_F(RowLevelStreamingTest, MergeThatChangesNothingCommitsNothing) {
  const auto rows = Rows(kTracked);
  const auto files = Files();
  // Matched pairs no clause applies to, and a source row no clause inserts.
  EXPECT_EQ(Rows("MERGE INTO t USING (SELECT * FROM VALUES (2, 'x'), (40, 'y') AS s(id, v)) s "
                 "ON t.id = s.id WHEN MATCHED AND s.v = 'z' THEN UPDATE SET v = s.v "
                 "WHEN NOT MATCHED AND s.v = 'z' THEN INSERT *"),
            std::vector<std::string>({"0,0,0,0"}));
  EXPECT_EQ(Files(), files);
  EXPECT_EQ(Rows(kTracked), rows);
}

}  // namespace
}  // namespace parley
