// The write job's protocol as a connector sees it, recorded by a fake connector: the order of
// calls, the coordinator, retries, speculation, aborts with null messages, serialization checks;
// and the layouts PartitionForWrite gives a write that requires one.
#include "exec/write_job.h"

#include <chrono>
#include <mutex>
#include <thread>

#include "arrow/array.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/record_batch.h"
#include "arrow/table.h"
#include "gtest/gtest.h"
#include "parley/connector/fault_injection.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

// What the fake connector saw, in order.
struct Journal {
  std::mutex mutex;
  std::vector<std::string> events;
  std::vector<CommitMessagePtr> committed;
  std::vector<CommitMessagePtr> aborted;
  void Add(std::string event) {
    std::lock_guard<std::mutex> lock(mutex);
    events.push_back(std::move(event));
  }
  int Count(const std::string& event) {
    std::lock_guard<std::mutex> lock(mutex);
    return static_cast<int>(std::count(events.begin(), events.end(), event));
  }
};

struct FakeOptions {
  bool use_coordinator = true;
  int write_failures_of_partition0 = 0;  // attempts of partition 0 that fail in Write
  int slow_partition = -1;               // this partition's first attempt sleeps
  bool fail_on_data_writer_commit = false;
  bool fail_commit = false;
  bool corrupt_message_bytes = false;
};

class FakeMessage : public WriterCommitMessage {
 public:
  FakeMessage(int partition, int64_t task, int64_t rows, bool corrupt = false)
      : partition(partition), task(task), rows(rows), corrupt(corrupt) {}
  Result<std::string> Serialize() const override {
    return std::to_string(partition) + ":" + std::to_string(task) + ":" + std::to_string(rows) +
           (corrupt ? ":x" : "");
  }
  int partition;
  int64_t task;
  int64_t rows;
  bool corrupt;
};

class FakeWriter : public DataWriter {
 public:
  FakeWriter(Journal* journal, const FakeOptions& options, int partition, int64_t task,
             bool fail_write, bool slow)
      : journal_(journal),
        options_(options),
        partition_(partition),
        task_(task),
        fail_write_(fail_write),
        slow_(slow) {}
  Status Write(const arrow::RecordBatch& batch) override {
    if (slow_) std::this_thread::sleep_for(std::chrono::milliseconds(400));
    if (fail_write_) return Status::IOError("disk full");
    rows_ += batch.num_rows();
    return Status::OK();
  }
  Result<CommitMessagePtr> Commit() override {
    journal_->Add("task-commit " + std::to_string(partition_));
    return std::make_shared<FakeMessage>(partition_, task_, rows_, options_.corrupt_message_bytes);
  }
  Status Abort() override {
    journal_->Add("task-abort " + std::to_string(partition_));
    return Status::OK();
  }
  Status Close() override {
    journal_->Add("close");
    return Status::OK();
  }
  std::vector<CustomTaskMetric> CurrentMetricsValues() const override {
    return {{"rowsSeen", rows_}};
  }

 private:
  Journal* journal_;
  FakeOptions options_;
  int partition_;
  int64_t task_;
  bool fail_write_, slow_;
  int64_t rows_ = 0;
};

class FakeFactory : public DataWriterFactory {
 public:
  FakeFactory(Journal* journal, FakeOptions options) : journal_(journal), options_(options) {}
  Result<std::unique_ptr<DataWriter>> CreateWriter(int partition, int64_t task) override {
    int attempt;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      attempt = attempts_[partition]++;
    }
    bool fail = partition == 0 && attempt < options_.write_failures_of_partition0;
    bool slow = partition == options_.slow_partition && attempt == 0;
    return std::make_unique<FakeWriter>(journal_, options_, partition, task, fail, slow);
  }
  Result<std::string> Serialize() const override { return "fake-factory"; }

 private:
  Journal* journal_;
  FakeOptions options_;
  std::mutex mutex_;
  std::map<int, int> attempts_;
};

