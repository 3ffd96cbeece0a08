// CteScope: the common table expressions (WITH name AS (query)) visible where a query is bound.
//
// A scope is a chain, innermost definition first: each entry is one CTE and points to the scope
// its own query sees (the CTEs defined before it in the same WITH, then the enclosing ones), so
// a CTE sees its predecessors but not itself or its successors, and an inner definition shadows
// an outer one of the same name, as in Spark. A name found here shadows a table of that name.
// Every reference binds the CTE's query afresh, which gives each reference its own scans and so
// its own pushdown (a filter on one reference reaches that reference's scan only).
#pragma once

#include <string_view>

#include "sql/ast.h"

namespace parley {

struct CteScope {
  const sql::CommonTableExpr* cte = nullptr;
  /// The scope `cte`'s query is bound in; nullptr when none is visible there.
  const CteScope* parent = nullptr;

  /// \brief The innermost entry whose CTE is named `name` (case-insensitively), or nullptr.
  const CteScope* Find(std::string_view name) const;
};

}  // namespace parley
