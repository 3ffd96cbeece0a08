// The checks of the view conformance kit (view_conformance.h).
#include "conformance/view_conformance.h"

#include "arrow/type.h"
#include "testing/gtest_util.h"

namespace parley::conformance {
namespace {

ViewInfo SampleView(const std::string& text) {
  ViewInfo info;
  info.query_text = text;
  info.current_catalog = "cat";
  info.current_namespace = {"ns", "inner"};
  info.sql_configs = {{"spark.sql.ansi.enabled", "true"}};
  info.columns = {Column{"x", arrow::int32(), true, "the x", std::nullopt},
                  Column{"y", arrow::utf8(), true, "", std::nullopt}};
  info.query_column_names = {"a", "b"};
  info.properties = {{"comment", "a view"}, {"k", "v"}};
  return info;
}

void ExpectSameView(const ViewInfo& got, const ViewInfo& want) {
  EXPECT_EQ(got.query_text, want.query_text);
  EXPECT_EQ(got.current_catalog, want.current_catalog);
  EXPECT_EQ(got.current_namespace, want.current_namespace);
  EXPECT_EQ(got.sql_configs, want.sql_configs);
  EXPECT_EQ(got.query_column_names, want.query_column_names);
  EXPECT_EQ(got.properties, want.properties);
  ASSERT_EQ(got.columns.size(), want.columns.size());
  for (size_t i = 0; i < want.columns.size(); ++i) {
    EXPECT_EQ(got.columns[i].name, want.columns[i].name);
    EXPECT_TRUE(got.columns[i].type->Equals(*want.columns[i].type))
        << got.columns[i].type->ToString();
    EXPECT_EQ(got.columns[i].comment, want.columns[i].comment);
  }
}

TEST_P(ViewConformanceTest, ViewsAreCreatedLoadedReplacedRenamedAndDropped) {
  ViewSubject subject = GetParam()();
  ViewCatalog& views = *subject.catalog;
  const Identifier ident{subject.namespace_path, "conformance_view"};
  const Identifier renamed{subject.namespace_path, "conformance_renamed"};

  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND", views.LoadView(ident));
  ASSERT_OK_AND_ASSIGN(bool exists, views.ViewExists(ident));
  EXPECT_FALSE(exists);

  const ViewInfo first = SampleView("SELECT a, b FROM t");
  ASSERT_OK(views.CreateView(ident, first));
  ASSERT_OK_AND_ASSIGN(auto loaded, views.LoadView(ident));
  ExpectSameView(loaded, first);
  ASSERT_OK_AND_ASSIGN(exists, views.ViewExists(ident));
  EXPECT_TRUE(exists);
  ASSERT_OK_AND_ASSIGN(auto listed, views.ListViews(subject.namespace_path));
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].name, ident.name);
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_ALREADY_EXISTS", views.CreateView(ident, first));

  const ViewInfo second = SampleView("SELECT a, b FROM u WHERE a > 1");
  ASSERT_OK(views.ReplaceView(ident, second));
  ASSERT_OK_AND_ASSIGN(loaded, views.LoadView(ident));
  ExpectSameView(loaded, second);
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND", views.ReplaceView(renamed, second));

  ASSERT_OK(views.RenameView(ident, renamed));
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND", views.LoadView(ident));
  ASSERT_OK_AND_ASSIGN(loaded, views.LoadView(renamed));
  ExpectSameView(loaded, second);

  ASSERT_OK_AND_ASSIGN(bool dropped, views.DropView(renamed));
  EXPECT_TRUE(dropped);
  ASSERT_OK_AND_ASSIGN(dropped, views.DropView(renamed));
  EXPECT_FALSE(dropped);
  ASSERT_OK_AND_ASSIGN(listed, views.ListViews(subject.namespace_path));
  EXPECT_TRUE(listed.empty());
}

TEST_P(ViewConformanceTest, TablesAndViewsShareOneNameSpace) {
  ViewSubject subject = GetParam()();
  auto* relations = dynamic_cast<RelationCatalog*>(subject.catalog.get());
  if (relations == nullptr) {
    EXPECT_EQ(dynamic_cast<TableCatalog*>(subject.catalog.get()), nullptr)
        << "a catalog of tables and views must be a RelationCatalog";
    return;
  }
  const Identifier table{subject.namespace_path, "conformance_table"};
  const Identifier view{subject.namespace_path, "conformance_view"};
  TableInfo info;
  info.columns = {Column{"a", arrow::int32(), true, "", std::nullopt}};
  ASSERT_OK(relations->CreateTable(table, info).status());
  ASSERT_OK(relations->CreateView(view, SampleView("SELECT 1 AS a")));

  ASSERT_OK_AND_ASSIGN(auto as_table, relations->LoadRelation(table));
  EXPECT_NE(as_table.table, nullptr);
  EXPECT_FALSE(as_table.view.has_value());
  ASSERT_OK_AND_ASSIGN(auto as_view, relations->LoadRelation(view));
  EXPECT_EQ(as_view.table, nullptr);
  ASSERT_TRUE(as_view.view.has_value());
  EXPECT_EQ(as_view.view->query_text, "SELECT 1 AS a");
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND",
                          relations->LoadRelation({subject.namespace_path, "conformance_none"}));

  ASSERT_OK_AND_ASSIGN(auto summaries, relations->ListRelationSummaries(subject.namespace_path));
  ASSERT_EQ(summaries.size(), 2u);
  EXPECT_EQ(summaries[0].ident.name, table.name);
  EXPECT_EQ(summaries[0].kind, RelationSummary::Kind::kTable);
  EXPECT_EQ(summaries[1].ident.name, view.name);
  EXPECT_EQ(summaries[1].kind, RelationSummary::Kind::kView);

  // The other kind's name is taken; each side leaves the other alone.
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_ALREADY_EXISTS",
                          relations->CreateView(table, SampleView("SELECT 2 AS a")));
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_ALREADY_EXISTS",
                          relations->CreateTable(view, info).status());
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_ALREADY_EXISTS", relations->RenameView(view, table));
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND", relations->LoadTable(view));
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND", relations->LoadView(table));
  ASSERT_OK_AND_ASSIGN(bool dropped, relations->DropView(table));
  EXPECT_FALSE(dropped);
  ASSERT_OK_AND_ASSIGN(dropped, relations->DropTable(view));
  EXPECT_FALSE(dropped);
  ASSERT_OK_AND_ASSIGN(dropped, relations->DropView(view));
  EXPECT_TRUE(dropped);
  ASSERT_OK_AND_ASSIGN(dropped, relations->DropTable(table));
  EXPECT_TRUE(dropped);
}

}  // namespace
}  // namespace parley::conformance
