// Bad input through the Session: corrupt data files of every format, a truncated Delta commit, a
// multi-part checkpoint missing a part, a plugin library that is not one, names that would
// leave the warehouse, a huge VALUES list and a deeply nested statement. Each must give a clear
// error naming what is at fault (or, where the input is valid, the right answer), never a crash
// or a hang, and must leave nothing behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "parley/session.h"
#include "testing/gtest_util.h"
#include "testing/session_rows.h"

namespace parley {
namespace {

namespace fs = std::filesystem;

class BadInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device random;
    dir_ = fs::temp_directory_path() / ("parley-bad-input-" + std::to_string(random()));
    fs::create_directories(dir_ / "warehouse");
    SessionOptions options;
    options.warehouse = (dir_ / "warehouse").string();
    options.conf["spark.sql.catalog.spark_catalog"] = "delta";
    ASSERT_OK_AND_ASSIGN(session_, Session::Make(options));
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& relative) const { return (dir_ / relative).string(); }

  void Write(const std::string& relative, const std::string& bytes) {
    fs::create_directories((dir_ / relative).parent_path());
    std::ofstream out(dir_ / relative, std::ios::binary | std::ios::trunc);
    out << bytes;
  }

  // The error of `sql`, which must fail with `condition` and name `culprit` in its message.
  void ExpectError(const std::string& sql, const std::string& condition,
                   const std::string& culprit) {
    SCOPED_TRACE(sql.substr(0, 120));
    auto result = session_->Sql(sql);
    ASSERT_FALSE(result.ok()) << "expected " << condition;
    EXPECT_EQ(ErrorCondition(result.status()), condition) << result.status().ToString();
    EXPECT_NE(result.status().message().find(culprit), std::string::npos)
        << result.status().message();
  }

  fs::path dir_;
  std::shared_ptr<Session> session_;
};

TEST_F(BadInputTest, CorruptDataFilesNameTheFile) {
  std::string garbage(300, '\0');
  std::mt19937 random(7);
  for (char& c : garbage) c = static_cast<char>(random());
  Write("pq/part-0.parquet", garbage);
  Write("pq2/part-0.parquet", "PAR1 not really PAR1");
  Write("orc/part-0.orc", garbage);
  Write("json/part-0.json", "{\"a\": 1}\n{\"a\": \n");
  ExpectError("SELECT * FROM parquet.`" + Path("pq") + "`",
              "FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER", Path("pq/part-0.parquet"));
  ExpectError("SELECT * FROM parquet.`" + Path("pq2") + "`",
              "FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER", Path("pq2/part-0.parquet"));
  ExpectError("SELECT * FROM orc.`" + Path("orc") + "`", "FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER",
              Path("orc/part-0.orc"));
  ExpectError("SELECT * FROM json.`" + Path("json") + "`", "FAILED_READ_FILE.NO_HINT",
              Path("json/part-0.json"));
}

TEST_F(BadInputTest, TruncatedDeltaCommitNamesTheCommit) {
  const std::string table = "delta.`" + Path("d") + "`";
  ASSERT_OK(session_->Sql("CREATE TABLE " + table + " (a INT) USING delta").status());
  ASSERT_OK(session_->Sql("INSERT INTO " + table + " VALUES (1), (2)").status());
  const fs::path commit = dir_ / "d/_delta_log/00000000000000000001.json";
  std::string body;
  {
    std::ifstream in(commit);
    body.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  Write("d/_delta_log/00000000000000000001.json", body.substr(0, body.size() / 2));
  ExpectError("SELECT * FROM " + table, "FAILED_READ_FILE.NO_HINT", "00000000000000000001.json");
  // Nothing was changed by the failed read: restoring the commit restores the table.
  Write("d/_delta_log/00000000000000000001.json", body);
  EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT a FROM " + table + " ORDER BY a"),
            (std::vector<std::string>{"1", "2"}));
}

