// Delta tables through the public connector API, as the engine drives them: the provider, the
// scan builder's pushdown, planning, and readers run from round-tripped bytes.
#include <nlohmann/json.hpp>

#include "arrow/compute/api.h"
#include "connectors/delta/log/deletion_vector.h"

#include "connectors/delta/delta_table.h"
#include "connectors/delta/delta_test_util.h"
#include "connectors/delta/read/read_task.h"
#include "parley/connector/api.h"
#include "parquet/file_reader.h"
#include "testing/scan_harness.h"

namespace parley::delta {
namespace {

using testing::AddLine;
using testing::MetadataLine;
using testing::ProtocolLine;

constexpr char kPartitionedSchema[] =
    R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}},)"
    R"({"name":"part","type":"integer","nullable":true,"metadata":{}}]})";

class DeltaScanTest : public testing::DeltaTableTest {
 protected:
  // Three files: part=1 ids 1..3, part=2 ids 10..12 (both with statistics), part=null id 20
  // (without statistics).
  void WritePartitionedTable() {
    auto data = arrow::schema({arrow::field("id", arrow::int64())});
    int64_t a = WriteParquet("part=1/a.parquet", data, R"([{"id":1},{"id":2},{"id":3}])");
    int64_t b = WriteParquet("part=2/b.parquet", data, R"([{"id":10},{"id":11},{"id":12}])");
    int64_t c =
        WriteParquet("part=__HIVE_DEFAULT_PARTITION__/c%20d.parquet", data, R"([{"id":20}])");
    WriteCommit(
        0,
        {ProtocolLine(1, 2), MetadataLine(kPartitionedSchema, {"part"}),
         AddLine(
             "part=1/a.parquet", a, R"({"part":"1"})",
             R"({"numRecords":3,"minValues":{"id":1},"maxValues":{"id":3},"nullCount":{"id":0}})"),
         AddLine(
             "part=2/b.parquet", b, R"({"part":"2"})",
             R"({"numRecords":3,"minValues":{"id":10},"maxValues":{"id":12},"nullCount":{"id":0}})"),
         AddLine("part=__HIVE_DEFAULT_PARTITION__/c%2520d.parquet", c, R"({"part":null})")});
  }

  Result<std::shared_ptr<Table>> OpenTable(const std::string& suffix = "") {
    auto provider = MakeDeltaTableProvider();
    Options options{{"path", Root() + suffix}};
    ARROW_ASSIGN_OR_RAISE(auto schema, provider->InferSchema(options));
    return provider->GetTable(schema, options);
  }

  Result<std::unique_ptr<ScanBuilder>> NewBuilder(Table& table) {
    return dynamic_cast<SupportsRead&>(table).NewScanBuilder({});
  }

  // Six rows (ids 0..5, names a..f) in three row groups of two, with a deletion vector
  // deleting rows 1 and 4. Returns the data file's size.
  int64_t WriteTableWithDeletionVector() {
    auto data =
        arrow::schema({arrow::field("id", arrow::int64()), arrow::field("name", arrow::utf8())});
    int64_t size = WriteParquet("a.parquet", data,
                                R"([{"id":0,"name":"a"},{"id":1,"name":"b"},{"id":2,"name":"c"},
                                    {"id":3,"name":"d"},{"id":4,"name":"e"},{"id":5,"name":"f"}])");
    // A DV file deleting rows 1 and 4 (portable RoaringBitmapArray, one array container).
    std::string bitmap;
    auto le = [&](uint64_t v, int width) {
      for (int i = 0; i < width; ++i) bitmap.push_back(static_cast<char>(v >> (8 * i)));
    };
    le(1681511377, 4);
    le(1, 8);
    le(0, 4);
    le(12346, 4);
    le(1, 4);
    le(0, 2);
    le(1, 2);
    le(0, 4);
    le(1, 2);
    le(4, 2);
    std::string file(1, '\x01');
    auto be = [&](uint64_t v) {
      for (int i = 3; i >= 0; --i) file.push_back(static_cast<char>(v >> (8 * i)));
    };
    be(bitmap.size());
    file += bitmap;
    be(DeletionVectorChecksum(bitmap));
    WriteFile("deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin", file);
    std::string dv =
        R"({"storageType":"u","pathOrInlineDv":"^-aqEH.-t@S}K{vb[*k^","offset":1,"sizeInBytes":)" +
        std::to_string(bitmap.size()) + R"(,"cardinality":2})";
    WriteCommit(0, {ProtocolLine(3, 7, {"deletionVectors"}), MetadataLine(testing::kIdNameSchema),
                    AddLine("a.parquet", size, "{}", R"({"numRecords":6})", dv)});
    return size;
  }

  static std::vector<int64_t> Ids(const arrow::Table& rows) {
    std::vector<int64_t> ids;
    auto column = rows.GetColumnByName("id");
    for (const auto& chunk : column->chunks()) {
      const auto& values = static_cast<const arrow::Int64Array&>(*chunk);
      for (int64_t i = 0; i < values.length(); ++i) ids.push_back(values.Value(i));
    }
    std::sort(ids.begin(), ids.end());
    return ids;
  }

  static PredicatePtr Compare(const std::string& op, const std::string& column,
                              std::shared_ptr<arrow::Scalar> value) {
    return MakePredicate(op, {FieldReference(column), MakeLiteral(std::move(value))});
  }
};

