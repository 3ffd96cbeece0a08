// Functions that are not built in, through the Session: a temporary function registered in C++
// and the functions of a catalog (parley/connector/function.h), called in SELECT lists, WHERE
// clauses and GROUP BY keys over several partitions, with arguments cast to the declared input
// types, the errors of binding, and a function that breaks its contract.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "arrow/api.h"
#include "arrow/compute/api.h"
#include "parley/connector/function.h"
#include "parley/session.h"
#include "testing/gtest_util.h"
#include "testing/session_rows.h"
#include "testing/test_connector.h"

namespace parley {
namespace {

using Rows = std::vector<std::string>;

// times(x BIGINT, k BIGINT) = x * k, computed on whole arrays; counts its calls (batches).
class Times : public ScalarFunction, public UnboundFunction {
 public:
  explicit Times(std::shared_ptr<std::atomic<int>> calls) : calls_(std::move(calls)) {}
  std::string name() const override { return "times"; }
  std::string description() const override { return "x * k"; }
  std::vector<std::shared_ptr<arrow::DataType>> input_types() const override {
    return {arrow::int64(), arrow::int64()};
  }
  std::shared_ptr<arrow::DataType> result_type() const override { return arrow::int64(); }
  Result<std::shared_ptr<BoundFunction>> Bind(const arrow::Schema& input) override {
    if (input.num_fields() != 2) {
      return InvalidError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                          "The `times` requires 2 parameters but the actual number is " +
                              std::to_string(input.num_fields()) + ".");
    }
    return std::make_shared<Times>(calls_);
  }
  Result<std::shared_ptr<arrow::Array>> Invoke(const arrow::ArrayVector& args,
                                               int64_t length) const override {
    ++*calls_;
    ARROW_ASSIGN_OR_RAISE(auto product, arrow::compute::Multiply(args[0], args[1]));
    return product.make_array();
  }

 private:
  std::shared_ptr<std::atomic<int>> calls_;
};

// A function whose result has the wrong length: the query fails with the contract's condition.
class Broken : public ScalarFunction, public UnboundFunction {
 public:
  std::string name() const override { return "broken"; }
  std::string description() const override { return "returns one row too few"; }
  std::vector<std::shared_ptr<arrow::DataType>> input_types() const override {
    return {arrow::int32()};
  }
  std::shared_ptr<arrow::DataType> result_type() const override { return arrow::int32(); }
  Result<std::shared_ptr<BoundFunction>> Bind(const arrow::Schema&) override {
    return std::make_shared<Broken>();
  }
  Result<std::shared_ptr<arrow::Array>> Invoke(const arrow::ArrayVector& args,
                                               int64_t length) const override {
    return args[0]->Slice(0, length - 1);
  }
};

// A function that binds to something other than a ScalarFunction (an aggregate, say): Parley
// calls only scalar connector functions yet.
class NotScalar : public BoundFunction, public UnboundFunction {
 public:
  std::string name() const override { return "not_scalar"; }
  std::string description() const override { return "binds to a non-scalar function"; }
  std::vector<std::shared_ptr<arrow::DataType>> input_types() const override { return {}; }
  std::shared_ptr<arrow::DataType> result_type() const override { return arrow::int64(); }
  Result<std::shared_ptr<BoundFunction>> Bind(const arrow::Schema&) override {
    return std::make_shared<NotScalar>();
  }
};

// A catalog of tables (the test connector's) that also offers `default.times`.
class FunctionTestCatalog : public testing::TestCatalog, public FunctionCatalog {
 public:
  explicit FunctionTestCatalog(std::shared_ptr<std::atomic<int>> calls)
      : calls_(std::move(calls)) {}
  Status Initialize(const std::string& name, const Options& options) override {
    return testing::TestCatalog::Initialize(name, options);
  }
  std::string name() const override { return testing::TestCatalog::name(); }
  Result<std::vector<Identifier>> ListFunctions(const std::vector<std::string>& ns) override {
    if (ns == std::vector<std::string>{"default"})
      return std::vector<Identifier>{{{"default"}, "times"}};
    return std::vector<Identifier>{};
  }
  Result<std::shared_ptr<UnboundFunction>> LoadFunction(const Identifier& ident) override {
    if (ident.namespace_path == std::vector<std::string>{"default"} && ident.name == "times") {
      return std::make_shared<Times>(calls_);
    }
    return Status::KeyError("no function ", ident.ToString());
  }

 private:
  std::shared_ptr<std::atomic<int>> calls_;
};

class ConnectorFunctionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK_AND_ASSIGN(session_, Session::Make(SessionOptions{}));
    catalog_ = std::make_shared<FunctionTestCatalog>(calls_);
    testing::TestTableOptions options;
    options.partitions = 4;
    options.batch_rows = 25;
    std::vector<int32_t> a, b;
    for (int32_t i = 0; i < 200; ++i) {
      a.push_back(i);
      b.push_back(i % 3);
    }
    catalog_->AddTable("t", testing::MakeIntTable({"a", "b"}, {a, b}), options);
    ASSERT_OK(session_->RegisterCatalog("tc", catalog_));
    ASSERT_OK(session_->RegisterFunction("times", std::make_shared<Times>(calls_)));
    ASSERT_OK(session_->RegisterFunction("broken", std::make_shared<Broken>()));
  }

  std::shared_ptr<Session> session_;
  std::shared_ptr<std::atomic<int>> calls_ = std::make_shared<std::atomic<int>>(0);
  std::shared_ptr<FunctionTestCatalog> catalog_;
};

