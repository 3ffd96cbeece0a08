// Tests of the files connector's write path, driven through the public write API the way the
// engine drives it (builder, mode, Build, ToBatch, factory and messages round-tripped through
// bytes, one writer per task attempt, driver Commit or Abort), and read back with the scan
// harness. Crashes are simulated with the commit protocol's internal steps (files_commit.h).
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <thread>

#include "arrow/api.h"
#include "arrow/compute/api.h"
#include "arrow/filesystem/localfs.h"
#include "arrow/io/file.h"
#include "connectors/files/files_commit.h"
#include "connectors/files/files_provider.h"
#include "connectors/files/files_writer.h"
#include "parley/connector/api.h"
#include "parquet/arrow/reader.h"
#include "testing/gtest_util.h"
#include "testing/scan_harness.h"

namespace parley::files {
namespace {

namespace cp = arrow::compute;
namespace fs = std::filesystem;

// Rows (id, name, year): name = "n<id>", year as given (nullopt for NULL).
std::shared_ptr<arrow::Schema> RowSchema() {
  return arrow::schema({arrow::field("id", arrow::int64()), arrow::field("name", arrow::utf8()),
                        arrow::field("year", arrow::int32())});
}

Result<std::shared_ptr<arrow::RecordBatch>> MakeRows(int64_t first, int64_t count,
                                                     std::optional<int32_t> year) {
  arrow::Int64Builder ids;
  arrow::StringBuilder names;
  arrow::Int32Builder years;
  for (int64_t i = first; i < first + count; ++i) {
    ARROW_RETURN_NOT_OK(ids.Append(i));
    ARROW_RETURN_NOT_OK(names.Append("n" + std::to_string(i)));
    ARROW_RETURN_NOT_OK(year ? years.Append(*year) : years.AppendNull());
  }
  ARROW_ASSIGN_OR_RAISE(auto id_array, ids.Finish());
  ARROW_ASSIGN_OR_RAISE(auto name_array, names.Finish());
  ARROW_ASSIGN_OR_RAISE(auto year_array, years.Finish());
  return arrow::RecordBatch::Make(RowSchema(), count, {id_array, name_array, year_array});
}

std::vector<int64_t> Range(int64_t begin, int64_t end) {
  std::vector<int64_t> out;
  for (int64_t i = begin; i < end; ++i) out.push_back(i);
  return out;
}

std::vector<int64_t> Concat(std::vector<int64_t> a, const std::vector<int64_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

ExpressionPtr I32(int32_t value) {
  return MakeLiteral(std::make_shared<arrow::Int32Scalar>(value));
}

// What reading a table gave: ids sorted, and the id -> year pairs as text.
struct ReadBack {
  std::vector<int64_t> ids;
  std::map<int64_t, std::string> years;
  std::map<int64_t, std::string> names;
};

class FilesWriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device random;
    dir_ = fs::temp_directory_path() / ("parley-files-write-test-" + std::to_string(random()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& relative) const { return (dir_ / relative).string(); }

  // The files below `relative`, relative to it, sorted; hidden ones included.
  std::vector<std::string> FilesUnder(const std::string& relative) const {
    std::vector<std::string> out;
    if (!fs::exists(Path(relative))) return out;
    for (const auto& entry : fs::recursive_directory_iterator(Path(relative))) {
      if (entry.is_regular_file()) {
        out.push_back(fs::relative(entry.path(), Path(relative)).generic_string());
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  // The table at `relative` with the row schema (partitioned by year when asked and new).
  Result<std::shared_ptr<Table>> OpenTable(const std::string& format, const std::string& relative,
                                           bool partitioned = false, Options options = {}) {
    auto provider = MakeFilesTableProvider(format);
    if (provider == nullptr) return Status::Invalid("no provider for ", format);
    options["path"] = Path(relative);
    if (partitioned) options["__partition_columns"] = R"(["year"])";
    return provider->GetTable(RowSchema(), options);
  }

  Result<ReadBack> Read(const std::string& format, const std::string& relative,
                        bool partitioned = false, Options options = {}) {
    ARROW_ASSIGN_OR_RAISE(auto table, OpenTable(format, relative, partitioned, options));
    ARROW_ASSIGN_OR_RAISE(auto builder, dynamic_cast<SupportsRead&>(*table).NewScanBuilder({}));
    ARROW_ASSIGN_OR_RAISE(auto scan, builder->Build());
    ARROW_ASSIGN_OR_RAISE(auto run, testing::RunScan(*scan));
    ARROW_ASSIGN_OR_RAISE(auto indices, cp::SortIndices(arrow::Datum(run.rows),
                                                        cp::SortOptions({cp::SortKey("id")})));
    ARROW_ASSIGN_OR_RAISE(auto sorted, cp::Take(arrow::Datum(run.rows), arrow::Datum(indices)));
    auto rows = sorted.table();
    ReadBack out;
    for (int64_t i = 0; i < rows->num_rows(); ++i) {
      ARROW_ASSIGN_OR_RAISE(auto id, rows->GetColumnByName("id")->GetScalar(i));
      ARROW_ASSIGN_OR_RAISE(auto name, rows->GetColumnByName("name")->GetScalar(i));
      ARROW_ASSIGN_OR_RAISE(auto year, rows->GetColumnByName("year")->GetScalar(i));
      int64_t value = static_cast<const arrow::Int64Scalar&>(*id).value;
      out.ids.push_back(value);
      out.names[value] = name->ToString();
      out.years[value] = year->ToString();
    }
    return out;
  }

  // One write in progress, driven as the engine drives it.
  struct Job {
    std::shared_ptr<Write> write;
    std::shared_ptr<BatchWrite> batch;
    std::string factory_bytes;
    std::string query_id;
  };

  // Start a write to `table`; `mode` configures the builder (none for an append).
  Result<Job> Start(Table& table, const std::string& query_id,
                    const std::function<Status(WriteBuilder&)>& mode = nullptr) {
    LogicalWriteInfo info{query_id, RowSchema(), {}};
    ARROW_ASSIGN_OR_RAISE(auto builder, dynamic_cast<SupportsWrite&>(table).NewWriteBuilder(info));
    if (mode) ARROW_RETURN_NOT_OK(mode(*builder));
    Job job;
    job.query_id = query_id;
    ARROW_ASSIGN_OR_RAISE(job.write, builder->Build());
    ARROW_ASSIGN_OR_RAISE(job.batch, job.write->ToBatch());
    ARROW_ASSIGN_OR_RAISE(auto factory, job.batch->CreateBatchWriterFactory(PhysicalWriteInfo{2}));
    ARROW_ASSIGN_OR_RAISE(job.factory_bytes, factory->Serialize());
    return job;
  }

  // One task attempt that writes `batches` and commits; its message round-trips through bytes.
  Result<CommitMessagePtr> RunTask(const Job& job, int partition, int64_t task,
                                   const std::vector<std::shared_ptr<arrow::RecordBatch>>& batches,
                                   std::vector<CustomTaskMetric>* metrics = nullptr) {
    ARROW_ASSIGN_OR_RAISE(auto writer, StageTask(job, partition, task, batches));
    ARROW_ASSIGN_OR_RAISE(auto message, writer->Commit());
    if (metrics != nullptr) *metrics = writer->CurrentMetricsValues();
    ARROW_RETURN_NOT_OK(writer->Close());
    ARROW_ASSIGN_OR_RAISE(auto bytes, message->Serialize());
    return job.batch->DeserializeCommitMessage(bytes);
  }

  // A task attempt that has written `batches` and neither committed nor aborted.
  Result<std::unique_ptr<DataWriter>> StageTask(
      const Job& job, int partition, int64_t task,
      const std::vector<std::shared_ptr<arrow::RecordBatch>>& batches) {
    ARROW_ASSIGN_OR_RAISE(auto factory, job.batch->DeserializeWriterFactory(job.factory_bytes));
    ARROW_ASSIGN_OR_RAISE(auto writer, factory->CreateWriter(partition, task));
    for (const auto& batch : batches) ARROW_RETURN_NOT_OK(writer->Write(*batch));
    return writer;
  }

  // A complete append of `batches`, one task each.
  Status Append(const std::string& format, const std::string& relative, const std::string& query,
                const std::vector<std::shared_ptr<arrow::RecordBatch>>& batches,
                bool partitioned = false, Options options = {}) {
    ARROW_ASSIGN_OR_RAISE(auto table, OpenTable(format, relative, partitioned, options));
    ARROW_ASSIGN_OR_RAISE(auto job, Start(*table, query));
    std::vector<CommitMessagePtr> messages;
    for (size_t i = 0; i < batches.size(); ++i) {
      ARROW_ASSIGN_OR_RAISE(
          auto message, RunTask(job, static_cast<int>(i), static_cast<int64_t>(i), {batches[i]}));
      messages.push_back(std::move(message));
    }
    return job.batch->Commit(messages);
  }

  // A table "t" partitioned by year: 2023 holds ids 0-9, 2024 ids 10-19.
  void WritePartitionedTable() {
    ASSERT_OK_AND_ASSIGN(auto rows_2023, MakeRows(0, 10, 2023));
    ASSERT_OK_AND_ASSIGN(auto rows_2024, MakeRows(10, 10, 2024));
    ASSERT_OK(Append("parquet", "t", "q-setup", {rows_2023, rows_2024}, /*partitioned=*/true));
  }

  fs::path dir_;
};

std::shared_ptr<arrow::RecordBatch> Rows(int64_t first, int64_t count,
                                         std::optional<int32_t> year = 2024) {
  return MakeRows(first, count, year).ValueOrDie();
}

// ---- Appends and formats

TEST_F(FilesWriteTest, AppendIsInvisibleUntilTheDriverCommits) {
  ASSERT_OK(Append("parquet", "t", "q-old", {Rows(0, 5)}));
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
  EXPECT_EQ(
      table->capabilities(),
      (std::set<TableCapability>{TableCapability::kBatchRead, TableCapability::kBatchWrite,
                                 TableCapability::kTruncate, TableCapability::kOverwriteByFilter,
                                 TableCapability::kOverwriteDynamic}));
  EXPECT_NE(dynamic_cast<TruncatableTable*>(table.get()), nullptr);
  ASSERT_OK_AND_ASSIGN(auto job, Start(*table, "q-new"));
  EXPECT_TRUE(Contains(job.write->description(), "append")) << job.write->description();
  std::vector<CustomTaskMetric> metrics;
  ASSERT_OK_AND_ASSIGN(auto first, RunTask(job, 0, 7, {Rows(5, 3), Rows(8, 2)}, &metrics));
  ASSERT_OK_AND_ASSIGN(auto second, RunTask(job, 1, 8, {Rows(10, 5)}));

  // Staged under _temporary/<query>/<task>/, which readers skip.
  auto staged = FilesUnder("t/_temporary/q-new");
  ASSERT_EQ(staged.size(), 2u);
  EXPECT_TRUE(staged[0].starts_with("7/part-00000-q-new-7")) << staged[0];
  ASSERT_OK_AND_ASSIGN(auto before, Read("parquet", "t"));
  EXPECT_EQ(before.ids, Range(0, 5));

  std::map<std::string, int64_t> values;
  for (const auto& metric : metrics) values[metric.name] = metric.value;
  EXPECT_EQ(values["rowsWritten"], 5);
  EXPECT_EQ(values[kFilesWrittenMetric], 1);
  EXPECT_EQ(values[kBytesWrittenMetric],
            static_cast<int64_t>(fs::file_size(Path("t/_temporary/q-new/" + staged[0]))));
  std::vector<std::string> declared;
  for (const auto& metric : job.write->SupportedCustomMetrics()) {
    declared.push_back(metric->name());
  }
  EXPECT_EQ(declared,
            (std::vector<std::string>{kBytesWrittenMetric, kFilesWrittenMetric, "rowsWritten"}));

  ASSERT_OK(job.batch->Commit({first, second}));
  ASSERT_OK_AND_ASSIGN(auto after, Read("parquet", "t"));
  EXPECT_EQ(after.ids, Range(0, 15));
  EXPECT_EQ(after.names[12], "n12");
  EXPECT_FALSE(fs::exists(Path("t/_temporary/q-new")));
  EXPECT_FALSE(fs::exists(Path("t/_temporary/q-new.commit")));
}

TEST_F(FilesWriteTest, CommitMessageNamesExactlyTheAttemptsFiles) {
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t", /*partitioned=*/true));
  ASSERT_OK_AND_ASSIGN(auto job, Start(*table, "q1"));
  ASSERT_OK_AND_ASSIGN(
      auto message, RunTask(job, 3, 42, {Rows(0, 4, 2023), Rows(4, 6, 2024), Rows(10, 1, 2024)}));
  const auto& files = static_cast<const FilesCommitMessage&>(*message).files;
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].partition_dir, "year=2023");
  EXPECT_EQ(files[0].rows, 4);
  EXPECT_EQ(files[0].staged_path, "_temporary/q1/42/year=2023/" + files[0].name);
  EXPECT_EQ(files[1].FinalPath(), "year=2024/" + files[1].name);
  EXPECT_EQ(files[1].rows, 7);
  EXPECT_EQ(files[1].bytes, static_cast<int64_t>(fs::file_size(Path("t/" + files[1].staged_path))));
  EXPECT_EQ(static_cast<const FilesCommitMessage&>(*message).partition_id, 3);
}

TEST_F(FilesWriteTest, EachFormatWritesWhatItsReaderReads) {
  for (const std::string format : {"parquet", "csv", "json", "orc"}) {
    SCOPED_TRACE(format);
    Options options;
    if (format == "csv") options["header"] = "true";
    ASSERT_OK(Append(format, format, "q-" + format, {Rows(0, 3), Rows(3, 2, std::nullopt)}, false,
                     options));
    ASSERT_OK_AND_ASSIGN(auto back, Read(format, format, false, options));
    EXPECT_EQ(back.ids, Range(0, 5));
    EXPECT_EQ(back.names[4], "n4");
    EXPECT_EQ(back.years[1], "2024");
    EXPECT_EQ(back.years[4], "null");
    auto files = FilesUnder(format);
    ASSERT_EQ(files.size(), 2u);
    EXPECT_TRUE(files[0].ends_with("." + format)) << files[0];
  }
  std::ifstream csv(Path("csv/" + FilesUnder("csv")[0]));
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header, R"("id","name","year")");
  std::ifstream json(Path("json/" + FilesUnder("json")[1]));
  std::string line;
  std::getline(json, line);
  EXPECT_EQ(line, R"({"id":3,"name":"n3"})");  // NULL fields are left out
}

TEST_F(FilesWriteTest, PartitionedWriteCreatesHiveDirectoriesWithoutPartitionColumns) {
  ASSERT_OK(Append("parquet", "new/t", "q1",
                   {Rows(0, 3, 2023), Rows(3, 4, 2024), Rows(7, 1, std::nullopt)},
                   /*partitioned=*/true));
  auto files = FilesUnder("new/t");
  ASSERT_EQ(files.size(), 3u);
  EXPECT_TRUE(files[0].starts_with("year=2023/part-00000-q1-0")) << files[0];
  EXPECT_TRUE(files[1].starts_with("year=2024/part-00001-q1-1")) << files[1];
  EXPECT_TRUE(files[2].starts_with("year=__HIVE_DEFAULT_PARTITION__/")) << files[2];

  auto input = arrow::io::ReadableFile::Open(Path("new/t/" + files[1]));
  ASSERT_OK(input.status());
  ASSERT_OK_AND_ASSIGN(auto reader, parquet::arrow::OpenFile(*input, arrow::default_memory_pool()));
  std::shared_ptr<arrow::Schema> file_schema;
  ASSERT_OK(reader->GetSchema(&file_schema));
  EXPECT_EQ(file_schema->field_names(), (std::vector<std::string>{"id", "name"}));

  // The read side discovers the partition column from the directories alone.
  auto provider = MakeFilesTableProvider("parquet");
  ASSERT_OK_AND_ASSIGN(auto inferred, provider->InferSchema({{"path", Path("new/t")}}));
  EXPECT_EQ(inferred->field_names(), (std::vector<std::string>{"id", "name", "year"}));
  ASSERT_OK_AND_ASSIGN(auto back, Read("parquet", "new/t"));
  EXPECT_EQ(back.ids, Range(0, 8));
  EXPECT_EQ(back.years[0], "2023");
  EXPECT_EQ(back.years[6], "2024");
  EXPECT_EQ(back.years[7], "null");
}

// ---- Overwrites

TEST_F(FilesWriteTest, TruncateDeletesOldFilesOnlyInsideCommit) {
  ASSERT_OK(Append("parquet", "t", "q-old", {Rows(0, 10)}));
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
  ASSERT_OK_AND_ASSIGN(auto job, Start(*table, "q-new", [](WriteBuilder& builder) {
                         return dynamic_cast<SupportsTruncate&>(builder).Truncate();
                       }));
  ASSERT_OK_AND_ASSIGN(auto message, RunTask(job, 0, 1, {Rows(100, 3)}));
  ASSERT_OK_AND_ASSIGN(auto before, Read("parquet", "t"));
  EXPECT_EQ(before.ids, Range(0, 10));  // old rows stay until the driver commits

  ASSERT_OK(job.batch->Commit({message}));
  ASSERT_OK_AND_ASSIGN(auto after, Read("parquet", "t"));
  EXPECT_EQ(after.ids, Range(100, 103));
}

TEST_F(FilesWriteTest, AbortedOverwriteKeepsOldFilesAndRemovesStaging) {
  ASSERT_OK(Append("parquet", "t", "q-old", {Rows(0, 10)}));
  auto old_files = FilesUnder("t");
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
  ASSERT_OK_AND_ASSIGN(auto job, Start(*table, "q-new", [](WriteBuilder& builder) {
                         return dynamic_cast<SupportsTruncate&>(builder).Truncate();
                       }));
  ASSERT_OK_AND_ASSIGN(auto message, RunTask(job, 0, 1, {Rows(100, 3)}));
  ASSERT_OK_AND_ASSIGN(auto killed, StageTask(job, 1, 2, {Rows(200, 3)}));  // never commits
  EXPECT_EQ(FilesUnder("t/_temporary/q-new").size(), 2u);

  ASSERT_OK(job.batch->Abort({message, nullptr}));
  EXPECT_EQ(FilesUnder("t"), old_files);
  EXPECT_FALSE(fs::exists(Path("t/_temporary/q-new")));
  ASSERT_OK_AND_ASSIGN(auto back, Read("parquet", "t"));
  EXPECT_EQ(back.ids, Range(0, 10));
}

TEST_F(FilesWriteTest, AbortToleratesOnlyNullMessages) {
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
  ASSERT_OK_AND_ASSIGN(auto job, Start(*table, "q1"));
  ASSERT_OK_AND_ASSIGN(auto staged, StageTask(job, 0, 1, {Rows(0, 3)}));
  ASSERT_OK(staged->Close());
  ASSERT_OK(job.batch->Abort({nullptr, nullptr}));
  EXPECT_TRUE(FilesUnder("t").empty());
}

TEST_F(FilesWriteTest, OverwriteByPartitionPredicateReplacesOnlyThatPartition) {
  WritePartitionedTable();
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
  auto year_2023 = MakePredicate("=", {FieldReference("year"), I32(2023)});
  auto on_id = MakePredicate("=", {FieldReference("id"), I32(1)});
  ASSERT_OK_AND_ASSIGN(auto job, Start(*table, "q-new", [&](WriteBuilder& builder) {
                         auto& overwrite = dynamic_cast<SupportsOverwriteV2&>(builder);
                         EXPECT_FALSE(overwrite.CanOverwrite({on_id}));
                         EXPECT_FALSE(overwrite.CanOverwrite({year_2023, on_id}));
                         EXPECT_TRUE(overwrite.CanOverwrite({year_2023}));
                         return overwrite.Overwrite({year_2023});
                       }));
  EXPECT_TRUE(Contains(job.write->description(), "overwrite where")) << job.write->description();
  ASSERT_OK_AND_ASSIGN(auto message, RunTask(job, 0, 1, {Rows(100, 2, 2023)}));
  ASSERT_OK_AND_ASSIGN(auto before, Read("parquet", "t"));
  EXPECT_EQ(before.ids, Range(0, 20));
  ASSERT_OK(job.batch->Commit({message}));
  ASSERT_OK_AND_ASSIGN(auto after, Read("parquet", "t"));
  EXPECT_EQ(after.ids, Concat(Range(10, 20), Range(100, 102)));
  EXPECT_EQ(after.years[100], "2023");
}

TEST_F(FilesWriteTest, DynamicOverwriteReplacesOnlyWrittenPartitions) {
  WritePartitionedTable();
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
  ASSERT_OK_AND_ASSIGN(
      auto job, Start(*table, "q-new", [](WriteBuilder& builder) {
        return dynamic_cast<SupportsDynamicOverwrite&>(builder).OverwriteDynamicPartitions();
      }));
  ASSERT_OK_AND_ASSIGN(auto first, RunTask(job, 0, 1, {Rows(100, 2, 2024)}));
  ASSERT_OK_AND_ASSIGN(auto second, RunTask(job, 1, 2, {Rows(200, 2, 2025)}));
  ASSERT_OK(job.batch->Commit({first, second}));
  ASSERT_OK_AND_ASSIGN(auto after, Read("parquet", "t"));
  EXPECT_EQ(after.ids, Concat(Concat(Range(0, 10), Range(100, 102)), Range(200, 202)));
  EXPECT_EQ(after.years[5], "2023");
  EXPECT_EQ(after.years[201], "2025");
}

TEST_F(FilesWriteTest, TruncateTableRemovesEveryDataFile) {
  WritePartitionedTable();
  std::ofstream(Path("t/_SUCCESS")) << "";
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
  ASSERT_OK_AND_ASSIGN(bool truncated, dynamic_cast<TruncatableTable&>(*table).TruncateTable());
  EXPECT_TRUE(truncated);
  EXPECT_EQ(FilesUnder("t"), std::vector<std::string>{"_SUCCESS"});
  ASSERT_OK_AND_ASSIGN(auto after, Read("parquet", "t"));
  EXPECT_TRUE(after.ids.empty());
}

// ---- Attempts, crashes and recovery

TEST_F(FilesWriteTest, OnlyTheCommittedAttemptOfAPartitionIsPublished) {
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
  ASSERT_OK_AND_ASSIGN(auto job, Start(*table, "q1"));
  // Two attempts of partition 0 write the same rows; the second is denied and never aborts
  // (its executor was lost), so its staged file stays behind.
  ASSERT_OK_AND_ASSIGN(auto winner, RunTask(job, 0, 10, {Rows(0, 5)}));
  ASSERT_OK_AND_ASSIGN(auto loser, StageTask(job, 0, 11, {Rows(0, 5)}));
  ASSERT_OK(loser->Close());
  ASSERT_OK(job.batch->Commit({winner}));
  ASSERT_OK_AND_ASSIGN(auto back, Read("parquet", "t"));
  EXPECT_EQ(back.ids, Range(0, 5));
  ASSERT_EQ(FilesUnder("t").size(), 1u);
  EXPECT_TRUE(Contains(FilesUnder("t")[0], "-10.parquet")) << FilesUnder("t")[0];
}

TEST_F(FilesWriteTest, DataWriterAbortDeletesItsAttemptOnly) {
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
  ASSERT_OK_AND_ASSIGN(auto job, Start(*table, "q1"));
  ASSERT_OK_AND_ASSIGN(auto kept, RunTask(job, 0, 1, {Rows(0, 5)}));
  ASSERT_OK_AND_ASSIGN(auto failed, StageTask(job, 1, 2, {Rows(5, 5)}));
  EXPECT_TRUE(fs::exists(Path("t/_temporary/q1/2")));
  ASSERT_OK(failed->Abort());
  ASSERT_OK(failed->Close());
  EXPECT_FALSE(fs::exists(Path("t/_temporary/q1/2")));
  EXPECT_EQ(FilesUnder("t/_temporary/q1").size(), 1u);
}

// A driver killed inside Commit, after the manifest and one rename: readers complete the
// commit before listing, so they see old and new rows, never some of the new ones.
TEST_F(FilesWriteTest, ReaderCompletesACommitKilledBeforeItsRenames) {
  ASSERT_OK(Append("parquet", "t", "q-old", {Rows(0, 10)}));
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
  ASSERT_OK_AND_ASSIGN(auto job, Start(*table, "q-new"));
  CommitManifest manifest;
  manifest.query_id = "q-new";
  for (int task = 0; task < 3; ++task) {
    ASSERT_OK_AND_ASSIGN(auto message, RunTask(job, task, task, {Rows(100 + 10 * task, 10)}));
    for (const auto& file : static_cast<const FilesCommitMessage&>(*message).files) {
      manifest.renames.emplace_back(file.staged_path, file.FinalPath());
    }
  }
  arrow::fs::LocalFileSystem local;
  ASSERT_OK(WriteManifest(local, Path("t"), manifest));
  ASSERT_OK(
      local.Move(Path("t/" + manifest.renames[0].first), Path("t/" + manifest.renames[0].second)));
  ASSERT_TRUE(fs::exists(Path("t/_temporary/q-new.commit")));

  ASSERT_OK_AND_ASSIGN(auto back, Read("parquet", "t"));
  EXPECT_EQ(back.ids, Concat(Range(0, 10), Range(100, 130)));
  EXPECT_FALSE(fs::exists(Path("t/_temporary/q-new.commit")));
  EXPECT_FALSE(fs::exists(Path("t/_temporary/q-new")));
  ASSERT_OK_AND_ASSIGN(auto again, Read("parquet", "t"));
  EXPECT_EQ(again.ids, back.ids);
}

// An overwrite killed after its renames, before its deletions: a reader finishes the deletions.
TEST_F(FilesWriteTest, ReaderCompletesTheDeletionsOfAKilledOverwrite) {
  ASSERT_OK(Append("parquet", "t", "q-old", {Rows(0, 10)}));
  auto old_files = FilesUnder("t");
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
  ASSERT_OK_AND_ASSIGN(auto job, Start(*table, "q-new"));
  ASSERT_OK_AND_ASSIGN(auto message, RunTask(job, 0, 0, {Rows(100, 5)}));
  CommitManifest manifest;
  manifest.query_id = "q-new";
  manifest.deletes = old_files;
  arrow::fs::LocalFileSystem local;
  for (const auto& file : static_cast<const FilesCommitMessage&>(*message).files) {
    manifest.renames.emplace_back(file.staged_path, file.FinalPath());
    ASSERT_OK(local.Move(Path("t/" + file.staged_path), Path("t/" + file.FinalPath())));
  }
  ASSERT_OK(WriteManifest(local, Path("t"), manifest));
  ASSERT_OK_AND_ASSIGN(auto back, Read("parquet", "t"));
  EXPECT_EQ(back.ids, Range(100, 105));
}

// A write completes a pending commit before its own, so its overwrite sees the committed rows.
TEST_F(FilesWriteTest, NewWriteCompletesAPendingCommitFirst) {
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
  ASSERT_OK_AND_ASSIGN(auto job, Start(*table, "q-killed"));
  ASSERT_OK_AND_ASSIGN(auto message, RunTask(job, 0, 0, {Rows(0, 5)}));
  CommitManifest manifest;
  manifest.query_id = "q-killed";
  for (const auto& file : static_cast<const FilesCommitMessage&>(*message).files) {
    manifest.renames.emplace_back(file.staged_path, file.FinalPath());
  }
  arrow::fs::LocalFileSystem local;
  ASSERT_OK(WriteManifest(local, Path("t"), manifest));

  ASSERT_OK_AND_ASSIGN(auto next, Start(*table, "q-next"));
  EXPECT_FALSE(fs::exists(Path("t/_temporary/q-killed.commit")));
  ASSERT_OK_AND_ASSIGN(auto more, RunTask(next, 0, 0, {Rows(5, 5)}));
  ASSERT_OK(next.batch->Commit({more}));
  ASSERT_OK_AND_ASSIGN(auto back, Read("parquet", "t"));
  EXPECT_EQ(back.ids, Range(0, 10));
}

// A failed driver commit that got past its commit point rolls forward on Abort.
TEST_F(FilesWriteTest, AbortAfterTheCommitPointRollsForward) {
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
  ASSERT_OK_AND_ASSIGN(auto job, Start(*table, "q1"));
  ASSERT_OK_AND_ASSIGN(auto message, RunTask(job, 0, 0, {Rows(0, 5)}));
  CommitManifest manifest;
  manifest.query_id = "q1";
  for (const auto& file : static_cast<const FilesCommitMessage&>(*message).files) {
    manifest.renames.emplace_back(file.staged_path, file.FinalPath());
  }
  arrow::fs::LocalFileSystem local;
  ASSERT_OK(WriteManifest(local, Path("t"), manifest));
  ASSERT_OK(job.batch->Abort({message}));
  EXPECT_FALSE(fs::exists(Path("t/_temporary")) && !FilesUnder("t/_temporary").empty());
  ASSERT_EQ(FilesUnder("t").size(), 1u);
  EXPECT_TRUE(FilesUnder("t")[0].starts_with("part-00000-q1-0")) << FilesUnder("t")[0];
}

TEST_F(FilesWriteTest, LeftoverStagingIsIgnoredByReadsAndRemovedByTheNextWrite) {
  ASSERT_OK(Append("parquet", "t", "q-old", {Rows(0, 5)}));
  // A write killed after its tasks staged files, before any manifest.
  {
    ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
    ASSERT_OK_AND_ASSIGN(auto job, Start(*table, "q-killed"));
    ASSERT_OK_AND_ASSIGN(auto message, RunTask(job, 0, 0, {Rows(100, 5)}));
  }
  ASSERT_EQ(FilesUnder("t/_temporary/q-killed").size(), 1u);
  const auto an_hour_ago = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (const auto& entry : fs::recursive_directory_iterator(Path("t/_temporary/q-killed"))) {
    fs::last_write_time(entry.path(), an_hour_ago);
  }
  fs::last_write_time(Path("t/_temporary/q-killed"), an_hour_ago);
  ASSERT_OK_AND_ASSIGN(auto back, Read("parquet", "t"));
  EXPECT_EQ(back.ids, Range(0, 5));

  // The next write removes it, but not the staging of a write that started after it.
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
  LogicalWriteInfo info{"q-next", RowSchema(), {}};
  ASSERT_OK_AND_ASSIGN(auto builder, dynamic_cast<SupportsWrite&>(*table).NewWriteBuilder(info));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  fs::create_directories(Path("t/_temporary/q-concurrent/3"));
  std::ofstream(Path("t/_temporary/q-concurrent/3/part.parquet")) << "staged";
  ASSERT_OK_AND_ASSIGN(auto write, builder->Build());
  ASSERT_OK_AND_ASSIGN(auto batch, write->ToBatch());
  ASSERT_OK(batch->CreateBatchWriterFactory(PhysicalWriteInfo{1}).status());
  EXPECT_FALSE(fs::exists(Path("t/_temporary/q-killed")));
  EXPECT_TRUE(fs::exists(Path("t/_temporary/q-concurrent/3/part.parquet")));
}

// A commit that starts while a reader lists makes the reader recover and list again.
TEST_F(FilesWriteTest, ListingOverlappingACommitIsRedone) {
  ASSERT_OK(Append("parquet", "t", "q-old", {Rows(0, 5)}));
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
  ASSERT_OK_AND_ASSIGN(auto job, Start(*table, "q-new"));
  ASSERT_OK_AND_ASSIGN(auto message, RunTask(job, 0, 0, {Rows(100, 5)}));
  CommitManifest manifest;
  manifest.query_id = "q-new";
  for (const auto& file : static_cast<const FilesCommitMessage&>(*message).files) {
    manifest.renames.emplace_back(file.staged_path, file.FinalPath());
  }
  arrow::fs::LocalFileSystem local;
  int listings = 0;
  size_t files_seen = 0;
  ASSERT_OK(ListWithoutPartialCommits(local, Path("t"), [&]() -> Status {
    ++listings;
    if (listings == 1) ARROW_RETURN_NOT_OK(WriteManifest(local, Path("t"), manifest));
    files_seen = 0;
    for (const auto& entry : fs::directory_iterator(Path("t"))) {
      files_seen += entry.is_regular_file() ? 1 : 0;
    }
    return Status::OK();
  }));
  EXPECT_EQ(listings, 2);
  EXPECT_EQ(files_seen, 2u);  // the old file and the one the recovered commit published
}

// ---- Serialization and errors

TEST_F(FilesWriteTest, FactoryAndMessagesRoundTripThroughBytes) {
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("csv", "t", true, {{"header", "true"}}));
  ASSERT_OK_AND_ASSIGN(auto job, Start(*table, "q1"));
  ASSERT_OK_AND_ASSIGN(auto factory, job.batch->DeserializeWriterFactory(job.factory_bytes));
  ASSERT_OK_AND_ASSIGN(auto again, factory->Serialize());
  EXPECT_EQ(again, job.factory_bytes);
  EXPECT_TRUE(Contains(job.factory_bytes, R"("partition_columns":["year"])")) << job.factory_bytes;

  ASSERT_OK_AND_ASSIGN(auto message, RunTask(job, 1, 5, {Rows(0, 2, 2023)}));
  ASSERT_OK_AND_ASSIGN(auto bytes, message->Serialize());
  ASSERT_OK_AND_ASSIGN(auto rebuilt, job.batch->DeserializeCommitMessage(bytes));
  ASSERT_OK_AND_ASSIGN(auto rebuilt_bytes, rebuilt->Serialize());
  EXPECT_EQ(rebuilt_bytes, bytes);
  const auto& files = static_cast<const FilesCommitMessage&>(*rebuilt).files;
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].rows, 2);

  ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
                          job.batch->DeserializeWriterFactory("not json"));
  ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
                          job.batch->DeserializeCommitMessage(R"({"query_id":"q1"})"));
}

