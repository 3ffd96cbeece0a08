// Executor tests: one task per input partition, through the internal planning API, over the
// test connector and over the example range plugin loaded from its shared library.
#include "exec/executor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "analysis/query_binder.h"
#include "arrow/array.h"
#include "arrow/table.h"
#include "catalog/catalog_manager.h"
#include "plan/pushdown.h"
#include "sql/parser.h"
#include "testing/gtest_util.h"
#include "testing/test_connector.h"

namespace parley {
namespace {

// The negotiated plan of a SELECT over `catalogs`.
Result<PlanNodePtr> NegotiatedPlan(const std::string& text, CatalogManager* catalogs) {
  ARROW_ASSIGN_OR_RAISE(auto statement, sql::ParseStatement(text));
  ARROW_ASSIGN_OR_RAISE(auto plan,
                        BindSelect(std::get<sql::SelectStatement>(statement.node), catalogs));
  return NegotiatePushdown(plan);
}

// The scan reached by following first children down from `plan`.
PlanNodePtr FirstScan(PlanNodePtr plan) {
  while (plan->kind != PlanNode::Kind::kScan) plan = plan->children[0];
  return plan;
}

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

  // Runs the plan of `text`, which stays alive (in plan_) for the profile that points into it.
  Result<ExecutionResult> Run(const std::string& text, bool profile = false) {
    ARROW_ASSIGN_OR_RAISE(plan_, NegotiatedPlan(text, &catalogs_));
    ScanRunOptions options;
    options.round_trip_tasks = true;
    return ExecutePlan(plan_, options, profile);
  }

