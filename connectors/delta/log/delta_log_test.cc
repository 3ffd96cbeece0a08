// Log replay on small hand-made logs: reconciliation, checkpoints (classic Parquet, V2 with a
// sidecar), time travel, and the conditions of corrupt logs.
#include <chrono>

#include "connectors/delta/delta_test_util.h"
#include "connectors/delta/log/delta_log.h"
#include "connectors/delta/util.h"

namespace parley::delta {
namespace {

namespace fs = std::filesystem;

using testing::AddLine;
using testing::kIdNameSchema;
using testing::MetadataLine;
using testing::ProtocolLine;
using testing::RemoveLine;

class DeltaLogTest : public testing::DeltaTableTest {
 protected:
  std::vector<std::string> Paths(const Snapshot& snapshot) {
    std::vector<std::string> out;
    for (const auto& file : snapshot.files) {
      out.push_back(file.path + (file.deletion_vector ? "#dv" : ""));
    }
    return out;
  }

  // The schema of checkpoint rows holding protocol, metaData and add actions.
  static std::shared_ptr<arrow::Schema> CheckpointSchema() {
    auto strings = arrow::map(arrow::utf8(), arrow::utf8());
    return arrow::schema(
        {arrow::field("protocol",
                      arrow::struct_({arrow::field("minReaderVersion", arrow::int32()),
                                      arrow::field("minWriterVersion", arrow::int32())})),
         arrow::field("metaData",
                      arrow::struct_({arrow::field("id", arrow::utf8()),
                                      arrow::field("schemaString", arrow::utf8()),
                                      arrow::field("partitionColumns", arrow::list(arrow::utf8())),
                                      arrow::field("configuration", strings)})),
         arrow::field("add", arrow::struct_({arrow::field("path", arrow::utf8()),
                                             arrow::field("partitionValues", strings),
                                             arrow::field("size", arrow::int64()),
                                             arrow::field("modificationTime", arrow::int64()),
                                             arrow::field("dataChange", arrow::boolean())}))});
  }

  static std::string EscapedSchema() {
    std::string out;
    for (char c : std::string(kIdNameSchema)) {
      if (c == '"') out.push_back('\\');
      out.push_back(c);
    }
    return out;
  }
};

TEST_F(DeltaLogTest, ReconcilesAddsAndRemovesByPathAndDeletionVector) {
  const std::string dv =
      R"({"storageType":"i","pathOrInlineDv":"wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L","sizeInBytes":40,"cardinality":1})";
  WriteCommit(0, {ProtocolLine(1, 2), MetadataLine(kIdNameSchema), AddLine("a.parquet", 10),
                  AddLine("b.parquet", 20)});
  WriteCommit(1, {RemoveLine("a.parquet"), AddLine("c.parquet", 30)});
  // The file b gets a deletion vector: remove (b, none), add (b, dv).
  WriteCommit(2, {RemoveLine("b.parquet"), AddLine("b.parquet", 20, "{}", "", dv),
                  R"({"txn":{"appId":"app","version":7}})"});
  // Removing (b, none) again does not cancel (b, dv).
  WriteCommit(3, {RemoveLine("b.parquet"), R"({"unknownAction":{"x":1}})"});

  ASSERT_OK_AND_ASSIGN(auto latest, LoadSnapshot(filesystem_, Root()));
  EXPECT_EQ(latest->version, 3);
  EXPECT_EQ(Paths(*latest), (std::vector<std::string>{"b.parquet#dv", "c.parquet"}));
  EXPECT_EQ(latest->app_versions.at("app"), 7);
  EXPECT_EQ(latest->protocol.min_writer_version, 2);
  EXPECT_EQ(latest->metadata.schema_string, kIdNameSchema);

  ASSERT_OK_AND_ASSIGN(auto first, LoadSnapshot(filesystem_, Root(), 0));
  EXPECT_EQ(Paths(*first), (std::vector<std::string>{"a.parquet", "b.parquet"}));
  EXPECT_TRUE(first->app_versions.empty());

  ASSERT_OK_AND_ASSIGN(auto commit, ReadCommit(*filesystem_, Root(), 2));
  ASSERT_EQ(commit.file_changes.size(), 2u);
  EXPECT_FALSE(commit.file_changes[0].is_add);
  EXPECT_TRUE(commit.file_changes[1].file.deletion_vector.has_value());
}

TEST_F(DeltaLogTest, StartsFromParquetCheckpointThenReplaysLaterCommits) {
  WriteCommit(0, {ProtocolLine(1, 2), MetadataLine(kIdNameSchema), AddLine("a.parquet", 10)});
  WriteCommit(1, {AddLine("old.parquet", 5)});
  // The checkpoint at 1 is authoritative: it does not hold old.parquet, and the commits it
  // covers are unreadable, so replay must not touch them.
  WriteParquet("_delta_log/00000000000000000001.checkpoint.parquet", CheckpointSchema(),
               R"([{"protocol":{"minReaderVersion":1,"minWriterVersion":2}},
                   {"metaData":{"id":"t","schemaString":")" +
                   EscapedSchema() +
                   R"(","partitionColumns":[],"configuration":[]}},
                   {"add":{"path":"a.parquet","partitionValues":[],"size":10,
                           "modificationTime":1,"dataChange":false}}])");
  WriteFile("_delta_log/00000000000000000000.json", "not json");
  WriteFile("_delta_log/00000000000000000001.json", "not json");
  WriteCommit(2, {AddLine("b.parquet", 20)});
  // Files that are not log entries are ignored.
  WriteFile("_delta_log/.00000000000000000003.json.crc", "junk");
  WriteFile("_delta_log/00000000000000000002.crc", "junk");
  WriteFile("_delta_log/_commit_1234.json.tmp", "junk");
  WriteFile("_delta_log/00000000000000000002.checkpoint.0000000001.0000000002.parquet", "part");
  WriteFile("_delta_log/_last_checkpoint", "{corrupt");

