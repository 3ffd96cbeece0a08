// Functions that are not built in, through the Session: a temporary function registered in C++
// and the functions of a catalog (parley/connector/function.h), called in SELECT lists, WHERE
// clauses and GROUP BY keys over several partitions, with arguments cast to the declared input
// types, the errors of binding, and a function that breaks its contract; aggregate functions
// under GROUP BY over several partitions, their states merged through their bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "arrow/api.h"
#include "arrow/compute/api.h"
#include "arrow/compute/kernel.h"
#include "arrow/json/from_string.h"
#include "kernels/connector_aggregate.h"
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

// total(x BIGINT): the sum of a group's x (NULL for none), as an AggregateFunction whose state
// travels as text; counts how often states are serialized. `produce_type` is the type Produce
// gives (another than BIGINT breaks the contract).
struct TotalState : AggregationState {
  int64_t sum = 0;
  bool seen = false;
};

class Total : public AggregateFunction, public UnboundFunction {
 public:
  explicit Total(std::shared_ptr<std::atomic<int>> serialized,
                 std::shared_ptr<arrow::DataType> produce_type = arrow::int64())
      : serialized_(std::move(serialized)), produce_type_(std::move(produce_type)) {}
  std::string name() const override { return "total"; }
  std::string description() const override { return "the sum of x"; }
  std::vector<std::shared_ptr<arrow::DataType>> input_types() const override {
    return {arrow::int64()};
  }
  std::shared_ptr<arrow::DataType> result_type() const override { return arrow::int64(); }
  Result<std::shared_ptr<BoundFunction>> Bind(const arrow::Schema& input) override {
    if (input.num_fields() != 1) {
      return InvalidError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                          "The `total` requires 1 parameters but the actual number is " +
                              std::to_string(input.num_fields()) + ".");
    }
    return std::make_shared<Total>(serialized_, produce_type_);
  }
  std::unique_ptr<AggregationState> NewState() const override {
    return std::make_unique<TotalState>();
  }
  Status Update(AggregationState* state, const arrow::ArrayVector& args,
                int64_t length) const override {
    auto& total = static_cast<TotalState&>(*state);
    const auto& x = static_cast<const arrow::Int64Array&>(*args[0]);
    if (x.length() != length) return Status::Invalid("a slice of the wrong length");
    for (int64_t row = 0; row < length; ++row) {
      if (x.IsNull(row)) continue;
      total.sum += x.Value(row);
      total.seen = true;
    }
    return Status::OK();
  }
  Status Merge(AggregationState* state, const AggregationState& other) const override {
    auto& into = static_cast<TotalState&>(*state);
    const auto& from = static_cast<const TotalState&>(other);
    into.sum += from.sum;
    into.seen = into.seen || from.seen;
    return Status::OK();
  }
  Result<std::shared_ptr<arrow::Scalar>> Produce(const AggregationState& state) const override {
    const auto& total = static_cast<const TotalState&>(state);
    if (!produce_type_->Equals(*arrow::int64())) return arrow::MakeScalar("not a number");
    if (!total.seen) return arrow::MakeNullScalar(arrow::int64());
    return std::make_shared<arrow::Int64Scalar>(total.sum);
  }
  Result<std::string> Serialize(const AggregationState& state) const override {
    ++*serialized_;
    const auto& total = static_cast<const TotalState&>(state);
    return (total.seen ? "1:" : "0:") + std::to_string(total.sum);
  }
  Result<std::unique_ptr<AggregationState>> Deserialize(std::string_view bytes) const override {
    auto state = std::make_unique<TotalState>();
    state->seen = bytes.substr(0, 2) == "1:";
    state->sum = std::stoll(std::string(bytes.substr(2)));
    return state;
  }

 private:
  std::shared_ptr<std::atomic<int>> serialized_;
  std::shared_ptr<arrow::DataType> produce_type_;
};

