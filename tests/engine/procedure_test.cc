// CALL through the Session against a catalog of test procedures: arguments by position and by
// name, defaults, implicit casts, results, and every error of the matching (Spark's conditions).
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "arrow/api.h"
#include "parley/connector/procedure.h"
#include "parley/session.h"
#include "testing/gtest_util.h"
#include "testing/session_rows.h"

namespace parley {
namespace {

using Args = std::vector<std::shared_ptr<arrow::Scalar>>;
using Body = std::function<Result<ProcedureResults>(const Args&)>;

// One column of one type holding `values`, as a result set.
std::shared_ptr<arrow::Table> Column(const std::string& name,
                                     const std::shared_ptr<arrow::Scalar>& value) {
  auto array = arrow::MakeArrayFromScalar(*value, 1).ValueOrDie();
  return arrow::Table::Make(arrow::schema({arrow::field(name, value->type)}), {array});
}

int64_t AsLong(const arrow::Scalar& value) {
  return static_cast<const arrow::Int64Scalar&>(*value.CastTo(arrow::int64()).ValueOrDie()).value;
}

// A procedure whose parameters are fixed and whose body is a function of its values. It
// records the input type it was bound to.
class TestProcedure : public UnboundProcedure, public BoundProcedure {
 public:
  TestProcedure(std::string name, std::vector<ProcedureParameter> parameters, Body body)
      : name_(std::move(name)), parameters_(std::move(parameters)), body_(std::move(body)) {}

  std::string name() const override { return name_; }
  std::string description() const override { return name_ + " procedure"; }
  Result<std::shared_ptr<BoundProcedure>> Bind(const arrow::Schema& input) override {
    bound_input = input.ToString(/*show_metadata=*/true);
    return std::make_shared<TestProcedure>(name_, parameters_, body_);
  }
  std::vector<ProcedureParameter> parameters() const override { return parameters_; }
  Result<ProcedureResults> Call(const Args& args, const Options&) override { return body_(args); }

  std::string bound_input;

 private:
  std::string name_;
  std::vector<ProcedureParameter> parameters_;
  Body body_;
};

class TestProcedureCatalog : public ProcedureCatalog {
 public:
  Status Initialize(const std::string& name, const Options&) override {
    name_ = name;
    return Status::OK();
  }
  std::string name() const override { return name_; }

  void Add(std::vector<std::string> ns, std::shared_ptr<TestProcedure> procedure) {
    procedures_[Identifier{std::move(ns), procedure->name()}.ToString()] = std::move(procedure);
  }
  Result<std::shared_ptr<UnboundProcedure>> LoadProcedure(const Identifier& ident) override {
    auto it = procedures_.find(ident.ToString());
    if (it == procedures_.end()) return Status::KeyError("no procedure ", ident.ToString());
    return it->second;
  }
  Result<std::vector<Identifier>> ListProcedures(const std::vector<std::string>& ns) override {
    std::vector<Identifier> out;
    for (const auto& [key, procedure] : procedures_) {
      Identifier ident{ns, procedure->name()};
      if (ident.ToString() == key) out.push_back(ident);
    }
    return out;
  }

