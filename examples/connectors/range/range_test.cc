// Tests of the example range connector, driven only through the public connector API the way
// the engine drives it: create the catalog through the exported plugin factory, resolve
// tables, negotiate pushdown by hand, plan partitions, round-trip every task through bytes and
// read the rows. The last test loads the built shared library with dlopen.
#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

#include "arrow/api.h"
#include "arrow/json/from_string.h"
#include "parley/connector/api.h"
#include "testing/gtest_util.h"
#include "testing/scan_harness.h"

// The factory the example exports; the test binary links the example's objects.
extern "C" parley::CatalogPlugin* parley_create_catalog_plugin(int api_version);

namespace parley {
namespace {

using Path = std::vector<std::string>;

// Run a built scan's tasks as the engine does (see testing/scan_harness.h); return all rows.
Result<std::shared_ptr<arrow::Table>> ReadScan(Scan& scan) {
  ARROW_ASSIGN_OR_RAISE(auto run, testing::RunScan(scan));
  return run.rows;
}

// The serialized partitions a built scan plans, e.g. {"range-partition:0:5", ...}.
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

// An int32 column per (name, JSON values) pair.
Result<std::shared_ptr<arrow::Table>> Int32Table(
    const std::vector<std::pair<std::string, std::string>>& columns) {
  arrow::FieldVector fields;
  arrow::ArrayVector arrays;
  for (const auto& [name, json] : columns) {
    fields.push_back(arrow::field(name, arrow::int32()));
    ARROW_ASSIGN_OR_RAISE(auto array, arrow::json::ArrayFromJSONString(arrow::int32(), json));
    arrays.push_back(std::move(array));
  }
  return arrow::Table::Make(arrow::schema(fields), arrays);
}

void ExpectTableEquals(const arrow::Table& expected, const arrow::Table& actual) {
  EXPECT_TRUE(expected.Equals(actual)) << "expected:\n"
                                       << expected.ToString() << "\nactual:\n"
                                       << actual.ToString();
}

PredicatePtr Gt(ExpressionPtr left, ExpressionPtr right) {
  return MakePredicate(">", {std::move(left), std::move(right)});
}
ExpressionPtr Int(int32_t value) {
  return MakeLiteral(std::make_shared<arrow::Int32Scalar>(value));
}
ExpressionPtr Col(const std::string& name) { return FieldReference(name); }

std::vector<std::string> Render(const std::vector<PredicatePtr>& predicates) {
  std::vector<std::string> out;
  for (const auto& predicate : predicates) out.push_back(predicate->ToString());
  return out;
}

class RangeCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    plugin_.reset(parley_create_catalog_plugin(PARLEY_CONNECTOR_API_VERSION));
    ASSERT_NE(plugin_, nullptr);
    ASSERT_OK(plugin_->Initialize("ex", {}));
    tables_ = dynamic_cast<TableCatalog*>(plugin_.get());
    namespaces_ = dynamic_cast<SupportsNamespaces*>(plugin_.get());
    ASSERT_NE(tables_, nullptr);
    ASSERT_NE(namespaces_, nullptr);
  }

  // A fresh scan builder of default.<table>.
  std::unique_ptr<ScanBuilder> NewBuilder(const std::string& table) {
    auto loaded = tables_->LoadTable({{"default"}, table});
    EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
    if (!loaded.ok()) return nullptr;
    auto builder = dynamic_cast<SupportsRead&>(**loaded).NewScanBuilder({});
    EXPECT_TRUE(builder.ok()) << builder.status().ToString();
    return builder.ok() ? std::move(*builder) : nullptr;
  }