// A function that binds to neither a ScalarFunction nor an AggregateFunction.
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
      return std::vector<Identifier>{{{"default"}, "times"}, {{"default"}, "total"}};
    return std::vector<Identifier>{};
  }
  Result<std::shared_ptr<UnboundFunction>> LoadFunction(const Identifier& ident) override {
    ++loads;
    if (ident.namespace_path == std::vector<std::string>{"default"} && ident.name == "times") {
      return std::make_shared<Times>(calls_);
    }
    if (ident.namespace_path == std::vector<std::string>{"default"} && ident.name == "total") {
      return std::make_shared<Total>(std::make_shared<std::atomic<int>>(0));
    }
    return Status::KeyError("no function ", ident.ToString());
  }

  /// How often LoadFunction was called.
  std::atomic<int> loads{0};

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
    ASSERT_OK(session_->RegisterFunction("total", std::make_shared<Total>(serialized_)));
  }

  std::shared_ptr<Session> session_;
  std::shared_ptr<std::atomic<int>> calls_ = std::make_shared<std::atomic<int>>(0);
  std::shared_ptr<std::atomic<int>> serialized_ = std::make_shared<std::atomic<int>>(0);
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
  EXPECT_EQ(testing::SessionRows(session_.get(), "SHOW USER FUNCTIONS"),
            (Rows{"broken", "times", "total"}));
  EXPECT_EQ(testing::SessionRows(session_.get(), "SHOW USER FUNCTIONS IN tc.default"),
            (Rows{"broken", "tc.default.times", "tc.default.total", "times", "total"}));
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

TEST_F(ConnectorFunctionTest, AggregateFunctionsUnderGroupByOverPartitions) {
  // Four partitions of 50 rows in batches of 25: each group's rows arrive from several tasks.
  EXPECT_EQ(testing::SessionRows(session_.get(),
                                 "SELECT b, total(a), sum(a), tc.default.total(a * 2) FROM "
                                 "tc.default.t GROUP BY b ORDER BY b"),
            (Rows{"0,6633,6633,13266", "1,6700,6700,13400", "2,6567,6567,13134"}));
  EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT total(a), count(*) FROM tc.default.t"),
            (Rows{"19900,200"}));
  // No row: the state of a group that saw none, NULL here.
  EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT total(a) FROM tc.default.t WHERE a < 0"),
            (Rows{"NULL"}));
  // In HAVING and ORDER BY, beside built-in aggregates, over an INT argument cast to BIGINT.
  EXPECT_EQ(testing::SessionRows(session_.get(),
                                 "SELECT b FROM tc.default.t GROUP BY b HAVING total(a) > 6620 "
                                 "ORDER BY total(a) DESC"),
            (Rows{"1", "0"}));
  ASSERT_OK(session_->Sql("USE tc.default").status());
  EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT default.total(b) FROM t WHERE a < 10"),
            (Rows{"9"}));
}

// Binding looks a call's function up several times (is it an aggregate? what does it bind
// to?); the catalog loads it once per statement.
TEST_F(ConnectorFunctionTest, AStatementLoadsEachCatalogFunctionOnce) {
  catalog_->loads = 0;
  EXPECT_EQ(testing::SessionRows(session_.get(),
                                 "SELECT tc.default.times(a, 2), tc.default.total(a) FROM "
                                 "tc.default.t WHERE a < 3 GROUP BY a, tc.default.times(a, 2) "
                                 "ORDER BY tc.default.times(a, 2)"),
            (Rows{"0,0", "2,1", "4,2"}));
  EXPECT_EQ(catalog_->loads.load(), 2);
  ASSERT_OK(session_->Sql("SELECT tc.default.times(1, 2)").status());
  EXPECT_EQ(catalog_->loads.load(), 3);
}

