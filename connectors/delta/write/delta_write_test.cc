// The Delta write path through the catalog and the DSV2 write API: commits, optimistic
// concurrency between two writers that read the same version, idempotent txn writes,
// checkpoints, history, VACUUM and the stats written with each file.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <thread>

#include "arrow/api.h"
#include "arrow/filesystem/localfs.h"
#include "arrow/json/from_string.h"
#include "connectors/delta/commands/delta_commands.h"
#include "connectors/delta/delta_catalog.h"

#include "connectors/delta/delta_table.h"
#include "connectors/delta/log/delta_log.h"

#include "connectors/delta/changes/changelog.h"
#include "connectors/delta/log/row_tracking.h"
#include "connectors/delta/log/transaction.h"
#include "connectors/delta/table_state.h"
#include "connectors/delta/write/change_data.h"
#include "parley/connector/write.h"
#include "testing/gtest_util.h"
#include "testing/scan_harness.h"

namespace parley::delta {
namespace {

namespace fs = std::filesystem;

class DeltaWriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device random;
    warehouse_ = fs::temp_directory_path() / ("parley-delta-write-" + std::to_string(random()));
    auto plugin = MakeDeltaCatalog();
    ASSERT_OK(plugin->Initialize("spark_catalog", {{"warehouse", warehouse_.string()}}));
    catalog_ = std::dynamic_pointer_cast<TableCatalog>(plugin);
  }
  void TearDown() override { fs::remove_all(warehouse_); }

  void Create(const std::string& properties_key = "", const std::string& value = "",
              bool partitioned = false) {
    TableInfo info;
    info.columns = {{"id", arrow::int32(), true, "", std::nullopt},
                    {"p", arrow::utf8(), true, "", std::nullopt}};
    if (partitioned) {
      info.partitioning = {
          std::make_shared<Transform>("identity", std::vector<ExpressionPtr>{FieldReference("p")})};
    }
    if (!properties_key.empty()) info.properties[properties_key] = value;
    ASSERT_OK(catalog_->CreateTable(kIdent, info).status());
  }

  std::shared_ptr<Table> Load() { return catalog_->LoadTable(kIdent).ValueOrDie(); }

  static std::shared_ptr<arrow::RecordBatch> Rows(const std::string& json) {
    auto schema =
        arrow::schema({arrow::field("id", arrow::int32()), arrow::field("p", arrow::utf8())});
    auto rows =
        arrow::json::ArrayFromJSONString(arrow::struct_(schema->fields()), json).ValueOrDie();
    return arrow::RecordBatch::FromStructArray(rows).ValueOrDie();
  }

  // A write of `rows` up to (not including) BatchWrite::Commit: its tasks have committed.
  struct PendingWrite {
    std::shared_ptr<BatchWrite> batch_write;
    CommitMessagePtr message;
    Status Commit() const { return batch_write->Commit({message}); }
  };

  static Result<PendingWrite> Prepare(Table& table, const std::shared_ptr<arrow::RecordBatch>& rows,
                                      const std::function<Status(WriteBuilder&)>& mode = nullptr,
                                      Options options = {}) {
    auto* writable = dynamic_cast<SupportsWrite*>(&table);
    if (writable == nullptr) return Status::Invalid("not writable");
    LogicalWriteInfo info{"query", rows->schema(), std::move(options)};
    ARROW_ASSIGN_OR_RAISE(auto builder, writable->NewWriteBuilder(info));
    if (mode) ARROW_RETURN_NOT_OK(mode(*builder));
    ARROW_ASSIGN_OR_RAISE(auto write, builder->Build());
    PendingWrite pending;
    ARROW_ASSIGN_OR_RAISE(pending.batch_write, write->ToBatch());
    ARROW_ASSIGN_OR_RAISE(auto factory, pending.batch_write->CreateBatchWriterFactory({1}));
    ARROW_ASSIGN_OR_RAISE(auto bytes, factory->Serialize());
    ARROW_ASSIGN_OR_RAISE(auto task_factory, pending.batch_write->DeserializeWriterFactory(bytes));
    ARROW_ASSIGN_OR_RAISE(auto writer, task_factory->CreateWriter(0, 0));
    ARROW_RETURN_NOT_OK(writer->Write(*rows));
    ARROW_ASSIGN_OR_RAISE(auto message, writer->Commit());
    ARROW_RETURN_NOT_OK(writer->Close());
    ARROW_ASSIGN_OR_RAISE(auto message_bytes, message->Serialize());
    ARROW_ASSIGN_OR_RAISE(pending.message,
                          pending.batch_write->DeserializeCommitMessage(message_bytes));
    return pending;
  }

