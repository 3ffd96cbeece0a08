// The function conformance kit's checks (see function_conformance.h).
#include "conformance/function_conformance.h"

#include "arrow/array.h"
#include "arrow/compute/api.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "testing/gtest_util.h"

namespace parley::conformance {
namespace {

// The function a sample call binds to.
Result<std::shared_ptr<BoundFunction>> BindSample(FunctionCatalog& catalog,
                                                  const SampleCall& call) {
  ARROW_ASSIGN_OR_RAISE(auto unbound, catalog.LoadFunction(call.function));
  arrow::FieldVector fields;
  for (size_t i = 0; i < call.arguments.size(); ++i) {
    fields.push_back(arrow::field("param" + std::to_string(i), call.arguments[i]->type()));
  }
  return unbound->Bind(arrow::Schema(fields));
}

// The arguments cast to the bound function's input types, as the engine casts them.
Result<arrow::ArrayVector> CastToInputs(const BoundFunction& function,
                                        const arrow::ArrayVector& arguments) {
  arrow::ArrayVector cast;
  const auto types = function.input_types();
  for (size_t i = 0; i < arguments.size(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto value, arrow::compute::Cast(arguments[i], types[i]));
    cast.push_back(value.make_array());
  }
  return cast;
}

arrow::ArrayVector Slice(const arrow::ArrayVector& arrays, int64_t offset, int64_t length) {
  arrow::ArrayVector out;
  for (const auto& array : arrays) out.push_back(array->Slice(offset, length));
  return out;
}

int64_t RowsOf(const SampleCall& call) {
  return call.arguments.empty() ? 1 : call.arguments[0]->length();
}

TEST_P(FunctionConformanceTest, ListedFunctionsLoadUnderTheirNames) {
  FunctionSubject subject = GetParam()();
  size_t listed = 0;
  for (const auto& ns : subject.namespaces) {
    ASSERT_OK_AND_ASSIGN(auto idents, subject.catalog->ListFunctions(ns));
    for (const auto& ident : idents) {
      ++listed;
      EXPECT_EQ(ident.namespace_path, ns) << ident.ToString();
      ASSERT_OK_AND_ASSIGN(auto function, subject.catalog->LoadFunction(ident));
      EXPECT_TRUE(EqualsIgnoreCase(function->name(), ident.name)) << ident.ToString();
      ASSERT_OK_AND_ASSIGN(bool exists, subject.catalog->FunctionExists(ident));
      EXPECT_TRUE(exists) << ident.ToString();
    }
  }
  EXPECT_GT(listed, 0u) << "the namespaces given list no function: a weak test";
  EXPECT_FALSE(subject.calls.empty()) << "no sample call: a weak test";
}

TEST_P(FunctionConformanceTest, AMissingFunctionIsAKeyError) {
  FunctionSubject subject = GetParam()();
  for (const auto& ns : subject.namespaces) {
    auto missing = subject.catalog->LoadFunction({ns, "no_such_function_anywhere"});
    ASSERT_FALSE(missing.ok());
    EXPECT_TRUE(missing.status().IsKeyError()) << missing.status().ToString();
    ASSERT_OK_AND_ASSIGN(bool exists,
                         subject.catalog->FunctionExists({ns, "no_such_function_anywhere"}));
    EXPECT_FALSE(exists);
  }
}

TEST_P(FunctionConformanceTest, SampleCallsBindToTheirArguments) {
  FunctionSubject subject = GetParam()();
  for (const auto& call : subject.calls) {
    ASSERT_OK_AND_ASSIGN(auto bound, BindSample(*subject.catalog, call));
    ASSERT_NE(bound, nullptr) << call.function.ToString();
    EXPECT_EQ(bound->input_types().size(), call.arguments.size()) << call.function.ToString();
    EXPECT_NE(bound->result_type(), nullptr) << call.function.ToString();
    const bool scalar = dynamic_cast<const ScalarFunction*>(bound.get()) != nullptr;
    const bool aggregate = dynamic_cast<const AggregateFunction*>(bound.get()) != nullptr;
    EXPECT_TRUE(scalar || aggregate) << call.function.ToString() << " binds to neither kind";
  }
}

TEST_P(FunctionConformanceTest, ScalarFunctionsAnswerEveryBatchAlike) {
  FunctionSubject subject = GetParam()();
  for (const auto& call : subject.calls) {
    ASSERT_OK_AND_ASSIGN(auto bound, BindSample(*subject.catalog, call));
    auto scalar = std::dynamic_pointer_cast<const ScalarFunction>(bound);
    if (scalar == nullptr) continue;
    const std::string where = call.function.ToString();
    ASSERT_OK_AND_ASSIGN(auto args, CastToInputs(*scalar, call.arguments));
    const int64_t rows = RowsOf(call);
    ASSERT_OK_AND_ASSIGN(auto whole, scalar->Invoke(args, rows));
    ASSERT_NE(whole, nullptr) << where;
    EXPECT_EQ(whole->length(), rows) << where;
    EXPECT_TRUE(whole->type()->Equals(*scalar->result_type())) << where;
    if (rows < 2 || !scalar->deterministic()) continue;
    // The second half on its own, as a batch boundary would cut it.
    const int64_t half = rows / 2;
    ASSERT_OK_AND_ASSIGN(auto tail, scalar->Invoke(Slice(args, half, rows - half), rows - half));
    EXPECT_TRUE(tail->Equals(*whole->Slice(half))) << where;
  }
}

TEST_P(FunctionConformanceTest, AggregateStatesSurviveSplittingAndTheirBytes) {
  FunctionSubject subject = GetParam()();
  for (const auto& call : subject.calls) {
    ASSERT_OK_AND_ASSIGN(auto bound, BindSample(*subject.catalog, call));
    auto aggregate = std::dynamic_pointer_cast<const AggregateFunction>(bound);
    if (aggregate == nullptr) continue;
    const std::string where = call.function.ToString();
    ASSERT_OK_AND_ASSIGN(auto args, CastToInputs(*aggregate, call.arguments));
    const int64_t rows = RowsOf(call);
    auto empty = aggregate->NewState();
    ASSERT_OK_AND_ASSIGN(auto nothing, aggregate->Produce(*empty));
    EXPECT_TRUE(nothing->type->Equals(*aggregate->result_type())) << where;
    auto whole = aggregate->NewState();
    ASSERT_OK(aggregate->Update(whole.get(), args, rows));
    ASSERT_OK_AND_ASSIGN(auto expected, aggregate->Produce(*whole));
    EXPECT_TRUE(expected->type->Equals(*aggregate->result_type())) << where;
    const int64_t half = rows / 2;
    auto first = aggregate->NewState();
    auto second = aggregate->NewState();
    ASSERT_OK(aggregate->Update(first.get(), Slice(args, 0, half), half));
    ASSERT_OK(aggregate->Update(second.get(), Slice(args, half, rows - half), rows - half));
    ASSERT_OK_AND_ASSIGN(std::string bytes, aggregate->Serialize(*second));
    ASSERT_OK_AND_ASSIGN(auto shipped, aggregate->Deserialize(bytes));
    ASSERT_NE(shipped, nullptr) << where;
    ASSERT_OK(aggregate->Merge(first.get(), *shipped));
    ASSERT_OK_AND_ASSIGN(auto merged, aggregate->Produce(*first));
    EXPECT_TRUE(merged->Equals(*expected))
        << where << ": " << merged->ToString() << " after merging, " << expected->ToString()
        << " in one state";
  }
}

TEST_P(SqlFunctionConformanceTest, SqlFunctionsAreKeptReplacedAndDropped) {
  FunctionSubject subject = GetParam()();
  auto* sql = dynamic_cast<SqlFunctionCatalog*>(subject.catalog.get());
  ASSERT_NE(sql, nullptr) << "the SQL function checks need a SqlFunctionCatalog";
  ASSERT_FALSE(subject.namespaces.empty());
  const Identifier ident{subject.namespaces[0], "conformance_sql_function"};
  SqlFunctionInfo info;
  info.parameters = {{"a", arrow::int32(), std::nullopt, "the a"},
                     {"b", arrow::utf8(), std::string("'x'"), ""}};
  info.return_type = arrow::utf8();
  info.body = "concat(b, a)";
  info.comment = "joins";
  info.sql_configs = {{"spark.sql.ansi.enabled", "true"}};
  info.create_time_ms = 1700000000000;
  ASSERT_OK(sql->CreateSqlFunction(ident, info, /*replace=*/false));
  ASSERT_OK_AND_ASSIGN(auto loaded, subject.catalog->LoadFunction(ident));
  const auto* kept = dynamic_cast<const SqlFunction*>(loaded.get());
  ASSERT_NE(kept, nullptr);
  EXPECT_EQ(kept->info().body, info.body);
  EXPECT_EQ(kept->info().comment, info.comment);
  ASSERT_EQ(kept->info().parameters.size(), 2u);
  EXPECT_EQ(kept->info().parameters[1].default_value, "'x'");
  EXPECT_EQ(kept->info().parameters[0].comment, "the a");
  EXPECT_TRUE(kept->info().return_type->Equals(*arrow::utf8()));
  EXPECT_EQ(kept->info().sql_configs, info.sql_configs);
  EXPECT_EQ(kept->info().create_time_ms, info.create_time_ms);
  ASSERT_OK_AND_ASSIGN(auto listed, subject.catalog->ListFunctions(subject.namespaces[0]));
  EXPECT_NE(std::find_if(listed.begin(), listed.end(),
                         [&](const Identifier& id) { return id.name == ident.name; }),
            listed.end());
  ASSERT_RAISES_CONDITION("ROUTINE_ALREADY_EXISTS",
                          sql->CreateSqlFunction(ident, info, /*replace=*/false));
  SqlFunctionInfo table = info;
  table.is_table = true;
  table.return_type = nullptr;
  Column column;
  column.name = "x";
  column.type = arrow::int64();
  table.return_columns = {column};
  table.body = "SELECT a";
  ASSERT_OK(sql->CreateSqlFunction(ident, table, /*replace=*/true));
  ASSERT_OK_AND_ASSIGN(loaded, subject.catalog->LoadFunction(ident));
  kept = dynamic_cast<const SqlFunction*>(loaded.get());
  ASSERT_NE(kept, nullptr);
  EXPECT_TRUE(kept->info().is_table);
  ASSERT_EQ(kept->info().return_columns.size(), 1u);
  EXPECT_TRUE(kept->info().return_columns[0].type->Equals(*arrow::int64()));
  ASSERT_OK_AND_ASSIGN(bool exists, subject.catalog->FunctionExists(ident));
  EXPECT_TRUE(exists);
  ASSERT_OK_AND_ASSIGN(bool dropped, sql->DropSqlFunction(ident));
  EXPECT_TRUE(dropped);
  ASSERT_OK_AND_ASSIGN(dropped, sql->DropSqlFunction(ident));
  EXPECT_FALSE(dropped);
  auto gone = subject.catalog->LoadFunction(ident);
  EXPECT_TRUE(gone.status().IsKeyError()) << gone.status().ToString();
}

}  // namespace
}  // namespace parley::conformance