 private:
  std::string name_;
  std::map<std::string, std::shared_ptr<TestProcedure>> procedures_;
};

ProcedureParameter In(std::string name, std::shared_ptr<arrow::DataType> type,
                      std::optional<std::string> default_value = std::nullopt) {
  return {std::move(name), std::move(type), std::move(default_value)};
}

class ProcedureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SessionOptions options;
    options.conf["spark.sql.catalog.spark_catalog"] = "memory";
    ASSERT_OK_AND_ASSIGN(session_, Session::Make(options));
    catalog_ = std::make_shared<TestProcedureCatalog>();
    sum_ = std::make_shared<TestProcedure>(
        "sum", std::vector{In("in1", arrow::int32()), In("in2", arrow::int32())},
        [](const Args& args) -> Result<ProcedureResults> {
          int32_t total = static_cast<const arrow::Int32Scalar&>(*args[0]).value +
                          static_cast<const arrow::Int32Scalar&>(*args[1]).value;
          return ProcedureResults{Column("out", std::make_shared<arrow::Int32Scalar>(total))};
        });
    catalog_->Add({"ns"}, sum_);
    catalog_->Add(
        {"ns"}, std::make_shared<TestProcedure>(
                    "long_sum", std::vector{In("in1", arrow::int64()), In("in2", arrow::int64())},
                    [](const Args& args) -> Result<ProcedureResults> {
                      auto total =
                          std::make_shared<arrow::Int64Scalar>(AsLong(*args[0]) + AsLong(*args[1]));
                      return ProcedureResults{Column("out", total)};
                    }));
    // complex(in1 STRING DEFAULT 'A', in2 STRING DEFAULT 'B', in3 INT DEFAULT 1 + 1 - 1): in3
    // rows (i, in1 || i, in2 || i).
    catalog_->Add({"ns"},
                  std::make_shared<TestProcedure>(
                      "complex",
                      std::vector{In("in1", arrow::utf8(), "'A'"), In("in2", arrow::utf8(), "'B'"),
                                  In("in3", arrow::int32(), "1 + 1 - 1")},
                      [](const Args& args) -> Result<ProcedureResults> {
                        arrow::Int32Builder index;
                        arrow::StringBuilder first, second;
                        const std::string a = args[0]->ToString(), b = args[1]->ToString();
                        for (int32_t i = 1;
                             i <= static_cast<const arrow::Int32Scalar&>(*args[2]).value; ++i) {
                          ARROW_RETURN_NOT_OK(index.Append(i));
                          ARROW_RETURN_NOT_OK(first.Append(a + std::to_string(i)));
                          ARROW_RETURN_NOT_OK(second.Append(b + std::to_string(i)));
                        }
                        std::vector<std::shared_ptr<arrow::Array>> columns(3);
                        ARROW_RETURN_NOT_OK(index.Finish(&columns[0]));
                        ARROW_RETURN_NOT_OK(first.Finish(&columns[1]));
                        ARROW_RETURN_NOT_OK(second.Finish(&columns[2]));
                        auto schema = arrow::schema({arrow::field("out1", arrow::int32()),
                                                     arrow::field("out2", arrow::utf8()),
                                                     arrow::field("out3", arrow::utf8())});
                        return ProcedureResults{arrow::Table::Make(schema, columns)};
                      }));
    catalog_->Add({"ns"},
                  std::make_shared<TestProcedure>("void", std::vector{In("in1", arrow::utf8())},
                                                  [](const Args&) { return ProcedureResults{}; }));
    catalog_->Add({"ns"}, std::make_shared<TestProcedure>(
                              "multi", std::vector<ProcedureParameter>{},
                              [](const Args&) -> Result<ProcedureResults> {
                                auto one = Column("out", std::make_shared<arrow::Int32Scalar>(1));
                                return ProcedureResults{one, one};
                              }));
    catalog_->Add(
        {"ns"}, std::make_shared<TestProcedure>(
                    "bad_default",
                    std::vector{In("in1", arrow::int32(), "10"), In("in2", arrow::int32(), "'B'")},
                    [](const Args&) { return ProcedureResults{}; }));
    catalog_->Add({"ns"},
                  std::make_shared<TestProcedure>(
                      "required_after_optional",
                      std::vector{In("in1", arrow::int32(), "1"), In("in2", arrow::int32())},
                      [](const Args&) { return ProcedureResults{}; }));
    ProcedureParameter inout = In("in1", arrow::int32());
    inout.mode = ProcedureParameter::Mode::kInOut;
    catalog_->Add({"ns"},
                  std::make_shared<TestProcedure>("inout", std::vector{inout},
                                                  [](const Args&) { return ProcedureResults{}; }));
    catalog_->Add({"ns"},
                  std::make_shared<TestProcedure>("fails", std::vector{In("in1", arrow::int32())},
                                                  [](const Args&) -> Result<ProcedureResults> {
                                                    return Status::Invalid("the procedure ran");
                                                  }));
    catalog_->Add({},
                  std::make_shared<TestProcedure>("top", std::vector<ProcedureParameter>{},
                                                  [](const Args&) { return ProcedureResults{}; }));
    ASSERT_OK(session_->RegisterCatalog("cat", catalog_));
  }

