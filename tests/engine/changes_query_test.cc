// Change reads end to end through SQL and the embedding API: the CHANGES clause in every form,
// as a table reference in joins and under WHERE / GROUP BY, EXPLAIN, the pushdown contract and
// the errors of analysis and execution.
#include <gtest/gtest.h>

#include "arrow/api.h"
#include "connectors/memory/memory_catalog.h"
#include "parley/session.h"
#include "testing/gtest_util.h"
#include "testing/test_connector.h"

namespace parley {
namespace {

std::shared_ptr<arrow::DataType> Ts() { return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"); }

struct Raw {
  int64_t id;
  std::string name;
  int64_t rv;
  std::string type;
  int64_t version;
};

// Raw copy-on-write changes of `events`: v1 inserts 1, 2, 3; v2 updates 1 (delete + insert)
// and rewrites 2 (a carry-over); v3 deletes 3; v4 inserts 4 and updates 1 again.
std::shared_ptr<arrow::Table> EventRows(const std::vector<Raw>& raw) {
  arrow::Int64Builder ids, rvs, versions;
  arrow::StringBuilder names, types;
  arrow::TimestampBuilder timestamps(Ts(), arrow::default_memory_pool());
  for (const auto& r : raw) {
    EXPECT_OK(ids.Append(r.id));
    EXPECT_OK(names.Append(r.name));
    EXPECT_OK(rvs.Append(r.rv));
    EXPECT_OK(types.Append(r.type));
    EXPECT_OK(versions.Append(r.version));
    EXPECT_OK(timestamps.Append(r.version * 1000000));
  }
  auto schema = arrow::schema(
      {arrow::field("id", arrow::int64()), arrow::field("name", arrow::utf8()),
       arrow::field("rv", arrow::int64()), arrow::field(kChangeTypeColumn, arrow::utf8()),
       arrow::field(kCommitVersionColumn, arrow::int64()),
       arrow::field(kCommitTimestampColumn, Ts())});
  arrow::ArrayVector columns(6);
  EXPECT_OK(ids.Finish(&columns[0]));
  EXPECT_OK(names.Finish(&columns[1]));
  EXPECT_OK(rvs.Finish(&columns[2]));
  EXPECT_OK(types.Finish(&columns[3]));
  EXPECT_OK(versions.Finish(&columns[4]));
  EXPECT_OK(timestamps.Finish(&columns[5]));
  return arrow::Table::Make(schema, columns);
}

const std::vector<Raw> kHistory = {
    {1, "a", 1, "insert", 1},  {2, "b", 1, "insert", 1},  {3, "c", 1, "insert", 1},
    {1, "a", 1, "delete", 2},  {1, "a2", 2, "insert", 2}, {2, "b", 1, "delete", 2},
    {2, "b", 1, "insert", 2},  {3, "c", 1, "delete", 3},  {4, "d", 4, "insert", 4},
    {1, "a2", 2, "delete", 4}, {1, "a3", 4, "insert", 4},
};

class ChangesQueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SessionOptions options;
    options.conf["spark.sql.catalog.spark_catalog"] = "memory";
    ASSERT_OK_AND_ASSIGN(session_, Session::Make(options));
    catalog_ = std::make_shared<memory::MemoryCatalog>();
    ASSERT_OK(session_->RegisterCatalog("cdc", catalog_));
    memory::MemoryChangelogData data;
    data.rows = EventRows(kHistory);
    data.contains_carryover_rows = true;
    data.contains_intermediate_changes = true;
    data.represents_update_as_delete_and_insert = true;
    data.row_id = {{"id"}};
    data.row_version = {"rv"};
    catalog_->SetChangelog(Identifier{{"default"}, "events"}, data);
  }

