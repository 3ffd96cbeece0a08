// The cases of the write conformance kit (write_conformance.h).
#include "conformance/write_conformance.h"

#include <atomic>
#include <set>
#include <thread>

#include "arrow/array.h"
#include "arrow/array/builder_binary.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/table.h"
#include "exec/write_job.h"
#include "parley/connector/fault_injection.h"
#include "parley/connector/write.h"
#include "testing/gtest_util.h"
#include "testing/scan_harness.h"

namespace parley::conformance {
namespace {

enum class Mode { kAppend, kTruncate };

std::vector<Column> TestColumns() {
  return {Column{"id", arrow::int64(), true, "", std::nullopt},
          Column{"value", arrow::utf8(), true, "", std::nullopt}};
}

// Rows id = first .. first + count - 1, value = "v<id>".
std::shared_ptr<arrow::Table> Rows(int64_t first, int64_t count) {
  arrow::Int64Builder ids;
  arrow::StringBuilder values;
  for (int64_t id = first; id < first + count; ++id) {
    EXPECT_TRUE(ids.Append(id).ok());
    EXPECT_TRUE(values.Append("v" + std::to_string(id)).ok());
  }
  auto schema = ColumnsToSchema(TestColumns());
  return arrow::Table::Make(schema, {ids.Finish().ValueOrDie(), values.Finish().ValueOrDie()});
}

// Every id the table holds, in ascending order; duplicates are kept.
Result<std::multiset<int64_t>> ReadIds(WritableConnector* connector) {
  ARROW_ASSIGN_OR_RAISE(auto table, connector->Reload());
  auto* readable = dynamic_cast<SupportsRead*>(table.get());
  if (readable == nullptr) return Status::Invalid("the table is not readable");
  ARROW_ASSIGN_OR_RAISE(auto builder, readable->NewScanBuilder({}));
  ARROW_ASSIGN_OR_RAISE(auto scan, builder->Build());
  ARROW_ASSIGN_OR_RAISE(auto run, testing::RunScan(*scan));
  std::multiset<int64_t> ids;
  int index = run.rows->schema()->GetFieldIndex("id");
  for (const auto& chunk : run.rows->column(index)->chunks()) {
    const auto& array = static_cast<const arrow::Int64Array&>(*chunk);
    for (int64_t i = 0; i < array.length(); ++i) ids.insert(array.Value(i));
  }
  return ids;
}

std::multiset<int64_t> Range(int64_t first, int64_t count) {
  std::multiset<int64_t> ids;
  for (int64_t id = first; id < first + count; ++id) ids.insert(id);
  return ids;
}

std::multiset<int64_t> Union(std::multiset<int64_t> a, const std::multiset<int64_t>& b) {
  a.insert(b.begin(), b.end());
  return a;
}

Result<std::shared_ptr<Write>> BuildWrite(Table* table, Mode mode) {
  auto* writable = dynamic_cast<SupportsWrite*>(table);
  if (writable == nullptr) return Status::Invalid("the table is not writable");
  static std::atomic<int> counter{0};
  LogicalWriteInfo info{"conformance-" + std::to_string(counter++), table->schema(), {}};
  ARROW_ASSIGN_OR_RAISE(auto builder, writable->NewWriteBuilder(info));
  if (mode == Mode::kTruncate) {
    auto* truncate = dynamic_cast<SupportsTruncate*>(builder.get());
    if (truncate == nullptr) return Status::Invalid("the write builder cannot truncate");
    ARROW_RETURN_NOT_OK(truncate->Truncate());
  }
  return builder->Build();
}

// Write `rows` in `tasks` tasks through the engine's write job.
Result<WriteJobResult> RunWrite(Table* table, const std::shared_ptr<arrow::Table>& rows, int tasks,
                                Mode mode, WriteJobOptions options = {}) {
  options.round_trip = true;
  ARROW_ASSIGN_OR_RAISE(auto write, BuildWrite(table, mode));
  int64_t per_task = std::max<int64_t>(1, (rows->num_rows() + tasks - 1) / tasks);
  ARROW_ASSIGN_OR_RAISE(auto partitions, PartitionForWrite(rows, *write, per_task));
  return RunWriteJob(write.get(), partitions, options);
}

// Arms fault points for one test and disarms them when it ends.
class ScopedFaults {
 public:
  explicit ScopedFaults(const std::string& spec) { EXPECT_TRUE(SetFaultInjection(spec).ok()); }
  ~ScopedFaults() { EXPECT_TRUE(SetFaultInjection("").ok()); }
};

class Fixture {
 public:
  explicit Fixture(const WritableConnectorFactory& factory) : connector_(factory()) {
    auto table = connector_->CreateTable(TestColumns());
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    if (table.ok()) table_ = *table;
  }
  WritableConnector* connector() { return connector_.get(); }
  Table* table() { return table_.get(); }

