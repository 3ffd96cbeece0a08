// The rows of a statement run through a Session, for tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parley/session.h"
#include "testing/query_harness.h"

namespace parley::testing {

/// \brief The rows `sql` returns on `session`, as OrderedRows gives them ("v1,v2", in result
/// order). A statement that fails fails the current test (non-fatally) and gives no rows.
inline std::vector<std::string> SessionRows(Session* session, const std::string& sql) {
  auto result = session->Sql(sql);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (!result.ok()) return {};
  auto rows = OrderedRows(**result);
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  return rows.ok() ? *rows : std::vector<std::string>{};
}

}  // namespace parley::testing
