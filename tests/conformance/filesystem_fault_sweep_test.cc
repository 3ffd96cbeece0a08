// The filesystem fault sweep: every write kind is run once to count its filesystem operations,
// then again from the same starting warehouse with each operation n = 1..N made to fail, to
// write half its bytes, or to stop the filesystem there (a crash: nothing after n reaches
// storage). After each run a fresh session (a restart) must read the table either as before
// the write or as after it, never in between; a write that reported success must be visible
// (nothing committed is lost); and when the table reads as before, running the write again
// succeeds and gives the after state.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "parley/connector/filesystem.h"
#include "parley/connector/status.h"
#include "parley/session.h"
#include "testing/query_harness.h"

namespace parley {
namespace {

namespace fs = std::filesystem;

struct WriteCase {
  const char* name;
  // Statements that build the starting warehouse.
  std::vector<std::string> setup;
  // The write swept.
  std::string write;
  // The query whose rows are the table's state (ORDER BY for a stable order).
  std::string read;
  // Whether the write changes those rows (VACUUM does not: there every run must read them).
  bool changes_rows = true;
};

// Delta tables checkpoint on every commit, so each commit also runs the checkpoint writer.
const char kDeltaTable[] =
    "CREATE TABLE t (id INT, v STRING) USING delta TBLPROPERTIES "
    "('delta.checkpointInterval' = '1', 'delta.enableChangeDataFeed' = 'true')";
const char kDeltaRows[] = "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')";
const char kReadT[] = "SELECT id, v FROM t ORDER BY id, v";

const WriteCase kWriteCases[] = {
    {"delta_insert", {kDeltaTable, kDeltaRows}, "INSERT INTO t VALUES (4, 'd'), (5, 'e')", kReadT},
    {"delta_insert_overwrite",
     {kDeltaTable, kDeltaRows},
     "INSERT OVERWRITE t VALUES (9, 'z')",
     kReadT},
    {"delta_delete", {kDeltaTable, kDeltaRows}, "DELETE FROM t WHERE id = 2", kReadT},
    {"delta_update", {kDeltaTable, kDeltaRows}, "UPDATE t SET v = 'B' WHERE id = 2", kReadT},
    {"delta_merge",
     {kDeltaTable, kDeltaRows},
     "MERGE INTO t USING (VALUES (2, 'B'), (7, 'g')) AS s(id, v) ON t.id = s.id "
     "WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT *",
     kReadT},
    {"delta_truncate", {kDeltaTable, kDeltaRows}, "TRUNCATE TABLE t", kReadT},
    {"delta_add_column",
     {kDeltaTable, kDeltaRows},
     "ALTER TABLE t ADD COLUMN w INT",
     "SELECT * FROM t ORDER BY id"},
    {"delta_ctas",
     {kDeltaTable, kDeltaRows},
     "CREATE TABLE c USING delta AS SELECT id * 10 AS id, v FROM t",
     "SELECT id, v FROM c ORDER BY id"},
    {"delta_rtas",
     {kDeltaTable, kDeltaRows},
     "CREATE OR REPLACE TABLE t USING delta AS SELECT id + 100 AS id, v FROM t",
     kReadT},
    {"delta_vacuum",
     {kDeltaTable, kDeltaRows, "DELETE FROM t WHERE id = 1"},
     "VACUUM t RETAIN 0 HOURS",
     kReadT,
     /*changes_rows=*/false},
    {"files_insert",
     {"INSERT INTO parquet.`$W/p` VALUES (1, 'a'), (2, 'b') AS r(id, v)"},
     "INSERT INTO parquet.`$W/p` VALUES (3, 'c') AS r(id, v)",
     "SELECT id, v FROM parquet.`$W/p` ORDER BY id"},
    {"files_insert_overwrite",
     {"INSERT INTO parquet.`$W/p` VALUES (1, 'a'), (2, 'b') AS r(id, v)"},
     "INSERT OVERWRITE parquet.`$W/p` VALUES (3, 'c') AS r(id, v)",
     "SELECT id, v FROM parquet.`$W/p` ORDER BY id"},
    {"files_csv_insert",
     {"INSERT INTO csv.`$W/c` VALUES (1, 'a') AS r(id, v)"},
     "INSERT INTO csv.`$W/c` VALUES (2, 'b'), (3, 'c') AS r(id, v)",
     "SELECT _c0, _c1 FROM csv.`$W/c` ORDER BY _c0"},
};

std::string Substitute(std::string text, const fs::path& warehouse) {
  for (size_t at; (at = text.find("$W")) != std::string::npos;) {
    text.replace(at, 2, warehouse.string());
  }
  return text;
}

const char* FaultName(FileSystemFault fault) {
  switch (fault) {
    case FileSystemFault::kFail: return "fail";
    case FileSystemFault::kShortWrite: return "short";
    case FileSystemFault::kStop: return "stop";
    case FileSystemFault::kKill: return "kill";
  }
  return "?";
}

class FileSystemFaultSweepTest : public ::testing::TestWithParam<WriteCase> {
 protected:
  void SetUp() override {
    ResetFileSystemFaults();
    // In memory where the machine has it: the sweep runs each write hundreds of times, and
    // what it checks is the protocol's logic, not the disk's fsync.
    const fs::path shm = "/dev/shm";
    const fs::path base = fs::is_directory(shm) ? shm : fs::temp_directory_path();
    root_ = base / ("parley-fs-sweep-" + std::to_string(getpid()) + "-" + GetParam().name);
    fs::remove_all(root_);
    start_ = root_ / "start";
    work_ = root_ / "work";
    fs::create_directories(start_);
    auto session = Open(start_);
    ASSERT_NE(session, nullptr);
    for (const std::string& statement : GetParam().setup) {
      auto status = session->Sql(Substitute(statement, start_)).status();
      ASSERT_TRUE(status.ok()) << statement << ": " << status.ToString();
    }
  }
  void TearDown() override {
    ResetFileSystemFaults();
    fs::remove_all(root_);
  }

