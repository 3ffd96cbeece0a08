// Executor tests: one task per input partition, through the internal planning API, over the
// test connector and over the example range plugin loaded from its shared library.
#include "exec/executor.h"

#include <gtest/gtest.h>

#include "analysis/query_binder.h"
#include "arrow/table.h"
#include "catalog/catalog_manager.h"
#include "plan/pushdown.h"
#include "sql/parser.h"
#include "testing/gtest_util.h"
#include "testing/test_connector.h"

namespace parley {
namespace {

class ExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    conf_.Set("spark.sql.catalog.ex", PARLEY_EXAMPLE_RANGE_PATH);
    catalog_ = std::make_shared<testing::TestCatalog>();
    testing::TestTableOptions options;
    options.partitions = 2;
    catalog_->AddTable("t", testing::MakeIntTable({"a"}, {{1, 2, 3, 4, 5, 6}}), options);
    ASSERT_OK(catalogs_.Register("tc", catalog_));
  }

  Result<ExecutionResult> Run(const std::string& text, bool profile = false) {
    ARROW_ASSIGN_OR_RAISE(auto statement, sql::ParseStatement(text));
    ARROW_ASSIGN_OR_RAISE(
        auto plan, BindSelect(std::get<sql::SelectStatement>(statement.node), &catalogs_));
    ARROW_ASSIGN_OR_RAISE(plan, NegotiatePushdown(plan));
    ScanRunOptions options;
    options.round_trip_tasks = true;
    return ExecutePlan(plan, options, profile);
  }

  SqlConf conf_;
  CatalogManager catalogs_{&conf_, PluginRegistry{}};
  std::shared_ptr<testing::TestCatalog> catalog_;
};

TEST_F(ExecutorTest, TwoPartitionsRunAsTwoTasks) {
  ASSERT_OK_AND_ASSIGN(auto result, Run("SELECT a FROM tc.default.t"));
  ASSERT_EQ(result.task_metrics.size(), 2u);
  EXPECT_EQ(result.task_metrics[0].partition, 0u);
  EXPECT_EQ(result.task_metrics[1].partition, 1u);
  EXPECT_EQ(result.task_metrics[0].rows, 3);
  EXPECT_EQ(result.task_metrics[1].rows, 3);
  EXPECT_EQ(result.table->num_rows(), 6);
}

// A residual filter directly above a scan runs in the scan's tasks: each task still reports
// the rows its reader returned, the profile gives the scan those and the filter the rows kept.
TEST_F(ExecutorTest, ResidualFilterAboveAScanRunsInItsTasks) {
  for (bool profile : {false, true}) {
    ASSERT_OK_AND_ASSIGN(auto result,
                         Run("SELECT a FROM tc.default.t WHERE a % 2 = 0 ORDER BY a", profile));
    ASSERT_EQ(result.table->num_rows(), 3);
    auto expected = testing::MakeIntTable({"a"}, {{2, 4, 6}})->column(0);
    EXPECT_TRUE(result.table->column(0)->Equals(*expected))
        << result.table->column(0)->ToString();
    ASSERT_EQ(result.task_metrics.size(), 2u);
    EXPECT_EQ(result.task_metrics[0].rows + result.task_metrics[1].rows, 6);
    if (!profile) continue;
    std::map<PlanNode::Kind, int64_t> rows_by_kind;
    for (const auto& [node, entry] : result.profile) rows_by_kind[node->kind] = entry.rows_out;
    EXPECT_EQ(rows_by_kind[PlanNode::Kind::kScan], 6);
    EXPECT_EQ(rows_by_kind[PlanNode::Kind::kFilter], 3);
    for (const auto& [node, entry] : result.profile) {
      if (node->kind == PlanNode::Kind::kScan) {
        EXPECT_EQ(entry.tasks.size(), 2u);
      }
    }
  }
}

// A runtime error of the filter, raised inside a scan task, carries its Spark condition.
TEST_F(ExecutorTest, FilterErrorsInScanTasksCarryTheirCondition) {
  ASSERT_RAISES_CONDITION("DIVIDE_BY_ZERO",
                          Run("SELECT a FROM tc.default.t WHERE 6 / (a - 3) > 1"));
}

