// TABLESAMPLE negotiation: a Sample directly above a scan is offered first; a source that takes
// it samples the table and the Sample node goes, so filters then reach the scan. A source
// without the mix-in leaves the Sample to the engine, and no filter moves below it.
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/query_binder.h"
#include "arrow/array/array_primitive.h"
#include "arrow/table.h"
#include "catalog/catalog_manager.h"
#include "exec/executor.h"
#include "plan/explain.h"
#include "plan/pushdown.h"
#include "sql/parser.h"
#include "testing/gtest_util.h"
#include "testing/query_harness.h"
#include "testing/test_connector.h"

namespace parley {
namespace {

constexpr int kRows = 1000;

// The keys below `end` that the test connector's sample of [0, fraction) keeps.
std::vector<int32_t> SampledByTheSource(int end, double fraction) {
  std::vector<int32_t> kept;
  for (int i = 0; i < end; ++i) {
    if (std::fmod(i * 0.6180339887498949, 1.0) < fraction) kept.push_back(i);
  }
  return kept;
}

class PushdownSampleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(EnsureComputeInitialized());
    catalog_ = std::make_shared<testing::TestCatalog>();
    std::vector<int32_t> keys(kRows);
    for (int i = 0; i < kRows; ++i) keys[i] = i;
    auto data = testing::MakeIntTable({"k"}, {keys});
    testing::TestTableOptions options;
    options.filter_pushdown = true;
    options.column_pruning = true;
    catalog_->AddTable("plain", data, options);
    options.sample_pushdown = true;
    catalog_->AddTable("sampling", data, options);
    ASSERT_OK(catalogs_.Register("tc", catalog_));
  }

  Result<PlanNodePtr> Plan(const std::string& text) {
    return testing::PlanSelect(text, &catalogs_);
  }

  // The values of column k, in ascending order.
  Result<std::vector<int32_t>> Keys(const std::string& text) {
    ARROW_ASSIGN_OR_RAISE(auto plan, Plan(text));
    ARROW_ASSIGN_OR_RAISE(auto result, ExecutePlan(plan, ScanRunOptions{}));
    std::vector<int32_t> keys;
    for (const auto& chunk : result.table->column(0)->chunks()) {
      const auto& values = static_cast<const arrow::Int32Array&>(*chunk);
      for (int64_t i = 0; i < values.length(); ++i) keys.push_back(values.Value(i));
    }
    std::sort(keys.begin(), keys.end());
    return keys;
  }

  SqlConf conf_;
  CatalogManager catalogs_{&conf_, PluginRegistry{}};
  std::shared_ptr<testing::TestCatalog> catalog_;
};

TEST_F(PushdownSampleTest, ASourceThatSamplesTakesItAndTheFiltersAfterIt) {
  const std::string query =
      "SELECT k FROM tc.default.sampling TABLESAMPLE (25 PERCENT) REPEATABLE (7) WHERE k < 500";
  ASSERT_OK_AND_ASSIGN(auto keys, Keys(query));
  EXPECT_EQ(keys, SampledByTheSource(500, 0.25));
  auto log = catalog_->log("sampling");
  EXPECT_EQ(log->pushed_sample, "0 0.25 false 7");
  EXPECT_EQ(log->accepted_predicates, std::vector<std::string>{"k < 500"});
  ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
  ASSERT_OK_AND_ASSIGN(auto text, ExplainPlan(plan, sql::ExplainMode::kFormatted));
  EXPECT_NE(text.find("PushedSample: 0.0, 0.25, false, 7"), std::string::npos) << text;
  EXPECT_EQ(text.find("Sample ("), std::string::npos) << text;
}

TEST_F(PushdownSampleTest, WithoutTheMixInTheEngineSamplesAndKeepsFiltersAbove) {
  const std::string query =
      "SELECT k FROM tc.default.plain TABLESAMPLE (50 PERCENT) REPEATABLE (11) WHERE k < 800";
  ASSERT_OK_AND_ASSIGN(auto keys, Keys(query));
  // Filters never move below a sample: the source saw no offer.
  EXPECT_TRUE(catalog_->log("plain")->offered_predicates.empty());
  EXPECT_GT(keys.size(), 300u);
  EXPECT_LT(keys.size(), 500u);
  for (int32_t key : keys) EXPECT_LT(key, 800);
  ASSERT_OK_AND_ASSIGN(auto again, Keys(query));
  EXPECT_EQ(keys, again) << "the same seed keeps the same rows";
  ASSERT_OK_AND_ASSIGN(auto other, Keys("SELECT k FROM tc.default.plain TABLESAMPLE "
                                        "(50 PERCENT) REPEATABLE (12) WHERE k < 800"));
  EXPECT_NE(keys, other);
  ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
  ASSERT_OK_AND_ASSIGN(auto text, ExplainPlan(plan, sql::ExplainMode::kSimple));
  EXPECT_NE(text.find("Sample 0.0, 0.5, false, 11"), std::string::npos) << text;
}

TEST_F(PushdownSampleTest, FractionsBucketsAndRows) {
  ASSERT_OK_AND_ASSIGN(auto none, Keys("SELECT k FROM tc.default.plain TABLESAMPLE (0 PERCENT)"));
  EXPECT_TRUE(none.empty());
  ASSERT_OK_AND_ASSIGN(auto all, Keys("SELECT k FROM tc.default.plain TABLESAMPLE (100 PERCENT)"));
  EXPECT_EQ(all.size(), static_cast<size_t>(kRows));
  ASSERT_OK_AND_ASSIGN(auto bucket, Keys("SELECT k FROM tc.default.sampling "
                                         "TABLESAMPLE (BUCKET 1 OUT OF 4) REPEATABLE (3)"));
  EXPECT_EQ(catalog_->log("sampling")->pushed_sample, "0 0.25 false 3");
  EXPECT_EQ(bucket, SampledByTheSource(kRows, 0.25));
  ASSERT_OK_AND_ASSIGN(auto rows, Keys("SELECT k FROM tc.default.plain TABLESAMPLE (10 ROWS)"));
  EXPECT_EQ(rows.size(), 10u);
}

TEST_F(PushdownSampleTest, FractionsOutsideZeroToOneAreRejected) {
  ASSERT_RAISES_CONDITION("INVALID_SAMPLING_FRACTION",
                          Plan("SELECT k FROM tc.default.plain TABLESAMPLE (150 PERCENT)"));
  ASSERT_RAISES_CONDITION("INVALID_SAMPLING_FRACTION",
                          Plan("SELECT k FROM tc.default.plain TABLESAMPLE (BUCKET 5 OUT OF 4)"));
  ASSERT_RAISES_CONDITION("INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE",
                          Plan("SELECT k FROM tc.default.plain TABLESAMPLE (-1 ROWS)"));
}

}  // namespace
}  // namespace parley
