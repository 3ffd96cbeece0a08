// Tests of the `memory` catalog through the public connector API: namespaces, tables and their
// errors, data population, and reads driven through the full task protocol (with every factory
// and partition round-tripped through bytes, as the engine's test mode does), including
// snapshot isolation, column pruning and malformed task bytes.
#include <atomic>
#include <thread>

#include "arrow/api.h"
#include "arrow/json/from_string.h"
#include "connectors/memory/memory_catalog.h"
#include "testing/gtest_util.h"
#include "testing/scan_harness.h"

namespace parley::memory {
namespace {

using Path = std::vector<std::string>;

std::shared_ptr<arrow::Schema> AbSchema() {
  return arrow::schema({arrow::field("a", arrow::int64()), arrow::field("b", arrow::utf8())});
}

Column MakeColumn(std::string name, std::shared_ptr<arrow::DataType> type, bool nullable = true) {
  return Column{std::move(name), std::move(type), nullable, "", std::nullopt};
}

TableInfo AbInfo() { return TableInfo{SchemaToColumns(*AbSchema()), {}, {}}; }

// A table of `schema` with one chunk per entry of `chunks`; each chunk gives one JSON array per
// column.
Result<std::shared_ptr<arrow::Table>> MakeTable(
    const std::shared_ptr<arrow::Schema>& schema,
    const std::vector<std::vector<std::string>>& chunks) {
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  for (const auto& chunk : chunks) {
    arrow::ArrayVector arrays;
    for (int i = 0; i < schema->num_fields(); ++i) {
      ARROW_ASSIGN_OR_RAISE(auto array,
                            arrow::json::ArrayFromJSONString(schema->field(i)->type(), chunk[i]));
      arrays.push_back(std::move(array));
    }
    int64_t rows = arrays.empty() ? 0 : arrays[0]->length();
    batches.push_back(arrow::RecordBatch::Make(schema, rows, std::move(arrays)));
  }
  return arrow::Table::FromRecordBatches(schema, batches);
}

// Run a built scan's tasks as the engine does (see testing/scan_harness.h); return all rows in
// partition order.
Result<std::shared_ptr<arrow::Table>> ReadScan(Scan& scan) {
  ARROW_ASSIGN_OR_RAISE(auto run, testing::RunScan(scan));
  return run.rows;
}

// Build a scan of `table` with no pushdown and read it.
Result<std::shared_ptr<arrow::Table>> ReadAll(Table& table) {
  auto* readable = dynamic_cast<SupportsRead*>(&table);
  if (readable == nullptr) return Status::Invalid("table is not readable");
  ARROW_ASSIGN_OR_RAISE(auto builder, readable->NewScanBuilder({}));
  ARROW_ASSIGN_OR_RAISE(auto scan, builder->Build());
  return ReadScan(*scan);
}

void ExpectTableEquals(const arrow::Table& expected, const arrow::Table& actual) {
  EXPECT_TRUE(expected.Equals(actual)) << "expected:\n"
                                       << expected.ToString() << "\nactual:\n"
                                       << actual.ToString();
}

class MemoryCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_OK(catalog_.Initialize("mem", {})); }

  // Create default.<name> with columns (a BIGINT, b STRING).
  std::shared_ptr<Table> CreateAb(const std::string& name) {
    auto table = catalog_.CreateTable({{"default"}, name}, AbInfo());
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    return table.ok() ? *table : nullptr;
  }

  MemoryCatalog catalog_;
};

// ---- Initialization and options

TEST(MemoryCatalogInitTest, DefaultsToNamespaceDefault) {
  auto plugin = MakeMemoryCatalog();
  ASSERT_OK(plugin->Initialize("spark_catalog", {}));
  EXPECT_EQ(plugin->name(), "spark_catalog");
  EXPECT_EQ(plugin->DefaultNamespace(), Path{"default"});
  auto* namespaces = dynamic_cast<SupportsNamespaces*>(plugin.get());
  ASSERT_NE(namespaces, nullptr);
  ASSERT_NE(dynamic_cast<TableCatalog*>(plugin.get()), nullptr);
  ASSERT_OK_AND_ASSIGN(auto top, namespaces->ListNamespaces({}));
  EXPECT_EQ(top, std::vector<Path>{{"default"}});
  ASSERT_OK_AND_ASSIGN(bool exists, namespaces->NamespaceExists({"default"}));
  EXPECT_TRUE(exists);
}

