// The view conformance kit: what every catalog of views must do for Parley's CREATE / ALTER /
// DROP VIEW and for reads of views (parley/connector/view.h), as a parameterized GoogleTest
// suite. A connector instantiates it with a factory of its initialized catalog and a namespace
// that exists in it:
//
//   namespace parley::conformance {
//   PARLEY_INSTANTIATE_VIEW_CONFORMANCE(Mine, [] { return ViewSubject{catalog, {"default"}}; });
//   }
//
// It checks: a created view loads back with every ViewInfo field as given and is listed; a
// second create of the name is TABLE_OR_VIEW_ALREADY_EXISTS; a replace is seen whole; a rename
// moves it; a drop removes it (false the second time); a missing view is TABLE_OR_VIEW_NOT_FOUND
// from LoadView and LoadRelation; and, for a RelationCatalog, tables and views share one name
// space: LoadRelation tells them apart, ListRelationSummaries lists both, a view cannot take a
// table's name nor a table a view's.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "parley/connector/view.h"

namespace parley::conformance {

/// \brief One catalog under test and a namespace of it that exists.
struct ViewSubject {
  std::shared_ptr<ViewCatalog> catalog;
  std::vector<std::string> namespace_path;
};

using ViewSubjectFactory = std::function<ViewSubject()>;

class ViewConformanceTest : public ::testing::TestWithParam<ViewSubjectFactory> {};

}  // namespace parley::conformance

/// Instantiate the kit for a catalog, inside namespace parley::conformance.
#define PARLEY_INSTANTIATE_VIEW_CONFORMANCE(name, factory) \
  INSTANTIATE_TEST_SUITE_P(name, ViewConformanceTest,      \
                           ::testing::Values(ViewSubjectFactory(factory)))