TEST_F(DeltaScanTest, ReadsPartitionValuesAndReportsStatistics) {
  WritePartitionedTable();
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable());
  EXPECT_TRUE(table->capabilities().contains(TableCapability::kBatchRead));
  ASSERT_EQ(table->partitioning().size(), 1u);
  EXPECT_EQ(table->partitioning()[0]->ToString(), "identity(part)");
  ASSERT_OK_AND_ASSIGN(auto builder, NewBuilder(*table));
  ASSERT_OK_AND_ASSIGN(auto scan, builder->Build());
  ASSERT_OK_AND_ASSIGN(auto run, parley::testing::RunScan(*scan));
  EXPECT_EQ(run.metrics.at("filesRead"), 3);
  EXPECT_EQ(Ids(*run.rows), (std::vector<int64_t>{1, 2, 3, 10, 11, 12, 20}));
  EXPECT_GT(run.metrics.at(kBytesReadMetric), 0);
  // part is 1 for the first file's rows and NULL for the file with a null partition value.
  auto sorted =
      arrow::compute::SortIndices(arrow::Datum(run.rows),
                                  arrow::compute::SortOptions({arrow::compute::SortKey("id")}))
          .ValueOrDie();
  auto ordered =
      arrow::compute::Take(arrow::Datum(run.rows), arrow::Datum(sorted)).ValueOrDie().table();
  ASSERT_OK_AND_ASSIGN(auto part, arrow::Concatenate(ordered->GetColumnByName("part")->chunks()));
  ASSERT_OK_AND_ASSIGN(auto expected_part,
                       arrow::json::ArrayFromJSONString(arrow::int32(), "[1,1,1,2,2,2,null]"));
  EXPECT_TRUE(part->Equals(*expected_part)) << part->ToString();
  // Statistics need numRecords for every file; the third has none.
  auto* report = dynamic_cast<SupportsReportStatistics*>(scan.get());
  ASSERT_NE(report, nullptr);
  ASSERT_OK_AND_ASSIGN(auto statistics, report->EstimateStatistics());
  EXPECT_FALSE(statistics.num_rows.has_value());
  EXPECT_GT(*statistics.size_in_bytes, 0);
  // Nor are bounds known for a column when one file has none.
  EXPECT_FALSE(statistics.column_stats.count("id"));
}