class FakeBatchWrite : public BatchWrite {
 public:
  FakeBatchWrite(Journal* journal, FakeOptions options)
      : journal_(journal),
        options_(options),
        factory_(std::make_shared<FakeFactory>(journal, options)) {}
  Result<std::shared_ptr<DataWriterFactory>> CreateBatchWriterFactory(
      const PhysicalWriteInfo& info) override {
    journal_->Add("factory " + std::to_string(info.num_partitions));
    return factory_;
  }
  Result<std::shared_ptr<DataWriterFactory>> DeserializeWriterFactory(
      std::string_view bytes) const override {
    if (bytes != "fake-factory") return Status::Invalid("bad factory bytes");
    return factory_;
  }
  Result<CommitMessagePtr> DeserializeCommitMessage(std::string_view bytes) const override {
    int partition = 0;
    long long task = 0, rows = 0;
    if (std::sscanf(std::string(bytes).c_str(), "%d:%lld:%lld", &partition, &task, &rows) != 3) {
      return Status::Invalid("bad message");
    }
    return std::make_shared<FakeMessage>(partition, task, rows);
  }
  bool UseCommitCoordinator() const override { return options_.use_coordinator; }
  Status OnDataWriterCommit(const CommitMessagePtr&) override {
    journal_->Add("on-commit");
    return options_.fail_on_data_writer_commit ? Status::Invalid("rejected") : Status::OK();
  }
  Status Commit(const std::vector<CommitMessagePtr>& messages) override {
    journal_->Add("commit");
    journal_->committed = messages;
    return options_.fail_commit ? Status::IOError("commit failed") : Status::OK();
  }
  Status Abort(const std::vector<CommitMessagePtr>& messages) override {
    journal_->Add("abort");
    journal_->aborted = messages;
    return Status::OK();
  }

 private:
  Journal* journal_;
  FakeOptions options_;
  std::shared_ptr<FakeFactory> factory_;
};

class FakeWrite : public Write {
 public:
  FakeWrite(Journal* journal, FakeOptions options) : journal_(journal), options_(options) {}
  std::string description() const override { return "fake"; }
  Result<std::shared_ptr<BatchWrite>> ToBatch() override {
    return std::make_shared<FakeBatchWrite>(journal_, options_);
  }
  std::vector<std::shared_ptr<CustomMetric>> SupportedCustomMetrics() const override {
    return {std::make_shared<CustomSumMetric>("rowsSeen", "rows seen")};
  }

 private:
  Journal* journal_;
  FakeOptions options_;
};

// A table with columns k (int64) and v (int64): k = i % keys, v = i, for i in [0, rows).
std::shared_ptr<arrow::Table> MakeData(int64_t rows, int64_t keys) {
  arrow::Int64Builder k, v;
  for (int64_t i = 0; i < rows; ++i) {
    EXPECT_TRUE(k.Append(i % keys).ok());
    EXPECT_TRUE(v.Append(i).ok());
  }
  auto schema =
      arrow::schema({arrow::field("k", arrow::int64()), arrow::field("v", arrow::int64())});
  return arrow::Table::Make(schema, {k.Finish().ValueOrDie(), v.Finish().ValueOrDie()});
}

Result<WriteJobResult> RunFake(Journal* journal, FakeOptions fake, WriteJobOptions options,
                               int64_t rows = 40, int64_t rows_per_task = 10) {
  FakeWrite write(journal, fake);
  ARROW_ASSIGN_OR_RAISE(auto partitions,
                        PartitionForWrite(MakeData(rows, 4), write, rows_per_task));
  options.round_trip = true;
  return RunWriteJob(&write, partitions, options);
}

int64_t RowsIn(const std::vector<CommitMessagePtr>& messages) {
  int64_t rows = 0;
  for (const auto& message : messages) {
    if (message) rows += static_cast<const FakeMessage&>(*message).rows;
  }
  return rows;
}

TEST(WriteJobTest, CommitsOnceWithOneMessagePerPartition) {
  Journal journal;
  ASSERT_OK_AND_ASSIGN(auto result, RunFake(&journal, {}, {}));
  EXPECT_EQ(result.partitions, 4);
  EXPECT_EQ(result.rows, 40);
  EXPECT_EQ(journal.Count("factory 4"), 1);
  EXPECT_EQ(journal.Count("on-commit"), 4);
  EXPECT_EQ(journal.Count("commit"), 1);
  EXPECT_EQ(journal.Count("abort"), 0);
  EXPECT_EQ(journal.Count("close"), 4);
  ASSERT_EQ(journal.committed.size(), 4u);
  for (int p = 0; p < 4; ++p) {
    EXPECT_EQ(static_cast<const FakeMessage&>(*journal.committed[p]).partition, p);
  }
  EXPECT_EQ(RowsIn(journal.committed), 40);
  ASSERT_EQ(result.custom_metrics.size(), 1u);
  EXPECT_EQ(result.custom_metrics[0].second, "40");
}

