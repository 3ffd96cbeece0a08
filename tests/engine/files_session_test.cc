// Path-based Parquet reads through the Session: partition pruning, row-group skipping and
// nested schema pruning, proven with EXPLAIN ANALYZE's bytes read rather than by the rows alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "arrow/array/builder_binary.h"
#include "arrow/array/builder_nested.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/io/file.h"
#include "arrow/scalar.h"
#include "arrow/table.h"
#include "parley/session.h"
#include "parquet/arrow/writer.h"
#include "testing/gtest_util.h"
#include "testing/session_rows.h"

namespace parley {
namespace {

namespace fs = std::filesystem;

// A session as the test suite runs them: tasks round-trip through bytes, pushdown verified.
Result<std::shared_ptr<Session>> MakeTestSession() {
  SessionOptions options;
  options.conf["parley.test.roundTripTasks"] = "true";
  options.conf["spark.sql.catalog.spark_catalog"] = "memory";
  options.conf["parley.verifyPushdown"] = "true";
  return Session::Make(options);
}

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
      ASSERT_OK_AND_ASSIGN(
          auto out, arrow::io::FileOutputStream::Open(
                        (root_ / ("year=" + std::to_string(year)) / "part-0.parquet").string()));
      ASSERT_OK(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), out,
                                           /*chunk_size=*/100));
      ASSERT_OK(out->Close());
    }
    ASSERT_OK_AND_ASSIGN(session_, MakeTestSession());
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string Table() const { return "parquet.`" + root_.string() + "`"; }

  std::string Analyze(const std::string& query) {
    return testing::ExplainAnalyze(session_.get(), query);
  }

  static int64_t Metric(const std::string& plan, const std::string& name) {
    return testing::PlanMetric(plan, name);
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

TEST_F(FilesSessionTest, ReaderDropsRowsOfPushedPredicatesWhileDecoding) {
  // Row-group pruning keeps one group of 100 rows; the Parquet reader drops the 99 others
  // before they become Arrow arrays, and the engine still checks the one it returns.
  std::string plan = Analyze("SELECT v FROM " + Table() + " WHERE id = 20240150");
  EXPECT_EQ(Metric(plan, "rowGroupsRead"), 1) << plan;
  EXPECT_EQ(Metric(plan, "rowsFiltered"), 99) << plan;
  EXPECT_EQ(Metric(plan, "Rows out"), 1) << plan;
  plan = Analyze("SELECT count(*) FROM " + Table() + " WHERE id >= 20230990 AND id < 20240005");
  EXPECT_EQ(Metric(plan, "rowsFiltered"), 100 - 10 + 100 - 5) << plan;
  ASSERT_OK_AND_ASSIGN(auto count, session_->Sql("SELECT count(*) FROM " + Table() +
                                                 " WHERE id >= 20230990 AND id < 20240005"));
  EXPECT_EQ(count->column(0)->GetScalar(0).ValueOrDie()->ToString(), "15");
  // Floating-point comparisons are left to the engine (NaN orders above every number).
  plan = Analyze("SELECT id FROM " + Table() + " WHERE v > 400");
  EXPECT_EQ(Metric(plan, "rowsFiltered"), 0) << plan;
  ASSERT_OK_AND_ASSIGN(auto rows, session_->Sql("SELECT id FROM " + Table() + " WHERE v > 400"));
  EXPECT_EQ(rows->num_rows(), 2 * 199);
}

TEST_F(FilesSessionTest, JoinBuildSidePrunesPartitionsAtRunTime) {
  const std::string query =
      "SELECT count(*) FROM " + Table() + " f JOIN (VALUES (2024)) AS d(y) ON f.year = d.y";
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

// ---- Nested schema pruning: one field of a wide struct reads only its column chunks.

constexpr int kRows = 20000;
constexpr int kWideFields = 6;

class NestedPruningSessionTest : public ::testing::Test {
 protected:
  // id BIGINT, s STRUCT<a: BIGINT, w0..w5: STRING> with long strings; every 7th s is NULL.
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("parley_nested_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
    arrow::FieldVector fields = {arrow::field("a", arrow::int64())};
    std::vector<std::shared_ptr<arrow::ArrayBuilder>> builders = {
        std::make_shared<arrow::Int64Builder>()};
    for (int f = 0; f < kWideFields; ++f) {
      fields.push_back(arrow::field("w" + std::to_string(f), arrow::utf8()));
      builders.push_back(std::make_shared<arrow::StringBuilder>());
    }
    auto s_type = arrow::struct_(fields);
    arrow::StructBuilder s(s_type, arrow::default_memory_pool(), builders);
    arrow::Int64Builder ids;
    for (int i = 0; i < kRows; ++i) {
      ASSERT_OK(ids.Append(i));
      if (i % 7 == 0) {
        ASSERT_OK(s.AppendNull());
        continue;
      }
      ASSERT_OK(s.Append());
      ASSERT_OK(static_cast<arrow::Int64Builder*>(s.field_builder(0))->Append(i * 2));
      for (int f = 0; f < kWideFields; ++f) {
        ASSERT_OK(static_cast<arrow::StringBuilder*>(s.field_builder(f + 1))
                      ->Append("wide-value-" + std::to_string(f) + "-" + std::to_string(i * 7919)));
      }
    }
    std::shared_ptr<arrow::Array> id_array, s_array;
    ASSERT_OK(ids.Finish(&id_array));
    ASSERT_OK(s.Finish(&s_array));
    auto table = arrow::Table::Make(
        arrow::schema({arrow::field("id", arrow::int64()), arrow::field("s", s_type)}),
        {id_array, s_array});
    ASSERT_OK_AND_ASSIGN(auto out,
                         arrow::io::FileOutputStream::Open((root_ / "wide.parquet").string()));
    ASSERT_OK(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), out, 5000));
    ASSERT_OK(out->Close());
    ASSERT_OK_AND_ASSIGN(session_, MakeTestSession());
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string Table() const { return "parquet.`" + (root_ / "wide.parquet").string() + "`"; }

  std::string Explain(const std::string& mode, const std::string& query) {
    auto result = session_->Sql("EXPLAIN " + mode + " " + query);
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    if (!result.ok()) return "";
    return (*result)->column(0)->GetScalar(0).ValueOrDie()->ToString();
  }

  std::vector<std::string> Rows(const std::string& query) {
    auto result = session_->Sql(query);
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    std::vector<std::string> rows;
    if (!result.ok()) return rows;
    for (int64_t r = 0; r < (*result)->num_rows(); ++r) {
      std::string row;
      for (int c = 0; c < (*result)->num_columns(); ++c) {
        row += (c ? "," : "") + (*result)->column(c)->GetScalar(r).ValueOrDie()->ToString();
      }
      rows.push_back(row);
    }
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  static int64_t BytesRead(const std::string& plan) {
    return testing::PlanMetric(plan, "Bytes read");
  }

  fs::path root_;
  std::shared_ptr<Session> session_;
};

TEST_F(NestedPruningSessionTest, OneFieldOfAWideStructReadsOnlyItsColumn) {
  const std::string query = "SELECT id, s.a FROM " + Table() + " WHERE id < 15";
  std::string plan = Explain("FORMATTED", query);
  EXPECT_NE(plan.find("RequiredNestedSchema: [s STRUCT<`a`: BIGINT>]"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("(read whole)"), std::string::npos) << plan;
  std::string narrowed = Explain("ANALYZE", query);
  auto rows = Rows(query);
  ASSERT_OK(session_->Sql("SET spark.sql.optimizer.nestedSchemaPruning.enabled=false").status());
  std::string whole = Explain("ANALYZE", query);
  EXPECT_EQ(Rows(query), rows);
  ASSERT_EQ(rows.size(), 15u);
  EXPECT_EQ(rows[0], "0,null");  // a NULL struct's field is NULL
  EXPECT_EQ(rows[1], "1,2");
  EXPECT_GT(BytesRead(narrowed), 0) << narrowed;
  // The wide string fields are most of the file: the narrowed read is a small part of it.
  EXPECT_LT(BytesRead(narrowed) * 5, BytesRead(whole)) << narrowed << whole;
}

TEST_F(NestedPruningSessionTest, AggregatesAndWholeStructs) {
  int last = kRows - 1;
  while (last % 7 == 0) --last;
  EXPECT_EQ(Rows("SELECT count(s.a), max(s.a) FROM " + Table()),
            (std::vector<std::string>{std::to_string(kRows - (kRows + 6) / 7) + "," +
                                      std::to_string(last * 2)}));
  std::string plan = Explain("FORMATTED", "SELECT s FROM " + Table() + " WHERE s.a = 2");
  EXPECT_EQ(plan.find("RequiredNestedSchema"), std::string::npos) << plan;
  auto rows = Rows("SELECT s.w0, s.a FROM " + Table() + " WHERE s.a = 2");
  EXPECT_EQ(rows, (std::vector<std::string>{"wide-value-0-7919,2"}));
}

}  // namespace
}  // namespace parley
