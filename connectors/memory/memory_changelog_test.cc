// Tests of the memory catalog's changelogs through the connector API: range filtering of each
// kind, predicates the scan accepts or returns, column pruning, and changelogs a table declares
// with its properties.
#include "arrow/api.h"
#include "arrow/json/from_string.h"
#include "connectors/memory/memory_catalog.h"
#include "testing/gtest_util.h"
#include "testing/scan_harness.h"

namespace parley::memory {
namespace {

std::shared_ptr<arrow::Schema> ChangeSchema() {
  return arrow::schema(
      {arrow::field("id", arrow::int64()), arrow::field(kChangeTypeColumn, arrow::utf8()),
       arrow::field(kCommitVersionColumn, arrow::int64()),
       arrow::field(kCommitTimestampColumn, arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"))});
}

// Changes at versions 1, 2 and 3, one second apart.
std::shared_ptr<arrow::Table> ChangeRows() {
  auto schema = ChangeSchema();
  arrow::ArrayVector columns = {
      *arrow::json::ArrayFromJSONString(arrow::int64(), "[1, 2, 3]"),
      *arrow::json::ArrayFromJSONString(arrow::utf8(), R"(["insert", "insert", "delete"])"),
      *arrow::json::ArrayFromJSONString(arrow::int64(), "[1, 2, 3]"),
      *arrow::json::ArrayFromJSONString(schema->field(3)->type(),
                                        R"(["1970-01-01 00:00:01", "1970-01-01 00:00:02",
                                            "1970-01-01 00:00:03"])")};
  return arrow::Table::Make(schema, columns);
}

class MemoryChangelogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(catalog_.Initialize("mem", {}));
    MemoryChangelogData data;
    data.rows = ChangeRows();
    data.contains_intermediate_changes = true;
    data.row_id = {{"id"}};
    catalog_.SetChangelog(Identifier{{"default"}, "t"}, data);
  }

  // The ids a scan of `range` returns after offering `predicates`; `residual` gets what the
  // scan returned.
  Result<std::vector<int64_t>> Ids(ChangelogRange range, std::vector<PredicatePtr> predicates = {},
                                   std::vector<PredicatePtr>* residual = nullptr) {
    ChangelogInfo info;
    info.range = std::move(range);
    ARROW_ASSIGN_OR_RAISE(auto changelog, catalog_.LoadChangelog({{"default"}, "t"}, info));
    ARROW_ASSIGN_OR_RAISE(auto builder, changelog->NewScanBuilder({}));
    auto* filters = dynamic_cast<SupportsPushDownV2Filters*>(builder.get());
    if (filters == nullptr) return Status::Invalid("no filter pushdown");
    ARROW_ASSIGN_OR_RAISE(auto returned, filters->PushPredicates(std::move(predicates)));
    if (residual != nullptr) *residual = returned;
    ARROW_ASSIGN_OR_RAISE(auto scan, builder->Build());
    ARROW_ASSIGN_OR_RAISE(auto run, testing::RunScan(*scan));
    ARROW_ASSIGN_OR_RAISE(auto batch, run.rows->CombineChunksToBatch());
    std::vector<int64_t> ids;
    auto column = std::static_pointer_cast<arrow::Int64Array>(batch->GetColumnByName("id"));
    for (int64_t i = 0; i < column->length(); ++i) ids.push_back(column->Value(i));
    return ids;
  }

  static ChangelogRange Versions(std::string start, std::optional<std::string> end,
                                 bool start_inclusive = true, bool end_inclusive = true) {
    ChangelogRange range;
    range.kind = ChangelogRange::Kind::kVersion;
    range.starting_version = std::move(start);
    range.ending_version = std::move(end);
    range.starting_bound_inclusive = start_inclusive;
    range.ending_bound_inclusive = end_inclusive;
    return range;
  }

  MemoryCatalog catalog_;
};

using IdList = std::vector<int64_t>;

TEST_F(MemoryChangelogTest, DescribesItselfAsConfigured) {
  ASSERT_OK_AND_ASSIGN(auto changelog, catalog_.LoadChangelog({{"default"}, "t"}, {}));
  EXPECT_EQ(changelog->name(), "mem.t_changelog");
  EXPECT_EQ(changelog->columns().size(), 4u);
  EXPECT_TRUE(changelog->ContainsIntermediateChanges());
  EXPECT_FALSE(changelog->ContainsCarryoverRows());
  ASSERT_OK_AND_ASSIGN(auto row_id, changelog->RowId());
  ASSERT_EQ(row_id.size(), 1u);
  EXPECT_EQ(row_id[0]->ToString(), "id");
  EXPECT_TRUE(changelog->RowVersion().status().IsNotImplemented());
  EXPECT_EQ(catalog_.capabilities(),
            std::set<TableCatalogCapability>{TableCatalogCapability::kSupportChangelog});
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND",
                          catalog_.LoadChangelog({{"default"}, "nope"}, {}));
}

TEST_F(MemoryChangelogTest, RangesFilterByVersionOrTimestamp) {
  EXPECT_EQ(Ids({}).ValueOrDie(), (IdList{1, 2, 3}));
  EXPECT_EQ(Ids(Versions("2", std::nullopt)).ValueOrDie(), (IdList{2, 3}));
  EXPECT_EQ(Ids(Versions("1", "3", false, false)).ValueOrDie(), (IdList{2}));
  EXPECT_EQ(Ids(Versions("1", "2")).ValueOrDie(), (IdList{1, 2}));
  ChangelogRange timestamps;
  timestamps.kind = ChangelogRange::Kind::kTimestamp;
  timestamps.starting_timestamp = 2000000;
  timestamps.ending_timestamp = 3000000;
  timestamps.ending_bound_inclusive = false;
  EXPECT_EQ(Ids(timestamps).ValueOrDie(), (IdList{2}));
  ASSERT_RAISES_CONDITION("INVALID_OPTION_VALUE", Ids(Versions("two", std::nullopt)));
}

TEST_F(MemoryChangelogTest, AcceptsColumnLiteralComparisonsAndReturnsTheRest) {
  auto id_over_one = MakePredicate(
      ">", {FieldReference("id"), MakeLiteral(std::make_shared<arrow::Int64Scalar>(1))});
  auto two_columns = MakePredicate("=", {FieldReference("id"), FieldReference("id")});
  std::vector<PredicatePtr> residual;
  ASSERT_OK_AND_ASSIGN(auto ids, Ids({}, {id_over_one, two_columns}, &residual));
  EXPECT_EQ(ids, (IdList{2, 3}));
  ASSERT_EQ(residual.size(), 1u);
  EXPECT_EQ(residual[0], two_columns);
}

TEST_F(MemoryChangelogTest, ATableCanDeclareItsRowsAsChanges) {
  TableInfo info{SchemaToColumns(*ChangeSchema()), {}, {}};
  info.properties = {{"parley.changelog", "true"},
                     {"parley.changelog.containsCarryoverRows", "true"},
                     {"parley.changelog.rowId", "id, payload.id"},
                     {"parley.changelog.rowVersion", "id"}};
  ASSERT_OK(catalog_.CreateTable({{"default"}, "declared"}, info).status());
  ASSERT_OK(catalog_.AppendData({{"default"}, "declared"}, ChangeRows()));
  ASSERT_OK_AND_ASSIGN(auto changelog, catalog_.LoadChangelog({{"default"}, "declared"}, {}));
  EXPECT_TRUE(changelog->ContainsCarryoverRows());
  ASSERT_OK_AND_ASSIGN(auto row_id, changelog->RowId());
  ASSERT_EQ(row_id.size(), 2u);
  EXPECT_EQ(row_id[1]->field_names(), (std::vector<std::string>{"payload", "id"}));
  ASSERT_OK_AND_ASSIGN(auto row_version, changelog->RowVersion());
  EXPECT_EQ(row_version->ToString(), "id");

  info.properties.clear();
  ASSERT_OK(catalog_.CreateTable({{"default"}, "plain"}, info).status());
  ASSERT_RAISES_CONDITION("UNSUPPORTED_FEATURE.CHANGE_DATA_CAPTURE",
                          catalog_.LoadChangelog({{"default"}, "plain"}, {}));
}

}  // namespace
}  // namespace parley::memory
