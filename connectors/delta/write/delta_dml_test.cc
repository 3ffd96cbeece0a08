// Row-level DML on Delta tables through the connector API: the copy-on-write commit (removes of
// the files read and adds of their replacements in one commit), its conflict with a concurrent
// rewrite of the same files, and the metadata-only delete on partition columns.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include "arrow/api.h"
#include "arrow/filesystem/localfs.h"
#include "arrow/json/from_string.h"
#include "connectors/delta/delta_catalog.h"
#include "connectors/delta/log/delta_log.h"
#include "parley/connector/read.h"
#include "parley/connector/row_level.h"
#include "parley/connector/write.h"
#include "testing/gtest_util.h"
#include "testing/scan_harness.h"

namespace parley::delta {
namespace {

namespace fs = std::filesystem;

class DeltaDmlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device random;
    warehouse_ = fs::temp_directory_path() / ("parley-delta-dml-" + std::to_string(random()));
    auto plugin = MakeDeltaCatalog();
    ASSERT_OK(plugin->Initialize("spark_catalog", {{"warehouse", warehouse_.string()}}));
    catalog_ = std::dynamic_pointer_cast<TableCatalog>(plugin);
  }
  void TearDown() override { fs::remove_all(warehouse_); }

  void Create(bool partitioned, std::map<std::string, std::string> properties = {}) {
    TableInfo info;
    info.properties = std::move(properties);
    info.columns = {{"id", arrow::int32(), true, "", std::nullopt},
                    {"p", arrow::utf8(), true, "", std::nullopt}};
    if (partitioned) {
      info.partitioning = {
          std::make_shared<Transform>("identity", std::vector<ExpressionPtr>{FieldReference("p")})};
    }
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

  // Run every task of `write` on `rows` and return the batch write, ready to commit.
  static Result<std::pair<std::shared_ptr<BatchWrite>, CommitMessagePtr>> Stage(
      WriteBuilder& builder, const std::shared_ptr<arrow::RecordBatch>& rows) {
    ARROW_ASSIGN_OR_RAISE(auto write, builder.Build());
    ARROW_ASSIGN_OR_RAISE(auto batch_write, write->ToBatch());
    ARROW_ASSIGN_OR_RAISE(auto factory, batch_write->CreateBatchWriterFactory({1}));
    ARROW_ASSIGN_OR_RAISE(auto writer, factory->CreateWriter(0, 0));
    ARROW_RETURN_NOT_OK(writer->Write(*rows));
    ARROW_ASSIGN_OR_RAISE(auto message, writer->Commit());
    ARROW_RETURN_NOT_OK(writer->Close());
    return std::make_pair(batch_write, message);
  }

  Status Append(const std::string& json) {
    auto table = Load();
    LogicalWriteInfo info{"append", Rows(json)->schema(), {}};
    ARROW_ASSIGN_OR_RAISE(auto builder, dynamic_cast<SupportsWrite&>(*table).NewWriteBuilder(info));
    ARROW_ASSIGN_OR_RAISE(auto staged, Stage(*builder, Rows(json)));
    return staged.first->Commit({staged.second});
  }

  // A row-level operation that has scanned the groups `predicates` choose, and those rows.
  struct Scanned {
    std::shared_ptr<RowLevelOperation> operation;
    std::multiset<std::string> rows;
  };

  Result<Scanned> ScanGroups(RowLevelCommand command, std::vector<PredicatePtr> predicates) {
    auto table = Load();
    ARROW_ASSIGN_OR_RAISE(
        auto builder, dynamic_cast<SupportsRowLevelOperations&>(*table).NewRowLevelOperationBuilder(
                          {command, {}}));
    Scanned scanned;
    ARROW_ASSIGN_OR_RAISE(scanned.operation, builder->Build());
    ARROW_ASSIGN_OR_RAISE(auto scan_builder, scanned.operation->NewScanBuilder({}));
    ARROW_RETURN_NOT_OK(dynamic_cast<SupportsPushDownV2Filters&>(*scan_builder)
                            .PushPredicates(predicates)
                            .status());
    ARROW_ASSIGN_OR_RAISE(auto scan, scan_builder->Build());
    ARROW_ASSIGN_OR_RAISE(auto run, testing::RunScan(*scan));
    scanned.rows = Strings(*run.rows);
    return scanned;
  }

  Status Rewrite(const Scanned& scanned, const std::string& json) {
    LogicalWriteInfo info{"rewrite", Rows(json)->schema(), {}};
    ARROW_ASSIGN_OR_RAISE(auto builder, scanned.operation->NewWriteBuilder(info));
    ARROW_ASSIGN_OR_RAISE(auto staged, Stage(*builder, Rows(json)));
    return staged.first->Commit({staged.second});
  }

  // Rows of the table's columns then kRowLevelWriteActionColumn, as a write that
  // RequiresChangeRows() receives them: [id, p, action] each.
  static std::shared_ptr<arrow::RecordBatch> ChangeRows(const std::string& json) {
    auto schema =
        arrow::schema({arrow::field("id", arrow::int32()), arrow::field("p", arrow::utf8()),
                       arrow::field(kRowLevelWriteActionColumn, arrow::int32(), false)});
    auto rows =
        arrow::json::ArrayFromJSONString(arrow::struct_(schema->fields()), json).ValueOrDie();
    return arrow::RecordBatch::FromStructArray(rows).ValueOrDie();
  }

  // Stage `rows` through the operation's write, not yet committed.
  static Result<std::pair<std::shared_ptr<BatchWrite>, CommitMessagePtr>> StageChanges(
      const Scanned& scanned, const std::shared_ptr<arrow::RecordBatch>& rows) {
    LogicalWriteInfo info{"rewrite", rows->schema(), {}};
    ARROW_ASSIGN_OR_RAISE(auto builder, scanned.operation->NewWriteBuilder(info));
    return Stage(*builder, rows);
  }

  // The files under the table's `_change_data/` directory.
  size_t ChangeDataFiles() const {
    const auto directory = warehouse_ / "default" / "t" / "_change_data";
    if (!fs::exists(directory)) return 0;
    size_t files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(directory)) {
      files += entry.is_regular_file();
    }
    return files;
  }