TEST_F(ConnectorFunctionTest, AggregateFunctionErrors) {
  ASSERT_RAISES_CONDITION("INVALID_WHERE_CONDITION",
                          session_->Sql("SELECT a FROM tc.default.t WHERE total(a) > 1"));
  ASSERT_RAISES_CONDITION("NESTED_AGGREGATE_FUNCTION",
                          session_->Sql("SELECT total(sum(a)) FROM tc.default.t"));
  ASSERT_RAISES_CONDITION("NESTED_AGGREGATE_FUNCTION",
                          session_->Sql("SELECT sum(total(a)) FROM tc.default.t"));
  ASSERT_RAISES_CONDITION("UNSUPPORTED_FEATURE.AGGREGATE_DISTINCT",
                          session_->Sql("SELECT total(DISTINCT a) FROM tc.default.t"));
  ASSERT_RAISES_CONDITION("MISSING_GROUP_BY",
                          session_->Sql("SELECT a, total(b) FROM tc.default.t"));
  ASSERT_RAISES_CONDITION("MISSING_AGGREGATION",
                          session_->Sql("SELECT a, total(b) FROM tc.default.t GROUP BY b"));
  ASSERT_RAISES_CONDITION("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                          session_->Sql("SELECT total(a, b) FROM tc.default.t"));
  ASSERT_OK(session_->RegisterFunction(
      "bad_total", std::make_shared<Total>(std::make_shared<std::atomic<int>>(0), arrow::utf8())));
  ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.FUNCTION_RESULT",
                          session_->Sql("SELECT b, bad_total(a) FROM tc.default.t GROUP BY b"));
  ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.FUNCTION_RESULT",
                          session_->Sql("SELECT bad_total(a) FROM tc.default.t"));
}

// plus(x INT, y INT) = x + y, known to the tables that evaluate it by its canonical name.
class Plus : public ScalarFunction, public UnboundFunction {
 public:
  explicit Plus(bool deterministic = true) : deterministic_(deterministic) {}
  std::string name() const override { return "plus"; }
  std::string canonical_name() const override { return "test.plus"; }
  std::string description() const override { return "x + y"; }
  bool deterministic() const override { return deterministic_; }
  std::vector<std::shared_ptr<arrow::DataType>> input_types() const override {
    return {arrow::int32(), arrow::int32()};
  }
  std::shared_ptr<arrow::DataType> result_type() const override { return arrow::int32(); }
  Result<std::shared_ptr<BoundFunction>> Bind(const arrow::Schema&) override {
    return std::make_shared<Plus>(deterministic_);
  }
  Result<std::shared_ptr<arrow::Array>> Invoke(const arrow::ArrayVector& args,
                                               int64_t length) const override {
    ARROW_ASSIGN_OR_RAISE(auto sum, arrow::compute::Add(args[0], args[1]));
    return sum.make_array();
  }

 private:
  bool deterministic_;
};

// A function in a filter is offered to the scan as a UserDefinedScalarFunc operand: a source
// that evaluates it (by its canonical name) takes the predicate, one that does not returns it,
// and the answer is the same.
TEST_F(ConnectorFunctionTest, FunctionsInFiltersAreOfferedToTheScan) {
  std::vector<int32_t> a;
  for (int32_t i = 0; i < 100; ++i) a.push_back(i);
  testing::TestTableOptions evaluating;
  evaluating.filter_pushdown = true;
  evaluating.partitions = 2;
  evaluating.functions["test.plus"] = std::make_shared<Plus>();
  testing::TestTableOptions declining = evaluating;
  declining.functions.clear();
  catalog_->AddTable("evaluates", testing::MakeIntTable({"a"}, {a}), evaluating);
  catalog_->AddTable("declines", testing::MakeIntTable({"a"}, {a}), declining);
  ASSERT_OK(session_->RegisterFunction("plus", std::make_shared<Plus>()));
  ASSERT_OK(session_->RegisterFunction("plus_random", std::make_shared<Plus>(false)));
  for (const std::string table : {"evaluates", "declines"}) {
    EXPECT_EQ(testing::SessionRows(session_.get(), "SELECT count(*), min(a) FROM tc.default." +
                                                       table + " WHERE plus(a, 10) > 95"),
              (Rows{"14,86"}))
        << table;
  }
  auto pushed = testing::SessionRows(
      session_.get(),
      "EXPLAIN FORMATTED SELECT a FROM tc.default.evaluates WHERE plus(a, 10) > 95");
  ASSERT_EQ(pushed.size(), 1u);
  EXPECT_NE(pushed[0].find("PushedPredicates: [plus(a, 10) > 95]"), std::string::npos) << pushed[0];
  EXPECT_EQ(pushed[0].find("Filter"), std::string::npos) << pushed[0];
  auto returned = testing::SessionRows(
      session_.get(), "EXPLAIN FORMATTED SELECT a FROM tc.default.declines WHERE plus(a, 10) > 95");
  ASSERT_EQ(returned.size(), 1u);
  EXPECT_NE(returned[0].find("Filter"), std::string::npos) << returned[0];
  EXPECT_EQ(returned[0].find("PushedPredicates: [plus"), std::string::npos) << returned[0];
  auto log = catalog_->log("declines");
  EXPECT_NE(
      std::find(log->offered_predicates.begin(), log->offered_predicates.end(), "plus(a, 10) > 95"),
      log->offered_predicates.end());
  // A function that is not deterministic is never offered.
  auto random = testing::SessionRows(
      session_.get(),
      "EXPLAIN FORMATTED SELECT a FROM tc.default.evaluates WHERE plus_random(a, 10) > 95");
  ASSERT_EQ(random.size(), 1u);
  EXPECT_EQ(random[0].find("PushedPredicates: [plus"), std::string::npos) << random[0];
}