  std::vector<std::string> RowsOf(const std::string& sql) {
    return testing::SessionRows(session_.get(), sql);
  }

  std::shared_ptr<Session> session_;
  std::shared_ptr<TestProcedureCatalog> catalog_;
  std::shared_ptr<TestProcedure> sum_;
};

using Rows = std::vector<std::string>;

TEST_F(ProcedureTest, ArgumentsByPositionAndByName) {
  EXPECT_EQ(RowsOf("CALL cat.ns.sum(5, 5)"), Rows{"10"});
  EXPECT_EQ(RowsOf("CALL cat.ns.sum(in2 => 3, in1 => 5)"), Rows{"8"});
  EXPECT_EQ(RowsOf("CALL cat.ns.sum(IN1 => 3, In2 => 5)"), Rows{"8"});
  EXPECT_EQ(RowsOf("CALL cat.ns.sum(3, in2 => 1)"), Rows{"4"});
  // Arguments are constant expressions, folded before the call.
  EXPECT_EQ(RowsOf("CALL cat.ns.sum((1 + 1) * 2, in2 => (2 + 1) / 3)"), Rows{"5"});
}

TEST_F(ProcedureTest, BindSeesTheArgumentsAsWritten) {
  auto procedure = std::dynamic_pointer_cast<TestProcedure>(
      catalog_->LoadProcedure({{"ns"}, "sum"}).ValueOrDie());
  ASSERT_OK(session_->Sql("CALL cat.ns.sum(1, in2 => 2)").status());
  EXPECT_NE(procedure->bound_input.find("param0: int32"), std::string::npos)
      << procedure->bound_input;
  EXPECT_NE(procedure->bound_input.find("in2: int32"), std::string::npos);
  EXPECT_NE(procedure->bound_input.find("parley.by_name: true"), std::string::npos)
      << procedure->bound_input;
}

TEST_F(ProcedureTest, ImplicitCastsAndDefaults) {
  EXPECT_EQ(RowsOf("CALL cat.ns.long_sum(1, 2)"), Rows{"3"});
  EXPECT_EQ(RowsOf("CALL cat.ns.long_sum(1L, 2)"), Rows{"3"});
  // A string is cast to the parameter's type; a bad one fails as an ANSI cast does.
  EXPECT_EQ(RowsOf("CALL cat.ns.long_sum('40', 2)"), Rows{"42"});
  ASSERT_RAISES_CONDITION("CAST_INVALID_INPUT", session_->Sql("CALL cat.ns.sum('A', 2)"));
  // A BIGINT narrows to INT as store assignment does: checked when the value is computed.
  EXPECT_EQ(RowsOf("CALL cat.ns.sum(1L, 2)"), Rows{"3"});
  ASSERT_RAISES_CONDITION("CAST_OVERFLOW", session_->Sql("CALL cat.ns.sum(9999999999, 2)"));
  EXPECT_EQ(RowsOf("CALL cat.ns.complex('X', 'Y', 3)"), (Rows{"1,X1,Y1", "2,X2,Y2", "3,X3,Y3"}));
  EXPECT_EQ(RowsOf("CALL cat.ns.complex()"), Rows{"1,A1,B1"});
  EXPECT_EQ(RowsOf("CALL cat.ns.complex('X', 'Y')"), Rows{"1,X1,Y1"});
  EXPECT_EQ(RowsOf("CALL cat.ns.complex(in3 => 2)"), (Rows{"1,A1,B1", "2,A2,B2"}));
}