  // Build a `filtered` scan after offering `predicates` (and pruning to `columns` if given).
  Result<std::shared_ptr<Scan>> FilteredScan(std::vector<PredicatePtr> predicates,
                                             const std::vector<std::string>* columns = nullptr) {
    auto builder = NewBuilder("filtered");
    if (builder == nullptr) return Status::Invalid("no builder");
    ARROW_RETURN_NOT_OK(
        dynamic_cast<SupportsPushDownV2Filters&>(*builder).PushPredicates(std::move(predicates)));
    if (columns != nullptr) {
      arrow::FieldVector fields;
      for (const auto& name : *columns) fields.push_back(arrow::field(name, arrow::int32()));
      ARROW_RETURN_NOT_OK(dynamic_cast<SupportsPushDownRequiredColumns&>(*builder).PruneColumns(
          arrow::schema(fields)));
    }
    return builder->Build();
  }

  std::unique_ptr<CatalogPlugin> plugin_;
  TableCatalog* tables_ = nullptr;
  SupportsNamespaces* namespaces_ = nullptr;
};

// ---- The catalog

TEST(RangePluginTest, FactoryChecksApiVersion) {
  EXPECT_EQ(parley_create_catalog_plugin(PARLEY_CONNECTOR_API_VERSION + 1), nullptr);
}

TEST_F(RangeCatalogTest, NamespacesAndTables) {
  EXPECT_EQ(plugin_->name(), "ex");
  EXPECT_EQ(plugin_->DefaultNamespace(), Path{"default"});
  ASSERT_OK_AND_ASSIGN(auto top, namespaces_->ListNamespaces({}));
  EXPECT_EQ(top, std::vector<Path>{{"default"}});
  ASSERT_OK_AND_ASSIGN(auto under, namespaces_->ListNamespaces({"default"}));
  EXPECT_TRUE(under.empty());
  ASSERT_OK_AND_ASSIGN(bool exists, namespaces_->NamespaceExists({"default"}));
  EXPECT_TRUE(exists);
  ASSERT_OK_AND_ASSIGN(bool other_exists, namespaces_->NamespaceExists({"other"}));
  EXPECT_FALSE(other_exists);

  ASSERT_OK_AND_ASSIGN(auto listed, tables_->ListTables({"default"}));
  EXPECT_EQ(listed, (std::vector<Identifier>{{{"default"}, "filtered"}, {{"default"}, "simple"}}));

  for (const char* name : {"simple", "filtered", "SIMPLE"}) {
    SCOPED_TRACE(name);
    ASSERT_OK_AND_ASSIGN(auto table, tables_->LoadTable({{"default"}, name}));
    EXPECT_EQ(table->capabilities(), std::set<TableCapability>{TableCapability::kBatchRead});
    EXPECT_TRUE(table->schema()->Equals(
        *arrow::schema({arrow::field("i", arrow::int32()), arrow::field("j", arrow::int32())})));
    EXPECT_NE(dynamic_cast<SupportsRead*>(table.get()), nullptr);
  }
  ASSERT_OK_AND_ASSIGN(auto simple, tables_->LoadTable({{"default"}, "simple"}));
  EXPECT_EQ(simple->name(), "ex.default.simple");
}

TEST_F(RangeCatalogTest, Errors) {
  auto missing = tables_->LoadTable({{"default"}, "nope"});
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND", missing);
  EXPECT_NE(missing.status().message().find("`default`.`nope`"), std::string::npos)
      << missing.status().ToString();
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND", tables_->LoadTable({{"other"}, "simple"}));
  ASSERT_OK_AND_ASSIGN(bool exists, tables_->TableExists({{"default"}, "nope"}));
  EXPECT_FALSE(exists);

  auto no_schema = tables_->ListTables({"other"});
  ASSERT_RAISES_CONDITION("SCHEMA_NOT_FOUND", no_schema);
  EXPECT_NE(no_schema.status().message().find("`other`"), std::string::npos);
  ASSERT_RAISES_CONDITION("SCHEMA_NOT_FOUND", namespaces_->ListNamespaces({"other"}));

  // The example is read-only: the API's defaults answer for DDL.
  ASSERT_RAISES_CONDITION("UNSUPPORTED_FEATURE.CATALOG_OPERATION",
                          tables_->CreateTable({{"default"}, "t"}, TableInfo{}));
  ASSERT_RAISES_CONDITION("UNSUPPORTED_FEATURE.CATALOG_OPERATION",
                          namespaces_->CreateNamespace({"other"}, {}));
}

