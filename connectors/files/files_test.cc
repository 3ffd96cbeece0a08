// Tests of the files connector, driven only through the public connector API the way the
// engine drives it: InferSchema and GetTable on the provider, pushdown negotiated by hand on
// the scan builder, Build, ToBatch, partitions planned, the factory and every partition
// round-tripped through bytes, readers drained, task metrics summed. The data is written by
// each test into its own temporary directory with Arrow's Parquet and ORC writers and as text.
#include <filesystem>
#include <fstream>
#include <random>

#include "arrow/adapters/orc/adapter.h"
#include "arrow/api.h"
#include "arrow/compute/api.h"
#include "arrow/io/compressed.h"
#include "arrow/io/file.h"
#include "arrow/json/from_string.h"
#include "arrow/util/compression.h"
#include "connectors/files/files_provider.h"
#include "parley/connector/api.h"
#include "parquet/arrow/writer.h"
#include "testing/gtest_util.h"
#include "testing/scan_harness.h"

namespace parley::files {
namespace {

namespace cp = arrow::compute;
namespace fs = std::filesystem;

// What one scan read (rows sorted by `id` when the read has that column).
using ScanResult = testing::ScanRun;

Result<std::shared_ptr<arrow::Table>> SortById(std::shared_ptr<arrow::Table> table) {
  if (table->schema()->GetFieldIndex("id") < 0) return table;
  ARROW_ASSIGN_OR_RAISE(auto indices,
                        cp::SortIndices(arrow::Datum(table), cp::SortOptions({cp::SortKey("id")})));
  ARROW_ASSIGN_OR_RAISE(auto sorted, cp::Take(arrow::Datum(table), arrow::Datum(indices)));
  return sorted.table();
}

// Run a built scan's tasks as the engine does (see testing/scan_harness.h), rows sorted by id.
Result<ScanResult> ReadScan(Scan& scan) {
  ARROW_ASSIGN_OR_RAISE(auto result, testing::RunScan(scan));
  ARROW_ASSIGN_OR_RAISE(result.rows, SortById(std::move(result.rows)));
  return result;
}

// The serialized form of every planned partition.
Result<std::vector<std::string>> PlannedPartitions(Scan& scan) {
  ARROW_ASSIGN_OR_RAISE(auto batch, scan.ToBatch());
  ARROW_ASSIGN_OR_RAISE(auto partitions, batch->PlanInputPartitions());
  std::vector<std::string> out;
  for (const auto& partition : partitions) {
    ARROW_ASSIGN_OR_RAISE(auto bytes, partition->Serialize());
    out.push_back(std::move(bytes));
  }
  return out;
}

// Rows (id, payload, score): ids from `first`, a random 48-character payload (so compression
// cannot hide the bytes a column costs) and score = id / 2.
Result<std::shared_ptr<arrow::Table>> MakeRows(int64_t first, int64_t count) {
  std::mt19937 random(static_cast<uint32_t>(first));
  const std::string alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  arrow::Int64Builder ids;
  arrow::StringBuilder payloads;
  arrow::DoubleBuilder scores;
  for (int64_t i = first; i < first + count; ++i) {
    ARROW_RETURN_NOT_OK(ids.Append(i));
    std::string payload(48, ' ');
    for (char& c : payload) c = alphabet[random() % alphabet.size()];
    ARROW_RETURN_NOT_OK(payloads.Append(payload));
    ARROW_RETURN_NOT_OK(scores.Append(static_cast<double>(i) / 2));
  }
  ARROW_ASSIGN_OR_RAISE(auto id_array, ids.Finish());
  ARROW_ASSIGN_OR_RAISE(auto payload_array, payloads.Finish());
  ARROW_ASSIGN_OR_RAISE(auto score_array, scores.Finish());
  auto schema =
      arrow::schema({arrow::field("id", arrow::int64()), arrow::field("payload", arrow::utf8()),
                     arrow::field("score", arrow::float64())});
  return arrow::Table::Make(schema, {id_array, payload_array, score_array});
}

ExpressionPtr Col(const std::string& name) { return FieldReference(name); }
ExpressionPtr I32(int32_t value) {
  return MakeLiteral(std::make_shared<arrow::Int32Scalar>(value));
}
ExpressionPtr I64(int64_t value) {
  return MakeLiteral(std::make_shared<arrow::Int64Scalar>(value));
}
ExpressionPtr F64(double value) {
  return MakeLiteral(std::make_shared<arrow::DoubleScalar>(value));
}
ExpressionPtr Str(const std::string& value) {
  return MakeLiteral(std::make_shared<arrow::StringScalar>(value));
}
PredicatePtr P(std::string name, std::vector<ExpressionPtr> children) {
  return MakePredicate(std::move(name), std::move(children));
}

std::vector<std::string> Render(const std::vector<PredicatePtr>& predicates) {
  std::vector<std::string> out;
  for (const auto& predicate : predicates) out.push_back(predicate->ToString());
  return out;
}

// The int64 values of a column, in row order.
std::vector<int64_t> Int64s(const arrow::Table& table, const std::string& column) {
  std::vector<int64_t> out;
  for (const auto& chunk : table.GetColumnByName(column)->chunks()) {
    const auto& values = static_cast<const arrow::Int64Array&>(*chunk);
    for (int64_t i = 0; i < values.length(); ++i) out.push_back(values.Value(i));
  }
  return out;
}

std::vector<int64_t> Range(int64_t begin, int64_t end) {
  std::vector<int64_t> out;
  for (int64_t i = begin; i < end; ++i) out.push_back(i);
  return out;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class FilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device random;
    dir_ = fs::temp_directory_path() / ("parley-files-test-" + std::to_string(random()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& relative) const { return (dir_ / relative).string(); }

  void WriteText(const std::string& relative, const std::string& text) {
    fs::create_directories(fs::path(Path(relative)).parent_path());
    std::ofstream(Path(relative), std::ios::binary) << text;
  }

  void WriteParquet(const std::string& relative, const arrow::Table& table,
                    int64_t row_group_rows = 1 << 20) {
    fs::create_directories(fs::path(Path(relative)).parent_path());
    auto out = arrow::io::FileOutputStream::Open(Path(relative));
    ASSERT_OK(out.status());
    ASSERT_OK(
        parquet::arrow::WriteTable(table, arrow::default_memory_pool(), *out, row_group_rows));
    ASSERT_OK((*out)->Close());
  }

  void WriteOrc(const std::string& relative, const arrow::Table& table) {
    auto out = arrow::io::FileOutputStream::Open(Path(relative));
    ASSERT_OK(out.status());
    auto writer = arrow::adapters::orc::ORCFileWriter::Open(out->get());
    ASSERT_OK(writer.status());
    ASSERT_OK((*writer)->Write(table));
    ASSERT_OK((*writer)->Close());
    ASSERT_OK((*out)->Close());
  }

  // A Hive-partitioned Parquet table under t/: year=2023 (ids 0-1999), year=2024 (two files,
  // ids 2000-5999), a NULL year (ids 6000-6999), and files Spark and the connector skip.
  void WritePartitionedTable() {
    for (auto [path, first, count] : std::vector<std::tuple<std::string, int64_t, int64_t>>{
             {"t/year=2023/part-0.parquet", 0, 2000},
             {"t/year=2024/part-0.parquet", 2000, 2000},
             {"t/year=2024/part-1.parquet", 4000, 2000},
             {"t/year=__HIVE_DEFAULT_PARTITION__/part-0.parquet", 6000, 1000}}) {
      ASSERT_OK_AND_ASSIGN(auto rows, MakeRows(first, count));
      WriteParquet(path, *rows);
    }
    WriteText("t/_SUCCESS", "");
    WriteText("t/.part-0.parquet.crc", "not data");
    WriteText("t/_temporary/0/part-9.parquet", "not data either");
  }

  // One Parquet file of 10000 rows (ids in order) in ten row groups of 1000.
  void WriteRowGroupFile() {
    ASSERT_OK_AND_ASSIGN(auto rows, MakeRows(0, 10000));
    WriteParquet("big.parquet", *rows, 1000);
  }

  Result<std::shared_ptr<Table>> Open(const std::string& format, const Options& options) {
    auto provider = MakeFilesTableProvider(format);
    if (provider == nullptr) return Status::Invalid("no provider for ", format);
    ARROW_ASSIGN_OR_RAISE(auto schema, provider->InferSchema(options));
    return provider->GetTable(schema, options);
  }

  // Build a scan of `table` after offering `predicates`, pruning to `columns` (all when null)
  // and pushing `limit` (none when negative).
  struct Negotiated {
    std::shared_ptr<Scan> scan;
    std::vector<PredicatePtr> residual;
    std::vector<PredicatePtr> pushed;
  };
  static Result<Negotiated> Negotiate(Table& table, std::vector<PredicatePtr> predicates = {},
                                      const std::vector<std::string>* columns = nullptr,
                                      int64_t limit = -1, const Options& options = {}) {
    ARROW_ASSIGN_OR_RAISE(auto builder, dynamic_cast<SupportsRead&>(table).NewScanBuilder(options));
    Negotiated out;
    auto& filters = dynamic_cast<SupportsPushDownV2Filters&>(*builder);
    ARROW_ASSIGN_OR_RAISE(out.residual, filters.PushPredicates(std::move(predicates)));
    out.pushed = filters.PushedPredicates();
    if (limit >= 0) dynamic_cast<SupportsPushDownLimit&>(*builder).PushLimit(limit);
    if (columns != nullptr) {
      arrow::FieldVector fields;
      for (const auto& name : *columns) fields.push_back(table.schema()->GetFieldByName(name));
      ARROW_RETURN_NOT_OK(dynamic_cast<SupportsPushDownRequiredColumns&>(*builder).PruneColumns(
          arrow::schema(fields)));
    }
    ARROW_ASSIGN_OR_RAISE(out.scan, builder->Build());
    return out;
  }

  fs::path dir_;
};

// ---- Tables and partition discovery

TEST_F(FilesTest, ProviderNamesFormats) {
  for (const char* format : {"parquet", "csv", "json", "orc", "PARQUET"}) {
    EXPECT_NE(MakeFilesTableProvider(format), nullptr) << format;
  }
  EXPECT_EQ(MakeFilesTableProvider("avro"), nullptr);
}

TEST_F(FilesTest, DiscoversHivePartitionsAndSkipsHiddenFiles) {
  WritePartitionedTable();
  ASSERT_OK_AND_ASSIGN(auto table, Open("parquet", {{"path", Path("t")}}));
  EXPECT_EQ(table->name(), "parquet.`" + Path("t") + "`");
  EXPECT_TRUE(table->schema()->Equals(*arrow::schema(
      {arrow::field("id", arrow::int64()), arrow::field("payload", arrow::utf8()),
       arrow::field("score", arrow::float64()), arrow::field("year", arrow::int32())})))
      << table->schema()->ToString();
  ASSERT_EQ(table->partitioning().size(), 1u);
  EXPECT_EQ(table->partitioning()[0]->ToString(), "identity(year)");
  EXPECT_TRUE(table->capabilities().count(TableCapability::kBatchRead));
  EXPECT_EQ(table->properties().at("provider"), "parquet");

  ASSERT_OK_AND_ASSIGN(auto negotiated, Negotiate(*table));
  ASSERT_OK_AND_ASSIGN(auto result, ReadScan(*negotiated.scan));
  EXPECT_EQ(Int64s(*result.rows, "id"), Range(0, 7000));
  EXPECT_EQ(result.metrics["filesRead"], 4);
  auto years = result.rows->GetColumnByName("year");
  ASSERT_OK_AND_ASSIGN(auto first, years->GetScalar(0));
  ASSERT_OK_AND_ASSIGN(auto middle, years->GetScalar(3000));
  ASSERT_OK_AND_ASSIGN(auto last, years->GetScalar(6500));
  EXPECT_EQ(first->ToString(), "2023");
  EXPECT_EQ(middle->ToString(), "2024");
  EXPECT_FALSE(last->is_valid);
}

TEST_F(FilesTest, PartitionPredicatesAreExactAndPruneFiles) {
  WritePartitionedTable();
  ASSERT_OK_AND_ASSIGN(auto table, Open("parquet", {{"path", Path("t")}}));
  ASSERT_OK_AND_ASSIGN(auto full, Negotiate(*table));
  ASSERT_OK_AND_ASSIGN(auto all, ReadScan(*full.scan));

  auto year_2024 = P("=", {Col("year"), I32(2024)});
  ASSERT_OK_AND_ASSIGN(auto pruned, Negotiate(*table, {year_2024}));
  EXPECT_TRUE(pruned.residual.empty());
  EXPECT_EQ(Render(pruned.pushed), Render({year_2024}));
  EXPECT_TRUE(Contains(pruned.scan->Description(), "partitionFilters=[" + year_2024->ToString()))
      << pruned.scan->Description();
  EXPECT_TRUE(Contains(pruned.scan->Description(), "files=2/4")) << pruned.scan->Description();
  ASSERT_OK_AND_ASSIGN(auto planned, PlannedPartitions(*pruned.scan));
  for (const auto& bytes : planned) {
    EXPECT_TRUE(Contains(bytes, "year=2024"));
    EXPECT_FALSE(Contains(bytes, "year=2023"));
    EXPECT_FALSE(Contains(bytes, "__HIVE_DEFAULT_PARTITION__"));
  }
  ASSERT_OK_AND_ASSIGN(auto result, ReadScan(*pruned.scan));
  EXPECT_EQ(Int64s(*result.rows, "id"), Range(2000, 6000));
  EXPECT_EQ(result.metrics["filesRead"], 2);
  EXPECT_GT(result.metrics["bytesRead"], 0);
  EXPECT_LT(result.metrics["bytesRead"], all.metrics["bytesRead"] * 3 / 4);

  // Three-valued logic: the NULL partition satisfies neither `year <> 2024` nor its negation.
  struct Case {
    PredicatePtr predicate;
    std::vector<int64_t> ids;
  };
  for (const auto& [predicate, ids] : std::vector<Case>{
           {P("<>", {Col("year"), I32(2024)}), Range(0, 2000)},
           {P("=", {Col("year"), I64(2023)}), Range(0, 2000)},
           {P("NOT", {P("<>", {Col("year"), I32(2024)})}), Range(2000, 6000)},
           {P("IS_NULL", {Col("year")}), Range(6000, 7000)},
           {P("IN", {Col("year"), I32(2023), I32(2025)}), Range(0, 2000)},
           {P("<=>", {Col("year"), MakeLiteral(arrow::MakeNullScalar(arrow::int32()))}),
            Range(6000, 7000)},
           {P("OR", {P("<", {Col("year"), I32(2024)}), P("IS_NULL", {Col("year")})}),
            [] {
              auto ids = Range(0, 2000);
              for (int64_t id : Range(6000, 7000)) ids.push_back(id);
              return ids;
            }()},
           {P("ALWAYS_FALSE", {}), {}},
       }) {
    SCOPED_TRACE(predicate->ToString());
    ASSERT_OK_AND_ASSIGN(auto negotiated, Negotiate(*table, {predicate}));
    EXPECT_TRUE(negotiated.residual.empty());
    ASSERT_OK_AND_ASSIGN(auto read, ReadScan(*negotiated.scan));
    EXPECT_EQ(Int64s(*read.rows, "id"), ids);
  }
}

TEST_F(FilesTest, PredicatesTheConnectorCannotApplyAreReturned) {
  WritePartitionedTable();
  ASSERT_OK_AND_ASSIGN(auto table, Open("parquet", {{"path", Path("t")}}));
  auto arithmetic = P("=", {std::make_shared<GeneralScalarExpression>(
                                "+", std::vector<ExpressionPtr>{Col("id"), I64(1)}),
                            I64(5)});
  auto on_float = P(">", {Col("score"), F64(1.0)});
  auto type_mismatch = P("=", {Col("payload"), I64(3)});
  auto unknown_column = P("=", {Col("nope"), I64(3)});
  auto prefix = P("STARTS_WITH", {Col("payload"), Str("a")});
  auto mixed = P("OR", {P("=", {Col("year"), I32(2023)}), P(">", {Col("id"), I64(6500)})});
  ASSERT_OK_AND_ASSIGN(auto negotiated, Negotiate(*table, {arithmetic, on_float, type_mismatch,
                                                           unknown_column, prefix, mixed}));
  EXPECT_EQ(Render(negotiated.residual),
            Render({arithmetic, on_float, type_mismatch, unknown_column, prefix, mixed}));
  // Data predicates are kept for pruning (the mixed one prunes files by partition value and
  // row groups by statistics) and still returned.
  EXPECT_EQ(Render(negotiated.pushed), Render({prefix, mixed}));
  ASSERT_OK_AND_ASSIGN(auto planned, PlannedPartitions(*negotiated.scan));
  for (const auto& bytes : planned) EXPECT_FALSE(Contains(bytes, "year=2024")) << bytes;
}

// ---- Parquet row groups, columns, partitions, statistics

// Five row groups of 100 rows: id 0..499, day = 19000 + id (date32), price = id * 1.25
// (DECIMAL(9,2) stored as INT32), n NULL throughout the second group and on every tenth row of
// the first, else id.
TEST_F(FilesTest, RowGroupsArePrunedOnRawStatisticsOfDatesDecimalsAndNulls) {
  arrow::Int64Builder ids;
  arrow::Date32Builder days;
  arrow::Decimal128Builder prices(arrow::decimal128(9, 2));
  arrow::Int32Builder ns;
  for (int32_t id = 0; id < 500; ++id) {
    ASSERT_OK(ids.Append(id));
    ASSERT_OK(days.Append(19000 + id));
    ASSERT_OK(prices.Append(arrow::Decimal128(id * 125)));
    const bool null = (id >= 100 && id < 200) || (id < 100 && id % 10 == 0);
    ASSERT_OK(null ? ns.AppendNull() : ns.Append(id));
  }
  arrow::ArrayVector columns(4);
  ASSERT_OK(ids.Finish(&columns[0]));
  ASSERT_OK(days.Finish(&columns[1]));
  ASSERT_OK(prices.Finish(&columns[2]));
  ASSERT_OK(ns.Finish(&columns[3]));
  auto rows = arrow::Table::Make(
      arrow::schema({arrow::field("id", arrow::int64()), arrow::field("day", arrow::date32()),
                     arrow::field("price", arrow::decimal128(9, 2)),
                     arrow::field("n", arrow::int32())}),
      columns);
  ASSERT_OK_AND_ASSIGN(auto out, arrow::io::FileOutputStream::Open(Path("typed.parquet")));
  ASSERT_OK(parquet::arrow::WriteTable(
      *rows, arrow::default_memory_pool(), out, 100,
      parquet::WriterProperties::Builder().enable_store_decimal_as_integer()->build()));
  ASSERT_OK(out->Close());
  ASSERT_OK_AND_ASSIGN(auto table, Open("parquet", {{"path", Path("typed.parquet")}}));

  auto day = [](int32_t value) {
    return MakeLiteral(std::make_shared<arrow::Date32Scalar>(value));
  };
  auto price = [](int64_t cents) {
    return MakeLiteral(std::make_shared<arrow::Decimal128Scalar>(arrow::Decimal128(cents),
                                                                 arrow::decimal128(9, 2)));
  };
  struct Case {
    PredicatePtr predicate;
    int64_t row_groups;
    std::vector<int64_t> ids;  // the rows that pass
  };
  std::vector<int64_t> n_null, n_valid, n_positive;
  for (int64_t id = 0; id < 500; ++id) {
    const bool null = (id >= 100 && id < 200) || (id < 100 && id % 10 == 0);
    (null ? n_null : n_valid).push_back(id);
    if (!null && id > 0) n_positive.push_back(id);
  }
  for (const auto& [predicate, row_groups, expected] : std::vector<Case>{
           {P(">=", {Col("day"), day(19250)}), 3, Range(250, 500)},
           {P("<", {Col("day"), day(19100)}), 1, Range(0, 100)},
           {P("<=", {Col("price"), price(12500)}), 2, Range(0, 101)},
           {P("=", {Col("price"), price(30000)}), 1, {240}},
           {P(">", {price(100), Col("price")}), 1, {0}},
           {P("<>", {Col("day"), day(19000)}), 5, Range(1, 500)},
           {P("IS_NULL", {Col("n")}), 2, n_null},
           {P("IS_NOT_NULL", {Col("n")}), 4, n_valid},
           {P(">", {Col("n"), I32(0)}), 4, n_positive},
           {P("=", {Col("n"), I32(-5)}), 0, {}},
       }) {
    SCOPED_TRACE(predicate->ToString());
    ASSERT_OK_AND_ASSIGN(auto negotiated, Negotiate(*table, {predicate}));
    EXPECT_EQ(Render(negotiated.residual), Render({predicate}));
    ASSERT_OK_AND_ASSIGN(auto result, ReadScan(*negotiated.scan));
    EXPECT_EQ(result.metrics["rowGroupsRead"], row_groups);
    // The reader drops the rows of the kept row groups that fail the predicate.
    EXPECT_EQ(Int64s(*result.rows, "id"), expected);
    EXPECT_EQ(result.metrics["rowsFiltered"],
              row_groups * 100 - static_cast<int64_t>(expected.size()));
  }
}

TEST_F(FilesTest, RowGroupsArePrunedByStatisticsAndThePredicateReturned) {
  WriteRowGroupFile();
  ASSERT_OK_AND_ASSIGN(auto table, Open("parquet", {{"path", Path("big.parquet")}}));
  ASSERT_OK_AND_ASSIGN(auto full, Negotiate(*table));
  ASSERT_OK_AND_ASSIGN(auto all, ReadScan(*full.scan));
  EXPECT_EQ(all.metrics["rowGroupsRead"], 10);

  auto predicate = P(">=", {Col("id"), I64(9500)});
  ASSERT_OK_AND_ASSIGN(auto negotiated, Negotiate(*table, {predicate}));
  EXPECT_EQ(Render(negotiated.residual), Render({predicate}));
  EXPECT_EQ(Render(negotiated.pushed), Render({predicate}));
  EXPECT_TRUE(Contains(negotiated.scan->Description(), "rowGroups=1/10"))
      << negotiated.scan->Description();
  ASSERT_OK_AND_ASSIGN(auto result, ReadScan(*negotiated.scan));
  EXPECT_EQ(result.metrics["rowGroupsRead"], 1);
  EXPECT_LT(result.metrics["bytesRead"], all.metrics["bytesRead"] / 3);
  // Of the surviving row group, the reader drops the rows the predicate rejects while it
  // decodes them (the predicate is still returned: the engine checks the rest).
  EXPECT_EQ(Int64s(*result.rows, "id"), Range(9500, 10000));
  EXPECT_EQ(result.metrics["rowsFiltered"], 500);

  // A predicate no row group can satisfy plans nothing.
  ASSERT_OK_AND_ASSIGN(auto none, Negotiate(*table, {P("<", {Col("id"), I64(0)})}));
  ASSERT_OK_AND_ASSIGN(auto nothing, PlannedPartitions(*none.scan));
  EXPECT_TRUE(nothing.empty());
}

TEST_F(FilesTest, ColumnPruningReadsOnlyTheRequiredColumns) {
  WritePartitionedTable();
  ASSERT_OK_AND_ASSIGN(auto table, Open("parquet", {{"path", Path("t")}}));
  ASSERT_OK_AND_ASSIGN(auto full, Negotiate(*table));
  ASSERT_OK_AND_ASSIGN(auto all, ReadScan(*full.scan));

  std::vector<std::string> columns = {"year", "id"};  // required in any order
  ASSERT_OK_AND_ASSIGN(auto pruned, Negotiate(*table, {}, &columns));
  EXPECT_TRUE(pruned.scan->ReadSchema()->Equals(
      *arrow::schema({arrow::field("id", arrow::int64()), arrow::field("year", arrow::int32())})));
  ASSERT_OK_AND_ASSIGN(auto result, ReadScan(*pruned.scan));
  EXPECT_EQ(Int64s(*result.rows, "id"), Range(0, 7000));
  EXPECT_LT(result.metrics["bytesRead"], all.metrics["bytesRead"] / 2);

  // No column at all (COUNT(*)): batches still carry their row counts.
  std::vector<std::string> none;
  ASSERT_OK_AND_ASSIGN(auto counting, Negotiate(*table, {}, &none));
  EXPECT_EQ(counting.scan->ReadSchema()->num_fields(), 0);
  ASSERT_OK_AND_ASSIGN(auto counted, ReadScan(*counting.scan));
  EXPECT_EQ(counted.rows->num_rows(), 7000);
  EXPECT_LT(counted.metrics["bytesRead"], result.metrics["bytesRead"]);
}

TEST_F(FilesTest, PartitionsArePlannedFromRowGroups) {
  WriteRowGroupFile();
  ASSERT_OK_AND_ASSIGN(auto table, Open("parquet", {{"path", Path("big.parquet")}}));

  // A split smaller than a row group: one partition per row group.
  ASSERT_OK_AND_ASSIGN(
      auto small,
      Negotiate(*table, {}, nullptr, -1, {{"maxpartitionbytes", "1"}, {"opencostinbytes", "0"}}));
  ASSERT_OK_AND_ASSIGN(auto read_small, ReadScan(*small.scan));
  EXPECT_EQ(read_small.partitions, 10);
  EXPECT_EQ(Int64s(*read_small.rows, "id"), Range(0, 10000));

  // The default 128 MiB target still spreads a file over minPartitionNum partitions.
  ASSERT_OK_AND_ASSIGN(
      auto spread,
      Negotiate(*table, {}, nullptr, -1, {{"minpartitionnum", "4"}, {"opencostinbytes", "0"}}));
  ASSERT_OK_AND_ASSIGN(auto read_spread, ReadScan(*spread.scan));
  EXPECT_GE(read_spread.partitions, 3);
  EXPECT_LE(read_spread.partitions, 5);
  EXPECT_EQ(Int64s(*read_spread.rows, "id"), Range(0, 10000));
}

TEST_F(FilesTest, MergeSchemaUnifiesParquetFiles) {
  auto narrow = arrow::Table::Make(arrow::schema({arrow::field("id", arrow::int32())}),
                                   {*arrow::json::ArrayFromJSONString(arrow::int32(), "[1, 2]")});
  auto wide = arrow::Table::Make(
      arrow::schema({arrow::field("id", arrow::int64()), arrow::field("extra", arrow::utf8())}),
      {*arrow::json::ArrayFromJSONString(arrow::int64(), "[3]"),
       *arrow::json::ArrayFromJSONString(arrow::utf8(), R"(["e"])")});
  WriteParquet("merge/a.parquet", *narrow);
  WriteParquet("merge/b.parquet", *wide);
  ASSERT_OK_AND_ASSIGN(auto first_only, Open("parquet", {{"path", Path("merge")}}));
  EXPECT_EQ(first_only->schema()->ToString(), "id: int32");
  ASSERT_OK_AND_ASSIGN(auto table,
                       Open("parquet", {{"path", Path("merge")}, {"mergeschema", "true"}}));
  EXPECT_EQ(table->schema()->ToString(), "id: int64\nextra: string");
  ASSERT_OK_AND_ASSIGN(auto negotiated, Negotiate(*table, {P(">", {Col("id"), I64(1)})}));
  ASSERT_OK_AND_ASSIGN(auto result, ReadScan(*negotiated.scan));
  auto expected = arrow::Table::Make(
      table->schema(), {*arrow::json::ArrayFromJSONString(arrow::int64(), "[1, 2, 3]"),
                        *arrow::json::ArrayFromJSONString(arrow::utf8(), R"([null, null, "e"])")});
  ASSERT_OK_AND_ASSIGN(auto combined, result.rows->CombineChunks());
  EXPECT_TRUE(combined->Equals(*expected)) << combined->ToString();
}

TEST_F(FilesTest, SmallFilesShareAPartition) {
  for (int i = 0; i < 4; ++i) {
    ASSERT_OK_AND_ASSIGN(auto rows, MakeRows(i * 100, 100));
    WriteParquet("small/part-" + std::to_string(i) + ".parquet", *rows);
  }
  ASSERT_OK_AND_ASSIGN(auto table,
                       Open("parquet", {{"path", Path("small")}, {"minpartitionnum", "1"}}));
  ASSERT_OK_AND_ASSIGN(auto negotiated, Negotiate(*table));
  ASSERT_OK_AND_ASSIGN(auto result, ReadScan(*negotiated.scan));
  EXPECT_EQ(result.partitions, 1);
  EXPECT_EQ(result.metrics["filesRead"], 4);
  EXPECT_EQ(Int64s(*result.rows, "id"), Range(0, 400));
}

TEST_F(FilesTest, LimitIsPartiallyPushed) {
  WriteRowGroupFile();
  ASSERT_OK_AND_ASSIGN(auto table, Open("parquet", {{"path", Path("big.parquet")}}));
  ASSERT_OK_AND_ASSIGN(auto builder, dynamic_cast<SupportsRead&>(*table).NewScanBuilder({}));
  auto& limit = dynamic_cast<SupportsPushDownLimit&>(*builder);
  EXPECT_TRUE(limit.PushLimit(5));
  EXPECT_TRUE(limit.IsPartiallyPushed());
  ASSERT_OK_AND_ASSIGN(auto scan, builder->Build());
  EXPECT_TRUE(Contains(scan->Description(), "rowGroups=1/10")) << scan->Description();
  ASSERT_OK_AND_ASSIGN(auto result, ReadScan(*scan));
  EXPECT_EQ(Int64s(*result.rows, "id"), Range(0, 5));
}

TEST_F(FilesTest, StatisticsComeFromParquetMetadata) {
  WriteRowGroupFile();
  ASSERT_OK_AND_ASSIGN(auto table, Open("parquet", {{"path", Path("big.parquet")}}));
  ASSERT_OK_AND_ASSIGN(auto full, Negotiate(*table));
  auto& reporter = dynamic_cast<SupportsReportStatistics&>(*full.scan);
  ASSERT_OK_AND_ASSIGN(auto stats, reporter.EstimateStatistics());
  EXPECT_EQ(stats.num_rows, 10000);
  ASSERT_TRUE(stats.size_in_bytes.has_value());
  EXPECT_GT(*stats.size_in_bytes, 10000 * 48);
  const auto& id = stats.column_stats.at("id");
  EXPECT_EQ(id.null_count, 0);
  ASSERT_NE(id.min, nullptr);
  EXPECT_EQ(id.min->ToString(), "0");
  EXPECT_EQ(id.max->ToString(), "9999");

  std::vector<std::string> columns = {"id"};
  ASSERT_OK_AND_ASSIGN(auto pruned, Negotiate(*table, {P(">=", {Col("id"), I64(9500)})}, &columns));
  ASSERT_OK_AND_ASSIGN(auto narrow,
                       dynamic_cast<SupportsReportStatistics&>(*pruned.scan).EstimateStatistics());
  EXPECT_EQ(narrow.num_rows, 1000);
  EXPECT_LT(*narrow.size_in_bytes, *stats.size_in_bytes / 10);
  EXPECT_EQ(narrow.column_stats.at("id").min->ToString(), "9000");
  EXPECT_EQ(narrow.column_stats.count("payload"), 0u);

  auto metrics = full.scan->SupportedCustomMetrics();
  std::vector<std::string> names;
  for (const auto& metric : metrics) names.push_back(metric->name());
  EXPECT_EQ(names, (std::vector<std::string>{kBytesReadMetric, "filesRead", "rowGroupsRead",
                                             "rowsFiltered"}));
}

TEST_F(FilesTest, DecimalStatisticsComeFromParquetMetadata) {
  arrow::Decimal128Builder prices(arrow::decimal128(9, 2));
  for (int64_t cents : {350, -125, 200}) ASSERT_OK(prices.Append(arrow::Decimal128(cents)));
  ASSERT_OK(prices.AppendNull());
  ASSERT_OK_AND_ASSIGN(auto price, prices.Finish());
  auto rows =
      arrow::Table::Make(arrow::schema({arrow::field("price", arrow::decimal128(9, 2))}), {price});
  WriteParquet("prices.parquet", *rows);
  ASSERT_OK_AND_ASSIGN(auto table, Open("parquet", {{"path", Path("prices.parquet")}}));
  ASSERT_OK_AND_ASSIGN(auto full, Negotiate(*table));
  ASSERT_OK_AND_ASSIGN(auto stats,
                       dynamic_cast<SupportsReportStatistics&>(*full.scan).EstimateStatistics());
  const auto& column = stats.column_stats.at("price");
  EXPECT_EQ(column.null_count, 1);
  ASSERT_NE(column.min, nullptr);
  ASSERT_NE(column.max, nullptr);
  EXPECT_TRUE(column.min->type->Equals(*arrow::decimal128(9, 2)));
  EXPECT_EQ(column.min->ToString(), "-1.25");
  EXPECT_EQ(column.max->ToString(), "3.50");
}

// ---- CSV, JSON, ORC

TEST_F(FilesTest, CsvFollowsSparkOptions) {
  WriteText("people.csv", "id;name;score\n1;alice;1.5\n2;;2.5\n3;carol;\n");
  ASSERT_OK_AND_ASSIGN(auto typed, Open("csv", {{"path", Path("people.csv")},
                                                {"header", "true"},
                                                {"delimiter", ";"},
                                                {"inferschema", "true"}}));
  EXPECT_TRUE(typed->schema()->Equals(
      *arrow::schema({arrow::field("id", arrow::int64()), arrow::field("name", arrow::utf8()),
                      arrow::field("score", arrow::float64())})))
      << typed->schema()->ToString();
  ASSERT_OK_AND_ASSIGN(auto negotiated, Negotiate(*typed));
  ASSERT_OK_AND_ASSIGN(auto result, ReadScan(*negotiated.scan));
  ASSERT_OK_AND_ASSIGN(
      auto expected,
      arrow::Table::FromRecordBatches({arrow::RecordBatch::Make(
          typed->schema(), 3,
          {*arrow::json::ArrayFromJSONString(arrow::int64(), "[1, 2, 3]"),
           *arrow::json::ArrayFromJSONString(arrow::utf8(), R"(["alice", null, "carol"])"),
           *arrow::json::ArrayFromJSONString(arrow::float64(), "[1.5, 2.5, null]")})}));
  EXPECT_TRUE(result.rows->Equals(*expected)) << result.rows->ToString();
  auto& reporter = dynamic_cast<SupportsReportStatistics&>(*negotiated.scan);
  ASSERT_OK_AND_ASSIGN(auto stats, reporter.EstimateStatistics());
  EXPECT_EQ(stats.size_in_bytes, static_cast<int64_t>(fs::file_size(Path("people.csv"))));
  EXPECT_FALSE(stats.num_rows.has_value());

  // Spark's defaults: no header (columns _c0...), every column a string.
  ASSERT_OK_AND_ASSIGN(auto raw, Open("csv", {{"path", Path("people.csv")}, {"sep", ";"}}));
  EXPECT_EQ(raw->schema()->ToString(), "_c0: string\n_c1: string\n_c2: string");
  std::vector<std::string> second = {"_c1"};
  ASSERT_OK_AND_ASSIGN(auto raw_scan, Negotiate(*raw, {}, &second));
  ASSERT_OK_AND_ASSIGN(auto raw_rows, ReadScan(*raw_scan.scan));
  auto names = raw_rows.rows->GetColumnByName("_c1");
  ASSERT_EQ(names->length(), 4);
  EXPECT_EQ((*names->GetScalar(0))->ToString(), "name");
  EXPECT_FALSE((*names->GetScalar(2))->is_valid);

  // PERMISSIVE rows: a short row is padded with NULLs, a long one loses its extra fields.
  WriteText("ragged.csv", "a,b\n1\n2,3,4\n");
  ASSERT_OK_AND_ASSIGN(auto ragged,
                       Open("csv", {{"path", Path("ragged.csv")}, {"header", "true"}}));
  ASSERT_OK_AND_ASSIGN(auto ragged_scan, Negotiate(*ragged));
  ASSERT_OK_AND_ASSIGN(auto ragged_rows, ReadScan(*ragged_scan.scan));
  auto ragged_expected = arrow::Table::Make(
      ragged->schema(), {*arrow::json::ArrayFromJSONString(arrow::utf8(), R"(["1", "2"])"),
                         *arrow::json::ArrayFromJSONString(arrow::utf8(), R"([null, "3"])")});
  EXPECT_TRUE(ragged_rows.rows->Equals(*ragged_expected)) << ragged_rows.rows->ToString();

  ASSERT_RAISES_CONDITION("INVALID_DELIMITER_VALUE.DELIMITER_LONGER_THAN_EXPECTED",
                          Open("csv", {{"path", Path("people.csv")}, {"delimiter", ";;"}}));
  ASSERT_RAISES_CONDITION("INVALID_OPTION_VALUE",
                          Open("csv", {{"path", Path("people.csv")}, {"header", "yes"}}));
}

TEST_F(FilesTest, CompressedCsvIsReadWhole) {
  std::string text = "id,text\n";
  for (int i = 0; i < 1000; ++i) text += std::to_string(i) + ",row\n";
  {
    auto file = arrow::io::FileOutputStream::Open(Path("data.csv.gz"));
    ASSERT_OK(file.status());
    ASSERT_OK_AND_ASSIGN(auto codec, arrow::util::Codec::Create(arrow::Compression::GZIP));
    ASSERT_OK_AND_ASSIGN(auto out, arrow::io::CompressedOutputStream::Make(codec.get(), *file));
    ASSERT_OK(out->Write(text.data(), static_cast<int64_t>(text.size())));
    ASSERT_OK(out->Close());
  }
  ASSERT_OK_AND_ASSIGN(auto table, Open("csv", {{"path", Path("data.csv.gz")},
                                                {"header", "true"},
                                                {"inferschema", "true"},
                                                {"maxpartitionbytes", "64"}}));
  ASSERT_OK_AND_ASSIGN(auto negotiated, Negotiate(*table));
  ASSERT_OK_AND_ASSIGN(auto result, ReadScan(*negotiated.scan));
  EXPECT_EQ(result.partitions, 1);
  EXPECT_EQ(Int64s(*result.rows, "id"), Range(0, 1000));

  // COUNT(*): no column read, every row counted.
  std::vector<std::string> none;
  ASSERT_OK_AND_ASSIGN(auto counting, Negotiate(*table, {}, &none));
  ASSERT_OK_AND_ASSIGN(auto counted, ReadScan(*counting.scan));
  EXPECT_EQ(counted.rows->num_rows(), 1000);
}

TEST_F(FilesTest, LargeTextFilesSplitIntoLineRanges) {
  std::string csv = "id,text\n";
  std::string json;
  for (int i = 0; i < 5000; ++i) {
    csv += std::to_string(i) + ",row " + std::to_string(i) + "\n";
    json += R"({"id": )" + std::to_string(i) + R"(, "text": "row )" + std::to_string(i) + "\"}\n";
  }
  WriteText("lines.csv", csv);
  WriteText("lines.json", json);
  for (auto [format, path] : {std::pair{"csv", "lines.csv"}, std::pair{"json", "lines.json"}}) {
    SCOPED_TRACE(format);
    ASSERT_OK_AND_ASSIGN(auto table, Open(format, {{"path", Path(path)},
                                                   {"header", "true"},
                                                   {"inferschema", "true"},
                                                   {"maxpartitionbytes", "4096"},
                                                   {"opencostinbytes", "0"}}));
    ASSERT_OK_AND_ASSIGN(auto negotiated, Negotiate(*table));
    ASSERT_OK_AND_ASSIGN(auto result, ReadScan(*negotiated.scan));
    EXPECT_GT(result.partitions, 10);
    EXPECT_EQ(Int64s(*result.rows, "id"), Range(0, 5000));
    // Each range reads its own bytes plus the probe for its last line's end.
    EXPECT_LT(result.metrics["bytesRead"], static_cast<int64_t>(fs::file_size(Path(path))) * 2);
  }
}

TEST_F(FilesTest, JsonLinesInferTypesLikeSpark) {
  WriteText("j/a.json", R"({"b": 1, "a": "x", "s": {"z": 1, "y": "q"}, "t": "2024-01-02T03:04:05"})"
                        "\n"
                        R"({"b": 2.5, "a": null})"
                        "\n");
  WriteText("j/b.json", R"({"a": "z", "c": [1, 2], "late": true})"
                        "\n");
  ASSERT_OK_AND_ASSIGN(auto table, Open("json", {{"path", Path("j")}}));
  EXPECT_EQ(table->schema()->ToString(),
            "a: string\nb: double\nc: list<item: int64>\nlate: bool\n"
            "s: struct<y: string, z: int64>\nt: string");
  std::vector<std::string> columns = {"a", "b", "late", "t"};
  ASSERT_OK_AND_ASSIGN(auto negotiated, Negotiate(*table, {}, &columns));
  ASSERT_OK_AND_ASSIGN(auto result, ReadScan(*negotiated.scan));
  ASSERT_OK_AND_ASSIGN(
      auto expected, arrow::Table::FromRecordBatches({arrow::RecordBatch::Make(
                         negotiated.scan->ReadSchema(), 3,
                         {*arrow::json::ArrayFromJSONString(arrow::utf8(), R"(["x", null, "z"])"),
                          *arrow::json::ArrayFromJSONString(arrow::float64(), "[1, 2.5, null]"),
                          *arrow::json::ArrayFromJSONString(arrow::boolean(), "[null, null, true]"),
                          *arrow::json::ArrayFromJSONString(
                              arrow::utf8(), R"(["2024-01-02T03:04:05", null, null])")})}));
  ASSERT_OK_AND_ASSIGN(auto combined, result.rows->CombineChunks());
  EXPECT_TRUE(combined->Equals(*expected)) << combined->ToString();

  std::vector<std::string> none;
  ASSERT_OK_AND_ASSIGN(auto counting, Negotiate(*table, {}, &none));
  ASSERT_OK_AND_ASSIGN(auto counted, ReadScan(*counting.scan));
  EXPECT_EQ(counted.rows->num_rows(), 3);
}

TEST_F(FilesTest, OrcReadsWithColumnPruning) {
  ASSERT_OK_AND_ASSIGN(auto rows, MakeRows(0, 20000));
  WriteOrc("data.orc", *rows);
  ASSERT_OK_AND_ASSIGN(auto table, Open("orc", {{"path", Path("data.orc")}}));
  EXPECT_TRUE(table->schema()->Equals(*rows->schema())) << table->schema()->ToString();
  ASSERT_OK_AND_ASSIGN(auto full, Negotiate(*table));
  ASSERT_OK_AND_ASSIGN(auto all, ReadScan(*full.scan));
  EXPECT_EQ(Int64s(*all.rows, "id"), Range(0, 20000));
  std::vector<std::string> columns = {"id"};
  ASSERT_OK_AND_ASSIGN(auto pruned, Negotiate(*table, {}, &columns));
  ASSERT_OK_AND_ASSIGN(auto narrow, ReadScan(*pruned.scan));
  EXPECT_EQ(Int64s(*narrow.rows, "id"), Range(0, 20000));
  EXPECT_LT(narrow.metrics["bytesRead"], all.metrics["bytesRead"] / 2);
}

// ---- Paths and errors

TEST_F(FilesTest, GlobsSelectFilesAndKeepPartitionColumns) {
  WritePartitionedTable();
  ASSERT_OK_AND_ASSIGN(auto table, Open("parquet", {{"path", Path("t/year=202*/*.parquet")}}));
  EXPECT_EQ(table->schema()->field_names(),
            (std::vector<std::string>{"id", "payload", "score", "year"}));
  ASSERT_OK_AND_ASSIGN(auto negotiated, Negotiate(*table));
  ASSERT_OK_AND_ASSIGN(auto result, ReadScan(*negotiated.scan));
  EXPECT_EQ(Int64s(*result.rows, "id"), Range(0, 6000));

  ASSERT_OK_AND_ASSIGN(auto braces,
                       Open("parquet", {{"path", Path("t/year={2023,2024}/part-[0].parquet")}}));
  ASSERT_OK_AND_ASSIGN(auto braces_scan, Negotiate(*braces));
  ASSERT_OK_AND_ASSIGN(auto braces_rows, ReadScan(*braces_scan.scan));
  EXPECT_EQ(Int64s(*braces_rows.rows, "id"), Range(0, 4000));

  ASSERT_RAISES_CONDITION("PATH_NOT_FOUND", Open("parquet", {{"path", Path("t/nope*/x")}}));

  // A file: URI names the same files.
  ASSERT_OK_AND_ASSIGN(auto uri, Open("parquet", {{"path", "file://" + Path("t/year=2023")}}));
  ASSERT_OK_AND_ASSIGN(auto uri_scan, Negotiate(*uri));
  ASSERT_OK_AND_ASSIGN(auto uri_rows, ReadScan(*uri_scan.scan));
  EXPECT_EQ(Int64s(*uri_rows.rows, "id"), Range(0, 2000));

  // A file alone has no partition columns unless basePath says where discovery starts.
  ASSERT_OK_AND_ASSIGN(auto file, Open("parquet", {{"path", Path("t/year=2024/part-1.parquet")}}));
  EXPECT_EQ(file->schema()->field_names(), (std::vector<std::string>{"id", "payload", "score"}));
  ASSERT_OK_AND_ASSIGN(auto based, Open("parquet", {{"path", Path("t/year=2024/part-1.parquet")},
                                                    {"basepath", Path("t")}}));
  EXPECT_EQ(based->schema()->field_names(),
            (std::vector<std::string>{"id", "payload", "score", "year"}));
}

TEST_F(FilesTest, MissingAndEmptyPathsFail) {
  auto missing = Open("parquet", {{"path", Path("missing")}});
  ASSERT_RAISES_CONDITION("PATH_NOT_FOUND", missing);
  EXPECT_TRUE(Contains(missing.status().message(), "Path does not exist: " + Path("missing")))
      << missing.status().ToString();

  fs::create_directories(Path("empty"));
  WriteText("empty/_SUCCESS", "");
  auto empty = Open("json", {{"path", Path("empty")}});
  ASSERT_RAISES_CONDITION("UNABLE_TO_INFER_SCHEMA", empty);
  EXPECT_TRUE(Contains(empty.status().message(), "JSON")) << empty.status().ToString();

  // With a schema an empty directory is an empty table.
  auto provider = MakeFilesTableProvider("json");
  ASSERT_OK_AND_ASSIGN(auto table,
                       provider->GetTable(arrow::schema({arrow::field("a", arrow::int64())}),
                                          {{"path", Path("empty")}}));
  ASSERT_OK_AND_ASSIGN(auto negotiated, Negotiate(*table));
  ASSERT_OK_AND_ASSIGN(auto result, ReadScan(*negotiated.scan));
  EXPECT_EQ(result.partitions, 0);
}

TEST_F(FilesTest, CorruptFilesNameTheFile) {
  ASSERT_OK_AND_ASSIGN(auto rows, MakeRows(0, 10));
  WriteParquet("mixed/a-good.parquet", *rows);
  WriteText("mixed/z-bad.parquet", "this is not a parquet file, just some text that is long");

  auto alone = Open("parquet", {{"path", Path("mixed/z-bad.parquet")}});
  ASSERT_RAISES_CONDITION("FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER", alone);
  EXPECT_TRUE(Contains(alone.status().message(), Path("mixed/z-bad.parquet")))
      << alone.status().ToString();

  // The schema comes from the first file; the bad footer is found when the scan is built.
  ASSERT_OK_AND_ASSIGN(auto table, Open("parquet", {{"path", Path("mixed")}}));
  ASSERT_OK_AND_ASSIGN(auto builder, dynamic_cast<SupportsRead&>(*table).NewScanBuilder({}));
  auto built = builder->Build();
  ASSERT_RAISES_CONDITION("FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER", built);
  EXPECT_TRUE(Contains(built.status().message(), Path("mixed/z-bad.parquet")))
      << built.status().ToString();

  // A value that does not fit the schema fails the task, naming the file.
  WriteText("bad.csv", "1\n2\nthree\n");
  auto provider = MakeFilesTableProvider("csv");
  ASSERT_OK_AND_ASSIGN(auto csv,
                       provider->GetTable(arrow::schema({arrow::field("n", arrow::int64())}),
                                          {{"path", Path("bad.csv")}}));
  ASSERT_OK_AND_ASSIGN(auto negotiated, Negotiate(*csv));
  auto read = ReadScan(*negotiated.scan);
  ASSERT_RAISES_CONDITION("FAILED_READ_FILE.NO_HINT", read);
  EXPECT_TRUE(Contains(read.status().message(), Path("bad.csv"))) << read.status().ToString();
}

TEST_F(FilesTest, TaskBytesAreValidated) {
  WriteRowGroupFile();
  ASSERT_OK_AND_ASSIGN(auto table, Open("parquet", {{"path", Path("big.parquet")}}));
  ASSERT_OK_AND_ASSIGN(auto negotiated, Negotiate(*table));
  ASSERT_OK_AND_ASSIGN(auto batch, negotiated.scan->ToBatch());
  ASSERT_OK_AND_ASSIGN(auto factory, batch->CreateReaderFactory());
  ASSERT_OK_AND_ASSIGN(auto partitions, batch->PlanInputPartitions());
  ASSERT_OK_AND_ASSIGN(auto bytes, partitions[0]->Serialize());
  for (const std::string& bad :
       {std::string("garbage"), bytes.substr(0, bytes.size() / 2), bytes + "3:xyz"}) {
    ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
                            factory->DeserializePartition(bad));
  }
  ASSERT_OK_AND_ASSIGN(auto factory_bytes, factory->Serialize());
  ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
                          batch->DeserializeReaderFactory(factory_bytes.substr(1)));
  ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
                          batch->DeserializeReaderFactory("20:parley-files-factory"));
}

}  // namespace
}  // namespace parley::files
