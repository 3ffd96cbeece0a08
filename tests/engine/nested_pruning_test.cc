// Nested schema pruning: which struct fields the required schema keeps, with a source that
// narrows struct columns and one that returns them whole, and the same rows either way.
#include "plan/nested_pruning.h"

#include <gtest/gtest.h>

#include "analysis/query_binder.h"
#include "arrow/array/builder_binary.h"
#include "arrow/array/builder_nested.h"
#include "arrow/array/builder_primitive.h"
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

std::vector<std::string> Rows(const arrow::Table& table) {
  return testing::SortedRows(table).ValueOrDie();
}

// id INT, s STRUCT<a: INT, b: STRING, c: STRUCT<x: INT, y: STRING>>; row 2's s is NULL.
std::shared_ptr<arrow::Table> NestedTable() {
  auto c_type =
      arrow::struct_({arrow::field("x", arrow::int32()), arrow::field("y", arrow::utf8())});
  auto s_type = arrow::struct_({arrow::field("a", arrow::int32()), arrow::field("b", arrow::utf8()),
                                arrow::field("c", c_type)});
  arrow::Int32Builder ids;
  arrow::StructBuilder s(
      s_type, arrow::default_memory_pool(),
      {std::make_shared<arrow::Int32Builder>(), std::make_shared<arrow::StringBuilder>(),
       std::make_shared<arrow::StructBuilder>(c_type, arrow::default_memory_pool(),
                                              std::vector<std::shared_ptr<arrow::ArrayBuilder>>{
                                                  std::make_shared<arrow::Int32Builder>(),
                                                  std::make_shared<arrow::StringBuilder>()})});
  auto* a = static_cast<arrow::Int32Builder*>(s.field_builder(0));
  auto* b = static_cast<arrow::StringBuilder*>(s.field_builder(1));
  auto* c = static_cast<arrow::StructBuilder*>(s.field_builder(2));
  auto* x = static_cast<arrow::Int32Builder*>(c->field_builder(0));
  auto* y = static_cast<arrow::StringBuilder*>(c->field_builder(1));
  for (int i = 0; i < 4; ++i) {
    EXPECT_OK(ids.Append(i));
    if (i == 2) {
      EXPECT_OK(s.AppendNull());
      continue;
    }
    EXPECT_OK(s.Append());
    EXPECT_OK(a->Append(i * 10));
    EXPECT_OK(b->Append("b" + std::to_string(i)));
    EXPECT_OK(c->Append());
    EXPECT_OK(x->Append(i * 100));
    EXPECT_OK(y->Append("y" + std::to_string(i)));
  }
  std::shared_ptr<arrow::Array> id_array, s_array;
  EXPECT_OK(ids.Finish(&id_array));
  EXPECT_OK(s.Finish(&s_array));
  return arrow::Table::Make(
      arrow::schema({arrow::field("id", arrow::int32()), arrow::field("s", s_type)}),
      {id_array, s_array});
}

class NestedPruningTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(EnsureComputeInitialized());
    testing::TestTableOptions narrows;
    narrows.filter_pushdown = true;
    narrows.column_pruning = true;
    narrows.nested_pruning = true;
    testing::TestTableOptions whole = narrows;
    whole.nested_pruning = false;
    catalog_ = std::make_shared<testing::TestCatalog>();
    catalog_->AddTable("narrows", NestedTable(), narrows);
    catalog_->AddTable("whole", NestedTable(), whole);
    ASSERT_OK(catalogs_.Register("tc", catalog_));
  }

  Result<PlanNodePtr> Plan(const std::string& text, PushdownOptions options = {}) {
    return testing::PlanSelect(text, &catalogs_, options);
  }

  Result<std::vector<std::string>> Run(const std::string& text, PushdownOptions options = {}) {
    ARROW_ASSIGN_OR_RAISE(auto plan, Plan(text, options));
    ScanRunOptions run;
    run.verify_pushdown = true;
    run.round_trip_tasks = true;
    ARROW_ASSIGN_OR_RAISE(auto result, ExecutePlan(plan, run));
    return Rows(*result.table);
  }

  // The rows of `text` with nested pruning off.
  std::vector<std::string> Unpruned(const std::string& text) {
    PushdownOptions off;
    off.nested_schema_pruning = false;
    auto rows = Run(text, off);
    EXPECT_OK(rows.status());
    return rows.ok() ? *rows : std::vector<std::string>{};
  }

  SqlConf conf_;
  CatalogManager catalogs_{&conf_, PluginRegistry{}};
  std::shared_ptr<testing::TestCatalog> catalog_;
};