TEST(WriteJobTest, RetriesAFailedTaskWithANewTaskId) {
  Journal journal;
  FakeOptions fake;
  fake.write_failures_of_partition0 = 2;
  ASSERT_OK_AND_ASSIGN(auto result, RunFake(&journal, fake, {}));
  EXPECT_EQ(result.attempts, 6);
  EXPECT_EQ(journal.Count("task-abort 0"), 2);
  EXPECT_EQ(journal.Count("commit"), 1);
  EXPECT_EQ(RowsIn(journal.committed), 40);
  auto first = static_cast<const FakeMessage&>(*journal.committed[0]).task;
  EXPECT_GE(first, 4);  // tasks 0..3 were the first attempts
}

TEST(WriteJobTest, AbortsWithNullsWhenAPartitionFailsForGood) {
  Journal journal;
  FakeOptions fake;
  fake.write_failures_of_partition0 = 10;
  WriteJobOptions options;
  options.max_attempts = 3;
  auto result = RunFake(&journal, fake, options);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("disk full"), std::string::npos);
  EXPECT_EQ(journal.Count("commit"), 0);
  EXPECT_EQ(journal.Count("abort"), 1);
  ASSERT_EQ(journal.aborted.size(), 4u);
  EXPECT_EQ(journal.aborted[0], nullptr);
  EXPECT_EQ(journal.Count("task-abort 0"), 3);
}

TEST(WriteJobTest, FailedDriverCommitIsAborted) {
  Journal journal;
  FakeOptions fake;
  fake.fail_commit = true;
  auto result = RunFake(&journal, fake, {});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(journal.Count("commit"), 1);
  EXPECT_EQ(journal.Count("abort"), 1);
  EXPECT_EQ(RowsIn(journal.aborted), 40);
}

TEST(WriteJobTest, RejectedMessageAbortsTheWrite) {
  Journal journal;
  FakeOptions fake;
  fake.fail_on_data_writer_commit = true;
  ASSERT_FALSE(RunFake(&journal, fake, {}).ok());
  EXPECT_EQ(journal.Count("commit"), 0);
  EXPECT_EQ(journal.Count("abort"), 1);
}

TEST(WriteJobTest, CoordinatorLetsOneDuplicateCommit) {
  Journal journal;
  WriteJobOptions options;
  options.duplicate_every_task = true;
  ASSERT_OK_AND_ASSIGN(auto result, RunFake(&journal, {}, options));
  EXPECT_EQ(result.attempts, 8);
  EXPECT_EQ(result.denied, 4);
  EXPECT_EQ(journal.Count("on-commit"), 4);
  EXPECT_EQ(RowsIn(journal.committed), 40);
}

TEST(WriteJobTest, WithoutCoordinatorTheFirstMessageWins) {
  Journal journal;
  FakeOptions fake;
  fake.use_coordinator = false;
  WriteJobOptions options;
  options.duplicate_every_task = true;
  ASSERT_OK_AND_ASSIGN(auto result, RunFake(&journal, fake, options));
  EXPECT_EQ(result.denied, 0);
  EXPECT_EQ(journal.Count("task-commit 0"), 2);
  EXPECT_EQ(journal.Count("on-commit"), 4);
  EXPECT_EQ(RowsIn(journal.committed), 40);
}

TEST(WriteJobTest, SpeculatesASlowTask) {
  Journal journal;
  FakeOptions fake;
  fake.slow_partition = 3;
  WriteJobOptions options;
  options.speculation = true;
  options.speculation_min_ms = 50;
  ASSERT_OK_AND_ASSIGN(auto result, RunFake(&journal, fake, options));
  EXPECT_EQ(result.attempts, 5);
  EXPECT_EQ(journal.Count("commit"), 1);
  EXPECT_EQ(RowsIn(journal.committed), 40);
}

TEST(WriteJobTest, FaultPointsFailTheNamedAttempt) {
  Journal journal;
  ASSERT_OK(SetFaultInjection(std::string(kFaultTaskBeforeCommit) + "@2#0"));
  auto result = RunFake(&journal, {}, {});
  ASSERT_OK(SetFaultInjection(""));
  ASSERT_OK(result.status());
  EXPECT_EQ(result->attempts, 5);
  EXPECT_EQ(journal.Count("task-abort 2"), 1);
  ASSERT_RAISES_CONDITION("INVALID_CONF_VALUE", SetFaultInjection("task.beforeWrite@x"));
}

TEST(WriteJobTest, MessageThatDoesNotRoundTripFailsTheTask) {
  Journal journal;
  FakeOptions fake;
  fake.corrupt_message_bytes = true;
  WriteJobOptions options;
  options.max_attempts = 1;
  ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
                          RunFake(&journal, fake, options));
  EXPECT_EQ(journal.Count("abort"), 1);
}

