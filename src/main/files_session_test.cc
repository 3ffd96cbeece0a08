// Path-based Parquet reads through the Session: partition pruning and row-group skipping,
// proven with EXPLAIN ANALYZE's bytes read rather than by the rows alone.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "arrow/array/builder_primitive.h"
#include "arrow/io/file.h"
#include "arrow/scalar.h"
#include "arrow/table.h"
#include "parley/session.h"
#include "parquet/arrow/writer.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

namespace fs = std::filesystem;

class FilesSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("parley_files_session_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    for (int year : {2023, 2024}) {
      fs::create_directories(root_ / ("year=" + std::to_string(year)));
      arrow::Int64Builder ids;
      arrow::DoubleBuilder values;
      for (int i = 0; i < 1000; ++i) {
        ASSERT_OK(ids.Append(year * 10000 + i));
        ASSERT_OK(values.Append(i * 0.5));
      }
      std::shared_ptr<arrow::Array> id_array, value_array;
      ASSERT_OK(ids.Finish(&id_array));
      ASSERT_OK(values.Finish(&value_array));
      auto table = arrow::Table::Make(
          arrow::schema({arrow::field("id", arrow::int64()), arrow::field("v", arrow::float64())}),
          {id_array, value_array});
      ASSERT_OK_AND_ASSIGN(auto out, arrow::io::FileOutputStream::Open(
                                         (root_ / ("year=" + std::to_string(year)) / "part-0.parquet")
                                             .string()));
      ASSERT_OK(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), out,
                                           /*chunk_size=*/100));
      ASSERT_OK(out->Close());
    }
    SessionOptions options;
    options.conf["parley.test.roundTripTasks"] = "true";
    options.conf["spark.sql.catalog.spark_catalog"] = "memory";
    options.conf["parley.verifyPushdown"] = "true";
    ASSERT_OK_AND_ASSIGN(session_, Session::Make(options));
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string Table() const { return "parquet.`" + root_.string() + "`"; }

  std::string Analyze(const std::string& query) {
    auto result = session_->Sql("EXPLAIN ANALYZE " + query);
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    if (!result.ok()) return "";
    return (*result)->column(0)->GetScalar(0).ValueOrDie()->ToString();
  }

  static int64_t Metric(const std::string& plan, const std::string& name) {
    std::smatch match;
    if (!std::regex_search(plan, match, std::regex(name + ": (\\d+)"))) return -1;
    return std::stoll(match[1]);
  }

  fs::path root_;
  std::shared_ptr<Session> session_;
};

TEST_F(FilesSessionTest, PartitionFilterReadsOnlyThatPartition) {
  ASSERT_OK_AND_ASSIGN(auto count,
                       session_->Sql("SELECT count(*) FROM " + Table() + " WHERE year = 2024"));
  EXPECT_EQ(count->column(0)->GetScalar(0).ValueOrDie()->ToString(), "1000");
  std::string all = Analyze("SELECT count(*) FROM " + Table());
  std::string one = Analyze("SELECT count(*) FROM " + Table() + " WHERE year = 2024");
  EXPECT_EQ(Metric(one, "filesRead"), 1) << one;
  EXPECT_EQ(Metric(all, "filesRead"), 2) << all;
  EXPECT_GT(Metric(one, "Bytes read"), 0) << one;
  EXPECT_LT(Metric(one, "Bytes read") * 3, Metric(all, "Bytes read") * 2) << one << all;
  // Statistics are reported after pushdown: one partition's rows.
  EXPECT_NE(one.find("Statistics: rows=1000"), std::string::npos) << one;
  // The partition predicate is applied exactly by the source: no filter remains above it.
  EXPECT_EQ(one.find("Condition :"), std::string::npos) << one;
}

TEST_F(FilesSessionTest, SelectivePredicateSkipsRowGroups) {
  std::string plan = Analyze("SELECT v FROM " + Table() + " WHERE id = 20240150");
  EXPECT_EQ(Metric(plan, "rowGroupsRead"), 1) << plan;
  // Row-group pruning is inexact: the predicate is pushed and still evaluated above the scan.
  EXPECT_NE(plan.find("PushedPredicates: [id = 20240150]"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Condition : (id = 20240150)"), std::string::npos) << plan;
  ASSERT_OK_AND_ASSIGN(auto rows,
                       session_->Sql("SELECT v FROM " + Table() + " WHERE id = 20240150"));
  ASSERT_EQ(rows->num_rows(), 1);
  EXPECT_EQ(rows->column(0)->GetScalar(0).ValueOrDie()->ToString(), "75");
}

TEST_F(FilesSessionTest, JoinBuildSidePrunesPartitionsAtRunTime) {
  const std::string query = "SELECT count(*) FROM " + Table() +
                            " f JOIN (VALUES (2024)) AS d(y) ON f.year = d.y";
  ASSERT_OK_AND_ASSIGN(auto count, session_->Sql(query));
  EXPECT_EQ(count->column(0)->GetScalar(0).ValueOrDie()->ToString(), "1000");
  std::string filtered = Analyze(query);
  EXPECT_EQ(Metric(filtered, "filesRead"), 1) << filtered;
  EXPECT_NE(filtered.find("RuntimeFilters: [year IN (2024)]"), std::string::npos) << filtered;
  ASSERT_OK(session_->Sql("SET parley.sql.optimizer.runtimeFilter.enabled=false").status());
  std::string unfiltered = Analyze(query);
  EXPECT_EQ(Metric(unfiltered, "filesRead"), 2) << unfiltered;
  ASSERT_OK_AND_ASSIGN(auto same, session_->Sql(query));
  EXPECT_EQ(same->column(0)->GetScalar(0).ValueOrDie()->ToString(), "1000");
}

TEST_F(FilesSessionTest, JoinBuildSideSkipsRowGroupsAtRunTime) {
  const std::string query = "SELECT f.v FROM " + Table() +
                            " f JOIN (VALUES (20240005L), (20240150L)) AS d(i) ON f.id = d.i";
  std::string filtered = Analyze(query);
  EXPECT_EQ(Metric(filtered, "rowGroupsRead"), 2) << filtered;
  ASSERT_OK_AND_ASSIGN(auto rows, session_->Sql(query + " ORDER BY f.v"));
  ASSERT_EQ(rows->num_rows(), 2);
  EXPECT_EQ(rows->column(0)->GetScalar(0).ValueOrDie()->ToString(), "2.5");
  EXPECT_EQ(rows->column(0)->GetScalar(1).ValueOrDie()->ToString(), "75");
  ASSERT_OK(session_->Sql("SET parley.sql.optimizer.runtimeFilter.enabled=false").status());
  std::string unfiltered = Analyze(query);
  EXPECT_EQ(Metric(unfiltered, "rowGroupsRead"), 20) << unfiltered;
}

TEST_F(FilesSessionTest, MissingPathIsAClearError) {
  auto result = session_->Sql("SELECT * FROM parquet.`/nonexistent/parley/data`");
  ASSERT_RAISES_CONDITION("PATH_NOT_FOUND", result);
  EXPECT_NE(result.status().message().find("/nonexistent/parley/data"), std::string::npos);
}

TEST_F(FilesSessionTest, ExplainAnalyzeReportsOperatorsAndTasks) {
  std::string plan = Analyze("SELECT year, count(*) FROM " + Table() + " GROUP BY year");
  EXPECT_NE(plan.find("Rows out: 2000"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Rows out: 2\n"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Tasks: "), std::string::npos) << plan;
  EXPECT_NE(plan.find("duration min / median / max"), std::string::npos) << plan;
}

}  // namespace
}  // namespace parley