TEST(MemoryCatalogInitTest, DefaultNamespaceOption) {
  MemoryCatalog catalog;
  ASSERT_OK(catalog.Initialize("mem", {{"default-namespace", "sales.eu"}}));
  EXPECT_EQ(catalog.DefaultNamespace(), (Path{"sales", "eu"}));
  ASSERT_OK_AND_ASSIGN(auto top, catalog.ListNamespaces({}));
  EXPECT_EQ(top, std::vector<Path>{{"sales"}});
  ASSERT_OK_AND_ASSIGN(auto under, catalog.ListNamespaces({"sales"}));
  EXPECT_EQ(under, (std::vector<Path>{{"sales", "eu"}}));

  MemoryCatalog none;
  ASSERT_OK(none.Initialize("mem", {{"default-namespace", ""}}));
  EXPECT_TRUE(none.DefaultNamespace().empty());
  ASSERT_OK_AND_ASSIGN(auto empty, none.ListNamespaces({}));
  EXPECT_TRUE(empty.empty());

  MemoryCatalog bad;
  ASSERT_RAISES_CONDITION("INVALID_SCHEMA_OR_RELATION_NAME",
                          bad.Initialize("mem", {{"default-namespace", "a..b"}}));
}

// ---- Namespaces

TEST_F(MemoryCatalogTest, CreateNamespaceCreatesAncestors) {
  ASSERT_OK(catalog_.CreateNamespace({"Sales", "EU"}, {{"comment", "europe"}}));
  ASSERT_OK_AND_ASSIGN(auto top, catalog_.ListNamespaces({}));
  EXPECT_EQ(top, (std::vector<Path>{{"default"}, {"Sales"}}));
  // Lookups ignore case; listings keep the created case.
  ASSERT_OK_AND_ASSIGN(auto under, catalog_.ListNamespaces({"sales"}));
  EXPECT_EQ(under, (std::vector<Path>{{"Sales", "EU"}}));
  ASSERT_OK_AND_ASSIGN(bool exists, catalog_.NamespaceExists({"SALES", "eu"}));
  EXPECT_TRUE(exists);
  ASSERT_OK_AND_ASSIGN(bool root_exists, catalog_.NamespaceExists({}));
  EXPECT_FALSE(root_exists);

  ASSERT_OK_AND_ASSIGN(auto metadata, catalog_.LoadNamespaceMetadata({"sales", "eu"}));
  EXPECT_EQ(metadata, (std::map<std::string, std::string>{{"comment", "europe"}}));
  ASSERT_OK_AND_ASSIGN(auto ancestor_metadata, catalog_.LoadNamespaceMetadata({"sales"}));
  EXPECT_TRUE(ancestor_metadata.empty());
  // An ancestor created implicitly is a namespace like any other.
  ASSERT_RAISES_CONDITION("SCHEMA_ALREADY_EXISTS", catalog_.CreateNamespace({"sales"}, {}));
}

TEST_F(MemoryCatalogTest, NamespaceErrors) {
  auto status = catalog_.CreateNamespace({"DEFAULT"}, {});
  ASSERT_RAISES_CONDITION("SCHEMA_ALREADY_EXISTS", status);
  EXPECT_NE(status.message().find("`DEFAULT`"), std::string::npos) << status.ToString();
  auto* detail = dynamic_cast<ErrorDetail*>(status.detail().get());
  ASSERT_NE(detail, nullptr);
  EXPECT_EQ(detail->sqlstate(), "42P06");

  ASSERT_RAISES_CONDITION("INVALID_SCHEMA_OR_RELATION_NAME", catalog_.CreateNamespace({}, {}));
  ASSERT_RAISES_CONDITION("INVALID_SCHEMA_OR_RELATION_NAME",
                          catalog_.CreateNamespace({"a", ""}, {}));
  ASSERT_RAISES_CONDITION("SCHEMA_NOT_FOUND", catalog_.ListNamespaces({"nope"}));
  ASSERT_RAISES_CONDITION("SCHEMA_NOT_FOUND", catalog_.LoadNamespaceMetadata({"nope"}));
}