  static std::multiset<std::string> Strings(const arrow::Table& rows) {
    std::multiset<std::string> out;
    for (int64_t row = 0; row < rows.num_rows(); ++row) {
      out.insert(rows.column(0)->GetScalar(row).ValueOrDie()->ToString() + ":" +
                 rows.column(1)->GetScalar(row).ValueOrDie()->ToString());
    }
    return out;
  }

  std::multiset<std::string> Read() {
    auto table = Load();
    auto builder = dynamic_cast<SupportsRead&>(*table).NewScanBuilder({}).ValueOrDie();
    auto scan = builder->Build().ValueOrDie();
    return Strings(*testing::RunScan(*scan).ValueOrDie().rows);
  }

  // The actions of one commit file, by kind.
  std::map<std::string, std::vector<nlohmann::json>> Commit(int64_t version) {
    char name[32];
    std::snprintf(name, sizeof(name), "%020lld.json", static_cast<long long>(version));
    std::ifstream in(warehouse_ / "default" / "t" / "_delta_log" / name);
    std::map<std::string, std::vector<nlohmann::json>> actions;
    std::string line;
    while (std::getline(in, line)) {
      auto action = nlohmann::json::parse(line);
      actions[action.begin().key()].push_back(action.begin().value());
    }
    return actions;
  }

  static PredicatePtr Equals(const std::string& column, std::shared_ptr<arrow::Scalar> value) {
    return MakePredicate("=", {FieldReference(column), MakeLiteral(std::move(value))});
  }

  inline static const Identifier kIdent{{"default"}, "t"};
  fs::path warehouse_;
  std::shared_ptr<TableCatalog> catalog_;
};