TEST_F(FilesWriteTest, UnknownFormatsAreRejected) {
  EXPECT_EQ(MakeFilesTableProvider("avro"), nullptr);
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
  ASSERT_OK_AND_ASSIGN(auto job, Start(*table, "q1"));
  std::string bytes = job.factory_bytes;
  bytes.replace(bytes.find(R"("format":"parquet")"), 18, R"("format":"avro")");
  auto factory = job.batch->DeserializeWriterFactory(bytes);
  ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE", factory);
  EXPECT_TRUE(Contains(factory.status().message(), "avro")) << factory.status().ToString();
}

TEST_F(FilesWriteTest, OverwriteOnADataColumnIsRefused) {
  WritePartitionedTable();
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
  LogicalWriteInfo info{"q1", RowSchema(), {}};
  ASSERT_OK_AND_ASSIGN(auto builder, dynamic_cast<SupportsWrite&>(*table).NewWriteBuilder(info));
  auto& overwrite = dynamic_cast<SupportsOverwriteV2&>(*builder);
  auto on_id = MakePredicate("=", {FieldReference("id"), I32(1)});
  EXPECT_FALSE(overwrite.CanOverwrite({on_id}));
  auto refused = overwrite.Overwrite({on_id});
  ASSERT_RAISES_CONDITION("UNSUPPORTED_OVERWRITE.TABLE", refused);
  EXPECT_TRUE(Contains(refused.message(), "id")) << refused.ToString();

  // An unpartitioned table can only be overwritten whole.
  ASSERT_OK_AND_ASSIGN(auto flat, OpenTable("parquet", "flat"));
  ASSERT_OK_AND_ASSIGN(auto flat_builder,
                       dynamic_cast<SupportsWrite&>(*flat).NewWriteBuilder(info));
  auto& flat_overwrite = dynamic_cast<SupportsOverwriteV2&>(*flat_builder);
  EXPECT_FALSE(
      flat_overwrite.CanOverwrite({MakePredicate("=", {FieldReference("year"), I32(2023)})}));
  EXPECT_TRUE(flat_overwrite.CanOverwrite({MakePredicate("ALWAYS_TRUE", {})}));
}