TEST_F(MemoryCatalogTest, DropNamespace) {
  ASSERT_OK_AND_ASSIGN(bool dropped_missing, catalog_.DropNamespace({"nope"}, false));
  EXPECT_FALSE(dropped_missing);

  ASSERT_OK(catalog_.CreateNamespace({"a", "b"}, {}));
  ASSERT_OK(catalog_.CreateTable({{"a", "b"}, "t"}, AbInfo()).status());
  // `a` holds a namespace, `a.b` a table: neither drops without CASCADE.
  auto status = catalog_.DropNamespace({"a"}, false).status();
  ASSERT_RAISES_CONDITION("SCHEMA_NOT_EMPTY", status);
  EXPECT_NE(status.message().find("`a`"), std::string::npos) << status.ToString();
  ASSERT_RAISES_CONDITION("SCHEMA_NOT_EMPTY", catalog_.DropNamespace({"a", "b"}, false));

  ASSERT_OK_AND_ASSIGN(bool dropped, catalog_.DropNamespace({"A"}, true));
  EXPECT_TRUE(dropped);
  ASSERT_OK_AND_ASSIGN(bool exists, catalog_.NamespaceExists({"a", "b"}));
  EXPECT_FALSE(exists);
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND", catalog_.LoadTable({{"a", "b"}, "t"}));

  ASSERT_OK(catalog_.CreateNamespace({"empty"}, {}));
  ASSERT_OK_AND_ASSIGN(bool dropped_empty, catalog_.DropNamespace({"empty"}, false));
  EXPECT_TRUE(dropped_empty);

  ASSERT_RAISES_CONDITION("UNSUPPORTED_FEATURE.DROP_DATABASE",
                          catalog_.DropNamespace({"default"}, true));
}

// ---- Tables

TEST_F(MemoryCatalogTest, CreateAndLoadTable) {
  TableInfo info;
  info.columns = {Column{"id", arrow::int32(), false, "the key", std::nullopt},
                  Column{"name", arrow::utf8(), true, "", std::string("'x'")}};
  info.partitioning = {
      std::make_shared<Transform>("identity", std::vector<ExpressionPtr>{FieldReference("id")})};
  info.properties = {{"provider", "memory"}};
  ASSERT_OK_AND_ASSIGN(auto created, catalog_.CreateTable({{"DEFAULT"}, "People"}, info));

  EXPECT_EQ(created->name(), "`mem`.`default`.`People`");
  EXPECT_EQ(
      created->capabilities(),
      (std::set<TableCapability>{TableCapability::kBatchRead, TableCapability::kBatchWrite,
                                 TableCapability::kTruncate, TableCapability::kOverwriteByFilter,
                                 TableCapability::kOverwriteDynamic}));
  ASSERT_EQ(created->columns().size(), 2u);
  EXPECT_EQ(created->columns()[0].name, "id");
  EXPECT_FALSE(created->columns()[0].nullable);
  EXPECT_EQ(created->columns()[0].comment, "the key");
  EXPECT_EQ(created->columns()[1].default_value, "'x'");
  ASSERT_EQ(created->partitioning().size(), 1u);
  EXPECT_EQ(created->partitioning()[0]->ToString(), "identity(id)");
  EXPECT_EQ(created->properties(), info.properties);

  ASSERT_OK_AND_ASSIGN(auto loaded, catalog_.LoadTable({{"default"}, "people"}));
  EXPECT_EQ(loaded, created);
  ASSERT_OK_AND_ASSIGN(bool exists, catalog_.TableExists({{"default"}, "PEOPLE"}));
  EXPECT_TRUE(exists);
  ASSERT_OK_AND_ASSIGN(auto tables, catalog_.ListTables({"default"}));
  EXPECT_EQ(tables, (std::vector<Identifier>{{{"default"}, "People"}}));
}