TEST_F(DeltaDmlTest, CopyOnWriteReplacesTheFilesReadInOneCommit) {
  Create(/*partitioned=*/false);
  ASSERT_OK(Append(R"([[1, "a"], [2, "b"]])"));
  ASSERT_OK(Append(R"([[3, "c"]])"));
  // Statistics skip the second file: only the first is read, every row of it.
  ASSERT_OK_AND_ASSIGN(auto scanned, ScanGroups(RowLevelCommand::kDelete,
                                                {Equals("id", arrow::MakeScalar(int32_t{1}))}));
  EXPECT_EQ(scanned.rows, (std::multiset<std::string>{"1:a", "2:b"}));
  ASSERT_OK(Rewrite(scanned, R"([[2, "b"]])"));
  auto actions = Commit(3);
  ASSERT_EQ(actions["remove"].size(), 1u);
  ASSERT_EQ(actions["add"].size(), 1u);
  EXPECT_TRUE(actions["remove"][0]["dataChange"].get<bool>());
  EXPECT_EQ(actions["commitInfo"][0]["operation"], "DELETE");
  EXPECT_EQ(actions["commitInfo"][0]["operationMetrics"]["numRemovedFiles"], "1");
  EXPECT_EQ(Read(), (std::multiset<std::string>{"2:b", "3:c"}));
}

TEST_F(DeltaDmlTest, ConcurrentRewritesOfTheSameFileConflict) {
  Create(/*partitioned=*/false);
  ASSERT_OK(Append(R"([[1, "a"], [2, "b"]])"));
  auto predicate = Equals("id", arrow::MakeScalar(int32_t{1}));
  ASSERT_OK_AND_ASSIGN(auto first, ScanGroups(RowLevelCommand::kUpdate, {predicate}));
  ASSERT_OK_AND_ASSIGN(auto second, ScanGroups(RowLevelCommand::kDelete, {predicate}));
  ASSERT_OK(Rewrite(first, R"([[10, "a"], [2, "b"]])"));
  Status lost = Rewrite(second, R"([[2, "b"]])");
  ASSERT_FALSE(lost.ok());
  EXPECT_EQ(ErrorCondition(lost).rfind("DELTA_CONCURRENT_", 0), 0u) << lost.ToString();
  EXPECT_EQ(Read(), (std::multiset<std::string>{"10:a", "2:b"}));
}

TEST_F(DeltaDmlTest, DeleteOnPartitionColumnsRemovesWholeFiles) {
  Create(/*partitioned=*/true);
  ASSERT_OK(Append(R"([[1, "a"], [2, "b"], [3, "a"]])"));
  auto table = Load();
  auto& deletable = dynamic_cast<SupportsDeleteV2&>(*table);
  auto on_partition = Equals("p", arrow::MakeScalar(std::string("a")));
  EXPECT_TRUE(deletable.CanDeleteWhere({on_partition}));
  EXPECT_FALSE(deletable.CanDeleteWhere({Equals("id", arrow::MakeScalar(int32_t{1}))}));
  ASSERT_OK_AND_ASSIGN(int64_t deleted, deletable.DeleteWhere({on_partition}));
  EXPECT_EQ(deleted, 2);
  auto actions = Commit(2);
  EXPECT_EQ(actions["remove"].size(), 1u);
  EXPECT_EQ(actions.count("add"), 0u);
  EXPECT_EQ(actions["commitInfo"][0]["operationMetrics"]["numDeletedRows"], "2");
  EXPECT_EQ(Read(), (std::multiset<std::string>{"2:b"}));
}