  ASSERT_OK_AND_ASSIGN(auto snapshot, LoadSnapshot(filesystem_, Root()));
  EXPECT_EQ(snapshot->version, 2);
  EXPECT_EQ(snapshot->checkpoint_version, 1);
  EXPECT_EQ(Paths(*snapshot), (std::vector<std::string>{"a.parquet", "b.parquet"}));
  EXPECT_EQ(snapshot->metadata.id, "t");
}

TEST_F(DeltaLogTest, StartsFromACompleteMultiPartCheckpoint) {
  // The commits the checkpoint covers are unreadable: replay must start from its two parts.
  WriteFile("_delta_log/00000000000000000000.json", "not json");
  WriteFile("_delta_log/00000000000000000001.json", "not json");
  WriteParquet("_delta_log/00000000000000000001.checkpoint.0000000001.0000000002.parquet",
               CheckpointSchema(),
               R"([{"protocol":{"minReaderVersion":1,"minWriterVersion":2}},
                   {"metaData":{"id":"t","schemaString":")" +
                   EscapedSchema() + R"(","partitionColumns":[],"configuration":[]}}])");
  WriteParquet("_delta_log/00000000000000000001.checkpoint.0000000002.0000000002.parquet",
               CheckpointSchema(),
               R"([{"add":{"path":"a.parquet","partitionValues":[],"size":10,
                           "modificationTime":1,"dataChange":false}}])");
  WriteCommit(2, {AddLine("b.parquet", 20)});
  ASSERT_OK_AND_ASSIGN(auto snapshot, LoadSnapshot(filesystem_, Root()));
  EXPECT_EQ(snapshot->version, 2);
  EXPECT_EQ(snapshot->checkpoint_version, 1);
  EXPECT_EQ(Paths(*snapshot), (std::vector<std::string>{"a.parquet", "b.parquet"}));

  // Without its second part the checkpoint is ignored, and the unreadable commits are needed.
  std::filesystem::remove(Root() +
                          "/_delta_log/00000000000000000001.checkpoint.0000000002."
                          "0000000002.parquet");
  ASSERT_RAISES_CONDITION("FAILED_READ_FILE.NO_HINT", LoadSnapshot(filesystem_, Root()).status());
}

TEST_F(DeltaLogTest, ReadsV2JsonCheckpointWithSidecar) {
  WriteCommit(0, {ProtocolLine(3, 7, {"v2Checkpoint"}), MetadataLine(kIdNameSchema)});
  WriteCommit(1, {AddLine("a.parquet", 10)});
  WriteFile("_delta_log/00000000000000000001.checkpoint.3a0d65cd-4056-49b8-937b-95f9e3ee90e5.json",
            ProtocolLine(3, 7, {"v2Checkpoint"}) + "\n" + MetadataLine(kIdNameSchema) + "\n" +
                R"({"checkpointMetadata":{"version":1}})" + "\n" +
                R"({"sidecar":{"path":"s1.parquet","sizeInBytes":1,"modificationTime":1}})");
  WriteParquet("_delta_log/_sidecars/s1.parquet",
               arrow::schema({CheckpointSchema()->GetFieldByName("add")}),
               R"([{"add":{"path":"from-sidecar.parquet","partitionValues":[],"size":10,
                           "modificationTime":1,"dataChange":false}}])");
  WriteCommit(2, {AddLine("b.parquet", 20)});

  ASSERT_OK_AND_ASSIGN(auto snapshot, LoadSnapshot(filesystem_, Root()));
  EXPECT_EQ(snapshot->checkpoint_version, 1);
  EXPECT_EQ(Paths(*snapshot), (std::vector<std::string>{"b.parquet", "from-sidecar.parquet"}));
}