TEST_F(MemoryCatalogTest, TableErrors) {
  auto missing = catalog_.LoadTable({{"ns"}, "t"});
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND", missing);
  EXPECT_EQ(missing.status().message(),
            "[TABLE_OR_VIEW_NOT_FOUND] The table or view `ns`.`t` cannot be found. Verify the "
            "spelling and correctness of the schema and catalog.");
  ASSERT_OK_AND_ASSIGN(bool exists, catalog_.TableExists({{"default"}, "t"}));
  EXPECT_FALSE(exists);

  CreateAb("t");
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_ALREADY_EXISTS",
                          catalog_.CreateTable({{"default"}, "T"}, AbInfo()));
  ASSERT_RAISES_CONDITION("SCHEMA_NOT_FOUND", catalog_.CreateTable({{"nope"}, "t"}, AbInfo()));
  ASSERT_RAISES_CONDITION("SCHEMA_NOT_FOUND", catalog_.ListTables({"nope"}));
  ASSERT_RAISES_CONDITION("INVALID_SCHEMA_OR_RELATION_NAME",
                          catalog_.CreateTable({{"default"}, ""}, AbInfo()));

  TableInfo duplicate{{MakeColumn("x", arrow::int32()), MakeColumn("X", arrow::int64())}, {}, {}};
  auto status = catalog_.CreateTable({{"default"}, "dup"}, duplicate).status();
  ASSERT_RAISES_CONDITION("COLUMN_ALREADY_EXISTS", status);
  EXPECT_NE(status.message().find("`X`"), std::string::npos) << status.ToString();
}

TEST_F(MemoryCatalogTest, ListTablesIsSortedAndScopedToNamespace) {
  CreateAb("b");
  CreateAb("A");
  ASSERT_OK(catalog_.CreateNamespace({"default", "inner"}, {}));
  ASSERT_OK(catalog_.CreateTable({{"default", "inner"}, "c"}, AbInfo()).status());
  ASSERT_OK_AND_ASSIGN(auto tables, catalog_.ListTables({"Default"}));
  EXPECT_EQ(tables, (std::vector<Identifier>{{{"default"}, "A"}, {{"default"}, "b"}}));
  ASSERT_OK_AND_ASSIGN(auto inner, catalog_.ListTables({"default", "inner"}));
  EXPECT_EQ(inner, (std::vector<Identifier>{{{"default", "inner"}, "c"}}));
}

TEST_F(MemoryCatalogTest, DropAndRenameTable) {
  auto table = CreateAb("t");
  ASSERT_OK_AND_ASSIGN(auto data, MakeTable(AbSchema(), {{"[1, 2]", R"(["x", "y"])"}}));
  ASSERT_OK(catalog_.AppendData({{"default"}, "t"}, data));

  ASSERT_OK(catalog_.CreateNamespace({"other"}, {}));
  ASSERT_OK(catalog_.RenameTable({{"default"}, "t"}, {{"other"}, "u"}));
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND", catalog_.LoadTable({{"default"}, "t"}));
  ASSERT_OK_AND_ASSIGN(auto renamed, catalog_.LoadTable({{"other"}, "u"}));
  EXPECT_EQ(renamed, table);
  EXPECT_EQ(renamed->name(), "`mem`.`other`.`u`");
  ASSERT_OK_AND_ASSIGN(auto rows, ReadAll(*renamed));
  ExpectTableEquals(*data, *rows);

  // Changing only the case of the name is a rename of the table onto itself.
  ASSERT_OK(catalog_.RenameTable({{"other"}, "u"}, {{"other"}, "U"}));
  ASSERT_OK_AND_ASSIGN(auto listed, catalog_.ListTables({"other"}));
  EXPECT_EQ(listed, (std::vector<Identifier>{{{"other"}, "U"}}));

  CreateAb("v");
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_ALREADY_EXISTS",
                          catalog_.RenameTable({{"other"}, "u"}, {{"default"}, "V"}));
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND",
                          catalog_.RenameTable({{"other"}, "nope"}, {{"default"}, "w"}));
  ASSERT_RAISES_CONDITION("SCHEMA_NOT_FOUND",
                          catalog_.RenameTable({{"other"}, "u"}, {{"nope"}, "w"}));

  ASSERT_OK_AND_ASSIGN(bool dropped, catalog_.DropTable({{"OTHER"}, "u"}));
  EXPECT_TRUE(dropped);
  ASSERT_OK_AND_ASSIGN(bool dropped_again, catalog_.DropTable({{"other"}, "u"}));
  EXPECT_FALSE(dropped_again);
}

