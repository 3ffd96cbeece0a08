// The post-processing stages on Arrow data directly: NULL handling (spec §H), string commit
// versions, tie order, multi-batch input, and net changes over many batches (compaction).
#include <gtest/gtest.h>

#include "arrow/api.h"
#include "arrow/compute/initialize.h"
#include "cdc/net_changes_pass.h"
#include "cdc/row_level_pass.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

constexpr int64_t kNull = INT64_MIN;

struct Raw {
  int64_t id;        // kNull: NULL
  int64_t rv;        // kNull: NULL
  const char* type;  // nullptr: NULL
  int64_t version;   // kNull: NULL
  std::string tag = {};
};

std::shared_ptr<arrow::Schema> Schema() {
  return arrow::schema({arrow::field("id", arrow::int64()), arrow::field("rv", arrow::int64()),
                        arrow::field("tag", arrow::utf8()),
                        arrow::field(kChangeTypeColumn, arrow::utf8()),
                        arrow::field(kCommitVersionColumn, arrow::int64())});
}

std::shared_ptr<arrow::RecordBatch> Batch(const std::vector<Raw>& rows) {
  arrow::Int64Builder ids, rvs, versions;
  arrow::StringBuilder tags, types;
  auto append = [](arrow::Int64Builder* b, int64_t v) {
    return v == kNull ? b->AppendNull() : b->Append(v);
  };
  for (const auto& r : rows) {
    EXPECT_OK(append(&ids, r.id));
    EXPECT_OK(append(&rvs, r.rv));
    EXPECT_OK(tags.Append(r.tag));
    EXPECT_OK(r.type == nullptr ? types.AppendNull() : types.Append(r.type));
    EXPECT_OK(append(&versions, r.version));
  }
  arrow::ArrayVector columns(5);
  EXPECT_OK(ids.Finish(&columns[0]));
  EXPECT_OK(rvs.Finish(&columns[1]));
  EXPECT_OK(tags.Finish(&columns[2]));
  EXPECT_OK(types.Finish(&columns[3]));
  EXPECT_OK(versions.Finish(&columns[4]));
  return arrow::RecordBatch::Make(Schema(), static_cast<int64_t>(rows.size()), columns);
}

std::shared_ptr<arrow::Table> Table(const std::vector<std::vector<Raw>>& batches) {
  std::vector<std::shared_ptr<arrow::RecordBatch>> out;
  for (const auto& rows : batches) out.push_back(Batch(rows));
  return *arrow::Table::FromRecordBatches(Schema(), out);
}

// "tag:type" per row, sorted.
std::vector<std::string> Tags(const arrow::Table& table) {
  auto batch = *table.CombineChunksToBatch();
  auto tags = std::static_pointer_cast<arrow::StringArray>(batch->GetColumnByName("tag"));
  auto types =
      std::static_pointer_cast<arrow::StringArray>(batch->GetColumnByName(kChangeTypeColumn));
  std::vector<std::string> out;
  for (int64_t i = 0; i < batch->num_rows(); ++i) {
    out.push_back(std::string(tags->GetView(i)) + ":" +
                  (types->IsNull(i) ? "NULL" : std::string(types->GetView(i))));
  }
  std::sort(out.begin(), out.end());
  return out;
}

ChangelogPostProcessing Post(bool carryovers, bool updates, bool net, bool compute_updates) {
  ChangelogPostProcessing post;
  post.row_id = {{"id"}};
  post.row_version = {"rv"};
  post.carryover_removal = carryovers;
  post.update_detection = updates;
  post.net_changes = net;
  post.info.compute_updates = compute_updates;
  return post;
}

Result<std::shared_ptr<arrow::Table>> Net(const std::shared_ptr<arrow::Table>& input,
                                          const ChangelogPostProcessing& post) {
  ARROW_RETURN_NOT_OK(arrow::compute::Initialize());
  arrow::TableBatchReader reader(*input);
  return RunNetChanges(&reader, post);
}

Result<std::shared_ptr<arrow::Table>> RowLevel(const std::shared_ptr<arrow::Table>& input,
                                               const ChangelogPostProcessing& post) {
  ARROW_RETURN_NOT_OK(arrow::compute::Initialize());
  return RunRowLevelStage(input, post);
}

using Lines = std::vector<std::string>;

TEST(RowLevelStageTest, ANullRowVersionIsNeverACarryover) {
  auto input = Table({{{1, 5, "delete", 2, "d"}, {1, kNull, "insert", 2, "i"}}});
  ASSERT_OK_AND_ASSIGN(auto out, RowLevel(input, Post(true, false, false, false)));
  EXPECT_EQ(Tags(*out), (Lines{"d:delete", "i:insert"}));
  auto both_null = Table({{{1, kNull, "delete", 2, "d"}, {1, kNull, "insert", 2, "i"}}});
  ASSERT_OK_AND_ASSIGN(out, RowLevel(both_null, Post(true, false, false, false)));
  EXPECT_EQ(out->num_rows(), 2);
}