TEST_F(DeltaScanTest, PartitionPredicatesPruneExactlyAndAreNotReturned) {
  WritePartitionedTable();
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable());
  ASSERT_OK_AND_ASSIGN(auto builder, NewBuilder(*table));
  auto* filters = dynamic_cast<SupportsPushDownV2Filters*>(builder.get());
  ASSERT_NE(filters, nullptr);
  ASSERT_OK_AND_ASSIGN(auto remaining,
                       filters->PushPredicates({Compare(">=", "part", arrow::MakeScalar(2))}));
  EXPECT_TRUE(remaining.empty());
  EXPECT_EQ(filters->PushedPredicates().size(), 1u);
  ASSERT_OK_AND_ASSIGN(auto scan, builder->Build());
  ASSERT_OK_AND_ASSIGN(auto run, parley::testing::RunScan(*scan));
  EXPECT_EQ(run.partitions, 1);
  EXPECT_EQ(Ids(*run.rows), (std::vector<int64_t>{10, 11, 12}));
  ASSERT_OK_AND_ASSIGN(auto statistics,
                       dynamic_cast<SupportsReportStatistics&>(*scan).EstimateStatistics());
  EXPECT_EQ(statistics.num_rows, 3);
  // Integer columns report the bounds of the kept files: the partition value, the file's stats.
  ASSERT_TRUE(statistics.column_stats.count("part"));
  EXPECT_EQ(statistics.column_stats["part"].min->ToString(), "2");
  EXPECT_EQ(statistics.column_stats["part"].max->ToString(), "2");
  ASSERT_TRUE(statistics.column_stats.count("id"));
  EXPECT_EQ(statistics.column_stats["id"].min->ToString(), "10");
  EXPECT_EQ(statistics.column_stats["id"].max->ToString(), "12");

  // IS NULL selects the null partition only.
  ASSERT_OK_AND_ASSIGN(builder, NewBuilder(*table));
  filters = dynamic_cast<SupportsPushDownV2Filters*>(builder.get());
  ASSERT_OK_AND_ASSIGN(
      remaining, filters->PushPredicates({MakePredicate("IS_NULL", {FieldReference("part")})}));
  EXPECT_TRUE(remaining.empty());
  ASSERT_OK_AND_ASSIGN(scan, builder->Build());
  ASSERT_OK_AND_ASSIGN(run, parley::testing::RunScan(*scan));
  EXPECT_EQ(Ids(*run.rows), (std::vector<int64_t>{20}));
}

TEST_F(DeltaScanTest, DataPredicatesSkipFilesByStatisticsAndAreReturned) {
  WritePartitionedTable();
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable());
  ASSERT_OK_AND_ASSIGN(auto builder, NewBuilder(*table));
  auto* filters = dynamic_cast<SupportsPushDownV2Filters*>(builder.get());
  auto predicate = Compare(">", "id", arrow::MakeScalar(int64_t{11}));
  ASSERT_OK_AND_ASSIGN(auto remaining, filters->PushPredicates({predicate}));
  ASSERT_EQ(remaining.size(), 1u);
  EXPECT_EQ(remaining[0], predicate);
  ASSERT_OK_AND_ASSIGN(auto scan, builder->Build());
  ASSERT_OK_AND_ASSIGN(auto run, parley::testing::RunScan(*scan));
  // a.parquet (max 3) is skipped; b.parquet may hold a match; c.parquet has no statistics.
  // The readers drop the rows of b.parquet that fail it while decoding.
  EXPECT_EQ(run.partitions, 2);
  EXPECT_EQ(Ids(*run.rows), (std::vector<int64_t>{12, 20}));
  EXPECT_EQ(run.metrics.at("rowsFiltered"), 2);

  // A mixed predicate (partition OR data) is not exact: returned, and skips only by bounds.
  ASSERT_OK_AND_ASSIGN(builder, NewBuilder(*table));
  filters = dynamic_cast<SupportsPushDownV2Filters*>(builder.get());
  auto mixed = MakePredicate("OR", {Compare("=", "part", arrow::MakeScalar(1)),
                                    Compare("=", "id", arrow::MakeScalar(int64_t{100}))});
  ASSERT_OK_AND_ASSIGN(remaining, filters->PushPredicates({mixed}));
  EXPECT_EQ(remaining.size(), 1u);
  ASSERT_OK_AND_ASSIGN(scan, builder->Build());
  ASSERT_OK_AND_ASSIGN(run, parley::testing::RunScan(*scan));
  EXPECT_EQ(run.partitions, 2);  // a.parquet (part = 1) and c.parquet (no statistics)
}