  // One write of `rows` through the whole protocol; `mode` configures the builder.
  static Status Write(Table& table, const std::shared_ptr<arrow::RecordBatch>& rows,
                      const std::function<Status(WriteBuilder&)>& mode = nullptr,
                      Options options = {}) {
    ARROW_ASSIGN_OR_RAISE(auto pending, Prepare(table, rows, mode, std::move(options)));
    return pending.Commit();
  }

  static Status Truncate(WriteBuilder& builder) {
    return dynamic_cast<SupportsTruncate&>(builder).Truncate();
  }

  static Status OverwritePartition(WriteBuilder& builder, const std::string& value) {
    auto predicate = MakePredicate(
        "=", {FieldReference("p"), MakeLiteral(std::make_shared<arrow::StringScalar>(value))});
    return dynamic_cast<SupportsOverwriteV2&>(builder).Overwrite({predicate});
  }

  std::multiset<std::string> Read(Table& table) {
    auto builder = dynamic_cast<SupportsRead&>(table).NewScanBuilder({}).ValueOrDie();
    auto scan = builder->Build().ValueOrDie();
    auto run = testing::RunScan(*scan).ValueOrDie();
    std::multiset<std::string> out;
    for (int64_t row = 0; row < run.rows->num_rows(); ++row) {
      out.insert(run.rows->column(0)->GetScalar(row).ValueOrDie()->ToString() + ":" +
                 run.rows->column(1)->GetScalar(row).ValueOrDie()->ToString());
    }
    return out;
  }

  int64_t Version() {
    auto filesystem = std::make_shared<arrow::fs::LocalFileSystem>();
    return LoadSnapshot(filesystem, (warehouse_ / "default" / "t").string()).ValueOrDie()->version;
  }

  inline static const Identifier kIdent{{"default"}, "t"};
  fs::path warehouse_;
  std::shared_ptr<TableCatalog> catalog_;
};

TEST_F(DeltaWriteTest, ConcurrentAppendsBothCommit) {
  Create();
  ASSERT_OK_AND_ASSIGN(auto first, Prepare(*Load(), Rows(R"([[1, "a"]])")));
  ASSERT_OK_AND_ASSIGN(auto second, Prepare(*Load(), Rows(R"([[2, "b"]])")));
  ASSERT_OK(first.Commit());
  // The second writer read version 0 too: its commit moves to version 2.
  ASSERT_OK(second.Commit());
  EXPECT_EQ(Version(), 2);
  EXPECT_EQ(Read(*Load()), (std::multiset<std::string>{"1:a", "2:b"}));
}

TEST_F(DeltaWriteTest, ConflictingOverwritesExactlyOneWins) {
  Create();
  ASSERT_OK(Write(*Load(), Rows(R"([[1, "a"]])")));
  ASSERT_OK_AND_ASSIGN(auto first, Prepare(*Load(), Rows(R"([[2, "b"]])"), Truncate));
  ASSERT_OK_AND_ASSIGN(auto second, Prepare(*Load(), Rows(R"([[3, "c"]])"), Truncate));
  ASSERT_OK(first.Commit());
  ASSERT_RAISES_CONDITION("DELTA_CONCURRENT_APPEND", second.Commit());
  EXPECT_EQ(Version(), 2);
  EXPECT_EQ(Read(*Load()), (std::multiset<std::string>{"2:b"}));
}

TEST_F(DeltaWriteTest, WritesStartFromTheLatestVersion) {
  Create();
  auto loaded = Load();
  ASSERT_OK(Write(*Load(), Rows(R"([[1, "a"]])")));
  // A table loaded before that append still overwrites what is there when it writes.
  ASSERT_OK(Write(*loaded, Rows(R"([[2, "b"]])"), Truncate));
  EXPECT_EQ(Read(*Load()), (std::multiset<std::string>{"2:b"}));
}

