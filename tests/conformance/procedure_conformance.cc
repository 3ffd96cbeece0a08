// The procedure conformance kit's checks (see procedure_conformance.h).
#include "conformance/procedure_conformance.h"

#include <set>

#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "sql/parser.h"
#include "testing/gtest_util.h"

namespace parley::conformance {
namespace {

TEST_P(ProcedureConformanceTest, ListedProceduresLoadUnderTheirNames) {
  ProcedureSubject subject = GetParam()();
  size_t listed = 0;
  for (const auto& ns : subject.namespaces) {
    ASSERT_OK_AND_ASSIGN(auto idents, subject.catalog->ListProcedures(ns));
    for (const auto& ident : idents) {
      ++listed;
      EXPECT_EQ(ident.namespace_path, ns) << ident.ToString();
      ASSERT_OK_AND_ASSIGN(auto procedure, subject.catalog->LoadProcedure(ident));
      EXPECT_TRUE(EqualsIgnoreCase(procedure->name(), ident.name)) << ident.ToString();
      EXPECT_FALSE(procedure->description().empty()) << ident.ToString();
    }
  }
  EXPECT_GT(listed, 0u) << "the namespaces given list no procedure: a weak test";
}

TEST_P(ProcedureConformanceTest, AMissingProcedureIsAKeyError) {
  ProcedureSubject subject = GetParam()();
  for (const auto& ns : subject.namespaces) {
    auto missing = subject.catalog->LoadProcedure({ns, "no_such_procedure_anywhere"});
    ASSERT_FALSE(missing.ok());
    EXPECT_TRUE(missing.status().IsKeyError()) << missing.status().ToString();
  }
}

TEST_P(ProcedureConformanceTest, ParametersAreCallable) {
  ProcedureSubject subject = GetParam()();
  for (const auto& ns : subject.namespaces) {
    ASSERT_OK_AND_ASSIGN(auto idents, subject.catalog->ListProcedures(ns));
    for (const auto& ident : idents) {
      ASSERT_OK_AND_ASSIGN(auto unbound, subject.catalog->LoadProcedure(ident));
      auto bound = unbound->Bind(arrow::Schema({}));
      if (!bound.ok()) continue;  // a procedure may need its arguments' types to bind
      std::set<std::string> names;
      bool seen_default = false;
      for (const auto& parameter : (*bound)->parameters()) {
        const std::string where = ident.ToString() + " parameter " + parameter.name;
        EXPECT_EQ(parameter.mode, ProcedureParameter::Mode::kIn) << where;
        EXPECT_TRUE(names.insert(ToLowerAscii(parameter.name)).second) << where << " repeats";
        ASSERT_NE(parameter.type, nullptr) << where;
        if (parameter.default_value) {
          seen_default = true;
          auto parsed = sql::ParseExpression(*parameter.default_value);
          EXPECT_TRUE(parsed.ok()) << where << ": " << parsed.status().ToString();
        } else {
          EXPECT_FALSE(seen_default) << where << ": a required parameter after an optional one";
        }
      }
    }
  }
}

}  // namespace
}  // namespace parley::conformance