TEST_F(DeltaScanTest, PrunesColumnsAndAppliesDeletionVectors) {
  WriteTableWithDeletionVector();
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable());
  ASSERT_OK_AND_ASSIGN(auto builder, NewBuilder(*table));
  auto* prune = dynamic_cast<SupportsPushDownRequiredColumns*>(builder.get());
  ASSERT_NE(prune, nullptr);
  ASSERT_OK(prune->PruneColumns(arrow::schema({arrow::field("id", arrow::int64())})));
  ASSERT_OK_AND_ASSIGN(auto scan, builder->Build());
  EXPECT_EQ(scan->ReadSchema()->num_fields(), 1);
  ASSERT_OK_AND_ASSIGN(auto run, parley::testing::RunScan(*scan));
  EXPECT_EQ(Ids(*run.rows), (std::vector<int64_t>{0, 2, 3, 5}));
  EXPECT_EQ(run.metrics.at("deletedRowsSkipped"), 2);
  ASSERT_OK_AND_ASSIGN(auto statistics,
                       dynamic_cast<SupportsReportStatistics&>(*scan).EstimateStatistics());
  EXPECT_EQ(statistics.num_rows, 4);

  // Reading no column at all (COUNT(*)) still drops the deleted rows.
  ASSERT_OK_AND_ASSIGN(builder, NewBuilder(*table));
  ASSERT_OK(
      dynamic_cast<SupportsPushDownRequiredColumns&>(*builder).PruneColumns(arrow::schema({})));
  ASSERT_OK_AND_ASSIGN(scan, builder->Build());
  ASSERT_OK_AND_ASSIGN(run, parley::testing::RunScan(*scan));
  EXPECT_EQ(run.rows->num_rows(), 4);
}

// A file cut into byte ranges: each row group is read by the range holding its midpoint, and
// deletion vectors still address rows by their index in the whole file.
TEST_F(DeltaScanTest, ByteRangesOfAFileReadTheirRowGroups) {
  int64_t size = WriteTableWithDeletionVector();
  // Where each of the three row groups (ids 0-1, 2-3, 4-5) starts.
  auto metadata = parquet::ParquetFileReader::OpenFile(Root() + "/a.parquet")->metadata();
  ASSERT_EQ(metadata->num_row_groups(), 3);
  std::vector<int64_t> starts;
  for (int i = 0; i < 3; ++i) starts.push_back(metadata->RowGroup(i)->file_offset());
  starts.push_back(size);

  ASSERT_OK_AND_ASSIGN(auto table, OpenTable());
  ASSERT_OK_AND_ASSIGN(auto builder, NewBuilder(*table));
  ASSERT_OK_AND_ASSIGN(auto scan, builder->Build());
  ASSERT_OK_AND_ASSIGN(auto batch, scan->ToBatch());
  ASSERT_OK_AND_ASSIGN(auto planned, batch->PlanInputPartitions());
  ASSERT_EQ(planned.size(), 1u);
  ASSERT_OK_AND_ASSIGN(auto factory, batch->CreateReaderFactory());
  ASSERT_OK_AND_ASSIGN(auto planned_bytes, planned[0]->Serialize());
  auto whole = nlohmann::json::parse(planned_bytes);
  ASSERT_EQ(whole["pieces"].size(), 1u);
  EXPECT_EQ(whole["pieces"][0]["length"], -1) << "a small file is read whole";

  auto read_range = [&](int64_t begin, int64_t end) -> Result<std::vector<int64_t>> {
    auto piece = whole;
    piece["pieces"][0]["start"] = begin;
    piece["pieces"][0]["length"] = end - begin;
    ARROW_ASSIGN_OR_RAISE(auto partition, factory->DeserializePartition(piece.dump()));
    ARROW_ASSIGN_OR_RAISE(auto reader, factory->CreateReader(*partition));
    std::vector<int64_t> ids;
    while (true) {
      ARROW_ASSIGN_OR_RAISE(auto next, reader->Next());
      if (next == nullptr) break;
      auto column = std::static_pointer_cast<arrow::Int64Array>(next->GetColumnByName("id"));
      for (int64_t r = 0; r < column->length(); ++r) ids.push_back(column->Value(r));
    }
    return ids;
  };
  // One range per row group: rows 1 and 4 are deleted in the first and last.
  const std::vector<std::vector<int64_t>> expected = {{0}, {2, 3}, {5}};
  for (int i = 0; i < 3; ++i) {
    ASSERT_OK_AND_ASSIGN(auto ids, read_range(i == 0 ? 0 : starts[i], starts[i + 1]));
    EXPECT_EQ(ids, expected[i]) << "row group " << i;
  }
  // Two ranges cut inside the second row group after its midpoint: it goes to the first.
  int64_t cut = starts[1] + (starts[2] - starts[1]) * 3 / 4;
  ASSERT_OK_AND_ASSIGN(auto first, read_range(0, cut));
  ASSERT_OK_AND_ASSIGN(auto second, read_range(cut, size));
  EXPECT_EQ(first, (std::vector<int64_t>{0, 2, 3}));
  EXPECT_EQ(second, (std::vector<int64_t>{5}));
}