// ---- Data

TEST_F(MemoryCatalogTest, AppendAndReplaceData) {
  auto table = CreateAb("t");
  ASSERT_OK_AND_ASSIGN(auto empty, ReadAll(*table));
  EXPECT_EQ(empty->num_rows(), 0);

  // Field names may differ in case; nullability flags and metadata of the input are ignored.
  auto input_schema =
      arrow::schema({arrow::field("A", arrow::int64(), false), arrow::field("b", arrow::utf8())});
  ASSERT_OK_AND_ASSIGN(
      auto first,
      MakeTable(input_schema, {{"[1, 2]", R"(["x", null])"}, {"[]", "[]"}, {"[3]", R"(["z"])"}}));
  ASSERT_OK(catalog_.AppendData({{"default"}, "t"}, first));
  ASSERT_OK_AND_ASSIGN(auto second, MakeTable(AbSchema(), {{"[4]", R"(["w"])"}}));
  ASSERT_OK(catalog_.AppendData({{"default"}, "t"}, second));

  auto* memory_table = dynamic_cast<MemoryTable*>(table.get());
  ASSERT_NE(memory_table, nullptr);
  // The empty chunk is dropped; every stored batch has the table's own schema.
  ASSERT_EQ(memory_table->batches().size(), 3u);
  for (const auto& batch : memory_table->batches()) {
    EXPECT_TRUE(batch->schema()->Equals(*table->schema()));
  }

  ASSERT_OK_AND_ASSIGN(auto expected,
                       MakeTable(AbSchema(), {{"[1, 2, 3, 4]", R"(["x", null, "z", "w"])"}}));
  ASSERT_OK_AND_ASSIGN(auto rows, ReadAll(*table));
  ExpectTableEquals(*expected, *rows);

  ASSERT_OK(memory_table->ReplaceData(second));
  ASSERT_OK_AND_ASSIGN(auto replaced, ReadAll(*table));
  ExpectTableEquals(*second, *replaced);
}

TEST_F(MemoryCatalogTest, IncompatibleDataIsRejected) {
  TableInfo info{
      {MakeColumn("a", arrow::int64(), /*nullable=*/false), MakeColumn("b", arrow::utf8())},
      {},
      {}};
  ASSERT_OK_AND_ASSIGN(auto table, catalog_.CreateTable({{"default"}, "t"}, info));
  Identifier ident{{"default"}, "t"};

  auto with_fields = [](arrow::FieldVector fields) { return arrow::schema(std::move(fields)); };
  ASSERT_OK_AND_ASSIGN(auto extra, MakeTable(with_fields({arrow::field("a", arrow::int64()),
                                                          arrow::field("b", arrow::utf8()),
                                                          arrow::field("c", arrow::int32())}),
                                             {{"[1]", R"(["x"])", "[1]"}}));
  auto status = catalog_.AppendData(ident, extra);
  ASSERT_RAISES_CONDITION("INCOMPATIBLE_DATA_FOR_TABLE.EXTRA_COLUMNS", status);
  EXPECT_NE(status.message().find("`mem`.`default`.`t`"), std::string::npos) << status.ToString();
  EXPECT_NE(status.message().find("`c`"), std::string::npos) << status.ToString();

  ASSERT_OK_AND_ASSIGN(auto missing,
                       MakeTable(with_fields({arrow::field("a", arrow::int64())}), {{"[1]"}}));
  ASSERT_RAISES_CONDITION("INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_FIND_DATA",
                          catalog_.AppendData(ident, missing));

  ASSERT_OK_AND_ASSIGN(
      auto renamed,
      MakeTable(with_fields({arrow::field("a", arrow::int64()), arrow::field("c", arrow::utf8())}),
                {{"[1]", R"(["x"])"}}));
  ASSERT_RAISES_CONDITION("INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_FIND_DATA",
                          catalog_.AppendData(ident, renamed));

  ASSERT_OK_AND_ASSIGN(
      auto wrong_type,
      MakeTable(with_fields({arrow::field("a", arrow::int32()), arrow::field("b", arrow::utf8())}),
                {{"[1]", R"(["x"])"}}));
  status = catalog_.AppendData(ident, wrong_type);
  ASSERT_RAISES_CONDITION("INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST", status);
  EXPECT_NE(status.message().find("\"int32\" to \"int64\""), std::string::npos)
      << status.ToString();

  ASSERT_OK_AND_ASSIGN(auto nulls, MakeTable(AbSchema(), {{"[1, null]", R"(["x", "y"])"}}));
  ASSERT_RAISES_CONDITION("INCOMPATIBLE_DATA_FOR_TABLE.NULLABLE_COLUMN",
                          catalog_.AppendData(ident, nulls));

  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND",
                          catalog_.AppendData({{"default"}, "nope"}, nulls));

  // Nothing was stored by the failed appends.
  ASSERT_OK_AND_ASSIGN(auto rows, ReadAll(*table));
  EXPECT_EQ(rows->num_rows(), 0);
}