  // The result rows as "v1,v2,..." lines, sorted.
  Result<std::vector<std::string>> Rows(const std::string& sql) {
    ARROW_ASSIGN_OR_RAISE(auto table, session_->Sql(sql));
    ARROW_ASSIGN_OR_RAISE(auto batch, table->CombineChunksToBatch());
    std::vector<std::string> rows;
    for (int64_t r = 0; r < batch->num_rows(); ++r) {
      std::string line;
      for (int c = 0; c < batch->num_columns(); ++c) {
        ARROW_ASSIGN_OR_RAISE(auto scalar, batch->column(c)->GetScalar(r));
        line += (c ? "," : "") + (scalar->is_valid ? scalar->ToString() : "NULL");
      }
      rows.push_back(line);
    }
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  Result<std::string> Explain(const std::string& sql) {
    ARROW_ASSIGN_OR_RAISE(auto table, session_->Sql("EXPLAIN FORMATTED " + sql));
    ARROW_ASSIGN_OR_RAISE(auto scalar, table->column(0)->GetScalar(0));
    return scalar->ToString();
  }

  std::shared_ptr<Session> session_;
  std::shared_ptr<memory::MemoryCatalog> catalog_;
};

using Lines = std::vector<std::string>;

TEST_F(ChangesQueryTest, DefaultReadDropsCarryoversAndKeepsDeleteInsertUpdates) {
  ASSERT_OK_AND_ASSIGN(auto rows, Rows("SELECT id, name, _change_type, _commit_version FROM "
                                       "cdc.default.events CHANGES FROM VERSION 2 TO VERSION 3"));
  EXPECT_EQ(rows, (Lines{"1,a,delete,2", "1,a2,insert,2", "3,c,delete,3"}));
}

TEST_F(ChangesQueryTest, ComputeUpdatesRelabelsPairs) {
  ASSERT_OK_AND_ASSIGN(auto rows,
                       Rows("SELECT id, name, _change_type FROM cdc.default.events CHANGES FROM "
                            "VERSION 2 TO VERSION 2 WITH (computeUpdates = 'true')"));
  EXPECT_EQ(rows, (Lines{"1,a,update_preimage", "1,a2,update_postimage"}));
}

TEST_F(ChangesQueryTest, NetChangesCollapseEachIdentity) {
  ASSERT_OK_AND_ASSIGN(auto rows,
                       Rows("SELECT id, name, _change_type, _commit_version FROM "
                            "cdc.default.events CHANGES FROM VERSION 2 WITH "
                            "('deduplicationMode' = 'netChanges', computeUpdates = true)"));
  EXPECT_EQ(rows, (Lines{"1,a,update_preimage,2", "1,a3,update_postimage,4", "3,c,delete,3",
                         "4,d,insert,4"}));
}

TEST_F(ChangesQueryTest, BoundFormsSelectTheSameRangesAsOptions) {
  const std::string select = "SELECT count(*) FROM cdc.default.events CHANGES FROM ";
  const std::string none = " WITH (deduplicationMode = 'none')";
  ASSERT_OK_AND_ASSIGN(auto all, Rows(select + "VERSION 1" + none));
  EXPECT_EQ(all, (Lines{"11"}));
  ASSERT_OK_AND_ASSIGN(auto quoted, Rows(select + "VERSION '2' TO SYSTEM_VERSION 3" + none));
  EXPECT_EQ(quoted, (Lines{"5"}));
  ASSERT_OK_AND_ASSIGN(auto system, Rows(select + "SYSTEM_VERSION 1 TO VERSION 1" + none));
  EXPECT_EQ(system, (Lines{"3"}));
  ASSERT_OK_AND_ASSIGN(auto exclusive,
                       Rows(select + "VERSION 1 EXCLUSIVE TO VERSION 4 EXCLUSIVE" + none));
  EXPECT_EQ(exclusive, (Lines{"5"}));
  ASSERT_OK_AND_ASSIGN(auto inclusive,
                       Rows(select + "VERSION 3 INCLUSIVE TO VERSION 4 INCLUSIVE" + none));
  EXPECT_EQ(inclusive, (Lines{"4"}));
  ASSERT_OK_AND_ASSIGN(auto timestamps, Rows(select +
                                             "TIMESTAMP '1970-01-01 00:00:02' TO TIMESTAMP "
                                             "'1970-01-01 00:00:03' EXCLUSIVE" +
                                             none));
  EXPECT_EQ(timestamps, (Lines{"4"}));
}

TEST_F(ChangesQueryTest, AChangeReadIsATableReference) {
  ASSERT_OK(session_->Sql("CREATE TABLE labels (id BIGINT, label STRING)"));
  ASSERT_OK(session_->Sql("INSERT INTO labels VALUES (1, 'one'), (3, 'three')"));
  ASSERT_OK_AND_ASSIGN(auto joined,
                       Rows("SELECT c.id, l.label, c._change_type FROM cdc.default.events "
                            "CHANGES FROM VERSION 3 AS c JOIN labels l ON c.id = l.id"));
  EXPECT_EQ(joined, (Lines{"1,one,delete", "1,one,insert", "3,three,delete"}));
  ASSERT_OK_AND_ASSIGN(auto grouped,
                       Rows("SELECT _change_type, count(*) FROM cdc.default.events CHANGES FROM "
                            "VERSION 1 WHERE _commit_version > 1 GROUP BY _change_type"));
  EXPECT_EQ(grouped, (Lines{"delete,3", "insert,3"}));
  ASSERT_OK_AND_ASSIGN(auto subquery,
                       Rows("SELECT max(id) FROM (SELECT * FROM cdc.default.events CHANGES "
                            "FROM VERSION 1 TO VERSION 1) s"));
  EXPECT_EQ(subquery, (Lines{"3"}));
}

TEST_F(ChangesQueryTest, TheReaderApiTakesTheOptionNames) {
  ASSERT_OK_AND_ASSIGN(auto table, session_->Read()
                                       .Option("STARTINGVERSION", "1")
                                       .Option("endingVersion", "4")
                                       .Option("startingBoundInclusive", "false")
                                       .Option("deduplicationMode", "netChanges")
                                       .Changes("cdc.default.events"));
  // Versions 2 to 4: 1 as a delete and an insert, 3 deleted, 4 inserted.
  EXPECT_EQ(table->num_rows(), 4);
  EXPECT_EQ(table->schema()->field_names(),
            (std::vector<std::string>{"id", "name", "rv", kChangeTypeColumn, kCommitVersionColumn,
                                      kCommitTimestampColumn}));
  ASSERT_RAISES_CONDITION("INVALID_CDC_OPTION.CONFLICTING_RANGE_TYPES",
                          session_->Read()
                              .Option("startingVersion", "1")
                              .Option("startingTimestamp", "2024-01-01")
                              .Changes("cdc.default.events"));
}

TEST_F(ChangesQueryTest, ExplainNamesEachPassAndWhy) {
  ASSERT_OK_AND_ASSIGN(auto plan,
                       Explain("SELECT * FROM cdc.default.events CHANGES FROM VERSION 1 WITH "
                               "(deduplicationMode = 'netChanges', computeUpdates = 'true')"));
  EXPECT_NE(plan.find("ChangelogRowLevel keys=[id, _commit_version], rowVersion=rv: carry-over "
                      "removal (containsCarryoverRows=true, deduplicationMode=netChanges), "
                      "update detection (representsUpdateAsDeleteAndInsert=true, "
                      "computeUpdates=true)"),
            std::string::npos)
      << plan;
  EXPECT_NE(plan.find("ChangelogNetChanges keys=[id]: net changes "
                      "(containsIntermediateChanges=true, deduplicationMode=netChanges, "
                      "computeUpdates=true)"),
            std::string::npos)
      << plan;
  EXPECT_NE(plan.find("ChangeRange: versions [1, latest]"), std::string::npos) << plan;
  ASSERT_OK_AND_ASSIGN(auto raw, Explain("SELECT * FROM cdc.default.events CHANGES FROM "
                                         "VERSION 1 WITH (deduplicationMode = 'none')"));
  EXPECT_EQ(raw.find("ChangelogRowLevel"), std::string::npos) << raw;
  EXPECT_NE(raw.find("PostProcessing: none (containsCarryoverRows=true"), std::string::npos) << raw;
}

TEST_F(ChangesQueryTest, OnlyGroupSafePredicatesReachTheConnector) {
  const std::string where =
      " WHERE id = 1 AND _commit_version = 2 AND _change_type = 'delete' AND name = 'a'";
  // Row-level passes: identity and commit version predicates go down; the rest stay above.
  ASSERT_OK_AND_ASSIGN(auto row_level,
                       Explain("SELECT * FROM cdc.default.events CHANGES FROM VERSION 1" + where));
  EXPECT_NE(row_level.find("PushedPredicates: [id = 1, _commit_version = 2]"), std::string::npos)
      << row_level;
  EXPECT_NE(row_level.find("Condition : ((_change_type = 'delete') AND (name = 'a'))"),
            std::string::npos)
      << row_level;
  // Net changes group by identity only: the commit version stays above them too.
  ASSERT_OK_AND_ASSIGN(auto net, Explain("SELECT * FROM cdc.default.events CHANGES FROM "
                                         "VERSION 1 WITH (deduplicationMode = 'netChanges')" +
                                         where));
  EXPECT_NE(net.find("PushedPredicates: [id = 1]"), std::string::npos) << net;
  // Without any pass, every predicate may reach the connector.
  ASSERT_OK_AND_ASSIGN(auto raw, Explain("SELECT * FROM cdc.default.events CHANGES FROM "
                                         "VERSION 1 WITH (deduplicationMode = 'none')" +
                                         where));
  EXPECT_NE(raw.find("PushedPredicates: [id = 1, _commit_version = 2, _change_type = 'delete', "
                     "name = 'a']"),
            std::string::npos)
      << raw;
  // And the results are those of filtering after post-processing.
  ASSERT_OK_AND_ASSIGN(auto rows, Rows("SELECT id, name, _change_type FROM cdc.default.events "
                                       "CHANGES FROM VERSION 2 WITH (deduplicationMode = "
                                       "'netChanges') WHERE _commit_version = 2"));
  EXPECT_EQ(rows, (Lines{"1,a,delete"}));
}

TEST_F(ChangesQueryTest, PruningKeepsTheColumnsThePassesRead) {
  ASSERT_OK_AND_ASSIGN(auto plan, Explain("SELECT name FROM cdc.default.events CHANGES FROM "
                                          "VERSION 1"));
  EXPECT_NE(plan.find("RequiredColumns: [id, name, rv, _change_type, _commit_version]"),
            std::string::npos)
      << plan;
  ASSERT_OK_AND_ASSIGN(auto rows, Rows("SELECT name FROM cdc.default.events CHANGES FROM "
                                       "VERSION 2 TO VERSION 2"));
  EXPECT_EQ(rows, (Lines{"a", "a2"}));
}

TEST_F(ChangesQueryTest, AnalysisErrors) {
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND",
                          session_->Sql("SELECT * FROM cdc.default.nope CHANGES FROM VERSION 1"));
  ASSERT_RAISES_CONDITION(
      "INVALID_CDC_OPTION.INVALID_DEDUPLICATION_MODE",
      session_->Sql("SELECT * FROM cdc.default.events CHANGES FROM VERSION 1 WITH "
                    "(deduplicationMode = 'all')"));
  ASSERT_RAISES_CONDITION(
      "INVALID_CDC_OPTION.CONFLICTING_RANGE_TYPES",
      session_->Sql("SELECT * FROM cdc.default.events CHANGES FROM VERSION 1 TO TIMESTAMP "
                    "'2024-01-01'"));
  ASSERT_RAISES_CONDITION(
      "INVALID_CDC_OPTION.INVALID_TIMESTAMP",
      session_->Sql("SELECT * FROM cdc.default.events CHANGES FROM TIMESTAMP 'soon'"));
  ASSERT_RAISES_CONDITION(
      "INVALID_CDC_OPTION.UPDATE_DETECTION_REQUIRES_CARRY_OVER_REMOVAL",
      session_->Sql("SELECT * FROM cdc.default.events CHANGES FROM VERSION 1 WITH "
                    "(deduplicationMode = 'none', computeUpdates = 'true')"));
  auto on_path = session_->Sql("SELECT * FROM parquet.`/tmp/x` CHANGES FROM VERSION 1");
  ASSERT_RAISES_CONDITION("UNSUPPORTED_FEATURE.CHANGE_DATA_CAPTURE_ON_RELATION", on_path);
  EXPECT_EQ(ErrorParameters(on_path.status()).at("relationId"), "`parquet`.`/tmp/x`");
}

TEST_F(ChangesQueryTest, ACatalogWithoutTheCapabilityCannotServeChanges) {
  auto plain = std::make_shared<testing::TestCatalog>();
  plain->AddTable("t", testing::MakeIntTable({"a"}, {{1}}), {});
  ASSERT_OK(session_->RegisterCatalog("plain", plain));
  auto result = session_->Sql("SELECT * FROM plain.default.t CHANGES FROM VERSION 1");
  ASSERT_RAISES_CONDITION("UNSUPPORTED_FEATURE.CHANGE_DATA_CAPTURE", result);
  EXPECT_EQ(ErrorParameters(result.status()).at("catalogName"), "plain");
}

TEST_F(ChangesQueryTest, SchemaErrorsNameTheChangelog) {
  memory::MemoryChangelogData data;
  data.rows = EventRows(kHistory);
  ASSERT_OK_AND_ASSIGN(data.rows, data.rows->RemoveColumn(5));
  catalog_->SetChangelog(Identifier{{"default"}, "broken"}, data);
  auto result = session_->Sql("SELECT * FROM cdc.default.broken CHANGES FROM VERSION 1");
  ASSERT_RAISES_CONDITION("INVALID_CHANGELOG_SCHEMA.MISSING_COLUMN", result);
  EXPECT_EQ(ErrorParameters(result.status()).at("changelogName"), "cdc.broken_changelog");
  EXPECT_EQ(ErrorParameters(result.status()).at("columnName"), kCommitTimestampColumn);

  memory::MemoryChangelogData no_row_id;
  no_row_id.rows = EventRows(kHistory);
  no_row_id.contains_intermediate_changes = true;
  catalog_->SetChangelog(Identifier{{"default"}, "anonymous"}, no_row_id);
  ASSERT_RAISES_CONDITION(
      "INVALID_CHANGELOG_SCHEMA.MISSING_ROW_ID",
      session_->Sql("SELECT * FROM cdc.default.anonymous CHANGES FROM VERSION 1"));
}

TEST_F(ChangesQueryTest, RuntimeContractViolations) {
  memory::MemoryChangelogData data;
  data.rows = EventRows({{1, "a", 1, "INSERT", 1}, {2, "b", 1, "insert", 1}});
  data.contains_intermediate_changes = true;
  data.row_id = {{"id"}};
  catalog_->SetChangelog(Identifier{{"default"}, "shouting"}, data);
  ASSERT_RAISES_CONDITION(
      "CHANGELOG_CONTRACT_VIOLATION.UNEXPECTED_CHANGE_TYPE",
      session_->Sql("SELECT * FROM cdc.default.shouting CHANGES FROM VERSION 1 WITH "
                    "(deduplicationMode = 'netChanges')"));
  // Without net changes an unknown change type passes through.
  ASSERT_OK_AND_ASSIGN(auto rows, Rows("SELECT _change_type FROM cdc.default.shouting CHANGES "
                                       "FROM VERSION 1"));
  EXPECT_EQ(rows, (Lines{"INSERT", "insert"}));

  memory::MemoryChangelogData doubled;
  doubled.rows =
      EventRows({{1, "a", 1, "insert", 2}, {1, "b", 1, "insert", 2}, {1, "c", 1, "delete", 2}});
  doubled.represents_update_as_delete_and_insert = true;
  doubled.row_id = {{"id"}};
  doubled.row_version = {"rv"};
  catalog_->SetChangelog(Identifier{{"default"}, "doubled"}, doubled);
  ASSERT_RAISES_CONDITION(
      "CHANGELOG_CONTRACT_VIOLATION.UNEXPECTED_MULTIPLE_CHANGES_PER_ROW_VERSION",
      session_->Sql("SELECT * FROM cdc.default.doubled CHANGES FROM VERSION 1 WITH "
                    "(computeUpdates = 'true')"));
}

}  // namespace
}  // namespace parley
