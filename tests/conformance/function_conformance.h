// The function conformance kit: what every FunctionCatalog must do for Parley's calls, SHOW
// FUNCTIONS and DESCRIBE FUNCTION (parley/connector/function.h), as a parameterized GoogleTest
// suite. A connector instantiates it with a factory of its initialized catalog, the namespaces
// that hold functions, and sample calls (a function and argument arrays it accepts):
//
//   namespace parley::conformance {
//   PARLEY_INSTANTIATE_FUNCTION_CONFORMANCE(Mine, [] {
//     return FunctionSubject{catalog, {{"default"}}, {{{{"default"}, "f"}, {arguments}}}};
//   });
//   }
//
// It checks: every listed function loads, under its own name; a name the catalog does not have
// is a KeyError, and FunctionExists agrees with LoadFunction. For each sample call the function
// binds to the arguments' types with matching input types and a result type; a scalar function
// gives as many rows of its result type as it is given, and the same rows for a slice of its
// input as for the whole (it sees batches of any size); an aggregate function gives, for the
// rows updated into one state, the result it gives when they are split between two states
// merged after a trip through their bytes (as states travel between tasks), and a result of its
// type for a state that saw nothing. The SQL function checks (a second suite, for a
// SqlFunctionCatalog) keep, list, replace and drop a SQL function, and refuse to create one
// twice.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"
#include "gtest/gtest.h"
#include "parley/connector/function.h"

namespace parley::conformance {

/// \brief A call the function accepts: its name and one array per argument (all as long).
struct SampleCall {
  Identifier function;
  arrow::ArrayVector arguments;
};

/// \brief One catalog under test, the namespaces of its functions, and calls to try.
struct FunctionSubject {
  std::shared_ptr<FunctionCatalog> catalog;
  std::vector<std::vector<std::string>> namespaces;
  std::vector<SampleCall> calls;
};

using FunctionSubjectFactory = std::function<FunctionSubject()>;

class FunctionConformanceTest : public ::testing::TestWithParam<FunctionSubjectFactory> {};

/// \brief The checks of a SqlFunctionCatalog, whose subject's catalog must be one.
class SqlFunctionConformanceTest : public ::testing::TestWithParam<FunctionSubjectFactory> {};

}  // namespace parley::conformance

/// Instantiate the kit for a catalog, inside namespace parley::conformance.
#define PARLEY_INSTANTIATE_FUNCTION_CONFORMANCE(name, factory) \
  INSTANTIATE_TEST_SUITE_P(name, FunctionConformanceTest,      \
                           ::testing::Values(FunctionSubjectFactory(factory)))

/// Instantiate the SQL function checks for a SqlFunctionCatalog, inside namespace
/// parley::conformance.
#define PARLEY_INSTANTIATE_SQL_FUNCTION_CONFORMANCE(name, factory) \
  INSTANTIATE_TEST_SUITE_P(name, SqlFunctionConformanceTest,       \
                           ::testing::Values(FunctionSubjectFactory(factory)))