TEST_F(NestedPruningTest, FieldPathsAndNarrowedTypes) {
  auto s_type = NestedTable()->schema()->GetFieldByName("s")->type();
  EXPECT_EQ(NarrowType(s_type, {{"c", "x"}, {"a"}})->ToString(),
            "struct<a: int32, c: struct<x: int32>>");
  EXPECT_EQ(NarrowType(s_type, {{"c"}, {"c", "x"}})->ToString(),
            "struct<c: struct<x: int32, y: string>>");
  EXPECT_TRUE(NarrowType(s_type, {{"a"}, {}})->Equals(*s_type));
}

TEST_F(NestedPruningTest, ASourceThatNarrowsReadsOnlyTheFieldsAccessed) {
  const std::string query =
      "SELECT id, s.a, s.c.x FROM tc.default.narrows WHERE s.c.x > 0 OR id = 2";
  ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
  EXPECT_EQ(catalog_->log("narrows")->pruned_types,
            (std::vector<std::string>{"int32", "struct<a: int32, c: struct<x: int32>>"}));
  ASSERT_OK_AND_ASSIGN(auto text, ExplainPlan(plan, sql::ExplainMode::kFormatted));
  EXPECT_NE(text.find("RequiredNestedSchema: [s STRUCT<`a`: INT, `c`: STRUCT<`x`: INT>>]"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("(read whole)"), std::string::npos) << text;
  ASSERT_OK_AND_ASSIGN(auto rows, Run(query));
  // Row 2's s is NULL: its fields read NULL, as from the whole struct.
  EXPECT_EQ(rows, (std::vector<std::string>{"1,10,100", "2,null,null", "3,30,300"}));
  EXPECT_EQ(rows, Unpruned(query));
}

TEST_F(NestedPruningTest, ASourceThatDoesNotNarrowReturnsTheWholeStruct) {
  const std::string query = "SELECT s.b FROM tc.default.whole WHERE id <> 1";
  ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
  // id's predicate is applied by the source: only s is still needed above it.
  EXPECT_EQ(catalog_->log("whole")->pruned_types, std::vector<std::string>{"struct<b: string>"});
  ASSERT_OK_AND_ASSIGN(auto text, ExplainPlan(plan, sql::ExplainMode::kFormatted));
  EXPECT_NE(text.find("RequiredNestedSchema: [s STRUCT<`b`: STRING> (read whole)]"),
            std::string::npos)
      << text;
  ASSERT_OK_AND_ASSIGN(auto rows, Run(query));
  EXPECT_EQ(rows, (std::vector<std::string>{"b0", "b3", "null"}));
}

TEST_F(NestedPruningTest, AStructUsedWholeIsNotNarrowed) {
  for (const std::string query : {"SELECT s, s.a FROM tc.default.narrows",
                                  "SELECT s.a FROM tc.default.narrows WHERE s IS NULL",
                                  "SELECT count(s) FROM tc.default.narrows"}) {
    ASSERT_OK_AND_ASSIGN(auto plan, Plan(query));
    ASSERT_OK_AND_ASSIGN(auto text, ExplainPlan(plan, sql::ExplainMode::kFormatted));
    EXPECT_EQ(text.find("RequiredNestedSchema"), std::string::npos) << query << "\n" << text;
    ASSERT_OK_AND_ASSIGN(auto rows, Run(query));
    EXPECT_EQ(rows, Unpruned(query)) << query;
  }
}

TEST_F(NestedPruningTest, AggregatesReadNarrowedFieldsAndTheSettingTurnsItOff) {
  const std::string query = "SELECT max(s.c.x), count(s.a) FROM tc.default.narrows";
  ASSERT_OK_AND_ASSIGN(auto rows, Run(query));
  EXPECT_EQ(rows, (std::vector<std::string>{"300,3"}));
  EXPECT_EQ(catalog_->log("narrows")->pruned_types.back(), "struct<a: int32, c: struct<x: int32>>");
  EXPECT_EQ(rows, Unpruned(query));
  EXPECT_EQ(catalog_->log("narrows")->pruned_types.back(),
            NestedTable()->schema()->GetFieldByName("s")->type()->ToString());
  conf_.Set("spark.sql.optimizer.nestedSchemaPruning.enabled", "false");
  EXPECT_FALSE(PushdownOptionsFor(conf_).nested_schema_pruning);
}

}  // namespace
}  // namespace parley