// ---- Step 1: simple

TEST_F(RangeCatalogTest, SimpleReadsTenRowsInTwoPartitions) {
  auto builder = NewBuilder("simple");
  ASSERT_NE(builder, nullptr);
  // Step 1 negotiates nothing.
  EXPECT_EQ(dynamic_cast<SupportsPushDownV2Filters*>(builder.get()), nullptr);
  EXPECT_EQ(dynamic_cast<SupportsPushDownRequiredColumns*>(builder.get()), nullptr);
  ASSERT_OK_AND_ASSIGN(auto scan, builder->Build());
  ASSERT_OK_AND_ASSIGN(auto partitions, PlannedPartitions(*scan));
  EXPECT_EQ(partitions, (std::vector<std::string>{"range-partition:0:5", "range-partition:5:10"}));
  EXPECT_EQ(scan->Description(), "pushedPredicates=[], readSchema=[i, j]");

  ASSERT_OK_AND_ASSIGN(auto rows, ReadScan(*scan));
  ASSERT_OK_AND_ASSIGN(auto expected,
                       Int32Table({{"i", "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]"},
                                   {"j", "[0, -1, -2, -3, -4, -5, -6, -7, -8, -9]"}}));
  ExpectTableEquals(*expected, *rows);
}

// ---- Step 2: filtered

TEST_F(RangeCatalogTest, PushPredicatesAcceptsFirstIGreaterThanInt) {
  struct Case {
    std::string label;
    std::vector<PredicatePtr> offered;
    std::vector<std::string> residual;
    std::vector<std::string> pushed;
  };
  auto i = Col("i");
  auto j = Col("j");
  std::vector<Case> cases = {
      {"i > 6 AND i > j AND i > 3 AND j > 1",
       {Gt(i, Int(6)), Gt(i, j), Gt(i, Int(3)), Gt(j, Int(1))},
       {"i > j", "i > 3", "j > 1"},
       {"i > 6"}},
      {"j > 1 AND i > 3", {Gt(j, Int(1)), Gt(i, Int(3))}, {"j > 1"}, {"i > 3"}},
      {"i > j alone", {Gt(i, j)}, {"i > j"}, {}},
      {"threshold -1 is accepted", {Gt(i, Int(-1))}, {}, {"i > -1"}},
      {"threshold -2 stays with the engine", {Gt(i, Int(-2))}, {"i > -2"}, {}},
      {"BIGINT literal",
       {Gt(i, MakeLiteral(std::make_shared<arrow::Int64Scalar>(6)))},
       {"i > 6"},
       {}},
      {"NULL literal",
       {Gt(i, MakeLiteral(arrow::MakeNullScalar(arrow::int32())))},
       {"i > NULL"},
       {}},
      {"i >= 6", {MakePredicate(">=", {i, Int(6)})}, {"i >= 6"}, {}},
      {"6 < i", {MakePredicate("<", {Int(6), i})}, {"6 < i"}, {}},
      {"upper-case I", {Gt(Col("I"), Int(6))}, {"I > 6"}, {}},
      {"nested i.x",
       {Gt(std::make_shared<NamedReference>(std::vector<std::string>{"i", "x"}), Int(6))},
       {"i.x > 6"},
       {}},
      {"nothing offered", {}, {}, {}},
  };
  for (auto& test : cases) {
    SCOPED_TRACE(test.label);
    auto builder = NewBuilder("filtered");
    ASSERT_NE(builder, nullptr);
    auto* filters = dynamic_cast<SupportsPushDownV2Filters*>(builder.get());
    ASSERT_NE(filters, nullptr);
    ASSERT_OK_AND_ASSIGN(auto residual, filters->PushPredicates(test.offered));
    EXPECT_EQ(Render(residual), test.residual);
    EXPECT_EQ(Render(filters->PushedPredicates()), test.pushed);
  }
}

