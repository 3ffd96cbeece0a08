// End-to-end tests of the Session: negotiation recorded by a test connector and shown by
// EXPLAIN, capability checks at analysis, configuration and catalogs, and error conditions.
#include "parley/session.h"

#include <gtest/gtest.h>

#include "arrow/acero/exec_plan.h"
#include "arrow/compute/registry.h"
#include "arrow/table.h"
#include "parley/connector/builtin.h"
#include "testing/gtest_util.h"
#include "testing/query_harness.h"
#include "testing/session_rows.h"
#include "testing/test_connector.h"

namespace parley {
namespace {

using testing::MakeIntTable;
using testing::TestCatalog;
using testing::TestTableOptions;

constexpr int32_t kNull = INT32_MIN;

class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SessionOptions options;
    options.conf["parley.test.roundTripTasks"] = "true";
    options.conf["spark.sql.catalog.spark_catalog"] = "memory";
    options.conf["parley.verifyPushdown"] = "true";
    options.conf["spark.sql.catalog.tc.someOption"] = "42";
    ASSERT_OK_AND_ASSIGN(session_, Session::Make(options));
    catalog_ = std::make_shared<TestCatalog>();
    data_ =
        MakeIntTable({"a", "b", "c"},
                     {{1, 2, 3, 4, 5, 6}, {10, 1, 30, 2, 50, 3}, {kNull, 1, kNull, 1, kNull, 1}});
  }

  void AddTable(const std::string& name, TestTableOptions options) {
    catalog_->AddTable(name, data_, options);
  }

  void Register() { ASSERT_OK(session_->RegisterCatalog("tc", catalog_)); }

  // Rows of a result as strings "v1,v2" in result order.
  std::vector<std::string> Rows(const std::string& sql) {
    return testing::SessionRows(session_.get(), sql);
  }

  std::string Explain(const std::string& sql) {
    auto rows = Rows("EXPLAIN FORMATTED " + sql);
    return rows.empty() ? "" : rows[0];
  }

  std::shared_ptr<Session> session_;
  std::shared_ptr<TestCatalog> catalog_;
  std::shared_ptr<arrow::Table> data_;
};

