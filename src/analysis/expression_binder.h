// ExpressionBinder: resolves a syntax-tree expression against the columns in scope, checks and
// coerces types per Spark's rules, and returns a typed BoundExpr.
//
// Errors name the expression at fault and where it was written: UNRESOLVED_COLUMN.* (with the
// nearest names suggested), AMBIGUOUS_REFERENCE, DATATYPE_MISMATCH.*, UNRESOLVED_ROUTINE.
#pragma once

#include <set>

#include <functional>
#include <string>
#include <vector>

#include "parley/connector/status.h"
#include "plan/bound_expression.h"
#include "plan/type_rules.h"
#include "sql/ast.h"

namespace parley {

/// \brief A column visible to expressions: who may qualify it, its name, and its input field.
struct ScopeColumn {
  /// Names that may qualify the column, outermost first: {catalog, ns..., table} or {alias}.
  std::vector<std::string> qualifier;
  std::string name;
  std::string field;
  std::shared_ptr<arrow::DataType> type;
  /// A column reachable only by a qualified name, and left out of `*` (a USING join's key
  /// column of the side whose copy is not output), as Spark's hidden join output.
  bool hidden = false;
};

using Scope = std::vector<ScopeColumn>;

/// \brief Called for each aggregate function call met while binding (count, sum, avg, min,
/// max, grouping, grouping_id) and for each window function call (any call with OVER); returns
/// the expression that stands for the call's result. Without a hook either is an error (e.g. in
/// WHERE).
using AggregateHook = std::function<Result<BoundExprPtr>(const sql::Expr&)>;

/// \brief Called for each subquery expression met while binding; returns the expression that
/// stands for its value. Without a hook a subquery expression is UNSUPPORTED_FEATURE.SUBQUERY.
using SubqueryHook = std::function<Result<BoundExprPtr>(const sql::Expr&)>;

/// \brief How an expression is bound: the hooks, and the scopes of the queries around a
/// subquery, innermost first. A name not found in the scope resolves in the first of those that
/// has it (an outer reference, its column named by its internal field); a name that only a
/// scope beyond the innermost has is UNSUPPORTED_FEATURE.SUBQUERY.
struct BindOptions {
  AggregateHook aggregate_hook;
  SubqueryHook subquery_hook;
  std::vector<const Scope*> outer_scopes;
};

/// \brief The names of the aggregate functions (lower case).
const std::set<std::string>& AggregateFunctionNames();

/// \brief Whether `name` (any case) is an aggregate function.
bool IsAggregateFunction(const std::string& name);

/// \brief Bind `expr` against `scope`. Star expressions are rejected here (the query binder
/// expands them in the select list).
Result<BoundExprPtr> BindExpression(const sql::Expr& expr, const Scope& scope,
                                    const AggregateHook& aggregate_hook = nullptr);

/// \brief Bind `expr` against `scope` as `options` say.
Result<BoundExprPtr> BindExpression(const sql::Expr& expr, const Scope& scope,
                                    const BindOptions& options);

/// \brief Find the column a name refers to, among visible columns first and then hidden ones:
/// an error when none or several match.
Result<const ScopeColumn*> ResolveColumn(const std::vector<std::string>& name_parts,
                                         const Scope& scope, SourcePosition pos);

}  // namespace parley
