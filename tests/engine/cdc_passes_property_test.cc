// Property tests of change post-processing: random DML histories on a table, emitted as raw
// copy-on-write change rows (updates as delete + insert, carry-overs of untouched rows), read
// through the memory connector and checked against a model that replays the history.
//   - none: the raw rows of the range, unchanged;
//   - dropCarryovers: the raw rows minus every carry-over pair (updates relabelled with
//     computeUpdates);
//   - netChanges: per row identity touched in the range, the row as it was before the range and
//     as it is after it, which is the difference between the two table states.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "arrow/api.h"
#include "connectors/memory/memory_catalog.h"
#include "parley/session.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

struct Row {
  std::string value;
  int64_t row_version = 0;
  bool operator==(const Row&) const = default;
};

struct Change {
  int64_t id = 0;
  Row row;
  std::string type;
  int64_t version = 0;
  bool carryover = false;
};

// A random history: commit v (1..commits) inserts, deletes, updates (some to the same value,
// which still bumps the row version) and rewrites untouched rows as carry-overs.
struct History {
  std::vector<std::map<int64_t, Row>> states;  // states[v]: the table after commit v
  std::vector<Change> changes;

  explicit History(uint32_t seed, int commits = 8) {
    std::mt19937 random(seed);
    auto chance = [&](int percent) { return static_cast<int>(random() % 100) < percent; };
    std::map<int64_t, Row> table;
    int64_t next_id = 0;
    states.push_back(table);
    for (int64_t v = 1; v <= commits; ++v) {
      std::map<int64_t, Row> after = table;
      for (const auto& [id, row] : table) {
        if (chance(15)) {
          changes.push_back({id, row, "delete", v});
          after.erase(id);
        } else if (chance(25)) {
          Row updated{chance(30) ? row.value : "v" + std::to_string(random() % 1000), v};
          changes.push_back({id, row, "delete", v});
          changes.push_back({id, updated, "insert", v});
          after[id] = updated;
        } else if (chance(20)) {
          changes.push_back({id, row, "delete", v, true});
          changes.push_back({id, row, "insert", v, true});
        }
      }
      int inserts = static_cast<int>(random() % 4);
      for (int i = 0; i < inserts; ++i) {
        Row row{"v" + std::to_string(random() % 1000), v};
        changes.push_back({next_id, row, "insert", v});
        after[next_id++] = row;
      }
      table = after;
      states.push_back(table);
    }
  }
};

std::string Text(int64_t id, const Row& row, const std::string& type, int64_t version) {
  return std::to_string(id) + "|" + row.value + "|" + std::to_string(row.row_version) + "|" + type +
         "|" + std::to_string(version);
}

