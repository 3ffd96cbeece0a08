// Helpers for engine tests that plan and run SELECT statements over registered catalogs.
#pragma once

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "analysis/query_binder.h"
#include "arrow/scalar.h"
#include "arrow/table.h"
#include "catalog/catalog_manager.h"
#include "plan/pushdown.h"
#include "sql/parser.h"

namespace parley::testing {

/// \brief `text` (a SELECT) parsed, bound against `catalogs` and negotiated with its sources.
inline Result<PlanNodePtr> PlanSelect(const std::string& text, CatalogManager* catalogs,
                                      const PushdownOptions& options = {}) {
  ARROW_ASSIGN_OR_RAISE(auto statement, sql::ParseStatement(text));
  ARROW_ASSIGN_OR_RAISE(auto plan,
                        BindSelect(std::get<sql::SelectStatement>(statement.node), catalogs));
  return NegotiatePushdown(plan, options);
}

/// \brief The rows of `table`, each its values' text joined by commas, sorted: for comparing
/// results whatever their order.
inline Result<std::vector<std::string>> SortedRows(const arrow::Table& table) {
  std::vector<std::string> rows;
  for (int64_t r = 0; r < table.num_rows(); ++r) {
    std::string row;
    for (int c = 0; c < table.num_columns(); ++c) {
      ARROW_ASSIGN_OR_RAISE(auto value, table.column(c)->GetScalar(r));
      row += (c ? "," : "") + value->ToString();
    }
    rows.push_back(std::move(row));
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

/// \brief The rows of `table` in result order, each its values' text joined by commas, NULL
/// as "NULL".
inline Result<std::vector<std::string>> OrderedRows(const arrow::Table& table) {
  std::vector<std::string> rows;
  for (int64_t r = 0; r < table.num_rows(); ++r) {
    std::string row;
    for (int c = 0; c < table.num_columns(); ++c) {
      ARROW_ASSIGN_OR_RAISE(auto value, table.column(c)->GetScalar(r));
      row += (c ? "," : "") + (value->is_valid ? value->ToString() : "NULL");
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace parley::testing