TEST_F(ConnectorFunctionTest, TemporaryFunctionIsCalledOnWholeBatches) {
  EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT sum(times(a, 2)) FROM tc.default.t"),
            (Rows{"39800"}));
  // 200 rows in batches of 25: one call per batch, not per row.
  EXPECT_GT(calls_->load(), 0);
  EXPECT_LE(calls_->load(), 8 * 2);
  // INT arguments are cast to the declared BIGINT; a literal argument too.
  EXPECT_EQ(testing::SessionRows(session_.get(),
                                 "SELECT times(3, 4), TIMES(a, b) FROM "
                                 "tc.default.t WHERE a = 5"),
            (Rows{"12,10"}));
}

TEST_F(ConnectorFunctionTest, CatalogFunctionsInWhereAndGroupBy) {
  EXPECT_EQ(
      testing::SessionRows(session_.get(),
                           "SELECT count(*) FROM tc.default.t WHERE tc.default.times(a, b) > 300"),
      (Rows{"16"}));
  EXPECT_EQ(testing::SessionRows(session_.get(),
                                 "SELECT tc.default.times(b, 10) AS k, count(*) FROM tc.default.t "
                                 "GROUP BY tc.default.times(b, 10) ORDER BY k"),
            (Rows{"0,67", "10,67", "20,66"}));
  // With the catalog current, ns.f names it.
  ASSERT_OK(session_->Sql("USE tc.default").status());
  EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT default.times(7, 6)"), (Rows{"42"}));
}

// A call is named by the function it resolved to, so that two functions of one short name (a
// temporary one and a catalog's) are never taken for each other when plans are compared.
TEST_F(ConnectorFunctionTest, CallsAreNamedByTheFunctionTheyResolvedTo) {
  auto plan = testing::SessionRows(
      session_.get(),
      "EXPLAIN SELECT times(a, 2) AS x, tc.default.times(a, 2) AS y FROM tc.default.t");
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_NE(plan[0].find("[times(CAST(a AS BIGINT), CAST(2 AS BIGINT)) AS x"), std::string::npos)
      << plan[0];
  EXPECT_NE(plan[0].find("tc.default.times(CAST(a AS BIGINT), CAST(2 AS BIGINT)) AS y"),
            std::string::npos)
      << plan[0];
}

TEST_F(ConnectorFunctionTest, ShowAndDescribeFunctions) {
  EXPECT_EQ(testing::SessionRows(session_.get(), "SHOW USER FUNCTIONS"), (Rows{"broken", "times"}));
  EXPECT_EQ(testing::SessionRows(session_.get(), "SHOW USER FUNCTIONS IN tc.default"),
            (Rows{"broken", "tc.default.times", "times"}));
  EXPECT_EQ(testing::SessionRows(session_.get(), "DESCRIBE FUNCTION times"),
            (Rows{"Function: times", "Usage: x * k"}));
  EXPECT_EQ(testing::SessionRows(session_.get(), "DESCRIBE FUNCTION tc.default.times"),
            (Rows{"Function: tc.default.times", "Usage: x * k"}));
  ASSERT_RAISES_CONDITION("UNRESOLVED_ROUTINE", session_->Sql("DESCRIBE FUNCTION tc.default.nope"));
}

TEST_F(ConnectorFunctionTest, Errors) {
  ASSERT_RAISES_CONDITION("UNRESOLVED_ROUTINE", session_->Sql("SELECT nope(1)"));
  ASSERT_RAISES_CONDITION("UNRESOLVED_ROUTINE", session_->Sql("SELECT tc.default.nope(1)"));
  ASSERT_RAISES_CONDITION("WRONG_NUM_ARGS.WITHOUT_SUGGESTION", session_->Sql("SELECT times(1)"));
  // A value that does not cast to the input type fails as the cast does.
  ASSERT_RAISES_CONDITION("CAST_INVALID_INPUT", session_->Sql("SELECT times('x', 1)"));
  ASSERT_OK(session_->RegisterFunction("not_scalar", std::make_shared<NotScalar>()));
  ASSERT_RAISES_CONDITION("NOT_IMPLEMENTED", session_->Sql("SELECT not_scalar()"));
  ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.FUNCTION_RESULT",
                          session_->Sql("SELECT broken(a) FROM tc.default.t"));
  ASSERT_RAISES_CONDITION("INVALID_SCHEMA_OR_RELATION_NAME",
                          session_->RegisterFunction("", std::make_shared<Broken>()));
}

}  // namespace
}  // namespace parley
