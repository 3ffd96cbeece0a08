// The rows of a statement run through a Session, and what its EXPLAIN ANALYZE says, for tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
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

/// \brief The text of `EXPLAIN ANALYZE <query>` on `session`; a failure fails the current test
/// (non-fatally) and gives "".
inline std::string ExplainAnalyze(Session* session, const std::string& query) {
  auto result = session->Sql("EXPLAIN ANALYZE " + query);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (!result.ok()) return "";
  return (*result)->column(0)->GetScalar(0).ValueOrDie()->ToString();
}

/// \brief The first value `plan` reports as "<name>: <digits>", or -1 when it reports none.
inline int64_t PlanMetric(const std::string& plan, const std::string& name) {
  std::smatch match;
  if (!std::regex_search(plan, match, std::regex(name + ": (\\d+)"))) return -1;
  return std::stoll(match[1]);
}

}  // namespace parley::testing