// ---- Reads

TEST_F(MemoryCatalogTest, OnePartitionPerStoredBatch) {
  auto table = CreateAb("t");
  ASSERT_OK_AND_ASSIGN(auto data,
                       MakeTable(AbSchema(), {{"[1]", R"(["x"])"}, {"[2, 3]", R"(["y", "z"])"}}));
  ASSERT_OK(catalog_.AppendData({{"default"}, "t"}, data));
  ASSERT_OK_AND_ASSIGN(auto builder, dynamic_cast<SupportsRead&>(*table).NewScanBuilder({}));
  EXPECT_EQ(dynamic_cast<SupportsPushDownV2Filters*>(builder.get()), nullptr);
  ASSERT_OK_AND_ASSIGN(auto scan, builder->Build());
  ASSERT_OK_AND_ASSIGN(auto batch, scan->ToBatch());
  ASSERT_OK_AND_ASSIGN(auto partitions, batch->PlanInputPartitions());
  EXPECT_EQ(partitions.size(), 2u);
  EXPECT_EQ(scan->Description(), "readSchema=[a, b]");
  EXPECT_TRUE(scan->ReadSchema()->Equals(*AbSchema()));
}

TEST_F(MemoryCatalogTest, ColumnPruning) {
  TableInfo info{SchemaToColumns(*arrow::schema({arrow::field("a", arrow::int32()),
                                                 arrow::field("b", arrow::int32()),
                                                 arrow::field("c", arrow::utf8())})),
                 {},
                 {}};
  ASSERT_OK_AND_ASSIGN(auto table, catalog_.CreateTable({{"default"}, "t"}, info));
  ASSERT_OK_AND_ASSIGN(auto data,
                       MakeTable(table->schema(), {{"[1, 2]", "[3, 4]", R"(["x", "y"])"}}));
  ASSERT_OK(catalog_.AppendData({{"default"}, "t"}, data));
  auto& readable = dynamic_cast<SupportsRead&>(*table);

  // Required columns arrive in any order; the read keeps table order.
  ASSERT_OK_AND_ASSIGN(auto builder, readable.NewScanBuilder({}));
  auto* pruning = dynamic_cast<SupportsPushDownRequiredColumns*>(builder.get());
  ASSERT_NE(pruning, nullptr);
  ASSERT_OK(pruning->PruneColumns(
      arrow::schema({arrow::field("c", arrow::utf8()), arrow::field("a", arrow::int32())})));
  ASSERT_OK_AND_ASSIGN(auto scan, builder->Build());
  EXPECT_EQ(scan->Description(), "readSchema=[a, c]");
  ASSERT_OK_AND_ASSIGN(auto rows, ReadScan(*scan));
  ASSERT_OK_AND_ASSIGN(auto expected, data->SelectColumns({0, 2}));
  ExpectTableEquals(*expected, *rows);

  // No column at all (COUNT(*)): batches keep their row counts.
  ASSERT_OK_AND_ASSIGN(auto count_builder, readable.NewScanBuilder({}));
  ASSERT_OK(dynamic_cast<SupportsPushDownRequiredColumns&>(*count_builder)
                .PruneColumns(arrow::schema(arrow::FieldVector{})));
  ASSERT_OK_AND_ASSIGN(auto count_scan, count_builder->Build());
  ASSERT_OK_AND_ASSIGN(auto counted, ReadScan(*count_scan));
  EXPECT_EQ(counted->num_columns(), 0);
  EXPECT_EQ(counted->num_rows(), 2);

  ASSERT_OK_AND_ASSIGN(auto bad_builder, readable.NewScanBuilder({}));
  ASSERT_RAISES_CONDITION("INTERNAL_ERROR",
                          dynamic_cast<SupportsPushDownRequiredColumns&>(*bad_builder)
                              .PruneColumns(arrow::schema({arrow::field("zz", arrow::int32())})));
}