TEST_F(DeltaWriteTest, OverwritesOfDisjointPartitionsDoNotConflict) {
  Create("", "", /*partitioned=*/true);
  ASSERT_OK(Write(*Load(), Rows(R"([[1, "a"], [2, "b"]])")));
  ASSERT_OK_AND_ASSIGN(auto first, Prepare(*Load(), Rows(R"([[3, "a"]])"), [](WriteBuilder& b) {
                         return OverwritePartition(b, "a");
                       }));
  ASSERT_OK_AND_ASSIGN(auto second, Prepare(*Load(), Rows(R"([[4, "b"]])"), [](WriteBuilder& b) {
                         return OverwritePartition(b, "b");
                       }));
  ASSERT_OK(first.Commit());
  ASSERT_OK(second.Commit());
  EXPECT_EQ(Read(*Load()), (std::multiset<std::string>{"3:a", "4:b"}));
  // Rows outside the overwritten partition are refused.
  ASSERT_RAISES_CONDITION("DELTA_REPLACE_WHERE_MISMATCH",
                          Write(*Load(), Rows(R"([[5, "c"]])"),
                                [](WriteBuilder& b) { return OverwritePartition(b, "b"); }));
}

TEST_F(DeltaWriteTest, MetadataChangeFailsAConcurrentWrite) {
  Create();
  ASSERT_OK_AND_ASSIGN(auto pending, Prepare(*Load(), Rows(R"([[1, "a"]])")));
  TableChange change;
  change.kind = TableChange::Kind::kSetProperty;
  change.property_key = "delta.appendOnly";
  change.property_value = "false";
  ASSERT_OK(catalog_->AlterTable(kIdent, {change}).status());
  ASSERT_RAISES_CONDITION("DELTA_METADATA_CHANGED", pending.Commit());
  // A table analyzed before a schema change refuses to write with its old columns.
  auto stale = Load();
  TableChange add;
  add.kind = TableChange::Kind::kAddColumn;
  add.field_names = {"extra"};
  add.type = arrow::int64();
  ASSERT_OK(catalog_->AlterTable(kIdent, {add}).status());
  ASSERT_RAISES_CONDITION("DELTA_METADATA_CHANGED", Write(*stale, Rows(R"([[1, "a"]])")));
}

TEST_F(DeltaWriteTest, TxnOptionsMakeAppendsIdempotent) {
  Create();
  Options options{{"txnappid", "job-7"}, {"txnversion", "3"}};
  ASSERT_OK(Write(*Load(), Rows(R"([[1, "a"]])"), nullptr, options));
  ASSERT_OK(Write(*Load(), Rows(R"([[1, "a"]])"), nullptr, options));
  options["txnversion"] = "4";
  ASSERT_OK(Write(*Load(), Rows(R"([[2, "b"]])"), nullptr, options));
  EXPECT_EQ(Read(*Load()), (std::multiset<std::string>{"1:a", "2:b"}));
  EXPECT_EQ(Version(), 2);
  options.erase("txnversion");
  ASSERT_RAISES_CONDITION("DELTA_INVALID_IDEMPOTENT_WRITES_OPTIONS",
                          Write(*Load(), Rows(R"([[3, "c"]])"), nullptr, options));
}

TEST_F(DeltaWriteTest, CheckpointEveryIntervalAndHistory) {
  Create("delta.checkpointInterval", "2");
  for (int i = 0; i < 4; ++i) {
    ASSERT_OK(Write(*Load(), Rows("[[" + std::to_string(i) + ", \"x\"]]")));
  }
  fs::path log = warehouse_ / "default" / "t" / "_delta_log";
  EXPECT_TRUE(fs::exists(log / "00000000000000000002.checkpoint.parquet"));
  EXPECT_TRUE(fs::exists(log / "00000000000000000004.checkpoint.parquet"));
  EXPECT_FALSE(fs::exists(log / "00000000000000000003.checkpoint.parquet"));
  fs::remove(log / "00000000000000000001.json");
  EXPECT_EQ(Read(*Load()).size(), 4u);

  ASSERT_OK_AND_ASSIGN(auto history, DescribeHistory(*Load(), 3));
  ASSERT_EQ(history->num_rows(), 3);
  EXPECT_EQ(history->GetColumnByName("version")->GetScalar(0).ValueOrDie()->ToString(), "4");
  EXPECT_EQ(history->GetColumnByName("operation")->GetScalar(2).ValueOrDie()->ToString(), "WRITE");
  EXPECT_EQ(history->GetColumnByName("isBlindAppend")->GetScalar(0).ValueOrDie()->ToString(),
            "true");
  ASSERT_OK_AND_ASSIGN(auto detail, DescribeDetail(*Load()));
  EXPECT_EQ(detail->GetColumnByName("numFiles")->GetScalar(0).ValueOrDie()->ToString(), "4");
  EXPECT_EQ(detail->GetColumnByName("minWriterVersion")->GetScalar(0).ValueOrDie()->ToString(),
            "2");
}