// The grouped kernel itself, with two partial states as two threads would make: each batch's
// rows reach their groups, and merging goes through the function's bytes.
TEST(ConnectorAggregateKernelTest, PartialStatesMergeThroughTheirBytes) {
  namespace cp = arrow::compute;
  ASSERT_OK(RegisterConnectorAggregate());
  auto serialized = std::make_shared<std::atomic<int>>(0);
  auto function = std::make_shared<Total>(serialized);
  ASSERT_OK_AND_ASSIGN(auto registered,
                       cp::GetFunctionRegistry()->GetFunction(kHashConnectorAggregate));
  const auto* kernel = static_cast<const cp::HashAggregateKernel*>(
      static_cast<const cp::HashAggregateFunction&>(*registered).kernels().front());
  ConnectorAggregateOptions options(function);
  cp::KernelContext context(cp::default_exec_context());
  const std::vector<arrow::TypeHolder> types = {arrow::int64(), arrow::uint32()};
  auto partial = [&](const std::string& values,
                     const std::string& groups) -> Result<std::unique_ptr<cp::KernelState>> {
    ARROW_ASSIGN_OR_RAISE(auto state, kernel->init(&context, {kernel, types, &options}));
    context.SetState(state.get());
    ARROW_RETURN_NOT_OK(kernel->resize(&context, 3));
    ARROW_ASSIGN_OR_RAISE(auto value_array,
                          arrow::json::ArrayFromJSONString(arrow::int64(), values));
    ARROW_ASSIGN_OR_RAISE(auto group_array,
                          arrow::json::ArrayFromJSONString(arrow::uint32(), groups));
    cp::ExecBatch batch({value_array, group_array}, value_array->length());
    ARROW_RETURN_NOT_OK(kernel->consume(&context, cp::ExecSpan(batch)));
    return state;
  };
  ASSERT_OK_AND_ASSIGN(auto first, partial("[1, 2, 3, 4]", "[0, 1, 0, 2]"));
  ASSERT_OK_AND_ASSIGN(auto second, partial("[10, 20, 30]", "[2, 2, 0]"));
  // The second state's groups 0, 1, 2 are the first's 1, 2, 0 (its group 1 saw no row).
  ASSERT_OK_AND_ASSIGN(auto mapping,
                       arrow::json::ArrayFromJSONString(arrow::uint32(), "[1, 2, 0]"));
  context.SetState(first.get());
  ASSERT_OK(kernel->merge(&context, std::move(*second), *mapping->data()));
  EXPECT_EQ(serialized->load(), 3);
  arrow::Datum out;
  ASSERT_OK(kernel->finalize(&context, &out));
  // Group 0: 1 + 3 + 10 + 20 (the second's group 2); group 1: 2 + 30; group 2: 4.
  ASSERT_OK_AND_ASSIGN(auto expected,
                       arrow::json::ArrayFromJSONString(arrow::int64(), "[34, 32, 4]"));
  EXPECT_TRUE(out.make_array()->Equals(*expected)) << out.make_array()->ToString();
}

}  // namespace
}  // namespace parley