TEST_F(FilesWriteTest, BatchesThatDoNotMatchTheTableAreRejected) {
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable("parquet", "t"));
  ASSERT_OK_AND_ASSIGN(auto job, Start(*table, "q1"));
  ASSERT_OK_AND_ASSIGN(auto factory, job.batch->DeserializeWriterFactory(job.factory_bytes));
  ASSERT_OK_AND_ASSIGN(auto writer, factory->CreateWriter(0, 0));
  auto rows = Rows(0, 2);
  ASSERT_OK_AND_ASSIGN(auto as_text, cp::Cast(rows->column(2), arrow::utf8()));
  auto wrong_type =
      arrow::RecordBatch::Make(arrow::schema({rows->schema()->field(0), rows->schema()->field(1),
                                              arrow::field("year", arrow::utf8())}),
                               2, {rows->column(0), rows->column(1), as_text.make_array()});
  auto status = writer->Write(*wrong_type);
  ASSERT_RAISES_CONDITION("INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST", status);
  EXPECT_TRUE(Contains(status.message(), "`year`")) << status.ToString();
  ASSERT_OK_AND_ASSIGN(auto narrow, rows->RemoveColumn(2));
  ASSERT_RAISES_CONDITION("INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_FIND_DATA", writer->Write(*narrow));
  ASSERT_OK(writer->Abort());

  // The write's own schema must be the table's.
  LogicalWriteInfo info{"q2", wrong_type->schema(), {}};
  ASSERT_RAISES_CONDITION("INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST",
                          dynamic_cast<SupportsWrite&>(*table).NewWriteBuilder(info));
}

TEST_F(FilesWriteTest, FilesAndGlobsAreNotWritable) {
  ASSERT_OK(Append("parquet", "t", "q1", {Rows(0, 2)}));
  auto provider = MakeFilesTableProvider("parquet");
  ASSERT_OK_AND_ASSIGN(auto glob, provider->GetTable(RowSchema(), {{"path", Path("t/*")}}));
  EXPECT_EQ(glob->capabilities(), std::set<TableCapability>{TableCapability::kBatchRead});
  LogicalWriteInfo info{"q2", RowSchema(), {}};
  ASSERT_RAISES_CONDITION("UNSUPPORTED_FEATURE.TABLE_OPERATION",
                          dynamic_cast<SupportsWrite&>(*glob).NewWriteBuilder(info));
  EXPECT_TRUE(provider->SupportsExternalMetadata());
  ASSERT_RAISES_CONDITION("PARTITION_COLUMN_NOT_FOUND_IN_SCHEMA",
                          provider->GetTable(RowSchema(), {{"path", Path("new")},
                                                           {"__partition_columns", R"(["day"])"}}));
}

}  // namespace
}  // namespace parley::files