TEST_F(ProcedureTest, ResultSets) {
  ASSERT_OK_AND_ASSIGN(auto none, session_->Sql("CALL cat.ns.void('A')"));
  EXPECT_EQ(none->num_columns(), 0);
  EXPECT_EQ(none->num_rows(), 0);
  ASSERT_RAISES_CONDITION("INTERNAL_ERROR", session_->Sql("CALL cat.ns.multi()"));
  ASSERT_OK_AND_ASSIGN(auto sum, session_->Sql("CALL cat.ns.sum(1, 2)"));
  EXPECT_EQ(sum->schema()->field(0)->name(), "out");
}

TEST_F(ProcedureTest, NameResolution) {
  ASSERT_RAISES_CONDITION("FAILED_TO_LOAD_ROUTINE", session_->Sql("CALL cat.non_exist(1, 2)"));
  auto missing = session_->Sql("CALL cat.ns.nope()");
  EXPECT_NE(missing.status().message().find("`cat`.`ns`.`nope`"), std::string::npos)
      << missing.status().ToString();
  ASSERT_RAISES_CONDITION("MISSING_CATALOG_ABILITY.PROCEDURES",
                          session_->Sql("CALL spark_catalog.ns.sum(1, 2)"));
  ASSERT_RAISES_CONDITION("MISSING_CATALOG_ABILITY.PROCEDURES",
                          session_->Sql("SHOW PROCEDURES IN spark_catalog.ns"));
  // Relative to the current catalog.
  ASSERT_OK(session_->Sql("SET spark.sql.defaultCatalog=cat").status());
  EXPECT_EQ(RowsOf("CALL ns.sum(1, 2)"), Rows{"3"});
  EXPECT_EQ(RowsOf("CALL top()").size(), 0u);
}

TEST_F(ProcedureTest, ArgumentErrors) {
  struct Case {
    const char* sql;
    const char* condition;
    const char* names;  // what the message must name
  };
  const Case cases[] = {
      {"CALL cat.ns.sum(1, 2, 3)", "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
       "The `sum` requires 2 parameters but the actual number is 3"},
      {"CALL cat.ns.complex('a', 'b', 1, 2)", "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
       "requires [0, 1, 2, 3] parameters"},
      {"CALL cat.ns.sum()", "REQUIRED_PARAMETER_NOT_FOUND", "parameter named `in1` is required"},
      {"CALL cat.ns.sum(1)", "REQUIRED_PARAMETER_NOT_FOUND", "`in2`"},
      {"CALL cat.ns.sum(1, in1 => 2)",
       "DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT.BOTH_POSITIONAL_AND_NAMED", "`in1`"},
      {"CALL cat.ns.sum(in1 => 1, in1 => 2)",
       "DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT.DOUBLE_NAMED_ARGUMENT_REFERENCE", "`in1`"},
      {"CALL cat.ns.sum(in1 => 1, in5 => 2)", "UNRECOGNIZED_PARAMETER_NAME",
       "named `in5`, but this routine does not include any signature containing an argument "
       "with this name. Did you mean one of the following? [`in1` `in2`]"},
      {"CALL cat.ns.sum(in1 => 1, 2)", "UNEXPECTED_POSITIONAL_ARGUMENT",
       "following the named argument assigned to `in1`"},
      {"CALL cat.ns.sum(1, TIMESTAMP '2016-11-15 20:54:00')",
       "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
       "The second parameter requires the \"INT\" type, however \"TIMESTAMP '2016-11-15 "
       "20:54:00'\" has the type \"TIMESTAMP\""},
      {"CALL cat.ns.sum(1, x)", "UNRESOLVED_COLUMN.WITHOUT_SUGGESTION", "`x`"},
      {"CALL cat.ns.bad_default()", "INVALID_DEFAULT_VALUE.DATA_TYPE",
       "`in2` has a DEFAULT value 'B', which requires \"INT\" type"},
      {"CALL cat.ns.required_after_optional(in2 => 1)", "INTERNAL_ERROR",
       "required arguments should come before optional arguments"},
      {"CALL cat.ns.inout(1)", "INTERNAL_ERROR", "Unsupported parameter mode: INOUT"},
  };
  for (const Case& c : cases) {
    auto result = session_->Sql(c.sql);
    ASSERT_FALSE(result.ok()) << c.sql;
    EXPECT_EQ(ErrorCondition(result.status()), c.condition) << c.sql << ": " << result.status();
    EXPECT_NE(result.status().message().find(c.names), std::string::npos)
        << c.sql << ": " << result.status();
  }
}