TEST_F(DeltaWriteTest, FilesCarryStatistics) {
  Create();
  ASSERT_OK(Write(*Load(), Rows(R"([[5, "m"], [null, "a"], [9, null]])")));
  auto filesystem = std::make_shared<arrow::fs::LocalFileSystem>();
  auto snapshot = LoadSnapshot(filesystem, (warehouse_ / "default" / "t").string()).ValueOrDie();
  ASSERT_EQ(snapshot->files.size(), 1u);
  EXPECT_EQ(snapshot->files[0].stats,
            R"({"maxValues":{"id":9,"p":"m"},"minValues":{"id":5,"p":"a"},)"
            R"("nullCount":{"id":1,"p":1},"numRecords":3})");
}

TEST_F(DeltaWriteTest, VacuumDeletesOnlyExpiredUnreferencedFiles) {
  Create();
  ASSERT_OK(Write(*Load(), Rows(R"([[1, "a"]])")));
  ASSERT_OK(Write(*Load(), Rows(R"([[2, "b"]])"), Truncate));
  VacuumOptions options;
  options.retain_hours = 0;
  ASSERT_RAISES_CONDITION("DELTA_VACUUM_RETENTION_PERIOD_TOO_SHORT",
                          Vacuum(*Load(), options).status());
  options.check_retention = false;
  // A file goes only once it is older than the horizon (now - retention), to the millisecond:
  // let a few pass after the overwrite.
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  // Within the default retention nothing goes; with none, the overwritten file does.
  VacuumOptions keep;
  ASSERT_OK_AND_ASSIGN(auto kept, Vacuum(*Load(), keep));
  EXPECT_EQ(kept->num_rows(), 0);
  options.dry_run = true;
  ASSERT_OK_AND_ASSIGN(auto listed, Vacuum(*Load(), options));
  ASSERT_EQ(listed->num_rows(), 1);
  std::string victim = listed->column(0)->GetScalar(0).ValueOrDie()->ToString();
  EXPECT_TRUE(fs::exists(victim));
  options.dry_run = false;
  ASSERT_OK_AND_ASSIGN(auto deleted, Vacuum(*Load(), options));
  EXPECT_EQ(deleted->num_rows(), 1);
  EXPECT_FALSE(fs::exists(victim));
  EXPECT_EQ(Read(*Load()), (std::multiset<std::string>{"2:b"}));
  auto old = catalog_->LoadTableAtVersion(kIdent, "1").ValueOrDie();
  auto scan =
      dynamic_cast<SupportsRead&>(*old).NewScanBuilder({}).ValueOrDie()->Build().ValueOrDie();
  ASSERT_RAISES_CONDITION("FAILED_READ_FILE.FILE_NOT_EXIST", testing::RunScan(*scan).status());
}

TEST_F(DeltaWriteTest, TimeTravelledTablesAreReadOnly) {
  Create();
  ASSERT_OK(Write(*Load(), Rows(R"([[1, "a"]])")));
  auto old = catalog_->LoadTableAtVersion(kIdent, "0").ValueOrDie();
  EXPECT_EQ(old->capabilities(), (std::set<TableCapability>{TableCapability::kBatchRead}));
  EXPECT_TRUE(Read(*old).empty());
  ASSERT_RAISES_CONDITION("DELTA_VERSION_NOT_FOUND",
                          catalog_->LoadTableAtVersion(kIdent, "5").status());
}

TEST_F(DeltaWriteTest, UnsupportedWriterFeatureIsRefused) {
  Create();
  fs::path log = warehouse_ / "default" / "t" / "_delta_log";
  std::ofstream(log / "00000000000000000001.json")
      << R"({"protocol":{"minReaderVersion":1,"minWriterVersion":7,"writerFeatures":["clustering"]}})";
  ASSERT_RAISES_CONDITION("DELTA_UNSUPPORTED_FEATURES_FOR_WRITE",
                          Write(*Load(), Rows(R"([[1, "a"]])")));
}

// ---- Row tracking

class DeltaRowTrackingTest : public DeltaWriteTest {
 protected:
  std::shared_ptr<const Snapshot> Latest() {
    auto filesystem = std::make_shared<arrow::fs::LocalFileSystem>();
    return LoadSnapshot(filesystem, (warehouse_ / "default" / "t").string()).ValueOrDie();
  }
  // "baseRowId/defaultRowCommitVersion" of each live file ("-" when unset).
  std::multiset<std::string> RowIds() {
    std::multiset<std::string> out;
    const auto snapshot = Latest();
    for (const auto& file : snapshot->files) {
      out.insert((file.base_row_id ? std::to_string(*file.base_row_id) : "-") + "/" +
                 (file.default_row_commit_version ? std::to_string(*file.default_row_commit_version)
                                                  : "-"));
    }
    return out;
  }
  int64_t HighWaterMark() { return RowIdHighWaterMark(Latest()->domains).ValueOrDie(); }
};