// With the change data feed on, the rewrite's change rows go to `_change_data/` as `cdc`
// actions of the same commit, per partition; copied rows record no change.
TEST_F(DeltaDmlTest, ChangeDataFeedRewriteCommitsChangeFiles) {
  Create(/*partitioned=*/true, {{"delta.enableChangeDataFeed", "true"}});
  ASSERT_OK(Append(R"([[1, "a"], [2, "a"], [3, "b"]])"));
  ASSERT_OK_AND_ASSIGN(auto scanned, ScanGroups(RowLevelCommand::kMerge, {}));
  EXPECT_TRUE(scanned.operation->RequiresChangeRows());
  // 1 copied, 2 updated to 20, 3 deleted, 4 inserted.
  ASSERT_OK_AND_ASSIGN(auto staged, StageChanges(scanned, ChangeRows(R"([
      [1, "a", 0], [20, "a", 1], [2, "a", 5], [3, "b", 2], [4, "b", 3]])")));
  ASSERT_OK(staged.first->Commit({staged.second}));
  auto actions = Commit(2);
  EXPECT_EQ(actions["remove"].size(), 2u);
  ASSERT_EQ(actions["add"].size(), 2u);
  for (const auto& add : actions["add"]) EXPECT_TRUE(add["dataChange"].get<bool>());
  ASSERT_EQ(actions["cdc"].size(), 2u);
  std::set<std::string> partitions;
  for (const auto& cdc : actions["cdc"]) {
    EXPECT_EQ(cdc["path"].get<std::string>().rfind("_change_data/p=", 0), 0u) << cdc.dump();
    EXPECT_FALSE(cdc["dataChange"].get<bool>());
    partitions.insert(cdc["partitionValues"]["p"].get<std::string>());
  }
  EXPECT_EQ(partitions, (std::set<std::string>{"a", "b"}));
  EXPECT_EQ(actions["commitInfo"][0]["operationMetrics"]["numTargetChangeFilesAdded"], "2");
  EXPECT_EQ(ChangeDataFiles(), 2u);
  EXPECT_EQ(Read(), (std::multiset<std::string>{"1:a", "20:a", "4:b"}));
}

// A rewrite that loses its commit leaves neither data nor change files behind.
TEST_F(DeltaDmlTest, ChangeDataFeedFilesGoWhenTheCommitFails) {
  Create(/*partitioned=*/false, {{"delta.enableChangeDataFeed", "true"}});
  ASSERT_OK(Append(R"([[1, "a"], [2, "b"]])"));
  auto predicate = Equals("id", arrow::MakeScalar(int32_t{1}));
  ASSERT_OK_AND_ASSIGN(auto first, ScanGroups(RowLevelCommand::kDelete, {predicate}));
  ASSERT_OK_AND_ASSIGN(auto second, ScanGroups(RowLevelCommand::kDelete, {predicate}));
  ASSERT_OK_AND_ASSIGN(auto won, StageChanges(first, ChangeRows(R"([[1, "a", 2], [2, "b", 0]])")));
  ASSERT_OK(won.first->Commit({won.second}));
  ASSERT_EQ(ChangeDataFiles(), 1u);
  ASSERT_OK_AND_ASSIGN(auto lost,
                       StageChanges(second, ChangeRows(R"([[1, "a", 2], [2, "b", 0]])")));
  EXPECT_EQ(ChangeDataFiles(), 2u);
  Status failed = lost.first->Commit({lost.second});
  ASSERT_FALSE(failed.ok());
  ASSERT_OK(lost.first->Abort({lost.second}));
  EXPECT_EQ(ChangeDataFiles(), 1u);
  EXPECT_EQ(Read(), (std::multiset<std::string>{"2:b"}));
}

// Without the change data feed the operation asks for no change rows and writes no change files.
TEST_F(DeltaDmlTest, NoChangeDataFeedWritesNoChangeFiles) {
  Create(/*partitioned=*/false);
  ASSERT_OK(Append(R"([[1, "a"], [2, "b"]])"));
  ASSERT_OK_AND_ASSIGN(auto scanned, ScanGroups(RowLevelCommand::kUpdate, {}));
  EXPECT_FALSE(scanned.operation->RequiresChangeRows());
  ASSERT_OK(Rewrite(scanned, R"([[10, "a"], [2, "b"]])"));
  auto actions = Commit(2);
  EXPECT_EQ(actions.count("cdc"), 0u);
  EXPECT_EQ(actions["commitInfo"][0]["operationMetrics"]["numAddedChangeFiles"], "0");
  EXPECT_EQ(ChangeDataFiles(), 0u);
}

}  // namespace
}  // namespace parley::delta