 private:
  std::unique_ptr<WritableConnector> connector_;
  std::shared_ptr<Table> table_;
};

TEST_P(WriteConformanceTest, AppendsAccumulate) {
  Fixture fixture(GetParam());
  ASSERT_OK_AND_ASSIGN(auto first, RunWrite(fixture.table(), Rows(0, 100), 4, Mode::kAppend));
  EXPECT_EQ(first.rows, 100);
  EXPECT_EQ(first.partitions, 4);
  ASSERT_OK_AND_ASSIGN(auto after_first, ReadIds(fixture.connector()));
  EXPECT_EQ(after_first, Range(0, 100));
  ASSERT_OK(RunWrite(fixture.table(), Rows(100, 50), 3, Mode::kAppend).status());
  ASSERT_OK_AND_ASSIGN(auto after_second, ReadIds(fixture.connector()));
  EXPECT_EQ(after_second, Range(0, 150));
}

TEST_P(WriteConformanceTest, EmptyAppendChangesNothing) {
  Fixture fixture(GetParam());
  ASSERT_OK(RunWrite(fixture.table(), Rows(0, 10), 1, Mode::kAppend).status());
  ASSERT_OK(RunWrite(fixture.table(), Rows(0, 0), 1, Mode::kAppend).status());
  ASSERT_OK_AND_ASSIGN(auto ids, ReadIds(fixture.connector()));
  EXPECT_EQ(ids, Range(0, 10));
}

TEST_P(WriteConformanceTest, OverwriteReplacesRowsAtCommit) {
  Fixture fixture(GetParam());
  ASSERT_OK(RunWrite(fixture.table(), Rows(0, 100), 2, Mode::kAppend).status());
  ASSERT_OK(RunWrite(fixture.table(), Rows(1000, 30), 3, Mode::kTruncate).status());
  ASSERT_OK_AND_ASSIGN(auto ids, ReadIds(fixture.connector()));
  EXPECT_EQ(ids, Range(1000, 30));
}

TEST_P(WriteConformanceTest, FailedOverwriteKeepsOldRows) {
  Fixture fixture(GetParam());
  ASSERT_OK(RunWrite(fixture.table(), Rows(0, 100), 2, Mode::kAppend).status());
  {
    ScopedFaults faults(kFaultDriverBeforeCommit);
    ASSERT_RAISES_CONDITION("INJECTED_FAULT",
                            RunWrite(fixture.table(), Rows(1000, 30), 3, Mode::kTruncate));
  }
  ASSERT_OK_AND_ASSIGN(auto ids, ReadIds(fixture.connector()));
  EXPECT_EQ(ids, Range(0, 100));
}

TEST_P(WriteConformanceTest, TaskFailureAbortsTheWrite) {
  Fixture fixture(GetParam());
  ASSERT_OK(RunWrite(fixture.table(), Rows(0, 10), 1, Mode::kAppend).status());
  ScopedFaults faults(std::string(kFaultTaskBeforeCommit) + "@1");
  WriteJobOptions options;
  options.max_attempts = 2;
  ASSERT_RAISES_CONDITION("INJECTED_FAULT",
                          RunWrite(fixture.table(), Rows(100, 40), 4, Mode::kAppend, options));
  ASSERT_OK_AND_ASSIGN(auto ids, ReadIds(fixture.connector()));
  EXPECT_EQ(ids, Range(0, 10));
}

TEST_P(WriteConformanceTest, RetriedTasksWriteOnce) {
  Fixture fixture(GetParam());
  ScopedFaults faults(std::string(kFaultTaskBeforeWrite) + "@0#0," + kFaultTaskBeforeCommit +
                      "@2#0," + kFaultTaskBeforeCommit + "@2#1");
  ASSERT_OK_AND_ASSIGN(auto result, RunWrite(fixture.table(), Rows(0, 90), 3, Mode::kAppend));
  EXPECT_EQ(result.attempts, 6);  // three first attempts, one retry of 0, two of 2
  ASSERT_OK_AND_ASSIGN(auto ids, ReadIds(fixture.connector()));
  EXPECT_EQ(ids, Range(0, 90));
}

TEST_P(WriteConformanceTest, SpeculativeDuplicatesWriteOnce) {
  Fixture fixture(GetParam());
  WriteJobOptions options;
  options.duplicate_every_task = true;
  ASSERT_OK_AND_ASSIGN(auto result,
                       RunWrite(fixture.table(), Rows(0, 80), 4, Mode::kAppend, options));
  EXPECT_EQ(result.attempts, 8);
  EXPECT_EQ(result.denied, 4);
  ASSERT_OK_AND_ASSIGN(auto ids, ReadIds(fixture.connector()));
  EXPECT_EQ(ids, Range(0, 80));
}

TEST_P(WriteConformanceTest, AbortToleratesNullMessages) {
  Fixture fixture(GetParam());
  ASSERT_OK(RunWrite(fixture.table(), Rows(0, 5), 1, Mode::kAppend).status());
  ASSERT_OK_AND_ASSIGN(auto write, BuildWrite(fixture.table(), Mode::kAppend));
  ASSERT_OK_AND_ASSIGN(auto batch_write, write->ToBatch());
  ASSERT_OK_AND_ASSIGN(auto factory, batch_write->CreateBatchWriterFactory(PhysicalWriteInfo{3}));
  ASSERT_OK_AND_ASSIGN(auto writer, factory->CreateWriter(0, 0));
  ASSERT_OK_AND_ASSIGN(auto rows, Rows(100, 10)->CombineChunksToBatch());
  ASSERT_OK(writer->Write(*rows));
  ASSERT_OK_AND_ASSIGN(auto message, writer->Commit());
  ASSERT_OK(writer->Close());
  ASSERT_OK(batch_write->Abort({message, nullptr, nullptr}));
  ASSERT_OK_AND_ASSIGN(auto ids, ReadIds(fixture.connector()));
  EXPECT_EQ(ids, Range(0, 5));
}

TEST_P(WriteConformanceTest, ConcurrentReadersSeeOldOrNewRows) {
  Fixture fixture(GetParam());
  ASSERT_OK(RunWrite(fixture.table(), Rows(0, 500), 5, Mode::kAppend).status());
  const auto old_rows = Range(0, 500);
  const auto appended = Union(old_rows, Range(1000, 500));
  const auto replaced = Range(5000, 300);
  std::atomic<bool> writing{true};
  std::atomic<int> reads{0}, torn{0};
  std::string first_torn;
  const bool may_fail = fixture.connector()->ReadersMayFailDuringOverwrite();
  std::thread reader([&] {
    while (writing || reads == 0) {
      auto ids = ReadIds(fixture.connector());
      if (!ids.ok() && may_fail &&
          ErrorCondition(ids.status()) == "FAILED_READ_FILE.FILE_NOT_EXIST") {
        continue;
      }
      ++reads;
      if (!ids.ok() || (*ids != old_rows && *ids != appended && *ids != replaced)) {
        if (torn++ == 0) {
          first_torn = ids.ok() ? std::to_string(ids->size()) + " rows" : ids.status().ToString();
        }
      }
    }
  });
  auto appended_ok = RunWrite(fixture.table(), Rows(1000, 500), 25, Mode::kAppend);
  // After the append the only legal states are the appended rows, then the replacement.
  auto replaced_ok = RunWrite(fixture.table(), Rows(5000, 300), 15, Mode::kTruncate);
  writing = false;
  reader.join();
  ASSERT_OK(appended_ok.status());
  ASSERT_OK(replaced_ok.status());
  EXPECT_GT(reads.load(), 0);
  EXPECT_EQ(torn.load(), 0) << "a reader saw " << first_torn;
  ASSERT_OK_AND_ASSIGN(auto ids, ReadIds(fixture.connector()));
  EXPECT_EQ(ids, replaced);
}

}  // namespace
}  // namespace parley::conformance