  static std::shared_ptr<Session> Open(const fs::path& warehouse) {
    SessionOptions options;
    options.warehouse = warehouse.string();
    options.conf["spark.sql.catalog.spark_catalog"] = "delta";
    options.conf["spark.databricks.delta.retentionDurationCheck.enabled"] = "false";
    auto session = Session::Make(options);
    EXPECT_TRUE(session.ok()) << session.status().ToString();
    return session.ok() ? *session : nullptr;
  }

  // A fresh working copy of the starting warehouse, at the same path every time (so that
  // absolute paths written into tables stay valid).
  void ResetWork() {
    fs::remove_all(work_);
    fs::copy(start_, work_, fs::copy_options::recursive);
  }

  // The state of the working table as a fresh session reads it: its rows, or the error.
  std::vector<std::string> ReadState() {
    auto session = Open(work_);
    if (session == nullptr) return {"no session"};
    auto result = session->Sql(Substitute(GetParam().read, work_));
    if (!result.ok()) return {"error " + ErrorCondition(result.status())};
    auto rows = testing::OrderedRows(**result);
    if (!rows.ok()) return {"error " + rows.status().ToString()};
    return *rows;
  }

  Status RunWrite(Session* session) {
    return session->Sql(Substitute(GetParam().write, work_)).status();
  }

  fs::path root_, start_, work_;
};

TEST_P(FileSystemFaultSweepTest, EveryOperationLeavesTheTableBeforeOrAfter) {
  const WriteCase& write_case = GetParam();
  ResetWork();
  const std::vector<std::string> before = ReadState();
  int64_t operations = 0;
  {
    auto session = Open(work_);
    ASSERT_NE(session, nullptr);
    ResetFileSystemFaults();
    Status status = RunWrite(session.get());
    operations = FileSystemOperationCount();
    ASSERT_TRUE(status.ok()) << status.ToString();
  }
  const std::vector<std::string> after = ReadState();
  if (write_case.changes_rows) {
    ASSERT_NE(before, after) << "the write changes nothing the read can see";
  } else {
    ASSERT_EQ(before, after);
  }
  ASSERT_GT(operations, 0);

  int runs = 0, failed = 0, failed_after = 0;
  for (FileSystemFault fault :
       {FileSystemFault::kFail, FileSystemFault::kShortWrite, FileSystemFault::kStop}) {
    for (int64_t n = 1; n <= operations; ++n) {
      SCOPED_TRACE(std::string(FaultName(fault)) + " at operation " + std::to_string(n) + " of " +
                   std::to_string(operations));
      ResetWork();
      Status status;
      {
        auto session = Open(work_);
        ASSERT_NE(session, nullptr);
        ArmFileSystemFault(n, fault);
        status = RunWrite(session.get());
        ResetFileSystemFaults();
      }
      ++runs;
      const std::vector<std::string> state = ReadState();
      if (status.ok()) {
        ASSERT_EQ(state, after) << "a write that reported success is not all there";
        continue;
      }
      ++failed;
      ASSERT_TRUE(state == before || state == after)
          << "torn table after " << status.ToString()
          << "\nread: " << ::testing::PrintToString(state);
      if (state != before) {
        ++failed_after;
        continue;
      }
      auto session = Open(work_);
      ASSERT_NE(session, nullptr);
      Status retry = RunWrite(session.get());
      ASSERT_TRUE(retry.ok()) << "the retry failed: " << retry.ToString() << "\nafter "
                              << status.ToString();
      ASSERT_EQ(ReadState(), after) << "the retry after " << status.ToString();
    }
  }
  RecordProperty("operations", static_cast<int>(operations));
  std::printf(
      "[ sweep    ] %s: %lld operations, %d faulted runs, %d failed (%d of them "
      "after the commit), 0 torn, 0 lost\n",
      write_case.name, static_cast<long long>(operations), runs, failed, failed_after);
}

INSTANTIATE_TEST_SUITE_P(WriteKinds, FileSystemFaultSweepTest, ::testing::ValuesIn(kWriteCases),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace parley