TEST(RowLevelStageTest, NullIdentitiesAndVersionsGroupTogether) {
  // Across two batches: NULL ids pair up, and so do NULL commit versions.
  auto input = Table({{{kNull, 1, "delete", 2, "a"}, {3, 1, "delete", kNull, "c"}},
                      {{kNull, 1, "insert", 2, "b"}, {3, 1, "insert", kNull, "d"}}});
  ASSERT_OK_AND_ASSIGN(auto out, RowLevel(input, Post(true, false, false, false)));
  EXPECT_EQ(out->num_rows(), 0);
}

TEST(RowLevelStageTest, UpdateDetectionRelabelsEveryNonInsertRowOfAPair) {
  auto input = Table({{{1, 1, "delete", 2, "d"},
                       {1, 2, "insert", 2, "i"},
                       {1, 2, nullptr, 2, "n"},
                       {2, 1, "insert", 2, "lone"},
                       {3, 1, "update_preimage", 2, "pre"}}});
  ASSERT_OK_AND_ASSIGN(auto out, RowLevel(input, Post(false, true, false, false)));
  EXPECT_EQ(Tags(*out), (Lines{"d:update_preimage", "i:update_postimage", "lone:insert",
                               "n:update_preimage", "pre:update_preimage"}));
}

TEST(RowLevelStageTest, CarryoverRemovalAloneLetsMultipleChangesThrough) {
  auto input =
      Table({{{1, 1, "delete", 2, "a"}, {1, 1, "delete", 2, "b"}, {1, 1, "insert", 2, "c"}}});
  ASSERT_OK_AND_ASSIGN(auto out, RowLevel(input, Post(true, false, false, false)));
  EXPECT_EQ(out->num_rows(), 3);
  ASSERT_RAISES_CONDITION(
      "CHANGELOG_CONTRACT_VIOLATION.UNEXPECTED_MULTIPLE_CHANGES_PER_ROW_VERSION",
      RowLevel(input, Post(true, true, false, false)));
}

TEST(NetChangesTest, NullVersionsSortFirstAndTiesKeepInputOrder) {
  auto input = Table({{{1, 1, "insert", 3, "late"}, {1, 1, "delete", kNull, "first"}},
                      {{2, 1, "insert", 4, "x"}, {2, 1, "insert", 4, "y"}}});
  ASSERT_OK_AND_ASSIGN(auto out, Net(input, Post(false, false, true, false)));
  EXPECT_EQ(Tags(*out), (Lines{"first:delete", "late:insert", "y:insert"}));
}

TEST(NetChangesTest, StringVersionsOrderAsText) {
  auto schema =
      arrow::schema({arrow::field("id", arrow::int64()), arrow::field("tag", arrow::utf8()),
                     arrow::field(kChangeTypeColumn, arrow::utf8()),
                     arrow::field(kCommitVersionColumn, arrow::utf8())});
  arrow::Int64Builder ids;
  arrow::StringBuilder tags, types, versions;
  ASSERT_OK(ids.AppendValues({1, 1}));
  ASSERT_OK(tags.AppendValues({"newer", "older"}));
  ASSERT_OK(types.AppendValues({"insert", "delete"}));
  ASSERT_OK(versions.AppendValues({"b", "a"}));
  arrow::ArrayVector columns(4);
  ASSERT_OK(ids.Finish(&columns[0]));
  ASSERT_OK(tags.Finish(&columns[1]));
  ASSERT_OK(types.Finish(&columns[2]));
  ASSERT_OK(versions.Finish(&columns[3]));
  auto input = arrow::Table::Make(schema, columns);
  ASSERT_OK_AND_ASSIGN(auto out, Net(input, Post(false, false, true, true)));
  EXPECT_EQ(Tags(*out), (Lines{"newer:update_postimage", "older:update_preimage"}));
}

TEST(NetChangesTest, AnyUnknownChangeTypeFails) {
  auto input = Table({{{1, 1, "insert", 1, "a"}}, {{2, 1, nullptr, 1, "b"}}});
  ASSERT_RAISES_CONDITION("CHANGELOG_CONTRACT_VIOLATION.UNEXPECTED_CHANGE_TYPE",
                          Net(input, Post(false, false, true, false)));
}

TEST(NetChangesTest, ManyBatchesOfFewIdentitiesKeepOnlyTheirEnds) {
  // 2000 batches over 10 identities: far more rows than the pass retains, so it compacts.
  std::vector<std::vector<Raw>> batches;
  for (int64_t v = 1; v <= 2000; ++v) {
    std::vector<Raw> rows;
    for (int64_t id = 0; id < 10; ++id) {
      const char* type = v % 2 == 1 ? "insert" : "delete";
      rows.push_back({id, v, type, v, std::to_string(id) + "@" + std::to_string(v)});
    }
    batches.push_back(rows);
  }
  batches.push_back({{3, 2001, "insert", 2001, "3@2001"}});
  ASSERT_OK_AND_ASSIGN(auto out, Net(Table(batches), Post(false, false, true, false)));
  // Every identity was inserted at 1 and deleted at 2000; 3 came back at 2001.
  EXPECT_EQ(Tags(*out), (Lines{"3@2001:insert"}));
}

}  // namespace
}  // namespace parley
