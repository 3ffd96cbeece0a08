// Ending a statement early: a deadline or a stop token cancels a query over a scan that never
// ends on its own (OPERATION_CANCELED, its readers closed, its memory returned, the session
// usable after), a cancelled INSERT commits nothing, and parley.memory.limit turns a result
// larger than the limit into UNABLE_TO_ACQUIRE_MEMORY.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <random>
#include <thread>

#include "arrow/memory_pool.h"
#include "arrow/table.h"
#include "arrow/util/cancel.h"
#include "parley/session.h"
#include "testing/gtest_util.h"
#include "testing/session_rows.h"
#include "testing/test_connector.h"

namespace parley {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using testing::MakeIntTable;
using testing::TestCatalog;
using testing::TestTableOptions;

// Long enough that a cancellation which did not happen shows as a failure, not a slow pass.
constexpr auto kCancelWithin = std::chrono::seconds(20);

class CancellationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device random;
    dir_ = fs::temp_directory_path() / ("parley-cancel-" + std::to_string(random()));
    SessionOptions options;
    options.warehouse = (dir_ / "warehouse").string();
    ASSERT_OK_AND_ASSIGN(session_, Session::Make(options));
    catalog_ = std::make_shared<TestCatalog>();
    std::vector<int32_t> a, b;
    for (int32_t i = 0; i < 4000; ++i) {
      a.push_back(i);
      b.push_back(i % 7);
    }
    TestTableOptions endless;
    endless.endless = true;
    endless.partitions = 2;
    endless.batch_rows = 100;
    endless.open_readers = open_readers_;
    catalog_->AddTable("endless", MakeIntTable({"a", "b"}, {a, b}), endless);
    catalog_->AddTable("rows", MakeIntTable({"a", "b"}, {a, b}), TestTableOptions{});
    ASSERT_OK(session_->RegisterCatalog("tc", catalog_));
  }
  void TearDown() override {
    session_.reset();
    fs::remove_all(dir_);
  }

  // Run `sql` with `options`; it must fail with OPERATION_CANCELED well within kCancelWithin,
  // leaving no reader open.
  void ExpectCancelled(const std::string& sql, const StatementOptions& options) {
    auto start = Clock::now();
    auto result = session_->Sql(sql, options);
    EXPECT_LT(Clock::now() - start, kCancelWithin) << sql;
    ASSERT_FALSE(result.ok()) << sql << " was not cancelled";
    EXPECT_EQ(ErrorCondition(result.status()), "OPERATION_CANCELED") << result.status().ToString();
    EXPECT_EQ(open_readers_->load(), 0) << sql << " left readers open";
  }

  static StatementOptions Deadline(std::chrono::milliseconds after) {
    StatementOptions options;
    options.deadline = Clock::now() + after;
    return options;
  }

  fs::path dir_;
  std::shared_ptr<Session> session_;
  std::shared_ptr<TestCatalog> catalog_;
  std::shared_ptr<std::atomic<int64_t>> open_readers_ = std::make_shared<std::atomic<int64_t>>(0);
};

TEST_F(CancellationTest, DeadlineCancelsQueriesOverAnEndlessScan) {
  // Warm up once so that the memory baseline includes what the first query caches.
  EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT count(*) FROM tc.default.rows"),
            std::vector<std::string>{"4000"});
  const int64_t baseline = arrow::default_memory_pool()->bytes_allocated();
  for (const char* sql :
       {"SELECT count(*) FROM tc.default.endless",
        "SELECT b, sum(a) FROM tc.default.endless GROUP BY b",
        "SELECT * FROM tc.default.endless ORDER BY a",
        "SELECT e.a FROM tc.default.endless e JOIN tc.default.rows r ON e.a = r.a",
        "SELECT a, row_number() OVER (ORDER BY a) FROM tc.default.endless",
        "SELECT * FROM tc.default.endless"}) {
    ExpectCancelled(sql, Deadline(std::chrono::milliseconds(200)));
  }
  // Nothing the cancelled queries allocated stays behind (a cache may shrink meanwhile).
  EXPECT_LE(arrow::default_memory_pool()->bytes_allocated(), baseline);
  EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT max(a) FROM tc.default.rows"),
            std::vector<std::string>{"3999"});
}