TEST(DeltaPlanPiecesTest, SplitsLargeFilesAndPacksSmallOnes) {
  auto file = [](const std::string& name, int64_t size) {
    ReadTask task;
    task.path = name;
    task.size = size;
    return task;
  };
  SplitOptions options;
  options.max_partition_bytes = 100;
  options.open_cost_in_bytes = 10;
  options.cores = 1;
  // Split size min(100, max(10, 450 bytes with open costs / 1 core)) = 100: "big" is cut into
  // 100 + 100 + 50; pieces, largest first, fill partitions of up to 100 bytes, each piece
  // costing its bytes plus the open cost.
  auto partitions = PlanPieces(
      {file("big", 250), file("a", 30), file("b", 30), file("c", 30), file("d", 60)}, options);
  std::vector<std::string> layout;
  for (const auto& pieces : partitions) {
    std::string text;
    for (const auto& piece : pieces) {
      text += piece.path +
              (piece.length < 0
                   ? ""
                   : "@" + std::to_string(piece.start) + "+" + std::to_string(piece.length)) +
              " ";
    }
    layout.push_back(text);
  }
  EXPECT_EQ(layout, (std::vector<std::string>{"big@0+100 ", "big@100+100 ", "d ", "big@200+50 a ",
                                              "b c "}));
  // More cores shrink the split size to spread the bytes: max(10, 260 / 20) = 13.
  options.cores = 20;
  partitions = PlanPieces({file("big", 250)}, options);
  EXPECT_EQ(partitions.size(), 20u);
  for (const auto& pieces : partitions) {
    ASSERT_EQ(pieces.size(), 1u);
    EXPECT_LE(pieces[0].length, 13);
  }
}

TEST_F(DeltaScanTest, TimeTravelsThroughThePathSuffixAndOptions) {
  auto data =
      arrow::schema({arrow::field("id", arrow::int64()), arrow::field("name", arrow::utf8())});
  int64_t a = WriteParquet("a.parquet", data, R"([{"id":1,"name":"a"}])");
  int64_t b = WriteParquet("b.parquet", data, R"([{"id":2,"name":"b"}])");
  WriteCommit(0,
              {ProtocolLine(1, 2), MetadataLine(testing::kIdNameSchema), AddLine("a.parquet", a)});
  WriteCommit(1, {AddLine("b.parquet", b)});
  for (const auto& [suffix, expected] :
       std::vector<std::pair<std::string, std::vector<int64_t>>>{{"", {1, 2}}, {"@v0", {1}}}) {
    ASSERT_OK_AND_ASSIGN(auto table, OpenTable(suffix));
    ASSERT_OK_AND_ASSIGN(auto builder, NewBuilder(*table));
    ASSERT_OK_AND_ASSIGN(auto scan, builder->Build());
    ASSERT_OK_AND_ASSIGN(auto run, parley::testing::RunScan(*scan));
    EXPECT_EQ(Ids(*run.rows), expected) << suffix;
  }
  ASSERT_RAISES_CONDITION("DELTA_VERSION_NOT_FOUND", OpenTable("@v5"));
  ASSERT_RAISES_CONDITION("DELTA_TIMESTAMP_INVALID", OpenTable("@yesterday"));
  auto provider = MakeDeltaTableProvider();
  ASSERT_OK_AND_ASSIGN(auto schema,
                       provider->InferSchema({{"path", Root()}, {"versionasof", "0"}}));
  EXPECT_EQ(schema->num_fields(), 2);
  ASSERT_RAISES_CONDITION("DELTA_UNSUPPORTED_TIME_TRAVEL_MULTIPLE_FORMATS",
                          provider->InferSchema({{"path", Root() + "@v0"}, {"versionasof", "0"}}));
}