TEST_F(MemoryCatalogTest, ScanSeesSnapshotTakenAtBuild) {
  auto table = CreateAb("t");
  Identifier ident{{"default"}, "t"};
  ASSERT_OK_AND_ASSIGN(auto before, MakeTable(AbSchema(), {{"[1]", R"(["x"])"}}));
  ASSERT_OK(catalog_.AppendData(ident, before));

  ASSERT_OK_AND_ASSIGN(auto builder, dynamic_cast<SupportsRead&>(*table).NewScanBuilder({}));
  ASSERT_OK_AND_ASSIGN(auto scan, builder->Build());
  ASSERT_OK_AND_ASSIGN(auto after, MakeTable(AbSchema(), {{"[2]", R"(["y"])"}}));
  ASSERT_OK(catalog_.AppendData(ident, after));
  ASSERT_OK_AND_ASSIGN(bool dropped, catalog_.DropTable(ident));
  ASSERT_TRUE(dropped);

  // The in-flight scan neither sees the append nor loses its data to the drop.
  ASSERT_OK_AND_ASSIGN(auto rows, ReadScan(*scan));
  ExpectTableEquals(*before, *rows);
  // A new scan of the (still referenced) table object sees both appends.
  ASSERT_OK_AND_ASSIGN(auto all, ReadAll(*table));
  EXPECT_EQ(all->num_rows(), 2);
}