TEST_F(CancellationTest, StopTokenCancelsFromAnotherThread) {
  arrow::StopSource source;
  StatementOptions options;
  options.stop_token = source.token();
  std::thread stopper([&source] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    source.RequestStop();
  });
  ExpectCancelled("SELECT b, count(*) FROM tc.default.endless GROUP BY b", options);
  stopper.join();
  // A token already stopped cancels the next statement that carries it at its first batch.
  ExpectCancelled("SELECT count(*) FROM tc.default.rows", options);
  EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT count(*) FROM tc.default.rows"),
            std::vector<std::string>{"4000"});
}

TEST_F(CancellationTest, CancelledInsertCommitsNothing) {
  ASSERT_OK(session_->Sql("CREATE TABLE target (a INT, b INT)").status());
  ASSERT_OK(session_->Sql("INSERT INTO target VALUES (1, 2)").status());
  const fs::path log = dir_ / "warehouse" / "default" / "target" / "_delta_log";
  auto commits = [&log] {
    int count = 0;
    for (const auto& entry : fs::directory_iterator(log)) {
      if (entry.path().extension() == ".json") ++count;
    }
    return count;
  };
  const int before = commits();
  ExpectCancelled("INSERT INTO target SELECT * FROM tc.default.endless",
                  Deadline(std::chrono::milliseconds(300)));
  ExpectCancelled("CREATE TABLE copied AS SELECT * FROM tc.default.endless",
                  Deadline(std::chrono::milliseconds(300)));
  EXPECT_EQ(commits(), before);
  EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT a, b FROM target"),
            std::vector<std::string>{"1,2"});
  auto copied = session_->Sql("SELECT * FROM copied");
  ASSERT_FALSE(copied.ok());
  EXPECT_EQ(ErrorCondition(copied.status()), "TABLE_OR_VIEW_NOT_FOUND");
}

// INSERT ... SELECT and CTAS hand the query's rows to write tasks as they are produced: over a
// scan that never ends, the first write task runs (and here fails for good) long before the
// deadline, which is what a write gathering the whole result first would run into. The failed
// write commits nothing, removes what its tasks wrote, and stops the scan.
TEST_F(CancellationTest, WritesStreamTheQueryIntoTheirTasks) {
  ASSERT_OK(session_->Sql("CREATE TABLE target (a INT, b INT)").status());
  ASSERT_OK(session_->Sql("SET parley.write.rowsPerTask=250").status());
  ASSERT_OK(session_->Sql("SET spark.task.maxFailures=1").status());
  ASSERT_OK(session_->Sql("SET parley.test.faultInjection=task.beforeCommit@1").status());
  auto options = Deadline(std::chrono::duration_cast<std::chrono::milliseconds>(kCancelWithin));
  for (const char* sql : {"INSERT INTO target SELECT * FROM tc.default.endless",
                          "CREATE TABLE copied AS SELECT a, b * 2 AS b FROM tc.default.endless "
                          "WHERE a % 2 = 0"}) {
    auto start = Clock::now();
    auto result = session_->Sql(sql, options);
    EXPECT_LT(Clock::now() - start, kCancelWithin / 2) << sql;
    ASSERT_FALSE(result.ok()) << sql;
    EXPECT_EQ(ErrorCondition(result.status()), "INJECTED_FAULT") << result.status().ToString();
    EXPECT_EQ(open_readers_->load(), 0) << sql;
  }
  ASSERT_OK(session_->Sql("SET parley.test.faultInjection=").status());
  EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT count(*) FROM target"),
            std::vector<std::string>{"0"});
  for (const auto& entry : fs::directory_iterator(dir_ / "warehouse" / "default" / "target")) {
    EXPECT_EQ(entry.path().filename(), "_delta_log") << "left behind: " << entry.path();
  }
  EXPECT_EQ(ErrorCondition(session_->Sql("SELECT * FROM copied").status()),
            "TABLE_OR_VIEW_NOT_FOUND");
}