TEST_F(RangeCatalogTest, PushPredicatesReplacesEarlierCalls) {
  auto builder = NewBuilder("filtered");
  ASSERT_NE(builder, nullptr);
  auto& filters = dynamic_cast<SupportsPushDownV2Filters&>(*builder);
  ASSERT_OK(filters.PushPredicates({Gt(Col("i"), Int(6))}).status());
  EXPECT_EQ(Render(filters.PushedPredicates()), std::vector<std::string>{"i > 6"});
  ASSERT_OK_AND_ASSIGN(auto residual, filters.PushPredicates({Gt(Col("j"), Int(1))}));
  EXPECT_EQ(Render(residual), std::vector<std::string>{"j > 1"});
  EXPECT_TRUE(filters.PushedPredicates().empty());
  // The scan follows the last call: no threshold, both partitions.
  ASSERT_OK_AND_ASSIGN(auto scan, builder->Build());
  ASSERT_OK_AND_ASSIGN(auto partitions, PlannedPartitions(*scan));
  EXPECT_EQ(partitions.size(), 2u);
}

TEST_F(RangeCatalogTest, PartitionsFollowThreshold) {
  const std::vector<std::pair<int32_t, std::vector<std::string>>> cases = {
      {-2, {"range-partition:0:5", "range-partition:5:10"}},  // not accepted
      {-1, {"range-partition:0:5", "range-partition:5:10"}},
      {3, {"range-partition:4:5", "range-partition:5:10"}},
      {4, {"range-partition:5:10"}},
      {8, {"range-partition:9:10"}},
      {9, {}},
  };
  for (const auto& [threshold, expected] : cases) {
    SCOPED_TRACE(threshold);
    ASSERT_OK_AND_ASSIGN(auto scan, FilteredScan({Gt(Col("i"), Int(threshold))}));
    ASSERT_OK_AND_ASSIGN(auto partitions, PlannedPartitions(*scan));
    EXPECT_EQ(partitions, expected);
  }
}

TEST_F(RangeCatalogTest, ReadsOnlyRowsAboveThreshold) {
  ASSERT_OK_AND_ASSIGN(auto scan, FilteredScan({Gt(Col("i"), Int(6)), Gt(Col("i"), Col("j"))}));
  EXPECT_EQ(scan->Description(), "pushedPredicates=[i > 6], readSchema=[i, j]");
  ASSERT_OK_AND_ASSIGN(auto rows, ReadScan(*scan));
  ASSERT_OK_AND_ASSIGN(auto expected, Int32Table({{"i", "[7, 8, 9]"}, {"j", "[-7, -8, -9]"}}));
  ExpectTableEquals(*expected, *rows);

  // Threshold 3 keeps the two-partition split: rows 4 (first partition) and 5..9.
  ASSERT_OK_AND_ASSIGN(auto scan3, FilteredScan({Gt(Col("i"), Int(3))}));
  ASSERT_OK_AND_ASSIGN(auto rows3, ReadScan(*scan3));
  ASSERT_OK_AND_ASSIGN(
      auto expected3, Int32Table({{"i", "[4, 5, 6, 7, 8, 9]"}, {"j", "[-4, -5, -6, -7, -8, -9]"}}));
  ExpectTableEquals(*expected3, *rows3);

  ASSERT_OK_AND_ASSIGN(auto scan9, FilteredScan({Gt(Col("i"), Int(9))}));
  ASSERT_OK_AND_ASSIGN(auto rows9, ReadScan(*scan9));
  EXPECT_EQ(rows9->num_rows(), 0);
}