// EXPLAIN binds the call, shows each parameter's value as it would be passed, and runs nothing.
TEST_F(ProcedureTest, ExplainShowsTheBoundCall) {
  auto plan = [&](const std::string& sql) {
    auto rows = RowsOf(sql);
    return rows.empty() ? std::string() : rows[0];
  };
  EXPECT_EQ(plan("EXPLAIN CALL cat.ns.sum(5, 5)"), "== Physical Plan ==\nCall cat.ns.sum(5, 5)\n");
  EXPECT_EQ(plan("EXPLAIN CALL cat.ns.sum(in2 => 3, in1 => 5)"),
            "== Physical Plan ==\nCall cat.ns.sum(5, 3)\n");
  EXPECT_NE(plan("EXPLAIN CALL cat.ns.complex(in3 => 2)").find("Call cat.ns.complex('A', 'B', 2)"),
            std::string::npos);
  EXPECT_NE(plan("EXPLAIN EXTENDED CALL cat.ns.fails(1)").find("Call cat.ns.fails(1)"),
            std::string::npos);
  ASSERT_RAISES_CONDITION("UNSUPPORTED_FEATURE.EXPLAIN_COMMAND",
                          session_->Sql("EXPLAIN ANALYZE CALL cat.ns.fails(1)"));
  ASSERT_RAISES_CONDITION("REQUIRED_PARAMETER_NOT_FOUND",
                          session_->Sql("EXPLAIN CALL cat.ns.sum(1)"));
  auto ran = session_->Sql("CALL cat.ns.fails(1)");
  EXPECT_NE(ran.status().message().find("the procedure ran"), std::string::npos);
}

TEST_F(ProcedureTest, ShowAndDescribeProcedures) {
  EXPECT_EQ(
      RowsOf("SHOW PROCEDURES IN cat.ns"),
      (Rows{"cat,list<item: string>[ns],ns,bad_default", "cat,list<item: string>[ns],ns,complex",
            "cat,list<item: string>[ns],ns,fails", "cat,list<item: string>[ns],ns,inout",
            "cat,list<item: string>[ns],ns,long_sum", "cat,list<item: string>[ns],ns,multi",
            "cat,list<item: string>[ns],ns,required_after_optional",
            "cat,list<item: string>[ns],ns,sum", "cat,list<item: string>[ns],ns,void"}));
  EXPECT_EQ(RowsOf("SHOW PROCEDURES IN cat.other"), Rows{});
  EXPECT_EQ(
      RowsOf("DESC PROCEDURE cat.ns.complex"),
      (Rows{"Procedure:   complex", "Description: complex procedure",
            "Parameters:  IN in1 STRING DEFAULT 'A'", "             IN in2 STRING DEFAULT 'B'",
            "             IN in3 INT    DEFAULT 1 + 1 - 1"}));
  EXPECT_EQ(RowsOf("DESCRIBE PROCEDURE cat.ns.multi"),
            (Rows{"Procedure:   multi", "Description: multi procedure", "Parameters:  ()"}));
  ASSERT_RAISES_CONDITION("FAILED_TO_LOAD_ROUTINE", session_->Sql("DESC PROCEDURE cat.ns.nope"));
}

}  // namespace
}  // namespace parley