// A streamed write that checks each batch as it arrives: a NULL for a NOT NULL column in a late
// batch fails the write, and nothing of the earlier tasks is committed.
TEST_F(CancellationTest, StreamedWriteChecksEveryBatch) {
  ASSERT_OK(session_->Sql("CREATE TABLE strict (a INT NOT NULL, b INT)").status());
  ASSERT_OK(session_->Sql("SET parley.write.rowsPerTask=100").status());
  auto result = session_->Sql(
      "INSERT INTO strict SELECT CASE WHEN a = 3900 THEN NULL ELSE a END, b FROM tc.default.rows");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(ErrorCondition(result.status()), "NOT_NULL_ASSERT_VIOLATION")
      << result.status().ToString();
  EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT count(*) FROM strict"),
            std::vector<std::string>{"0"});
  ASSERT_OK(session_->Sql("INSERT INTO strict SELECT a, b FROM tc.default.rows").status());
  EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT count(*), sum(a) FROM strict"),
            std::vector<std::string>{"4000,7998000"});
}

// SqlReader hands over a query's batches while its scan still runs: over a scan that never
// ends, the first batches arrive (the deadline, which would cancel a gathered result first,
// is far off) and closing the reader stops the scan.
TEST_F(CancellationTest, SqlReaderStreamsAndCloseStopsTheScan) {
  auto options = Deadline(std::chrono::duration_cast<std::chrono::milliseconds>(kCancelWithin));
  ASSERT_OK_AND_ASSIGN(
      auto reader, session_->SqlReader("SELECT a, b + 1 AS c FROM tc.default.endless", options));
  EXPECT_EQ(reader->schema()->ToString(), "a: int32\nc: int32");
  int64_t rows = 0;
  for (int i = 0; i < 50; ++i) {
    std::shared_ptr<arrow::RecordBatch> batch;
    ASSERT_OK(reader->ReadNext(&batch));
    ASSERT_NE(batch, nullptr);
    EXPECT_LE(batch->num_rows(), 100);
    rows += batch->num_rows();
  }
  EXPECT_GE(rows, 50);
  EXPECT_GT(open_readers_->load(), 0);
  ASSERT_OK(reader->Close());
  EXPECT_EQ(open_readers_->load(), 0);
  // The session runs the next statement while nothing of the closed one is left.
  EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT count(*) FROM tc.default.rows"),
            std::vector<std::string>{"4000"});
}

// The statement's stop token is checked at every batch the caller takes; once it has failed,
// the reader keeps reporting the cancellation.
TEST_F(CancellationTest, SqlReaderIsCancelledAtTheNextBatch) {
  arrow::StopSource source;
  StatementOptions options;
  options.stop_token = source.token();
  ASSERT_OK_AND_ASSIGN(auto reader,
                       session_->SqlReader("SELECT * FROM tc.default.endless", options));
  std::shared_ptr<arrow::RecordBatch> batch;
  ASSERT_OK(reader->ReadNext(&batch));
  ASSERT_NE(batch, nullptr);
  source.RequestStop();
  Status stopped = reader->ReadNext(&batch);
  EXPECT_EQ(ErrorCondition(stopped), "OPERATION_CANCELED") << stopped.ToString();
  EXPECT_EQ(batch, nullptr);
  EXPECT_EQ(ErrorCondition(reader->ReadNext(&batch)), "OPERATION_CANCELED");
  EXPECT_EQ(open_readers_->load(), 0);
}