TEST_F(DeltaLogTest, TimeTravelsByVersionAndMonotonizedTimestamp) {
  WriteCommit(0, {ProtocolLine(1, 2), MetadataLine(kIdNameSchema), AddLine("a.parquet", 1)});
  WriteCommit(1, {AddLine("b.parquet", 1)});
  WriteCommit(2, {AddLine("c.parquet", 1)});
  auto set_mtime = [&](int version, int64_t seconds) {
    std::string name = std::to_string(version);
    fs::path path = root_ / "_delta_log" / (std::string(20 - name.size(), '0') + name + ".json");
    auto since_epoch = std::chrono::seconds(seconds);
    auto now_file = fs::file_time_type::clock::now();
    auto now_system = std::chrono::system_clock::now();
    fs::last_write_time(
        path, now_file + (std::chrono::system_clock::time_point(since_epoch) - now_system));
  };
  set_mtime(0, 1000);
  set_mtime(1, 2000);
  set_mtime(2, 1500);  // earlier than its predecessor: monotonized to 2000 s + 1 ms

  ASSERT_OK_AND_ASSIGN(auto snapshot, LoadSnapshot(filesystem_, Root(), 1));
  EXPECT_EQ(Paths(*snapshot), (std::vector<std::string>{"a.parquet", "b.parquet"}));
  EXPECT_EQ(snapshot->commit_timestamps.size(), 2u);

  ASSERT_OK_AND_ASSIGN(auto listing, ListLog(*filesystem_, Root()));
  auto timestamps = CommitTimestamps(listing);
  EXPECT_NEAR(static_cast<double>(timestamps[2]), 2000001.0, 2.0);

  ASSERT_OK_AND_ASSIGN(int64_t at, VersionAtTimestamp(*filesystem_, Root(), 1999000));
  EXPECT_EQ(at, 0);
  ASSERT_OK_AND_ASSIGN(at, VersionAtTimestamp(*filesystem_, Root(), timestamps[1]));
  EXPECT_EQ(at, 1);
  ASSERT_OK_AND_ASSIGN(at, VersionAtTimestamp(*filesystem_, Root(), timestamps[2]));
  EXPECT_EQ(at, 2);
  ASSERT_RAISES_CONDITION("DELTA_TIMESTAMP_EARLIER_THAN_COMMIT_RETENTION",
                          VersionAtTimestamp(*filesystem_, Root(), 10));
  ASSERT_RAISES_CONDITION("DELTA_TIMESTAMP_GREATER_THAN_COMMIT",
                          VersionAtTimestamp(*filesystem_, Root(), timestamps[2] + 1));
  ASSERT_RAISES_CONDITION("DELTA_VERSION_NOT_FOUND", LoadSnapshot(filesystem_, Root(), 3));
}

TEST_F(DeltaLogTest, MissingVersionFailsNamingTheGap) {
  WriteCommit(0, {ProtocolLine(1, 2), MetadataLine(kIdNameSchema)});
  WriteCommit(2, {AddLine("a.parquet", 1)});
  auto snapshot = LoadSnapshot(filesystem_, Root());
  ASSERT_RAISES_CONDITION("DELTA_VERSIONS_NOT_CONTIGUOUS", snapshot);
  EXPECT_NE(snapshot.status().message().find("00000000000000000001.json"), std::string::npos);
  ASSERT_OK(LoadSnapshot(filesystem_, Root(), 0));
}

TEST_F(DeltaLogTest, VersionsBeforeACleanedUpLogCannotBeRead) {
  // Commits 0 and 1 were cleaned up after the checkpoint at 2.
  WriteParquet("_delta_log/00000000000000000002.checkpoint.parquet", CheckpointSchema(),
               R"([{"protocol":{"minReaderVersion":1,"minWriterVersion":2}},
                   {"metaData":{"id":"t","schemaString":")" +
                   EscapedSchema() + R"(","partitionColumns":[],"configuration":[]}}])");
  WriteCommit(2, {AddLine("a.parquet", 1)});
  WriteCommit(3, {AddLine("b.parquet", 1)});
  ASSERT_OK_AND_ASSIGN(auto snapshot, LoadSnapshot(filesystem_, Root()));
  EXPECT_EQ(Paths(*snapshot), (std::vector<std::string>{"b.parquet"}));
  ASSERT_OK(LoadSnapshot(filesystem_, Root(), 2));
  auto old = LoadSnapshot(filesystem_, Root(), 1);
  ASSERT_RAISES_CONDITION("DELTA_VERSION_NOT_FOUND", old);
  EXPECT_NE(old.status().message().find("Available versions: [2, 3]"), std::string::npos);
}