TEST_F(RangeCatalogTest, ColumnPruning) {
  const std::vector<std::string> only_j = {"j"};
  ASSERT_OK_AND_ASSIGN(auto scan, FilteredScan({Gt(Col("i"), Int(6))}, &only_j));
  EXPECT_EQ(scan->Description(), "pushedPredicates=[i > 6], readSchema=[j]");
  ASSERT_OK_AND_ASSIGN(auto rows, ReadScan(*scan));
  ASSERT_OK_AND_ASSIGN(auto expected, Int32Table({{"j", "[-7, -8, -9]"}}));
  ExpectTableEquals(*expected, *rows);

  // Required columns in any order come back in table order.
  const std::vector<std::string> j_then_i = {"j", "i"};
  ASSERT_OK_AND_ASSIGN(auto both, FilteredScan({}, &j_then_i));
  EXPECT_EQ(both->ReadSchema()->field_names(), (std::vector<std::string>{"i", "j"}));

  // No column (COUNT(*)): batches carry only row counts.
  const std::vector<std::string> none;
  ASSERT_OK_AND_ASSIGN(auto count_scan, FilteredScan({Gt(Col("i"), Int(4))}, &none));
  EXPECT_EQ(count_scan->Description(), "pushedPredicates=[i > 4], readSchema=[]");
  ASSERT_OK_AND_ASSIGN(auto counted, ReadScan(*count_scan));
  EXPECT_EQ(counted->num_columns(), 0);
  EXPECT_EQ(counted->num_rows(), 5);

  const std::vector<std::string> unknown = {"k"};
  ASSERT_RAISES_CONDITION("INTERNAL_ERROR", FilteredScan({}, &unknown));
}

// ---- Serialization

TEST_F(RangeCatalogTest, TasksRoundTripThroughBytes) {
  const std::vector<std::string> only_j = {"j"};
  ASSERT_OK_AND_ASSIGN(auto scan, FilteredScan({Gt(Col("i"), Int(7))}, &only_j));
  ASSERT_OK_AND_ASSIGN(auto batch, scan->ToBatch());
  ASSERT_OK_AND_ASSIGN(auto factory, batch->CreateReaderFactory());
  ASSERT_OK_AND_ASSIGN(std::string factory_bytes, factory->Serialize());
  EXPECT_EQ(factory_bytes, "range-factory:j");

  // An "executor" rebuilds the factory and a partition from bytes alone.
  ASSERT_OK_AND_ASSIGN(auto executor_factory, batch->DeserializeReaderFactory(factory_bytes));
  ASSERT_OK_AND_ASSIGN(auto partition,
                       executor_factory->DeserializePartition("range-partition:2:4"));
  ASSERT_OK_AND_ASSIGN(std::string partition_bytes, partition->Serialize());
  EXPECT_EQ(partition_bytes, "range-partition:2:4");
  ASSERT_OK_AND_ASSIGN(auto reader, executor_factory->CreateReader(*partition));
  ASSERT_OK_AND_ASSIGN(auto first, reader->Next());
  ASSERT_NE(first, nullptr);
  ASSERT_OK_AND_ASSIGN(auto expected, Int32Table({{"j", "[-2, -3]"}}));
  ASSERT_OK_AND_ASSIGN(auto actual, arrow::Table::FromRecordBatches({first}));
  ExpectTableEquals(*expected, *actual);
  ASSERT_OK_AND_ASSIGN(auto end, reader->Next());
  EXPECT_EQ(end, nullptr);

  // An empty range reads nothing.
  ASSERT_OK_AND_ASSIGN(auto empty, executor_factory->DeserializePartition("range-partition:3:3"));
  ASSERT_OK_AND_ASSIGN(auto empty_reader, executor_factory->CreateReader(*empty));
  ASSERT_OK_AND_ASSIGN(auto none, empty_reader->Next());
  EXPECT_EQ(none, nullptr);

  for (const char* bytes : {"range-factory:i,j", "range-factory:i", "range-factory:"}) {
    SCOPED_TRACE(bytes);
    ASSERT_OK_AND_ASSIGN(auto rebuilt, batch->DeserializeReaderFactory(bytes));
    ASSERT_OK_AND_ASSIGN(std::string again, rebuilt->Serialize());
    EXPECT_EQ(again, bytes);
  }
}

