// A plan that fails inside one of its operators must stop, every time, with that error: no
// hang, no crash, no lost error, whichever thread hits it and whatever the other operators are
// doing. Each query below makes one operator kind (projection, filter, aggregate, grouped
// aggregate, hash join probe and build, sort, window, union, distinct count) raise
// DIVIDE_BY_ZERO a quarter of the way through a 200000-row multi-file table read by parallel
// scan tasks, and each runs many times under a watchdog.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <random>
#include <string>

#include "parley/session.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

namespace fs = std::filesystem;

constexpr int kRunsPerQuery = 8;
constexpr auto kWatchdog = std::chrono::seconds(120);

class AbortOnFailureTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::random_device random;
    dir_ = new fs::path(fs::temp_directory_path() / ("parley-abort-" + std::to_string(random())));
    fs::create_directories(*dir_);
    SessionOptions options;
    options.warehouse = (*dir_ / "warehouse").string();
    auto session = Session::Make(options);
    ASSERT_TRUE(session.ok()) << session.status().ToString();
    session_ = new std::shared_ptr<Session>(*session);
    std::string hundred;
    for (int i = 0; i < 100; ++i) hundred += (i == 0 ? "(" : ", (") + std::to_string(i) + ")";
    // 200000 ids in 20 files (one INSERT each), so the scans run as several parallel tasks.
    for (int file = 0; file < 20; ++file) {
      auto status =
          (*session_)->Sql("INSERT INTO " + Table() + " SELECT " + std::to_string(file * 10000) +
                           " + a.x * 100 + b.x AS id FROM VALUES " + hundred + " AS a(x), VALUES " +
                           hundred + " AS b(x)");
      ASSERT_TRUE(status.ok()) << status.status().ToString();
    }
  }
  static void TearDownTestSuite() {
    delete session_;
    fs::remove_all(*dir_);
    delete dir_;
  }

  static std::string Table() { return "parquet.`" + (*dir_ / "t").string() + "`"; }

  // Run `sql` kRunsPerQuery times; each must fail with DIVIDE_BY_ZERO within the watchdog.
  static void ExpectFailsEveryTime(const std::string& sql) {
    std::string query = sql;
    for (size_t at; (at = query.find("$T")) != std::string::npos;) query.replace(at, 2, Table());
    for (int run = 0; run < kRunsPerQuery; ++run) {
      auto future = std::async(std::launch::async, [&] { return (*session_)->Sql(query); });
      if (future.wait_for(kWatchdog) != std::future_status::ready) {
        std::fprintf(stderr, "the plan did not stop after its failure: %s\n", query.c_str());
        std::_Exit(1);
      }
      auto result = future.get();
      ASSERT_FALSE(result.ok()) << query;
      ASSERT_EQ(ErrorCondition(result.status()), "DIVIDE_BY_ZERO")
          << query << ": " << result.status().ToString();
    }
  }

  static fs::path* dir_;
  static std::shared_ptr<Session>* session_;
};

fs::path* AbortOnFailureTest::dir_ = nullptr;
std::shared_ptr<Session>* AbortOnFailureTest::session_ = nullptr;

TEST_F(AbortOnFailureTest, Projection) { ExpectFailsEveryTime("SELECT 1 / (id - 50000) FROM $T"); }

TEST_F(AbortOnFailureTest, Filter) {
  ExpectFailsEveryTime("SELECT count(*) FROM $T WHERE 1 / (id - 50000) > 0");
}

TEST_F(AbortOnFailureTest, Aggregate) {
  ExpectFailsEveryTime("SELECT sum(1 / (id - 50000)) FROM $T");
}

TEST_F(AbortOnFailureTest, GroupedAggregate) {
  ExpectFailsEveryTime("SELECT id % 7, sum(1 / (id - 50000)) FROM $T GROUP BY id % 7");
}

TEST_F(AbortOnFailureTest, HashJoinProbe) {
  ExpectFailsEveryTime(
      "SELECT count(*) FROM $T a JOIN $T b ON a.id = b.id WHERE 1 / (a.id - 150000) > 0");
}

TEST_F(AbortOnFailureTest, HashJoinKeys) {
  ExpectFailsEveryTime("SELECT count(*) FROM $T a JOIN $T b ON 1 / (a.id - 150000) = b.id");
}

TEST_F(AbortOnFailureTest, Sort) {
  ExpectFailsEveryTime("SELECT id FROM $T ORDER BY 1 / (id - 50000) LIMIT 3");
}

TEST_F(AbortOnFailureTest, Window) {
  ExpectFailsEveryTime(
      "SELECT sum(x) OVER (ORDER BY id) FROM (SELECT id, 1 / (id - 50000) AS x FROM $T) "
      "LIMIT 3");
}

TEST_F(AbortOnFailureTest, Union) {
  ExpectFailsEveryTime(
      "SELECT count(*) FROM (SELECT id FROM $T UNION ALL SELECT 1 / (id - 50000) FROM $T)");
}

TEST_F(AbortOnFailureTest, DistinctCount) {
  ExpectFailsEveryTime("SELECT count(DISTINCT 1 / (id - 50000)) FROM $T");
}

}  // namespace
}  // namespace parley