TEST_F(DeltaLogTest, TruncatedCommitFailsNamingTheFile) {
  WriteCommit(0, {ProtocolLine(1, 2), MetadataLine(kIdNameSchema)});
  WriteFile("_delta_log/00000000000000000001.json", R"({"add":{"path":"a.parquet","partitionVal)");
  auto snapshot = LoadSnapshot(filesystem_, Root());
  ASSERT_RAISES_CONDITION("FAILED_READ_FILE.NO_HINT", snapshot);
  EXPECT_NE(snapshot.status().message().find("00000000000000000001.json"), std::string::npos);

  // A well-formed line whose add lacks its size is corrupt too.
  WriteCommit(1, {R"({"add":{"path":"a.parquet","partitionValues":{},"modificationTime":1}})"});
  snapshot = LoadSnapshot(filesystem_, Root());
  ASSERT_RAISES_CONDITION("FAILED_READ_FILE.NO_HINT", snapshot);
  EXPECT_NE(snapshot.status().message().find("'size'"), std::string::npos);
}

TEST_F(DeltaLogTest, CheckpointWithWrongSchemaFailsNamingTheFile) {
  WriteCommit(0, {ProtocolLine(1, 2), MetadataLine(kIdNameSchema)});
  WriteParquet("_delta_log/00000000000000000000.checkpoint.parquet",
               arrow::schema({arrow::field("add", arrow::utf8())}), R"([{"add":"a.parquet"}])");
  auto snapshot = LoadSnapshot(filesystem_, Root());
  ASSERT_RAISES_CONDITION("FAILED_READ_FILE.NO_HINT", snapshot);
  EXPECT_NE(snapshot.status().message().find("00000000000000000000.checkpoint.parquet"),
            std::string::npos);
}

TEST_F(DeltaLogTest, MissingProtocolOrMetadataFails) {
  WriteCommit(0, {MetadataLine(kIdNameSchema)});
  ASSERT_RAISES_CONDITION("DELTA_STATE_RECOVER_ERROR", LoadSnapshot(filesystem_, Root()));
  WriteCommit(0, {ProtocolLine(1, 2)});
  ASSERT_RAISES_CONDITION("DELTA_STATE_RECOVER_ERROR", LoadSnapshot(filesystem_, Root()));
}

TEST_F(DeltaLogTest, RefusesUnsupportedReaderFeaturesAndVersions) {
  WriteCommit(
      0, {ProtocolLine(3, 7, {"deletionVectors", "futureFeature"}), MetadataLine(kIdNameSchema)});
  auto snapshot = LoadSnapshot(filesystem_, Root());
  ASSERT_RAISES_CONDITION("DELTA_UNSUPPORTED_FEATURES_FOR_READ", snapshot);
  EXPECT_NE(snapshot.status().message().find("futureFeature"), std::string::npos);
  EXPECT_EQ(snapshot.status().message().find("deletionVectors"), std::string::npos);

  WriteCommit(0, {ProtocolLine(4, 7), MetadataLine(kIdNameSchema)});
  ASSERT_RAISES_CONDITION("DELTA_INVALID_PROTOCOL_VERSION", LoadSnapshot(filesystem_, Root()));

  WriteCommit(0, {ProtocolLine(3, 7,
                               {"columnMapping", "timestampNtz", "v2Checkpoint",
                                "vacuumProtocolCheck", "typeWidening"}),
                  MetadataLine(kIdNameSchema)});
  ASSERT_OK(LoadSnapshot(filesystem_, Root()));
}

TEST_F(DeltaLogTest, DirectoryWithoutLogIsNotADeltaTable) {
  fs::remove_all(root_ / "_delta_log");
  ASSERT_RAISES_CONDITION("DELTA_MISSING_DELTA_TABLE", LoadSnapshot(filesystem_, Root()));
  fs::create_directories(root_ / "_delta_log");
  ASSERT_RAISES_CONDITION("DELTA_MISSING_DELTA_TABLE", LoadSnapshot(filesystem_, Root()));
}

TEST(DeltaPathTest, DecodesPathsOnceAndResolvesAgainstTheRoot) {
  EXPECT_EQ(ResolveDataPath("/t", "p=a%2525b/part%20one.parquet"), "/t/p=a%25b/part one.parquet");
  EXPECT_EQ(ResolveDataPath("/t", "file:/abs/x.parquet"), "/abs/x.parquet");
  EXPECT_EQ(ResolveDataPath("/t", "file:///abs/x.parquet"), "/abs/x.parquet");
  EXPECT_EQ(CommitFileName(12), "00000000000000000012.json");
}

}  // namespace
}  // namespace parley::delta