// Pushed data predicates travel to the readers in the factory's bytes and drop rows of every
// row group while decoding; the engine still applies them, so they are all returned.
TEST_F(DeltaScanTest, PushedDataPredicatesDropRowsWhileReading) {
  auto data =
      arrow::schema({arrow::field("id", arrow::int64()), arrow::field("name", arrow::utf8())});
  int64_t size = WriteParquet("a.parquet", data,
                              R"([{"id":0,"name":"a"},{"id":1,"name":"b"},{"id":2,"name":"c"},
                                  {"id":3,"name":"d"},{"id":4,"name":"e"},{"id":5,"name":"f"}])");
  WriteCommit(
      0, {ProtocolLine(1, 2), MetadataLine(testing::kIdNameSchema), AddLine("a.parquet", size)});
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable());
  ASSERT_OK_AND_ASSIGN(auto builder, NewBuilder(*table));
  ASSERT_OK(dynamic_cast<SupportsPushDownRequiredColumns&>(*builder).PruneColumns(
      arrow::schema({arrow::field("id", arrow::int64())})));
  std::vector<PredicatePtr> predicates = {Compare(">=", "id", arrow::MakeScalar(int64_t{1})),
                                          Compare("<", "id", arrow::MakeScalar(int64_t{5})),
                                          Compare("<>", "id", arrow::MakeScalar(int64_t{3}))};
  ASSERT_OK_AND_ASSIGN(
      auto remaining,
      dynamic_cast<SupportsPushDownV2Filters&>(*builder).PushPredicates(predicates));
  EXPECT_EQ(remaining.size(), 3u);
  ASSERT_OK_AND_ASSIGN(auto scan, builder->Build());
  ASSERT_OK_AND_ASSIGN(auto run, parley::testing::RunScan(*scan));
  EXPECT_EQ(Ids(*run.rows), (std::vector<int64_t>{1, 2, 4}));
  EXPECT_EQ(run.metrics.at("rowsFiltered"), 3);

  // A malformed row filter is a contract violation, like any other malformed field.
  ASSERT_OK_AND_ASSIGN(auto batch, scan->ToBatch());
  ASSERT_OK_AND_ASSIGN(auto factory, batch->CreateReaderFactory());
  ASSERT_OK_AND_ASSIGN(auto bytes, factory->Serialize());
  auto encoded = nlohmann::json::parse(bytes);
  ASSERT_TRUE(encoded["rowFilter"].is_string());
  for (const auto& bad :
       {nlohmann::json("bm90IGFuIGV4cHJlc3Npb24="), nlohmann::json("#"), nlohmann::json(1)}) {
    auto broken = encoded;
    broken["rowFilter"] = bad;
    ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
                            batch->DeserializeReaderFactory(broken.dump()));
  }
  encoded.erase("rowFilter");
  ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
                          batch->DeserializeReaderFactory(encoded.dump()));
}

// A file with a deletion vector addresses rows by their index in the file: no row is dropped
// before the deletion vector applies.
TEST_F(DeltaScanTest, DeletionVectorFilesKeepEveryRowUntilTheVectorApplies) {
  WriteTableWithDeletionVector();
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable());
  ASSERT_OK_AND_ASSIGN(auto builder, NewBuilder(*table));
  ASSERT_OK(dynamic_cast<SupportsPushDownRequiredColumns&>(*builder).PruneColumns(
      arrow::schema({arrow::field("id", arrow::int64())})));
  ASSERT_OK(dynamic_cast<SupportsPushDownV2Filters&>(*builder)
                .PushPredicates({Compare(">=", "id", arrow::MakeScalar(int64_t{1})),
                                 Compare("<>", "id", arrow::MakeScalar(int64_t{3}))})
                .status());
  ASSERT_OK_AND_ASSIGN(auto scan, builder->Build());
  ASSERT_OK_AND_ASSIGN(auto run, parley::testing::RunScan(*scan));
  // The engine applies the returned predicates; the source returns every row the DV keeps.
  EXPECT_EQ(Ids(*run.rows), (std::vector<int64_t>{0, 2, 3, 5}));
  EXPECT_EQ(run.metrics.at("deletedRowsSkipped"), 2);
  EXPECT_EQ(run.metrics.at("rowsFiltered"), 0);
}

TEST_F(DeltaScanTest, MissingDataFileFailsNamingIt) {
  WriteCommit(
      0, {ProtocolLine(1, 2), MetadataLine(testing::kIdNameSchema), AddLine("gone.parquet", 10)});
  ASSERT_OK_AND_ASSIGN(auto table, OpenTable());
  ASSERT_OK_AND_ASSIGN(auto builder, NewBuilder(*table));
  ASSERT_OK_AND_ASSIGN(auto scan, builder->Build());
  auto run = parley::testing::RunScan(*scan);
  ASSERT_RAISES_CONDITION("FAILED_READ_FILE.FILE_NOT_EXIST", run);
  EXPECT_NE(run.status().message().find("gone.parquet"), std::string::npos);
}

}  // namespace
}  // namespace parley::delta