// ---- Layouts

class LayoutWrite : public FakeWrite, public RequiresDistributionAndOrdering {
 public:
  LayoutWrite(Journal* journal, Distribution distribution, int partitions,
              std::vector<std::shared_ptr<SortOrder>> ordering)
      : FakeWrite(journal, {}),
        distribution_(std::move(distribution)),
        partitions_(partitions),
        ordering_(std::move(ordering)) {}
  Distribution RequiredDistribution() const override { return distribution_; }
  int RequiredNumPartitions() const override { return partitions_; }
  std::vector<std::shared_ptr<SortOrder>> RequiredOrdering() const override { return ordering_; }

 private:
  Distribution distribution_;
  int partitions_;
  std::vector<std::shared_ptr<SortOrder>> ordering_;
};

std::vector<int64_t> Column(const std::vector<std::shared_ptr<arrow::RecordBatch>>& batches,
                            int index) {
  std::vector<int64_t> values;
  for (const auto& batch : batches) {
    const auto& array = static_cast<const arrow::Int64Array&>(*batch->column(index));
    for (int64_t i = 0; i < array.length(); ++i) values.push_back(array.Value(i));
  }
  return values;
}

TEST(PartitionForWriteTest, ClusteredKeysStayTogetherAndSortedWithinTasks) {
  Journal journal;
  auto descending_v = std::make_shared<SortOrder>(FieldReference("v"), SortDirection::kDescending,
                                                  NullOrdering::kNullsLast);
  LayoutWrite write(&journal, Distribution::Clustered({FieldReference("k")}), 3, {descending_v});
  ASSERT_OK_AND_ASSIGN(auto partitions, PartitionForWrite(MakeData(100, 7), write, 1000));
  ASSERT_EQ(partitions.size(), 3u);
  std::map<int64_t, size_t> partition_of_key;
  int64_t rows = 0;
  for (size_t p = 0; p < partitions.size(); ++p) {
    auto keys = Column(partitions[p], 0);
    auto values = Column(partitions[p], 1);
    rows += static_cast<int64_t>(values.size());
    EXPECT_TRUE(std::is_sorted(values.rbegin(), values.rend()));
    for (int64_t key : keys) {
      auto [it, inserted] = partition_of_key.emplace(key, p);
      EXPECT_EQ(it->second, p) << "key " << key << " in two tasks";
    }
  }
  EXPECT_EQ(rows, 100);
  EXPECT_EQ(partition_of_key.size(), 7u);
}

TEST(PartitionForWriteTest, OrderedDistributionGivesOrderedRanges) {
  Journal journal;
  auto by_k = std::make_shared<SortOrder>(FieldReference("k"), SortDirection::kAscending,
                                          NullOrdering::kNullsFirst);
  LayoutWrite write(&journal, Distribution::Ordered({by_k}), 4, {});
  ASSERT_OK_AND_ASSIGN(auto partitions, PartitionForWrite(MakeData(100, 10), write, 1000));
  ASSERT_EQ(partitions.size(), 4u);
  std::vector<int64_t> all;
  for (const auto& partition : partitions) {
    auto keys = Column(partition, 0);
    all.insert(all.end(), keys.begin(), keys.end());
  }
  EXPECT_EQ(all.size(), 100u);
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
}

TEST(PartitionForWriteTest, LayoutByAnExpressionIsRejected) {
  Journal journal;
  auto bucket =
      std::make_shared<Transform>("bucket", std::vector<ExpressionPtr>{FieldReference("k")});
  LayoutWrite write(&journal, Distribution::Clustered({bucket}), 2, {});
  ASSERT_RAISES_CONDITION("UNSUPPORTED_FEATURE.WRITE_DISTRIBUTION",
                          PartitionForWrite(MakeData(10, 2), write, 1000));
}

TEST(PartitionForWriteTest, WithoutRequirementsTasksHoldAtMostRowsPerTask) {
  Journal journal;
  FakeWrite write(&journal, {});
  ASSERT_OK_AND_ASSIGN(auto partitions, PartitionForWrite(MakeData(25, 3), write, 10));
  ASSERT_EQ(partitions.size(), 3u);
  ASSERT_OK_AND_ASSIGN(auto empty, PartitionForWrite(MakeData(0, 3), write, 10));
  EXPECT_EQ(empty.size(), 1u);
}

}  // namespace
}  // namespace parley