TEST_F(RangeCatalogTest, BadBytesAreAnError) {
  ASSERT_OK_AND_ASSIGN(auto scan, FilteredScan({}));
  ASSERT_OK_AND_ASSIGN(auto batch, scan->ToBatch());
  ASSERT_OK_AND_ASSIGN(auto factory, batch->CreateReaderFactory());
  const std::string kCondition = "CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE";

  for (const std::string& bytes :
       {std::string(""), std::string("garbage"), std::string("range-partition:"),
        std::string("range-partition:1"), std::string("range-partition:a:b"),
        std::string("range-partition:5:2"), std::string("range-partition:0:11"),
        std::string("range-partition:-1:3"), std::string("range-partition:1:2:3"),
        std::string("range-partition:1:2x"), std::string("range-partition: 1:2"),
        std::string("range-partition:99999999999:1"), std::string("range-partition:1\0:2", 20)}) {
    SCOPED_TRACE(bytes);
    auto rebuilt = factory->DeserializePartition(bytes);
    ASSERT_RAISES_CONDITION(kCondition, rebuilt);
  }
  auto status = factory->DeserializePartition("range-partition:5:2").status();
  EXPECT_NE(status.message().find("range-partition:5:2"), std::string::npos) << status.ToString();

  for (const char* bytes : {"", "range-factory", "range-factory:k", "range-factory:j,i",
                            "range-factory:i,i", "range-factory:i,", "other:i"}) {
    SCOPED_TRACE(bytes);
    ASSERT_RAISES_CONDITION(kCondition, batch->DeserializeReaderFactory(bytes));
  }
}

// ---- The shared library

TEST(RangePluginTest, LoadsFromSharedLibrary) {
  // The library sits in build/examples/ next to build/tests/ holding this binary, unless
  // PARLEY_EXAMPLE_RANGE_LIB points elsewhere.
  std::filesystem::path library;
  if (const char* path = std::getenv("PARLEY_EXAMPLE_RANGE_LIB")) {
    library = path;
  } else {
    library = std::filesystem::read_symlink("/proc/self/exe").parent_path().parent_path() /
              "examples" / "libparley_example_range.so";
  }
  ASSERT_TRUE(std::filesystem::exists(library))
      << library << " is missing: build the parley_example_range target";

  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << dlerror();
  auto factory =
      reinterpret_cast<ParleyCatalogFactory>(dlsym(handle, PARLEY_CATALOG_FACTORY_SYMBOL));
  ASSERT_NE(factory, nullptr) << dlerror();
  {
    std::unique_ptr<CatalogPlugin> plugin(factory(PARLEY_CONNECTOR_API_VERSION));
    ASSERT_NE(plugin, nullptr);
    ASSERT_OK(plugin->Initialize("ex", {}));
    auto* catalog = dynamic_cast<TableCatalog*>(plugin.get());
    ASSERT_NE(catalog, nullptr);
    ASSERT_OK_AND_ASSIGN(auto table, catalog->LoadTable({{"default"}, "simple"}));
    ASSERT_OK_AND_ASSIGN(auto builder, dynamic_cast<SupportsRead&>(*table).NewScanBuilder({}));
    ASSERT_OK_AND_ASSIGN(auto scan, builder->Build());
    ASSERT_OK_AND_ASSIGN(auto rows, ReadScan(*scan));
    EXPECT_EQ(rows->num_rows(), 10);
  }
  // Every object the library made is gone before it is unloaded.
  EXPECT_EQ(dlclose(handle), 0);
}

}  // namespace
}  // namespace parley