TEST_F(DeltaRowTrackingTest, CreateAddsTheFeaturesAndNamesTheMaterializedColumns) {
  Create("delta.enableRowTracking", "true");
  auto snapshot = Latest();
  EXPECT_EQ(snapshot->protocol.min_reader_version, 1);
  EXPECT_EQ(snapshot->protocol.min_writer_version, 7);
  EXPECT_EQ(
      *snapshot->protocol.writer_features,
      (std::vector<std::string>{"appendOnly", "domainMetadata", "invariants", "rowTracking"}));
  const auto& configuration = snapshot->metadata.configuration;
  EXPECT_TRUE(configuration.at(kMaterializedRowIdColumn).starts_with("_row-id-col-"));
  EXPECT_TRUE(configuration.at(kMaterializedRowCommitVersionColumn)
                  .starts_with("_row-commit-version-col-"));
  EXPECT_EQ(HighWaterMark(), -1);
}

TEST_F(DeltaRowTrackingTest, AppendsTakeFreshIdsAboveTheHighWaterMark) {
  Create("delta.enableRowTracking", "true");
  ASSERT_OK(Write(*Load(), Rows(R"([[1, "a"], [2, "b"]])")));
  ASSERT_OK(Write(*Load(), Rows(R"([[3, "c"], [4, "d"], [5, "e"]])")));
  EXPECT_EQ(RowIds(), (std::multiset<std::string>{"0/1", "2/2"}));
  EXPECT_EQ(HighWaterMark(), 4);
}

TEST_F(DeltaRowTrackingTest, RebasedAppendMovesAboveTheWinnersMark) {
  Create("delta.enableRowTracking", "true");
  ASSERT_OK_AND_ASSIGN(auto first, Prepare(*Load(), Rows(R"([[1, "a"], [2, "b"]])")));
  ASSERT_OK_AND_ASSIGN(auto second, Prepare(*Load(), Rows(R"([[3, "c"], [4, "d"], [5, "e"]])")));
  ASSERT_OK(second.Commit());
  // Both read version 0, where no id was taken: the first moves to version 2, above ids 0-2.
  ASSERT_OK(first.Commit());
  EXPECT_EQ(RowIds(), (std::multiset<std::string>{"3/2", "0/1"}));
  EXPECT_EQ(HighWaterMark(), 4);
}

TEST_F(DeltaRowTrackingTest, EnablingOnATableWithDataBackfillsRowIds) {
  Create();
  ASSERT_OK(Write(*Load(), Rows(R"([[1, "a"], [2, "b"]])")));
  EXPECT_EQ(RowIds(), (std::multiset<std::string>{"-/-"}));
  TableChange change;
  change.kind = TableChange::Kind::kSetProperty;
  change.property_key = "delta.enableRowTracking";
  change.property_value = "true";
  ASSERT_OK(catalog_->AlterTable(kIdent, {change}).status());
  EXPECT_EQ(RowIds(), (std::multiset<std::string>{"0/2"}));
  EXPECT_EQ(HighWaterMark(), 1);
  auto snapshot = Latest();
  EXPECT_TRUE(RowTrackingSupported(snapshot->protocol, snapshot->metadata));
  EXPECT_TRUE(snapshot->metadata.configuration.contains(kMaterializedRowIdColumn));
  // The backfill re-adds the file without changing data: the table reads the same.
  EXPECT_EQ(Read(*Load()), (std::multiset<std::string>{"1:a", "2:b"}));
  ASSERT_OK(Write(*Load(), Rows(R"([[3, "c"]])")));
  EXPECT_EQ(RowIds(), (std::multiset<std::string>{"2/3", "0/2"}));
}

TEST_F(DeltaRowTrackingTest, TablesWithoutTheFeatureGetNoRowIds) {
  Create();
  ASSERT_OK(Write(*Load(), Rows(R"([[1, "a"]])")));
  EXPECT_EQ(RowIds(), (std::multiset<std::string>{"-/-"}));
  EXPECT_TRUE(Latest()->domains.empty());
}

// ---- Change Data Feed files