  SqlConf conf_;
  CatalogManager catalogs_{&conf_, PluginRegistry{}};
  std::shared_ptr<testing::TestCatalog> catalog_;
  PlanNodePtr plan_;
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
    EXPECT_TRUE(result.table->column(0)->Equals(*expected)) << result.table->column(0)->ToString();
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
  EXPECT_TRUE(result.table->column(0)->Equals(*expected)) << result.table->column(0)->ToString();
}

// The stream hands out every batch of every task, then the end; Finish gives the tasks'
// metrics. Finishing before the end stops the tasks and still gives their metrics.
TEST_F(ExecutorTest, ScanStreamDeliversEveryBatchThenFinishes) {
  ASSERT_OK_AND_ASSIGN(auto plan, NegotiatedPlan("SELECT a FROM tc.default.t", &catalogs_));
  PlanNodePtr scan = FirstScan(plan);
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

// A table of `partitions` x `rows_per_partition` rows (a = 0, 1, ...) read one row per
// batch, counting the batches its readers return.
std::shared_ptr<std::atomic<int64_t>> AddManyBatchTable(testing::TestCatalog* catalog,
                                                        const std::string& name, int partitions,
                                                        int64_t rows_per_partition) {
  std::vector<int> values;
  for (int i = 0; i < partitions * rows_per_partition; ++i) values.push_back(i);
  testing::TestTableOptions options;
  options.partitions = partitions;
  options.batch_rows = 1;
  options.batches_read = std::make_shared<std::atomic<int64_t>>(0);
  catalog->AddTable(name, testing::MakeIntTable({"a"}, {values}), options);
  return options.batches_read;
}

Result<PlanNodePtr> ScanOf(const std::string& text, CatalogManager* catalogs) {
  ARROW_ASSIGN_OR_RAISE(auto plan, NegotiatedPlan(text, catalogs));
  return FirstScan(plan);
}

// An unordered stream hands out every batch once, while its tasks read at most a bounded
// number of batches ahead of a slow consumer (they pause and resume instead of buffering the
// whole scan).
TEST_F(ExecutorTest, UnorderedScanStreamReadsABoundedDistanceAhead) {
  constexpr int kPartitions = 8;
  constexpr int64_t kRowsPerPartition = 60;
  auto batches_read = AddManyBatchTable(catalog_.get(), "many", kPartitions, kRowsPerPartition);
  ASSERT_OK_AND_ASSIGN(auto scan, ScanOf("SELECT a FROM tc.default.many", &catalogs_));
  ASSERT_OK_AND_ASSIGN(auto stream, StartScanTasks(scan.get(), ScanRunOptions{}, std::nullopt,
                                                   std::nullopt, /*ordered=*/false));
  // Each task pauses with 4 batches waiting, at most twice the pool's threads of partitions
  // are started and not drained, and each running task may hold one batch it has just read.
  const int64_t threads = std::max(1u, std::thread::hardware_concurrency());
  const int64_t bound = 2 * threads * 4 + threads;
  std::vector<int> seen(kPartitions * kRowsPerPartition, 0);
  int64_t taken = 0;
  int64_t most_ahead = 0;
  while (true) {
    ASSERT_OK_AND_ASSIGN(auto batch, stream->Next().result());
    if (!batch) break;
    ++taken;
    auto values = std::static_pointer_cast<arrow::Int32Array>(batch->values[0].make_array());
    for (int64_t i = 0; i < values->length(); ++i) ++seen[values->Value(i)];
    // A slow consumer: give the tasks time to run ahead as far as they may.
    if (taken % 40 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    most_ahead = std::max(most_ahead, batches_read->load() - taken);
  }
  EXPECT_EQ(taken, kPartitions * kRowsPerPartition);
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), kPartitions * kRowsPerPartition);
  EXPECT_LE(most_ahead, bound);
  ASSERT_OK_AND_ASSIGN(auto metrics, stream->Finish());
  ASSERT_EQ(metrics.size(), static_cast<size_t>(kPartitions));
  for (size_t i = 0; i < metrics.size(); ++i) {
    EXPECT_EQ(metrics[i].partition, i);
    EXPECT_EQ(metrics[i].rows, kRowsPerPartition);
  }
}

// Finishing an unordered stream early stops paused and unstarted tasks alike and still gives
// one metrics entry per partition.
TEST_F(ExecutorTest, UnorderedScanStreamFinishesEarly) {
  AddManyBatchTable(catalog_.get(), "many", 12, 20);
  ASSERT_OK_AND_ASSIGN(auto scan, ScanOf("SELECT a FROM tc.default.many", &catalogs_));
  ASSERT_OK_AND_ASSIGN(auto stream, StartScanTasks(scan.get(), ScanRunOptions{}, std::nullopt,
                                                   std::nullopt, /*ordered=*/false));
  ASSERT_OK_AND_ASSIGN(auto first, stream->Next().result());
  ASSERT_TRUE(first.has_value());
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_OK_AND_ASSIGN(auto metrics, stream->Finish());
  ASSERT_EQ(metrics.size(), 12u);
  int64_t rows = 0;
  for (size_t i = 0; i < metrics.size(); ++i) {
    EXPECT_EQ(metrics[i].partition, i);
    rows += metrics[i].rows;
  }
  EXPECT_LT(rows, 12 * 20);
}

// Stopping a stream ends it at once: a Next() still waiting for tasks that have produced
// nothing completes with the end, as does every later one, while the tasks are held; Finish()
// then stops them at their first batch. A plan stream closed early ends its scans this way so
// that its plan runs dry (PlanStream::Close).
TEST_F(ExecutorTest, StoppedScanStreamEndsAWaitingNext) {
  for (bool ordered : {true, false}) {
    SCOPED_TRACE(ordered ? "ordered" : "unordered");
    const std::string name = ordered ? "gated_ordered" : "gated_unordered";
    std::promise<void> gate;
    testing::TestTableOptions options;
    options.partitions = 3;
    options.batch_rows = 1;
    options.read_gate = gate.get_future().share();
    catalog_->AddTable(name, testing::MakeIntTable({"a"}, {{0, 1, 2, 3, 4, 5}}), options);
    ASSERT_OK_AND_ASSIGN(auto scan, ScanOf("SELECT a FROM tc.default." + name, &catalogs_));
    ASSERT_OK_AND_ASSIGN(auto stream, StartScanTasks(scan.get(), ScanRunOptions{}, std::nullopt,
                                                     std::nullopt, ordered));
    auto waiting = stream->Next();
    EXPECT_FALSE(waiting.is_finished());
    stream->Stop();
    ASSERT_TRUE(waiting.is_finished());
    ASSERT_OK_AND_ASSIGN(auto end, waiting.result());
    EXPECT_FALSE(end.has_value());
    auto later = stream->Next();
    ASSERT_TRUE(later.is_finished());
    ASSERT_OK_AND_ASSIGN(auto also_end, later.result());
    EXPECT_FALSE(also_end.has_value());
    gate.set_value();
    ASSERT_OK_AND_ASSIGN(auto metrics, stream->Finish());
    ASSERT_EQ(metrics.size(), 3u);
    for (const auto& task : metrics) EXPECT_LE(task.rows, 1);
  }
}

// A caller that takes a plan's rows in any order (a row-level operation, for its target) names
// the scan in ScanRunOptions::unordered_scans: its tasks' batches then arrive in turn rather
// than partition after partition. Without it, the same plan keeps partition order.
TEST_F(ExecutorTest, ScansNamedUnorderedByTheCallerStreamInTurn) {
  AddManyBatchTable(catalog_.get(), "many", 4, 40);
  ASSERT_OK_AND_ASSIGN(auto plan, NegotiatedPlan("SELECT a FROM tc.default.many", &catalogs_));
  PlanNodePtr scan = FirstScan(plan);
  for (bool unordered : {false, true}) {
    ScanRunOptions options;
    if (unordered) options.unordered_scans.insert(scan.get());
    ASSERT_OK_AND_ASSIGN(auto stream, ExecutePlanStream(plan, options));
    std::vector<int32_t> values;
    while (true) {
      ASSERT_OK_AND_ASSIGN(auto batch, stream->Next());
      if (batch == nullptr) break;
      const auto& column = static_cast<const arrow::Int32Array&>(*batch->column(0));
      for (int64_t i = 0; i < column.length(); ++i) values.push_back(column.Value(i));
    }
    ASSERT_OK(stream->Close());
    ASSERT_EQ(values.size(), 160u);
    // Each task pauses with 4 batches waiting, so partition 0 cannot all come first.
    EXPECT_EQ(std::is_sorted(values.begin(), values.end()), !unordered);
    std::sort(values.begin(), values.end());
    for (int32_t i = 0; i < 160; ++i) EXPECT_EQ(values[static_cast<size_t>(i)], i);
  }
}

// Closing a plan stream part-way, as a failed row-level operation does, ends its scans and
// lets the plan run dry: it returns OK, and the tasks stop reading long before the end of the
// table rather than the plan reading it all to its end.
TEST_F(ExecutorTest, PlanStreamClosedPartWayEndsItsScans) {
  constexpr int64_t kRows = 8 * 200;
  auto batches_read = AddManyBatchTable(catalog_.get(), "many", 8, kRows / 8);
  ASSERT_OK_AND_ASSIGN(auto plan,
                       NegotiatedPlan("SELECT a + 1 AS b FROM tc.default.many", &catalogs_));
  PlanNodePtr scan = FirstScan(plan);
  ScanRunOptions options;
  options.unordered_scans.insert(scan.get());
  ASSERT_OK_AND_ASSIGN(auto stream, ExecutePlanStream(plan, options));
  ASSERT_OK_AND_ASSIGN(auto first, stream->Next());
  ASSERT_NE(first, nullptr);
  ASSERT_OK(stream->Close());
  EXPECT_LT(batches_read->load(), kRows / 2);
}

// A row-level operation that fails on the first rows of a hash join closes its plan stream
// while the join still emits (its rows come out as its per-thread flush tasks run). Closing
// used to stop the running Acero plan, whose scheduler now and then lost a flush task, so that
// Close() never returned: in a thousand closes it hung every time.
TEST_F(ExecutorTest, PlanStreamClosedWhileAHashJoinEmitsReturns) {
  AddManyBatchTable(catalog_.get(), "many", 8, 25);
  ASSERT_OK_AND_ASSIGN(auto plan, NegotiatedPlan("SELECT m.a, t.a AS b FROM tc.default.many m "
                                                 "LEFT JOIN tc.default.t t ON m.a = t.a",
                                                 &catalogs_));
  PlanNodePtr scan = FirstScan(plan);
  ScanRunOptions options;
  options.runtime_filter_max_build_rows = 0;
  options.unordered_scans.insert(scan.get());
  for (int i = 0; i < 1000; ++i) {
    ASSERT_OK_AND_ASSIGN(auto stream, ExecutePlanStream(plan, options));
    ASSERT_OK_AND_ASSIGN(auto first, stream->Next());
    ASSERT_NE(first, nullptr);
    ASSERT_OK(stream->Close());
  }
}

// An error raised above a hash join while it probes the batches it queued before its build
// side was ready fails inside one of Acero's task-group tasks, and Acero's abort then never
// closes the plan's sink. A streamed plan still ends: its next batch is the error, as soon as
// the plan has finished, and Close() returns.
TEST_F(ExecutorTest, PlanStreamEndsWhenAnErrorAboveAJoinLeavesItsSinkOpen) {
  auto probe_batches = AddManyBatchTable(catalog_.get(), "probe", 4, 25);
  std::promise<void> gate;
  testing::TestTableOptions gated;
  gated.partitions = 1;
  gated.read_gate = gate.get_future().share();
  catalog_->AddTable("build", testing::MakeIntTable({"a"}, {{1, 2, 3}}), gated);
  ASSERT_OK_AND_ASSIGN(auto plan,
                       NegotiatedPlan("SELECT 1 / (p.a - b.a) AS q FROM tc.default.probe p "
                                      "JOIN tc.default.build b ON p.a = b.a",
                                      &catalogs_));
  ScanRunOptions options;
  options.runtime_filter_max_build_rows = 0;
  ASSERT_OK_AND_ASSIGN(auto stream, ExecutePlanStream(plan, options));
  // Every probe batch is read (and queued by the join) before the build side has its rows.
  for (int i = 0; i < 500 && probe_batches->load() < 100; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  gate.set_value();
  auto ended = std::async(std::launch::async, [&stream] {
    Status status;
    while (status.ok()) {
      auto batch = stream->Next();
      if (!batch.ok()) status = batch.status();
      if (batch.ok() && *batch == nullptr) break;
    }
    Status closed = stream->Close();
    return status.ok() ? closed : status;
  });
  ASSERT_EQ(ended.wait_for(std::chrono::seconds(60)), std::future_status::ready)
      << "the streamed plan never ended";
  EXPECT_EQ(ErrorCondition(ended.get()), "DIVIDE_BY_ZERO");
}

// Aggregations read their scans unordered: results over many small batches are exact, and a
// task's error (here the filter's, inside the tasks) still fails the query with its condition.
TEST_F(ExecutorTest, AggregatesOverUnorderedScans) {
  AddManyBatchTable(catalog_.get(), "many", 8, 50);
  ASSERT_OK_AND_ASSIGN(auto result,
                       Run("SELECT count(*), sum(a), min(a), max(a) FROM tc.default.many "
                           "WHERE a % 2 = 0"));
  ASSERT_EQ(result.table->num_rows(), 1);
  ASSERT_OK_AND_ASSIGN(auto row, result.table->CombineChunksToBatch());
  EXPECT_EQ(row->column(0)->ToString(), "[\n  200\n]");
  EXPECT_EQ(row->column(1)->ToString(), "[\n  39800\n]");
  EXPECT_EQ(row->column(2)->ToString(), "[\n  0\n]");
  EXPECT_EQ(row->column(3)->ToString(), "[\n  398\n]");
  ASSERT_OK_AND_ASSIGN(auto distinct,
                       Run("SELECT DISTINCT a % 3 AS r FROM tc.default.many ORDER BY r"));
  EXPECT_EQ(distinct.table->num_rows(), 3);
  ASSERT_RAISES_CONDITION("DIVIDE_BY_ZERO",
                          Run("SELECT count(*) FROM tc.default.many WHERE 6 / (a - 300) > 1"));
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