TEST_F(BadInputTest, NumbersPastBigintAreErrorsNotCrashes) {
  const std::string table = "delta.`" + Path("n") + "`";
  ASSERT_OK(session_->Sql("CREATE TABLE " + table + " (a INT) USING delta").status());
  ASSERT_OK(session_->Sql("INSERT INTO " + table + " VALUES (1)").status());
  // A log file whose 20-digit version exceeds BIGINT is no log entry (the fuzzer found that it
  // ended the process).
  Write("n/_delta_log/10000000000000000001.json", "{}");
  EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT a FROM " + table),
            (std::vector<std::string>{"1"}));
  for (const std::string& query :
       {"SELECT * FROM " + table + " VERSION AS OF 99999999999999999999",
        "SELECT * FROM delta.`" + Path("n") + "@v99999999999999999999`"}) {
    SCOPED_TRACE(query);
    auto result = session_->Sql(query);
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.status().message().find("99999999999999999999"), std::string::npos)
        << result.status().ToString();
  }
}

TEST_F(BadInputTest, IncompleteMultiPartCheckpointIsIgnored) {
  const std::string table = "delta.`" + Path("c") + "`";
  ASSERT_OK(session_->Sql("CREATE TABLE " + table + " (a INT) USING delta").status());
  ASSERT_OK(session_->Sql("INSERT INTO " + table + " VALUES (1)").status());
  // Part 1 of 2 of a checkpoint at version 1 whose part 2 never landed: not a checkpoint.
  Write("c/_delta_log/00000000000000000001.checkpoint.0000000001.0000000002.parquet", "junk");
  EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT a FROM " + table),
            (std::vector<std::string>{"1"}));
  // Without commit 0 the incomplete checkpoint cannot stand in for it: the error says so.
  fs::remove(dir_ / "c/_delta_log/00000000000000000000.json");
  ExpectError("SELECT a FROM " + table, "DELTA_VERSION_NOT_FOUND",
              "no commit 0 and no complete checkpoint");
}

TEST_F(BadInputTest, PluginThatIsNotALibrary) {
  Write("not-a-library.so", "hello");
  ASSERT_OK(session_->Sql("SET spark.sql.catalog.bad = " + Path("not-a-library.so")).status());
  ExpectError("SELECT * FROM bad.db.t", "CATALOG_PLUGIN_NOT_LOADABLE", Path("not-a-library.so"));
}

TEST_F(BadInputTest, NamesCannotLeaveTheWarehouse) {
  for (const std::string& statement :
       {std::string("CREATE TABLE `../escaped` (a INT) USING delta"),
        std::string("CREATE NAMESPACE `..`"), std::string("CREATE TABLE `a/b` (a INT) USING delta"),
        std::string("CREATE TABLE `..`.t (a INT) USING delta")}) {
    ExpectError(statement, "INVALID_SCHEMA_OR_RELATION_NAME", "is not a valid name");
  }
  EXPECT_FALSE(fs::exists(dir_ / "escaped"));
  EXPECT_FALSE(fs::exists(dir_ / "a"));
}

TEST_F(BadInputTest, HugeValuesListAndDeepNesting) {
  std::string values;
  for (int i = 0; i < 100000; ++i) values += (i == 0 ? "(" : ", (") + std::to_string(i) + ")";
  EXPECT_EQ(testing::SessionRows(session_.get(),
                                 "SELECT count(*), sum(a) FROM VALUES " + values + " AS t(a)"),
            (std::vector<std::string>{"100000,4999950000"}));
  std::string nested = "SELECT " + std::string(5000, '(') + "1" + std::string(5000, ')');
  ExpectError(nested, "FAILED_TO_PARSE_TOO_COMPLEX", "too complex to parse");
  std::string chain = "SELECT 1";
  for (int i = 0; i < 50000; ++i) chain += " + 1";
  ExpectError(chain, "FAILED_TO_PARSE_TOO_COMPLEX", "too complex to parse");
}

}  // namespace
}  // namespace parley