TEST_F(DeltaWriteTest, ChangeDataFilesAreCommittedAndReadAsTheFeed) {
  Create("delta.enableChangeDataFeed", "true", /*partitioned=*/true);
  ASSERT_OK(Write(*Load(), Rows(R"([[1, "a"], [2, "b"]])")));
  const std::string location = (warehouse_ / "default" / "t").string();
  ASSERT_OK_AND_ASSIGN(auto state, LoadTableState(location, "t", std::nullopt, std::nullopt));
  // The changes of an update of id 1 to 10 and an insert of 5, as a rewrite would give them.
  auto schema = arrow::schema({arrow::field("id", arrow::int32()), arrow::field("p", arrow::utf8()),
                               arrow::field("_change_type", arrow::utf8())});
  auto rows =
      arrow::json::ArrayFromJSONString(
          arrow::struct_(schema->fields()),
          R"([[1, "a", "update_preimage"], [10, "a", "update_postimage"], [5, "b", "insert"]])")
          .ValueOrDie();
  auto changes = arrow::RecordBatch::FromStructArray(rows).ValueOrDie();
  ASSERT_OK_AND_ASSIGN(auto files, WriteChangeData(*state, {changes}));
  ASSERT_EQ(files.size(), 2u);
  for (const auto& file : files) {
    EXPECT_TRUE(file.path.starts_with("_change_data/p=")) << file.path;
    EXPECT_FALSE(file.data_change);
    EXPECT_TRUE(file.partition_values.contains("p"));
    EXPECT_TRUE(fs::exists(fs::path(location) / file.path));
  }
  Transaction transaction;
  transaction.change_files = files;
  transaction.operation = "UPDATE";
  ASSERT_OK(CommitTransaction(state->filesystem, state->root, state->name, state->snapshot->version,
                              transaction)
                .status());
  ASSERT_OK_AND_ASSIGN(state, LoadTableState(location, "t", std::nullopt, std::nullopt));
  ChangelogInfo info;
  info.range.kind = ChangelogRange::Kind::kVersion;
  info.range.starting_version = "1";
  ASSERT_OK_AND_ASSIGN(auto feed, MakeDeltaChangeFeed(state, info));
  ASSERT_OK_AND_ASSIGN(auto builder, feed->NewScanBuilder({}));
  ASSERT_OK_AND_ASSIGN(auto scan, builder->Build());
  ASSERT_OK_AND_ASSIGN(auto run, testing::RunScan(*scan));
  std::multiset<std::string> seen;
  for (int64_t row = 0; row < run.rows->num_rows(); ++row) {
    std::string text;
    for (const char* column : {"id", "p", "_change_type", "_commit_version"}) {
      text += run.rows->GetColumnByName(column)->GetScalar(row).ValueOrDie()->ToString() + ":";
    }
    seen.insert(text);
  }
  // Version 1 has no change files: its adds are inserts. Version 2 reads its change files only.
  EXPECT_EQ(seen,
            (std::multiset<std::string>{"1:a:insert:1:", "2:b:insert:1:", "1:a:update_preimage:2:",
                                        "10:a:update_postimage:2:", "5:b:insert:2:"}));
}

TEST_F(DeltaWriteTest, ChangeDataRowsMustHaveTheTableColumnsAndAKnownChangeType) {
  Create("delta.enableChangeDataFeed", "true");
  const std::string location = (warehouse_ / "default" / "t").string();
  ASSERT_OK_AND_ASSIGN(auto state, LoadTableState(location, "t", std::nullopt, std::nullopt));
  ASSERT_RAISES_CONDITION("DELTA_CHANGE_DATA_INVALID_ROWS",
                          WriteChangeData(*state, {Rows(R"([[1, "a"]])")}).status());
  auto schema = arrow::schema({arrow::field("id", arrow::int32()), arrow::field("p", arrow::utf8()),
                               arrow::field("_change_type", arrow::utf8())});
  auto rows =
      arrow::json::ArrayFromJSONString(arrow::struct_(schema->fields()), R"([[1, "a", "upsert"]])")
          .ValueOrDie();
  auto changes = arrow::RecordBatch::FromStructArray(rows).ValueOrDie();
  ASSERT_RAISES_CONDITION("DELTA_CHANGE_DATA_INVALID_ROWS",
                          WriteChangeData(*state, {changes}).status());
  EXPECT_FALSE(fs::exists(fs::path(location) / "_change_data"));
}

}  // namespace
}  // namespace parley::delta