// Without ORDER BY, a streamed scan's rows arrive in partition order, as a gathered one's do.
TEST_F(ExecutorTest, StreamedScanKeepsPartitionOrder) {
  ASSERT_OK_AND_ASSIGN(auto result, Run("SELECT a FROM tc.default.t"));
  auto expected = testing::MakeIntTable({"a"}, {{1, 2, 3, 4, 5, 6}})->column(0);
  EXPECT_TRUE(result.table->column(0)->Equals(*expected))
      << result.table->column(0)->ToString();
}

// The stream hands out every batch of every task, then the end; Finish gives the tasks'
// metrics. Finishing before the end stops the tasks and still gives their metrics.
TEST_F(ExecutorTest, ScanStreamDeliversEveryBatchThenFinishes) {
  ASSERT_OK_AND_ASSIGN(auto statement, sql::ParseStatement("SELECT a FROM tc.default.t"));
  ASSERT_OK_AND_ASSIGN(
      auto plan, BindSelect(std::get<sql::SelectStatement>(statement.node), &catalogs_));
  ASSERT_OK_AND_ASSIGN(plan, NegotiatePushdown(plan));
  PlanNodePtr scan = plan;
  while (scan->kind != PlanNode::Kind::kScan) scan = scan->children[0];
  ScanRunOptions options;
  ASSERT_OK_AND_ASSIGN(auto stream, StartScanTasks(scan.get(), options));
  int64_t rows = 0;
  while (true) {
    ASSERT_OK_AND_ASSIGN(auto batch, stream->Next().result());
    if (!batch) break;
    rows += batch->length;
  }
  EXPECT_EQ(rows, 6);
  ASSERT_OK_AND_ASSIGN(auto metrics, stream->Finish());
  ASSERT_EQ(metrics.size(), 2u);
  EXPECT_EQ(metrics[0].rows + metrics[1].rows, 6);

  ASSERT_OK_AND_ASSIGN(auto stopped, StartScanTasks(scan.get(), options));
  ASSERT_OK_AND_ASSIGN(auto first, stopped->Next().result());
  ASSERT_TRUE(first.has_value());
  ASSERT_OK_AND_ASSIGN(auto stopped_metrics, stopped->Finish());
  EXPECT_EQ(stopped_metrics.size(), 2u);
}

TEST_F(ExecutorTest, PluginLibraryTablesRunTheirPartitionsAsTasks) {
  ASSERT_OK_AND_ASSIGN(auto simple, Run("SELECT i, j FROM ex.default.simple ORDER BY i"));
  ASSERT_EQ(simple.task_metrics.size(), 2u);
  EXPECT_EQ(simple.table->num_rows(), 10);
  EXPECT_EQ(simple.table->schema()->field(0)->name(), "i");
  // The filtered table plans from the accepted threshold: [7, 10) is one partition.
  ASSERT_OK_AND_ASSIGN(auto filtered,
                       Run("SELECT j FROM ex.default.filtered WHERE i > 6 AND i > j"));
  ASSERT_EQ(filtered.task_metrics.size(), 1u);
  EXPECT_EQ(filtered.task_metrics[0].rows, 3);
  ASSERT_OK_AND_ASSIGN(auto j, filtered.table->CombineChunks());
  EXPECT_EQ(j->column(0)->ToString(), "[\n  [\n    -7,\n    -8,\n    -9\n  ]\n]");
}

TEST_F(ExecutorTest, MissingPluginLibraryIsAClearError) {
  conf_.Set("spark.sql.catalog.bad", "/nonexistent/libnope.so");
  auto result = Run("SELECT * FROM bad.default.t");
  ASSERT_RAISES_CONDITION("CATALOG_PLUGIN_NOT_LOADABLE", result);
  EXPECT_NE(result.status().message().find("/nonexistent/libnope.so"), std::string::npos);
}

}  // namespace
}  // namespace parley