TEST_F(MemoryCatalogTest, TaskBytesAreValidated) {
  auto table = CreateAb("t");
  ASSERT_OK_AND_ASSIGN(auto data, MakeTable(AbSchema(), {{"[1]", R"(["x"])"}}));
  ASSERT_OK(catalog_.AppendData({{"default"}, "t"}, data));
  auto& readable = dynamic_cast<SupportsRead&>(*table);
  ASSERT_OK_AND_ASSIGN(auto builder, readable.NewScanBuilder({}));
  ASSERT_OK_AND_ASSIGN(auto scan, builder->Build());
  ASSERT_OK_AND_ASSIGN(auto batch, scan->ToBatch());
  ASSERT_OK_AND_ASSIGN(auto factory, batch->CreateReaderFactory());
  ASSERT_OK_AND_ASSIGN(auto partitions, batch->PlanInputPartitions());
  ASSERT_EQ(partitions.size(), 1u);
  ASSERT_OK_AND_ASSIGN(std::string partition_bytes, partitions[0]->Serialize());
  ASSERT_OK_AND_ASSIGN(std::string factory_bytes, factory->Serialize());

  // "memory-partition:<token>:<snapshot>:<batch>" / "memory-factory:<token>:<snapshot>:0,1".
  auto fields = [](const std::string& bytes) {
    std::vector<std::string> out;
    size_t start = 0, end;
    while ((end = bytes.find(':', start)) != std::string::npos) {
      out.push_back(bytes.substr(start, end - start));
      start = end + 1;
    }
    out.push_back(bytes.substr(start));
    return out;
  };
  auto p = fields(partition_bytes);
  auto f = fields(factory_bytes);
  ASSERT_EQ(p.size(), 4u);
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(p[0], "memory-partition");
  EXPECT_EQ(f[0], "memory-factory");
  EXPECT_EQ(f[3], "0,1");
  std::string other_token = std::to_string(std::stoull(p[1]) + 1);
  std::string other_snapshot = std::to_string(std::stoull(p[2]) + 1000);

  const std::string kCondition = "CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE";
  for (const std::string& bad :
       {std::string(""), std::string("garbage"), std::string("memory-partition:1:2"),
        "memory-partition:" + p[1] + ":" + p[2] + ":1",            // batch out of range
        "memory-partition:" + p[1] + ":" + other_snapshot + ":0",  // another scan
        "memory-partition:" + other_token + ":" + p[2] + ":0",     // another process
        "memory-partition:" + p[1] + ":" + p[2] + ":-1", "memory-partition:" + p[1] + ":x:0"}) {
    SCOPED_TRACE(bad);
    ASSERT_RAISES_CONDITION(kCondition, factory->DeserializePartition(bad));
  }
  for (const std::string& bad :
       {std::string(""), std::string("memory-factory:1:2"),
        "memory-factory:" + f[1] + ":" + f[2] + ":4",    // past the metadata columns
        "memory-factory:" + f[1] + ":" + f[2] + ":1,0",  // not in table order
        "memory-factory:" + f[1] + ":" + f[2] + ":0,0",  // repeated
        "memory-factory:" + f[1] + ":" + f[2] + ":0,",   // empty entry
        "memory-factory:" + f[1] + ":" + other_snapshot + ":0",
        "memory-factory:" + other_token + ":" + f[2] + ":0"}) {
    SCOPED_TRACE(bad);
    ASSERT_RAISES_CONDITION(kCondition, batch->DeserializeReaderFactory(bad));
  }

  // A projection can be written by hand: column 1 alone.
  ASSERT_OK_AND_ASSIGN(
      auto b_only, batch->DeserializeReaderFactory("memory-factory:" + f[1] + ":" + f[2] + ":1"));
  ASSERT_OK_AND_ASSIGN(auto partition, b_only->DeserializePartition(partition_bytes));
  ASSERT_OK_AND_ASSIGN(auto reader, b_only->CreateReader(*partition));
  ASSERT_OK_AND_ASSIGN(auto first, reader->Next());
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->schema()->field_names(), std::vector<std::string>{"b"});
  ASSERT_OK_AND_ASSIGN(auto end, reader->Next());
  EXPECT_EQ(end, nullptr);

  // Once the scan and every factory of it are gone, its bytes no longer resolve.
  ASSERT_OK_AND_ASSIGN(auto other_builder, readable.NewScanBuilder({}));
  ASSERT_OK_AND_ASSIGN(auto other_scan, other_builder->Build());
  ASSERT_OK_AND_ASSIGN(auto other_batch, other_scan->ToBatch());
  reader.reset();
  partition.reset();
  b_only.reset();
  factory.reset();
  partitions.clear();
  batch.reset();
  scan.reset();
  ASSERT_RAISES_CONDITION(kCondition, other_batch->DeserializeReaderFactory(factory_bytes));
}

TEST_F(MemoryCatalogTest, ConcurrentAppendsAndScans) {
  auto table = CreateAb("t");
  ASSERT_OK_AND_ASSIGN(auto one_row, MakeTable(AbSchema(), {{"[1]", R"(["x"])"}}));
  constexpr int kThreads = 4;
  constexpr int kAppendsPerThread = 25;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int k = 0; k < kAppendsPerThread; ++k) {
        if (!catalog_.AppendData({{"default"}, "t"}, one_row).ok()) ++failures;
        auto rows = ReadAll(*table);
        // Every scan sees a whole number of appends, never a partial one.
        if (!rows.ok() || (*rows)->num_rows() < k + 1) ++failures;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  ASSERT_OK_AND_ASSIGN(auto rows, ReadAll(*table));
  EXPECT_EQ(rows->num_rows(), kThreads * kAppendsPerThread);
}

}  // namespace
}  // namespace parley::memory