Result<std::shared_ptr<arrow::Table>> ChangeTable(const std::vector<Change>& changes) {
  // One record batch per commit, so that groups and identities span batches.
  auto schema = arrow::schema(
      {arrow::field("id", arrow::int64()), arrow::field("val", arrow::utf8()),
       arrow::field("rv", arrow::int64()), arrow::field(kChangeTypeColumn, arrow::utf8()),
       arrow::field(kCommitVersionColumn, arrow::int64()),
       arrow::field(kCommitTimestampColumn, arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"))});
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  size_t i = 0;
  while (i < changes.size()) {
    arrow::Int64Builder ids, rvs, versions;
    arrow::StringBuilder values, types;
    arrow::TimestampBuilder timestamps(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"),
                                       arrow::default_memory_pool());
    int64_t version = changes[i].version;
    for (; i < changes.size() && changes[i].version == version; ++i) {
      const auto& c = changes[i];
      ARROW_RETURN_NOT_OK(ids.Append(c.id));
      ARROW_RETURN_NOT_OK(values.Append(c.row.value));
      ARROW_RETURN_NOT_OK(rvs.Append(c.row.row_version));
      ARROW_RETURN_NOT_OK(types.Append(c.type));
      ARROW_RETURN_NOT_OK(versions.Append(c.version));
      ARROW_RETURN_NOT_OK(timestamps.Append(c.version * 1000000));
    }
    arrow::ArrayVector columns(6);
    ARROW_RETURN_NOT_OK(ids.Finish(&columns[0]));
    ARROW_RETURN_NOT_OK(values.Finish(&columns[1]));
    ARROW_RETURN_NOT_OK(rvs.Finish(&columns[2]));
    ARROW_RETURN_NOT_OK(types.Finish(&columns[3]));
    ARROW_RETURN_NOT_OK(versions.Finish(&columns[4]));
    ARROW_RETURN_NOT_OK(timestamps.Finish(&columns[5]));
    batches.push_back(arrow::RecordBatch::Make(schema, columns[0]->length(), columns));
  }
  return arrow::Table::FromRecordBatches(schema, batches);
}

Result<std::vector<std::string>> ResultTexts(const arrow::Table& table) {
  ARROW_ASSIGN_OR_RAISE(auto batch, table.CombineChunksToBatch());
  auto id = std::static_pointer_cast<arrow::Int64Array>(batch->GetColumnByName("id"));
  auto val = std::static_pointer_cast<arrow::StringArray>(batch->GetColumnByName("val"));
  auto rv = std::static_pointer_cast<arrow::Int64Array>(batch->GetColumnByName("rv"));
  auto type =
      std::static_pointer_cast<arrow::StringArray>(batch->GetColumnByName(kChangeTypeColumn));
  auto version =
      std::static_pointer_cast<arrow::Int64Array>(batch->GetColumnByName(kCommitVersionColumn));
  std::vector<std::string> rows;
  for (int64_t i = 0; i < batch->num_rows(); ++i) {
    rows.push_back(Text(id->Value(i), Row{std::string(val->GetView(i)), rv->Value(i)},
                        std::string(type->GetView(i)), version->Value(i)));
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

// The rows of the range [start, end] that dropCarryovers keeps, relabelled with computeUpdates.
std::vector<std::string> ModelRowLevel(const History& history, int64_t start, int64_t end,
                                       bool keep_carryovers, bool compute_updates) {
  std::vector<std::string> rows;
  const auto& changes = history.changes;
  for (size_t i = 0; i < changes.size(); ++i) {
    const auto& c = changes[i];
    if (c.version < start || c.version > end || (c.carryover && !keep_carryovers)) continue;
    std::string type = c.type;
    if (compute_updates && !c.carryover) {
      bool paired_after = i + 1 < changes.size() && changes[i + 1].id == c.id &&
                          changes[i + 1].version == c.version && !changes[i + 1].carryover;
      bool paired_before = i > 0 && changes[i - 1].id == c.id &&
                           changes[i - 1].version == c.version && !changes[i - 1].carryover;
      if (paired_after || paired_before) {
        type = c.type == "delete" ? "update_preimage" : "update_postimage";
      }
    }
    rows.push_back(Text(c.id, c.row, type, c.version));
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

// Net changes of [start, end]: for each identity with a real change in the range, its row
// before the range (a delete at its first change) and after it (an insert at its last change).
std::vector<std::string> ModelNetChanges(const History& history, int64_t start, int64_t end,
                                         bool compute_updates) {
  std::map<int64_t, std::pair<int64_t, int64_t>> touched;  // id -> first, last version
  for (const auto& c : history.changes) {
    if (c.carryover || c.version < start || c.version > end) continue;
    auto [it, inserted] = touched.emplace(c.id, std::make_pair(c.version, c.version));
    if (!inserted) it->second.second = c.version;
  }
  const auto& before = history.states[start - 1];
  const auto& after = history.states[end];
  std::vector<std::string> rows;
  for (const auto& [id, versions] : touched) {
    auto was = before.find(id);
    auto is = after.find(id);
    bool both = was != before.end() && is != after.end();
    if (was != before.end()) {
      rows.push_back(Text(id, was->second, both && compute_updates ? "update_preimage" : "delete",
                          versions.first));
    }
    if (is != after.end()) {
      rows.push_back(Text(id, is->second, both && compute_updates ? "update_postimage" : "insert",
                          versions.second));
    }
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

class PassesPropertyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SessionOptions options;
    options.conf["spark.sql.catalog.spark_catalog"] = "memory";
    ASSERT_OK_AND_ASSIGN(session_, Session::Make(options));
    catalog_ = std::make_shared<memory::MemoryCatalog>();
    ASSERT_OK(session_->RegisterCatalog("cdc", catalog_));
  }

  void Feed(const History& history) {
    memory::MemoryChangelogData data;
    ASSERT_OK_AND_ASSIGN(data.rows, ChangeTable(history.changes));
    data.contains_carryover_rows = true;
    data.contains_intermediate_changes = true;
    data.represents_update_as_delete_and_insert = true;
    data.row_id = {{"id"}};
    data.row_version = {"rv"};
    catalog_->SetChangelog(Identifier{{"default"}, "t"}, data);
  }

  Result<std::vector<std::string>> Read(int64_t start, int64_t end, const std::string& mode,
                                        bool compute_updates) {
    DataReader reader = session_->Read();
    reader.Option("startingVersion", std::to_string(start))
        .Option("endingVersion", std::to_string(end))
        .Option("deduplicationMode", mode)
        .Option("computeUpdates", compute_updates ? "true" : "false");
    ARROW_ASSIGN_OR_RAISE(auto table, reader.Changes("cdc.default.t"));
    return ResultTexts(*table);
  }

  std::shared_ptr<Session> session_;
  std::shared_ptr<memory::MemoryCatalog> catalog_;
};

TEST_F(PassesPropertyTest, RandomHistoriesMatchTheModel) {
  constexpr int kCommits = 8;
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    History history(seed, kCommits);
    Feed(history);
    std::mt19937 random(seed * 7919);
    int64_t start = 1 + static_cast<int64_t>(random() % kCommits);
    int64_t end = start + static_cast<int64_t>(random() % (kCommits - start + 1));
    SCOPED_TRACE(::testing::Message() << "seed " << seed << ", versions " << start << ".." << end);
    ASSERT_OK_AND_ASSIGN(auto none, Read(start, end, "none", false));
    EXPECT_EQ(none, ModelRowLevel(history, start, end, /*keep_carryovers=*/true, false));
    for (bool cu : {false, true}) {
      ASSERT_OK_AND_ASSIGN(auto dropped, Read(start, end, "dropCarryovers", cu));
      EXPECT_EQ(dropped, ModelRowLevel(history, start, end, false, cu)) << "computeUpdates " << cu;
      ASSERT_OK_AND_ASSIGN(auto net, Read(start, end, "netChanges", cu));
      EXPECT_EQ(net, ModelNetChanges(history, start, end, cu)) << "computeUpdates " << cu;
    }
  }
}

TEST_F(PassesPropertyTest, NetChangesOfTheWholeHistoryAreTheFinalTable) {
  for (uint32_t seed = 100; seed < 110; ++seed) {
    History history(seed, 6);
    Feed(history);
    ASSERT_OK_AND_ASSIGN(auto net, Read(1, 6, "netChanges", false));
    std::vector<std::string> expected;
    for (const auto& change : history.changes) {
      auto it = history.states.back().find(change.id);
      if (it == history.states.back().end()) continue;
      // Every surviving row was inserted in the range; its net change is its final state.
      int64_t last = 0;
      for (const auto& c : history.changes) {
        if (c.id == change.id && !c.carryover) last = c.version;
      }
      std::string row = Text(change.id, it->second, "insert", last);
      if (std::find(expected.begin(), expected.end(), row) == expected.end()) {
        expected.push_back(row);
      }
    }
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(net, expected) << "seed " << seed;
  }
}

}  // namespace
}  // namespace parley
