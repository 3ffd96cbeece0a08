// The analysis-time checks of a changelog and the choice of passes (the decision table).
#include "cdc/changelog_table.h"

#include <gtest/gtest.h>

#include "arrow/type.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

// A changelog described by its fields; RowId/RowVersion are left undefined on request.
class FakeChangelog : public Changelog {
 public:
  std::vector<Column> cols = SchemaToColumns(*arrow::schema(
      {arrow::field("id", arrow::int64()), arrow::field("rv", arrow::int64()),
       arrow::field(kChangeTypeColumn, arrow::utf8()),
       arrow::field(kCommitVersionColumn, arrow::int64()),
       arrow::field(kCommitTimestampColumn, arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"))}));
  bool co = false, ic = false, ud = false;
  bool define_row_id = true, define_row_version = true;
  std::vector<std::string> row_id = {"id"};

  std::string name() const override { return "cat.t_changelog"; }
  std::vector<Column> columns() const override { return cols; }
  bool ContainsCarryoverRows() const override { return co; }
  bool ContainsIntermediateChanges() const override { return ic; }
  bool RepresentsUpdateAsDeleteAndInsert() const override { return ud; }
  Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options&) override {
    return MakeError(arrow::StatusCode::Invalid, "UNSUPPORTED_FEATURE.CHANGE_DATA_CAPTURE",
                     "This test changelog is never scanned.");
  }
  Result<std::vector<std::shared_ptr<NamedReference>>> RowId() const override {
    if (!define_row_id) return Changelog::RowId();
    std::vector<std::shared_ptr<NamedReference>> refs;
    for (const auto& name : row_id) refs.push_back(FieldReference(name));
    return refs;
  }
  Result<std::shared_ptr<NamedReference>> RowVersion() const override {
    if (!define_row_version) return Changelog::RowVersion();
    return FieldReference("rv");
  }
};

Result<std::shared_ptr<ChangelogTable>> Make(
    std::shared_ptr<FakeChangelog> changelog,
    DeduplicationMode mode = DeduplicationMode::kDropCarryovers, bool compute_updates = false) {
  ChangeRequest request;
  request.info.deduplication_mode = mode;
  request.info.compute_updates = compute_updates;
  return ChangelogTable::Make(std::move(changelog), request);
}

void SetType(FakeChangelog* changelog, const std::string& column,
             std::shared_ptr<arrow::DataType> type) {
  for (auto& c : changelog->cols) {
    if (c.name == column) c.type = std::move(type);
  }
}

void Drop(FakeChangelog* changelog, const std::string& column) {
  std::erase_if(changelog->cols, [&](const Column& c) { return c.name == column; });
}

TEST(ChangelogTableTest, EachMetadataColumnMustExistWithItsType) {
  for (const char* column : {kChangeTypeColumn, kCommitVersionColumn, kCommitTimestampColumn}) {
    auto changelog = std::make_shared<FakeChangelog>();
    Drop(changelog.get(), column);
    auto status = Make(changelog).status();
    ASSERT_RAISES_CONDITION("INVALID_CHANGELOG_SCHEMA.MISSING_COLUMN", status);
    EXPECT_EQ(ErrorParameters(status).at("columnName"), column);
    EXPECT_EQ(ErrorParameters(status).at("changelogName"), "cat.t_changelog");
  }
  struct Case {
    const char* column;
    std::shared_ptr<arrow::DataType> type;
    const char* expected;
    const char* actual;
  };
  for (const auto& c :
       std::vector<Case>{{kChangeTypeColumn, arrow::int32(), "STRING", "INT"},
                         {kCommitVersionColumn, arrow::int32(), "BIGINT or STRING", "INT"},
                         {kCommitVersionColumn, arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"),
                          "BIGINT or STRING", "TIMESTAMP"},
                         {kCommitTimestampColumn, arrow::int64(), "TIMESTAMP", "BIGINT"},
                         {kCommitTimestampColumn, arrow::timestamp(arrow::TimeUnit::MICRO),
                          "TIMESTAMP", "TIMESTAMP_NTZ"}}) {
    auto changelog = std::make_shared<FakeChangelog>();
    SetType(changelog.get(), c.column, c.type);
    auto status = Make(changelog).status();
    ASSERT_RAISES_CONDITION("INVALID_CHANGELOG_SCHEMA.INVALID_COLUMN_TYPE", status);
    auto parameters = ErrorParameters(status);
    EXPECT_EQ(parameters.at("columnName"), c.column);
    EXPECT_EQ(parameters.at("expectedType"), c.expected);
    EXPECT_EQ(parameters.at("actualType"), c.actual);
  }
  auto string_versions = std::make_shared<FakeChangelog>();
  SetType(string_versions.get(), kCommitVersionColumn, arrow::utf8());
  EXPECT_OK(Make(string_versions).status());
}

TEST(ChangelogTableTest, AnyFlagNeedsARowId) {
  auto changelog = std::make_shared<FakeChangelog>();
  changelog->ic = true;
  changelog->row_id = {};
  ASSERT_RAISES_CONDITION("INVALID_CHANGELOG_SCHEMA.MISSING_ROW_ID", Make(changelog).status());
  // Without flags the row identity is never asked for.
  auto plain = std::make_shared<FakeChangelog>();
  plain->define_row_id = false;
  plain->define_row_version = false;
  EXPECT_OK(Make(plain).status());
}

TEST(ChangelogTableTest, UndefinedRowIdOrRowVersionPropagatesTheConnectorError) {
  auto no_row_id = std::make_shared<FakeChangelog>();
  no_row_id->ic = true;
  no_row_id->define_row_id = false;
  EXPECT_TRUE(Make(no_row_id).status().IsNotImplemented());
  // The API's default names the missing method with a condition.
  ASSERT_RAISES_CONDITION("UNSUPPORTED_FEATURE.CHANGELOG_ROW_ID",
                          no_row_id->Changelog::RowId().status());
  auto no_row_version = std::make_shared<FakeChangelog>();
  no_row_version->ud = true;
  no_row_version->define_row_version = false;
  EXPECT_TRUE(Make(no_row_version).status().IsNotImplemented());
  // Intermediate changes alone do not need a row version.
  auto net_only = std::make_shared<FakeChangelog>();
  net_only->ic = true;
  net_only->define_row_version = false;
  EXPECT_OK(Make(net_only).status());
}

TEST(ChangelogTableTest, UpdateDetectionOnCarryoversNeedsCarryoverRemoval) {
  auto changelog = std::make_shared<FakeChangelog>();
  changelog->co = true;
  changelog->ud = true;
  auto status = Make(changelog, DeduplicationMode::kNone, /*compute_updates=*/true).status();
  ASSERT_RAISES_CONDITION("INVALID_CDC_OPTION.UPDATE_DETECTION_REQUIRES_CARRY_OVER_REMOVAL",
                          status);
  EXPECT_EQ(ErrorParameters(status).at("changelogName"), "cat.t_changelog");
  // Without carry-overs (merge-on-read sources) the combination is legal.
  changelog->co = false;
  ASSERT_OK_AND_ASSIGN(auto table, Make(changelog, DeduplicationMode::kNone, true));
  EXPECT_TRUE(table->post_processing().update_detection);
  EXPECT_FALSE(table->post_processing().carryover_removal);
}

TEST(ChangelogTableTest, PassesFollowTheDecisionTable) {
  for (int flags = 0; flags < 8; ++flags) {
    for (auto mode : {DeduplicationMode::kNone, DeduplicationMode::kDropCarryovers,
                      DeduplicationMode::kNetChanges}) {
      for (bool cu : {false, true}) {
        auto changelog = std::make_shared<FakeChangelog>();
        changelog->co = flags & 1;
        changelog->ic = flags & 2;
        changelog->ud = flags & 4;
        auto table = Make(changelog, mode, cu);
        bool rejected = cu && changelog->ud && changelog->co && mode == DeduplicationMode::kNone;
        ASSERT_EQ(table.ok(), !rejected) << table.status().ToString();
        if (rejected) continue;
        const auto& post = (*table)->post_processing();
        EXPECT_EQ(post.carryover_removal, mode != DeduplicationMode::kNone && changelog->co);
        EXPECT_EQ(post.update_detection, cu && changelog->ud);
        EXPECT_EQ(post.net_changes, mode == DeduplicationMode::kNetChanges && changelog->ic);
      }
    }
  }
}

TEST(ChangelogTableTest, WrapsAsABatchAndMicroBatchReadableTable) {
  ASSERT_OK_AND_ASSIGN(auto table, Make(std::make_shared<FakeChangelog>()));
  EXPECT_EQ(table->name(), "cat.t_changelog");
  EXPECT_EQ(table->columns().size(), 5u);
  EXPECT_EQ(table->capabilities(), (std::set<TableCapability>{TableCapability::kBatchRead,
                                                              TableCapability::kMicroBatchRead}));
}

}  // namespace
}  // namespace parley