TEST_F(SessionTest, PushesTranslatablePredicatesAndKeepsResiduals) {
  TestTableOptions options;
  options.filter_pushdown = true;
  options.column_pruning = true;
  options.accepted_predicates = {">"};
  AddTable("t", options);
  Register();
  EXPECT_EQ(Rows("SELECT b FROM tc.default.t WHERE a > 1 AND b < a AND c IS NULL AND a + 1 > 2 "
                 "ORDER BY b"),
            (std::vector<std::string>{}));
  auto log = catalog_->log("t");
  // Every translatable conjunct was offered, in the query's order; `a + 1 > 2` has no V2 form.
  EXPECT_EQ(log->offered_predicates, (std::vector<std::string>{"a > 1", "b < a", "c IS NULL"}));
  EXPECT_EQ(log->accepted_predicates, (std::vector<std::string>{"a > 1"}));
  // Pruning asked for b (projected) and a, c (inputs of residual filters), in table order.
  EXPECT_EQ(log->pruned_columns, (std::vector<std::string>{"a", "b", "c"}));

  std::string plan = Explain("SELECT b FROM tc.default.t WHERE a > 1 AND b < a AND c IS NULL");
  EXPECT_NE(plan.find("PushedPredicates: [a > 1]"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Condition : ((b < a) AND (c IS NULL))"), std::string::npos) << plan;
  EXPECT_NE(plan.find("RequiredColumns: [a, b, c]"), std::string::npos) << plan;
}

TEST_F(SessionTest, OlderFilterFormIsOfferedToV1Builders) {
  TestTableOptions options;
  options.v1_filters = true;
  AddTable("t", options);
  Register();
  EXPECT_EQ(Rows("SELECT a FROM tc.default.t WHERE 2 < a AND b <> 30 AND a < b AND c IS NULL "
                 "ORDER BY a"),
            (std::vector<std::string>{"5"}));
  // `2 < a` is written column-first; `b <> 30` has the V1 form Not(EqualTo) and is returned;
  // `a < b` has no V1 form and is never offered.
  EXPECT_EQ(catalog_->log("t")->offered_predicates,
            (std::vector<std::string>{"GreaterThan(a,2)", "Not(EqualTo(b,30))", "IsNull(c)"}));
  EXPECT_EQ(catalog_->log("t")->accepted_predicates,
            (std::vector<std::string>{"GreaterThan(a,2)", "IsNull(c)"}));
  std::string plan = Explain("SELECT a FROM tc.default.t WHERE 2 < a AND b <> 30");
  EXPECT_NE(plan.find("PushedFilters: [GreaterThan(a,2)]"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Condition : (b <> 30)"), std::string::npos) << plan;
}

TEST_F(SessionTest, FullyPushedFilterLeavesNoFilterAndPrunesItsColumn) {
  TestTableOptions options;
  options.filter_pushdown = true;
  options.column_pruning = true;
  AddTable("t", options);
  Register();
  EXPECT_EQ(Rows("SELECT b FROM tc.default.t WHERE a >= 5 ORDER BY b"),
            (std::vector<std::string>{"3", "50"}));
  EXPECT_EQ(catalog_->log("t")->pruned_columns, (std::vector<std::string>{"b"}));
  std::string plan = Explain("SELECT b FROM tc.default.t WHERE a >= 5");
  EXPECT_EQ(plan.find("Filter"), std::string::npos) << plan;
  EXPECT_NE(plan.find("PushedPredicates: [a >= 5]"), std::string::npos) << plan;
}

TEST_F(SessionTest, SourceWithoutMixinsGetsNothingOfferedAndStaysCorrect) {
  AddTable("t", TestTableOptions{});
  Register();
  EXPECT_EQ(Rows("SELECT a, b FROM tc.default.t WHERE a > 4 ORDER BY a DESC"),
            (std::vector<std::string>{"6,3", "5,50"}));
  auto log = catalog_->log("t");
  EXPECT_TRUE(log->offered_predicates.empty());
  EXPECT_FALSE(log->pruned);
  std::string plan = Explain("SELECT a FROM tc.default.t WHERE a > 4");
  EXPECT_NE(plan.find("PushedPredicates: []"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Condition : (a > 4)"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("RequiredColumns"), std::string::npos) << plan;
}

TEST_F(SessionTest, MissingBatchReadFailsAtAnalysisBeforeAnyScan) {
  TestTableOptions options;
  options.batch_read = false;
  AddTable("w", options);
  Register();
  auto result = session_->Sql("SELECT a FROM tc.default.w");
  ASSERT_RAISES_CONDITION("UNSUPPORTED_FEATURE.TABLE_OPERATION", result);
  EXPECT_NE(result.status().message().find("`tc`.`default`.`w`"), std::string::npos);
  EXPECT_NE(result.status().message().find("BATCH_READ"), std::string::npos);
  EXPECT_EQ(catalog_->log("w")->builders_created, 0);
}

TEST_F(SessionTest, PartitionThatCannotRoundTripFailsInTestMode) {
  TestTableOptions options;
  options.partitions = 2;
  options.serializable_partitions = false;
  AddTable("live", options);
  Register();
  auto result = session_->Sql("SELECT a FROM tc.default.live");
  ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE", result);
  EXPECT_NE(result.status().message().find("input partition 0"), std::string::npos);
  ASSERT_OK(session_->Sql("SET parley.test.roundTripTasks=false"));
  EXPECT_EQ(Rows("SELECT a FROM tc.default.live ORDER BY a").size(), 6u);
}

TEST_F(SessionTest, CatalogOptionsReachInitialize) {
  Register();
  EXPECT_EQ(catalog_->name(), "tc");
  EXPECT_EQ(catalog_->initialize_options().at("someoption"), "42");
}

TEST_F(SessionTest, ResolvesNamesThroughCurrentCatalogAndNamespace) {
  AddTable("t", TestTableOptions{});
  Register();
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND", session_->Sql("SELECT a FROM t"));
  ASSERT_OK(session_->Sql("USE tc"));
  EXPECT_EQ(Rows("SELECT a FROM t WHERE a = 2"), (std::vector<std::string>{"2"}));
  EXPECT_EQ(Rows("SELECT t.a FROM default.t WHERE a = 3"), (std::vector<std::string>{"3"}));
  EXPECT_EQ(Rows("SELECT x.a FROM tc.default.t AS x WHERE x.a = 4"),
            (std::vector<std::string>{"4"}));
  ASSERT_RAISES_CONDITION("SCHEMA_NOT_FOUND", session_->Sql("USE tc.nope"));
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND",
                          session_->Sql("SELECT * FROM spark_catalog.a.b.t"));
  ASSERT_RAISES_CONDITION("REQUIRES_SINGLE_PART_NAMESPACE",
                          session_->Sql("SHOW TABLES IN spark_catalog.a.b"));
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND", session_->Sql("SELECT * FROM x.default.t"));
  ASSERT_RAISES_CONDITION("CATALOG_NOT_FOUND", session_->Catalog("nope"));
}

TEST_F(SessionTest, UnresolvedColumnSuggestsNearestNames) {
  AddTable("t", TestTableOptions{});
  Register();
  auto result = session_->Sql("SELECT aa FROM tc.default.t");
  ASSERT_RAISES_CONDITION("UNRESOLVED_COLUMN.WITH_SUGGESTION", result);
  EXPECT_NE(result.status().message().find("`aa`"), std::string::npos);
  EXPECT_NE(result.status().message().find("[`a`, `b`, `c`]"), std::string::npos);
  EXPECT_NE(result.status().message().find("line 1, column 8"), std::string::npos);
}

TEST_F(SessionTest, SetShowsAndResetsConfiguration) {
  EXPECT_EQ(Rows("SET spark.sql.shuffle.partitions=4"),
            (std::vector<std::string>{"spark.sql.shuffle.partitions,4"}));
  EXPECT_EQ(Rows("SET spark.sql.shuffle.partitions"),
            (std::vector<std::string>{"spark.sql.shuffle.partitions,4"}));
  ASSERT_OK_AND_ASSIGN(auto value, session_->GetConf("spark.sql.shuffle.partitions"));
  EXPECT_EQ(value, "4");
  ASSERT_OK(session_->Sql("RESET spark.sql.shuffle.partitions"));
  ASSERT_RAISES_CONDITION("SQL_CONF_NOT_FOUND", session_->GetConf("spark.sql.shuffle.partitions"));
  EXPECT_EQ(Rows("SET spark.sql.defaultCatalog"),
            (std::vector<std::string>{"spark.sql.defaultCatalog,spark_catalog"}));
}

TEST_F(SessionTest, ShowsCatalogsNamespacesAndTables) {
  AddTable("t", TestTableOptions{});
  AddTable("u", TestTableOptions{});
  Register();
  EXPECT_EQ(Rows("SHOW CATALOGS"), (std::vector<std::string>{"spark_catalog", "tc"}));
  EXPECT_EQ(Rows("SHOW CATALOGS LIKE 't*'"), (std::vector<std::string>{"tc"}));
  EXPECT_EQ(Rows("SHOW NAMESPACES IN tc"), (std::vector<std::string>{"default"}));
  EXPECT_EQ(Rows("SHOW TABLES IN tc.default"),
            (std::vector<std::string>{"default,t,false", "default,u,false"}));
  EXPECT_EQ(Rows("DESCRIBE TABLE tc.default.t"),
            (std::vector<std::string>{"a,int,NULL", "b,int,NULL", "c,int,NULL"}));
}

TEST_F(SessionTest, EvaluatesExpressionsWithSparkSemantics) {
  EXPECT_EQ(Rows("SELECT 7 / 2, 7 DIV 2, -7 % 3, 1 + 2 * 3, 'a' || 'b'"),
            (std::vector<std::string>{"3.5,3,-1,7,ab"}));
  EXPECT_EQ(Rows("SELECT NULL <=> NULL, 1 <=> NULL, NULL = NULL, 2 IN (1, 2), 3 IN (1, NULL)"),
            (std::vector<std::string>{"true,false,NULL,true,NULL"}));
  EXPECT_EQ(Rows("SELECT CASE WHEN 1 > 2 THEN 'x' WHEN 2 > 1 THEN 'y' END, "
                 "CASE 3 WHEN 1 THEN 'one' ELSE 'other' END"),
            (std::vector<std::string>{"y,other"}));
  EXPECT_EQ(Rows("SELECT 'abc' LIKE 'a%', 'abc' LIKE '_b_', 'abc' NOT LIKE '%c', "
                 "5 BETWEEN 1 AND 4, CAST('12' AS INT) + 1"),
            (std::vector<std::string>{"true,true,false,false,13"}));
  ASSERT_RAISES_CONDITION("DIVIDE_BY_ZERO", session_->Sql("SELECT 1 / 0"));
  ASSERT_RAISES_CONDITION("ARITHMETIC_OVERFLOW", session_->Sql("SELECT 2147483647 + 1"));
  ASSERT_RAISES_CONDITION("CAST_INVALID_INPUT", session_->Sql("SELECT CAST('x' AS INT)"));
  ASSERT_RAISES_CONDITION("DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES",
                          session_->Sql("SELECT 1 = DATE '2020-01-01'"));
}

TEST_F(SessionTest, LimitIsOfferedOnlyWithoutAResidualFilter) {
  TestTableOptions options;
  options.limit_pushdown = true;
  options.accepted_predicates = {">"};
  AddTable("t", options);
  Register();
  EXPECT_EQ(Rows("SELECT a FROM tc.default.t WHERE a > 2 LIMIT 2").size(), 2u);
  EXPECT_EQ(catalog_->log("t")->pushed_limit, 2);
  // `b < 100` has a V2 form but is returned: a filter remains, so no limit may be offered.
  AddTable("u", options);
  EXPECT_EQ(Rows("SELECT a FROM tc.default.u WHERE a > 2 AND b < 100 LIMIT 2").size(), 2u);
  EXPECT_FALSE(catalog_->log("u")->pushed_limit.has_value());
  std::string plan = Explain("SELECT a FROM tc.default.u WHERE a > 2 AND b < 100 LIMIT 2");
  EXPECT_EQ(plan.find("PushedLimit"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Limit"), std::string::npos) << plan;
}

TEST_F(SessionTest, PartialLimitKeepsTheEngineLimitCompleteLimitDropsIt) {
  TestTableOptions options;
  options.limit_pushdown = true;
  AddTable("partial", options);
  options.limit_complete = true;
  AddTable("complete", options);
  Register();
  std::string partial = Explain("SELECT a FROM tc.default.partial LIMIT 3");
  EXPECT_NE(partial.find("PushedLimit: 3 (partial)"), std::string::npos) << partial;
  EXPECT_NE(partial.find("Limit ("), std::string::npos) << partial;
  std::string complete = Explain("SELECT a FROM tc.default.complete LIMIT 3");
  EXPECT_NE(complete.find("PushedLimit: 3\n"), std::string::npos) << complete;
  EXPECT_EQ(complete.find("Limit ("), std::string::npos) << complete;
  EXPECT_EQ(Rows("SELECT a FROM tc.default.complete LIMIT 3"),
            (std::vector<std::string>{"1", "2", "3"}));
  // LIMIT n OFFSET m pushes limit n + m, then the offset once the limit is complete.
  EXPECT_EQ(Rows("SELECT a FROM tc.default.complete LIMIT 2 OFFSET 3"),
            (std::vector<std::string>{"4", "5"}));
  EXPECT_EQ(catalog_->log("complete")->pushed_limit, 5);
  EXPECT_EQ(catalog_->log("complete")->pushed_offset, 3);
  // With a partial limit the offset is not offered and the engine applies both.
  EXPECT_EQ(Rows("SELECT a FROM tc.default.partial LIMIT 2 OFFSET 3"),
            (std::vector<std::string>{"4", "5"}));
  EXPECT_FALSE(catalog_->log("partial")->pushed_offset.has_value());
}

TEST_F(SessionTest, PartialTopNKeepsTheSortAboveTheScan) {
  TestTableOptions options;
  options.limit_pushdown = true;
  AddTable("t", options);
  Register();
  EXPECT_EQ(Rows("SELECT a, b FROM tc.default.t ORDER BY b DESC LIMIT 2"),
            (std::vector<std::string>{"5,50", "3,30"}));
  EXPECT_EQ(catalog_->log("t")->pushed_top_n, (std::vector<std::string>{"b DESC NULLS LAST"}));
  std::string plan = Explain("SELECT a, b FROM tc.default.t ORDER BY b DESC LIMIT 2");
  EXPECT_NE(plan.find("PushedTopN: ORDER BY [b DESC NULLS LAST] LIMIT 2 (partial)"),
            std::string::npos)
      << plan;
  EXPECT_NE(plan.find("Sort ("), std::string::npos) << plan;
  EXPECT_NE(plan.find("Limit ("), std::string::npos) << plan;
  // A computed sort key cannot be expressed as a V2 sort order: nothing is offered.
  AddTable("u", options);
  EXPECT_EQ(Rows("SELECT a FROM tc.default.u ORDER BY a + b LIMIT 1"),
            (std::vector<std::string>{"2"}));
  EXPECT_TRUE(catalog_->log("u")->pushed_top_n.empty());
}

TEST_F(SessionTest, CompleteAggregatePushdownRemovesTheEngineAggregate) {
  TestTableOptions options;
  options.limit_pushdown = true;
  options.aggregate_complete = true;
  options.accepted_predicates = {">"};
  AddTable("t", options);
  Register();
  EXPECT_EQ(Rows("SELECT c, count(*), sum(a), max(b) FROM tc.default.t WHERE a > 1 GROUP BY c "
                 "ORDER BY c"),
            (std::vector<std::string>{"NULL,2,8,50", "1,3,12,3"}));
  EXPECT_EQ(catalog_->log("t")->pushed_aggregations,
            (std::vector<std::string>{"[COUNT(*), SUM(a), MAX(b)] GROUP BY [c]"}));
  std::string plan = Explain("SELECT c, count(*) FROM tc.default.t GROUP BY c");
  EXPECT_NE(plan.find("PushedAggregation: [COUNT(*)] GROUP BY [c] (complete)"), std::string::npos)
      << plan;
  EXPECT_EQ(plan.find("HashAggregate"), std::string::npos) << plan;
}

TEST_F(SessionTest, PartialAggregatePushdownKeepsAFinalAggregate) {
  TestTableOptions options;
  options.limit_pushdown = true;
  AddTable("t", options);
  Register();
  EXPECT_EQ(Rows("SELECT count(*), count(c), sum(a), min(b) FROM tc.default.t"),
            (std::vector<std::string>{"6,3,21,1"}));
  std::string plan = Explain("SELECT count(*), sum(a) FROM tc.default.t");
  EXPECT_NE(plan.find("(partial)"), std::string::npos) << plan;
  EXPECT_NE(plan.find("HashAggregate"), std::string::npos) << plan;
  // AVG cannot be finished from partial results: nothing is offered.
  AddTable("u", options);
  EXPECT_EQ(Rows("SELECT avg(a) FROM tc.default.u"), (std::vector<std::string>{"3.5"}));
  EXPECT_TRUE(catalog_->log("u")->pushed_aggregations.empty());
}

TEST_F(SessionTest, AggregateIsNotOfferedWhileAFilterRemains) {
  TestTableOptions options;
  options.limit_pushdown = true;
  options.aggregate_complete = true;
  options.accepted_predicates = {">"};
  AddTable("t", options);
  Register();
  EXPECT_EQ(Rows("SELECT count(*) FROM tc.default.t WHERE a > 1 AND b < 40"),
            (std::vector<std::string>{"4"}));
  EXPECT_TRUE(catalog_->log("t")->pushed_aggregations.empty());
  EXPECT_EQ(catalog_->log("t")->accepted_predicates, (std::vector<std::string>{"a > 1"}));
}

TEST_F(SessionTest, AggregatesGroupsAndHaving) {
  AddTable("t", TestTableOptions{});
  Register();
  EXPECT_EQ(Rows("SELECT c, count(*) AS n, sum(b) FROM tc.default.t GROUP BY c ORDER BY n"),
            (std::vector<std::string>{"NULL,3,90", "1,3,6"}));
  EXPECT_EQ(Rows("SELECT a % 2 AS parity, avg(b) FROM tc.default.t GROUP BY 1 "
                 "HAVING max(b) > 10 ORDER BY parity"),
            (std::vector<std::string>{"1,30"}));
  EXPECT_EQ(Rows("SELECT count(*), sum(a) FROM tc.default.t WHERE a > 100"),
            (std::vector<std::string>{"0,NULL"}));
  EXPECT_EQ(Rows("SELECT count(DISTINCT c), count(c) FROM tc.default.t"),
            (std::vector<std::string>{"1,3"}));
  ASSERT_RAISES_CONDITION("MISSING_AGGREGATION",
                          session_->Sql("SELECT a, count(*) FROM tc.default.t GROUP BY c"));
  ASSERT_RAISES_CONDITION("INVALID_WHERE_CONDITION",
                          session_->Sql("SELECT a FROM tc.default.t WHERE sum(a) > 1"));
  ASSERT_RAISES_CONDITION("NESTED_AGGREGATE_FUNCTION",
                          session_->Sql("SELECT sum(count(a)) FROM tc.default.t"));
}

TEST_F(SessionTest, HonestyCheckCatchesAPredicateAcceptedButNotApplied) {
  TestTableOptions options;
  options.filter_pushdown = true;
  options.ignore_accepted_predicates = true;
  AddTable("liar", options);
  Register();
  auto result = session_->Sql("SELECT a, b FROM tc.default.liar WHERE b >= 30");
  ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.PUSHED_PREDICATE_NOT_APPLIED", result);
  EXPECT_NE(result.status().message().find("`tc`.`default`.`liar`"), std::string::npos);
  EXPECT_NE(result.status().message().find("b >= 30"), std::string::npos);
  // Without the check the lie silently changes the answer: that is what the check is for.
  ASSERT_OK(session_->Sql("SET parley.verifyPushdown=false"));
  EXPECT_EQ(Rows("SELECT a FROM tc.default.liar WHERE b >= 30").size(), 6u);
}

TEST_F(SessionTest, HonestyCheckCatchesACompleteLimitNotApplied) {
  TestTableOptions options;
  options.limit_pushdown = true;
  options.limit_complete = true;
  options.ignore_accepted_limit = true;
  AddTable("liar", options);
  Register();
  ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.PUSHED_LIMIT_NOT_APPLIED",
                          session_->Sql("SELECT a FROM tc.default.liar LIMIT 2"));
}

TEST_F(SessionTest, OrdersDistinctsAndLimits) {
  AddTable("t", TestTableOptions{});
  Register();
  EXPECT_EQ(Rows("SELECT c FROM tc.default.t ORDER BY c"),
            (std::vector<std::string>{"NULL", "NULL", "NULL", "1", "1", "1"}));
  EXPECT_EQ(Rows("SELECT c FROM tc.default.t ORDER BY c DESC NULLS LAST LIMIT 4"),
            (std::vector<std::string>{"1", "1", "1", "NULL"}));
  EXPECT_EQ(Rows("SELECT DISTINCT c FROM tc.default.t ORDER BY 1 NULLS LAST"),
            (std::vector<std::string>{"1", "NULL"}));
  EXPECT_EQ(Rows("SELECT a FROM tc.default.t ORDER BY b DESC LIMIT 2 OFFSET 1"),
            (std::vector<std::string>{"3", "1"}));
  EXPECT_EQ(Rows("SELECT a AS x FROM tc.default.t ORDER BY x LIMIT 2"),
            (std::vector<std::string>{"1", "2"}));
}

}  // namespace
}  // namespace parley

namespace parley {
namespace {

// The acceptance queries, through the Session and the plugin loaded by path.
TEST(RangePluginSessionTest, SeedGuideStepsOneAndTwo) {
  SessionOptions options;
  options.conf["parley.test.roundTripTasks"] = "true";
  options.conf["spark.sql.catalog.ex"] = PARLEY_EXAMPLE_RANGE_PATH;
  ASSERT_OK_AND_ASSIGN(auto session, Session::Make(options));
  ASSERT_OK_AND_ASSIGN(auto simple, session->Sql("SELECT i, j FROM ex.default.simple ORDER BY i"));
  ASSERT_EQ(simple->num_rows(), 10);
  ASSERT_OK_AND_ASSIGN(auto last, simple->column(1)->GetScalar(9));
  EXPECT_EQ(last->ToString(), "-9");

  ASSERT_OK_AND_ASSIGN(auto plan,
                       session->Sql("EXPLAIN FORMATTED SELECT j FROM ex.default.filtered "
                                    "WHERE i > 6 AND i > j"));
  ASSERT_OK_AND_ASSIGN(auto text, plan->column(0)->GetScalar(0));
  std::string explain = text->ToString();
  EXPECT_NE(explain.find("PushedPredicates: [i > 6]"), std::string::npos) << explain;
  EXPECT_NE(explain.find("Condition : (i > j)"), std::string::npos) << explain;
  EXPECT_NE(explain.find("RequiredColumns: [i, j]"), std::string::npos) << explain;
  EXPECT_NE(explain.find("Partitions: 1"), std::string::npos) << explain;

  auto missing = session->Sql("SELECT * FROM ex.default.nope");
  ASSERT_RAISES_CONDITION("TABLE_OR_VIEW_NOT_FOUND", missing);
  EXPECT_NE(missing.status().message().find("`ex`.`default`.`nope`"), std::string::npos);
  auto unresolved = session->Sql("SELECT k FROM ex.default.simple");
  ASSERT_RAISES_CONDITION("UNRESOLVED_COLUMN.WITH_SUGGESTION", unresolved);
  EXPECT_NE(unresolved.status().message().find("[`i`, `j`]"), std::string::npos);
}

// Arrow's function and exec node registries must not grow while other threads look entries up
// (scan tasks bind expressions and open dataset scanners on their own threads while the query's
// plan is being built), so a session registers every Parley function and Arrow's dataset exec
// nodes when it is made, before any query runs. Checked in a fresh process, where nothing is
// registered yet.
TEST(SessionStartupTest, RegistersEveryComputeFunctionBeforeAnyQuery) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto registered = [] {
    auto* registry = arrow::compute::GetFunctionRegistry();
    for (const char* name : {"parley_decimal_multiply", "parley_try", "parley_make_array",
                             "parley_scalar_subquery_value"}) {
      if (!registry->GetFunction(name).ok()) return false;
    }
    return arrow::acero::default_exec_factory_registry()->GetFactory("scan").ok();
  };
  EXPECT_EXIT(
      {
        bool before = registered();
        SessionOptions options;
        options.conf["spark.sql.catalog.spark_catalog"] = "memory";
        bool made = Session::Make(options).ok();
        std::exit(!before && made && registered() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace parley

namespace parley {
namespace {

// A connector registered as a built-in (parley/connector/builtin.h) is a plugin name every new
// Session knows, as Parley's own connectors are.
TEST(BuiltinConnectorSessionTest, ARegisteredBuiltinIsAPluginNameOfEverySession) {
  RegisterBuiltinCatalog("session_test_builtin", [] {
    auto catalog = std::make_shared<TestCatalog>();
    catalog->AddTable("t", MakeIntTable({"a"}, {{1, 2, 3}}), TestTableOptions{});
    return catalog;
  });
  SessionOptions options;
  options.conf["spark.sql.catalog.mine"] = "session_test_builtin";
  ASSERT_OK_AND_ASSIGN(auto session, Session::Make(options));
  EXPECT_EQ(testing::SessionRows(session.get(), "SELECT sum(a) FROM mine.default.t"),
            std::vector<std::string>{"6"});
  // The built-ins of Parley itself come the same way.
  ASSERT_OK(session->Sql("SET spark.sql.catalog.scratch=memory").status());
  ASSERT_OK(session->Sql("CREATE NAMESPACE scratch.ns").status());
  auto unknown = session->Sql("SET spark.sql.catalog.nope=no_such_builtin");
  if (unknown.ok()) unknown = session->Sql("SHOW NAMESPACES IN nope");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(ErrorCondition(unknown.status()), "CATALOG_PLUGIN_NOT_FOUND")
      << unknown.status().ToString();
}

}  // namespace
}  // namespace parley