// A runtime error of the query arrives on ReadNext; analysis errors and other statements'
// errors come from SqlReader itself, and other statements run to the end first.
TEST_F(CancellationTest, SqlReaderErrorsAndOtherStatements) {
  ASSERT_OK_AND_ASSIGN(auto failing,
                       session_->SqlReader("SELECT 1 / (a - 3999) FROM tc.default.rows"));
  Status status;
  std::shared_ptr<arrow::RecordBatch> batch;
  do {
    status = failing->ReadNext(&batch);
  } while (status.ok() && batch != nullptr);
  EXPECT_EQ(ErrorCondition(status), "DIVIDE_BY_ZERO") << status.ToString();
  auto missing = session_->SqlReader("SELECT nope FROM tc.default.rows");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(ErrorCondition(missing.status()), "UNRESOLVED_COLUMN.WITH_SUGGESTION");
  ASSERT_OK(session_->Sql("CREATE TABLE target (a INT, b INT)").status());
  ASSERT_OK_AND_ASSIGN(auto inserted,
                       session_->SqlReader("INSERT INTO target SELECT * FROM tc.default.rows"));
  ASSERT_OK(inserted->ToTable().status());
  EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT count(*), sum(a) FROM target"),
            std::vector<std::string>{"4000,7998000"});
  ASSERT_OK_AND_ASSIGN(
      auto ordered, session_->SqlReader("SELECT a FROM tc.default.rows ORDER BY a DESC LIMIT 2"));
  ASSERT_OK_AND_ASSIGN(auto top, ordered->ToTable());
  ASSERT_EQ(top->num_rows(), 2);
  ASSERT_OK_AND_ASSIGN(auto first, top->column(0)->GetScalar(0));
  ASSERT_OK_AND_ASSIGN(auto second, top->column(0)->GetScalar(1));
  EXPECT_EQ(first->ToString() + "," + second->ToString(), "3999,3998");
}

TEST_F(CancellationTest, ResultPastTheMemoryLimitFailsClearly) {
  ASSERT_OK(session_->Sql("SET parley.memory.limit=16m").status());
  // 4000 x ~571 rows per key: about 2.3 million rows of two columns each side.
  auto result = session_->Sql(
      "SELECT l.a, l.b, r.a, r.b FROM tc.default.rows l JOIN tc.default.rows r ON l.b = r.b");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(ErrorCondition(result.status()), "UNABLE_TO_ACQUIRE_MEMORY")
      << result.status().ToString();
  EXPECT_NE(result.status().message().find("parley.memory.limit"), std::string::npos);
  ASSERT_OK(session_->Sql("RESET parley.memory.limit").status());
  EXPECT_EQ(testing::SessionRows(session_.get(),
                                 "SELECT count(*) FROM tc.default.rows l JOIN tc.default.rows r "
                                 "ON l.b = r.b"),
            std::vector<std::string>{"2285716"});
}

TEST_F(CancellationTest, MemoryLimitSettingIsChecked) {
  for (const char* key : {"parley.memory.limit", "parley.write.bytesPerTask"}) {
    for (const char* bad : {"lots", "12q", "0%", "101%", "-1", "99999999999t"}) {
      auto result = session_->Sql(std::string("SET ") + key + "=" + bad);
      ASSERT_FALSE(result.ok()) << key << "=" << bad;
      EXPECT_EQ(ErrorCondition(result.status()), "INVALID_CONF_VALUE.TYPE_MISMATCH") << bad;
      EXPECT_NE(result.status().message().find(key), std::string::npos);
    }
  }
  // The limit counts all of the process's Arrow memory (what earlier tests cached too), so the
  // plain byte count is a generous one.
  for (const char* good : {"1g", "512MB", "805306368", "50%"}) {
    ASSERT_OK(session_->Sql(std::string("SET parley.memory.limit=") + good).status());
    EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT count(*) FROM tc.default.rows"),
              std::vector<std::string>{"4000"});
  }
}

}  // namespace
}  // namespace parley
