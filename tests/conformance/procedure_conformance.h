// The procedure conformance kit: what every ProcedureCatalog must do for Parley's CALL,
// SHOW PROCEDURES and DESCRIBE PROCEDURE (parley/connector/procedure.h), as a parameterized
// GoogleTest suite. A connector instantiates it with a factory of its initialized catalog and
// the namespaces that hold procedures:
//
//   namespace parley::conformance {
//   PARLEY_INSTANTIATE_PROCEDURE_CONFORMANCE(Mine, [] { return ProcedureSubject{catalog,
//   {{"system"}}}; });
//   }
//
// It checks: every procedure a namespace lists loads, under its own name, with a description;
// a name the catalog does not have is a KeyError (which users see as FAILED_TO_LOAD_ROUTINE);
// and every procedure that binds without arguments declares parameters Parley can call: IN
// only, distinct names ignoring case, typed, required ones before those with a default, each
// default a SQL expression.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "parley/connector/procedure.h"

namespace parley::conformance {

/// \brief One catalog under test and the namespaces its procedures live in.
struct ProcedureSubject {
  std::shared_ptr<ProcedureCatalog> catalog;
  std::vector<std::vector<std::string>> namespaces;
};

using ProcedureSubjectFactory = std::function<ProcedureSubject()>;

class ProcedureConformanceTest : public ::testing::TestWithParam<ProcedureSubjectFactory> {};

}  // namespace parley::conformance

/// Instantiate the kit for a catalog, inside namespace parley::conformance.
#define PARLEY_INSTANTIATE_PROCEDURE_CONFORMANCE(name, factory) \
  INSTANTIATE_TEST_SUITE_P(name, ProcedureConformanceTest,      \
                           ::testing::Values(ProcedureSubjectFactory(factory)))
