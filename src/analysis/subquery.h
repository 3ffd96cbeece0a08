// Subquery expressions, planned as joins.
//
// The query binder binds a subquery with the scopes of the queries around it (BindSubquery in
// analysis/query_binder.h): a name the subquery cannot resolve itself resolves there, innermost
// first, as an outer reference. The WHERE conjuncts of the subquery that read the enclosing
// query are its correlation: they leave the subquery and become the condition of the join that
// plans it, over the enclosing query's fields and the subquery's output, which carries the inner
// values they read. Every field a subquery outputs has a name unique in the statement, and the
// fields of its FROM clause are renamed apart from the enclosing queries', so a join condition
// can name both sides.
//
//   - An uncorrelated scalar subquery is a cross join with a one-row relation: the subquery
//     itself when it is an aggregate without GROUP BY, HAVING, LIMIT or OFFSET; otherwise its
//     row count and value, guarded by SCALAR_SUBQUERY_VALUE, which fails at run time with
//     SCALAR_SUBQUERY_TOO_MANY_ROWS on more than one row (no row gives NULL).
//   - A correlated scalar subquery must be an aggregate; it is grouped by the inner sides of
//     its correlation equalities and left-outer joined on them. Where no group matches, its
//     value is what it gives over no rows (0 for a count: the "COUNT bug" of decorrelation).
//   - [NOT] EXISTS and [NOT] IN as conjuncts of WHERE are left semi and left anti joins. NOT
//     IN's condition `(x = v) OR ((x = v) IS NULL)` makes a NULL on either side a match, so such
//     a row is dropped unless the subquery is empty, as in Spark.
//   - EXISTS and IN elsewhere are values: whether the subquery has a row (uncorrelated), or
//     whether a left outer join with the distinct values of its correlation's inner sides (and
//     for IN, its column) matched; IN also counts rows and non-NULL values to tell false from
//     NULL.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "analysis/cte_scope.h"
#include "analysis/expression_binder.h"
#include "plan/logical_plan.h"
#include "sql/ast.h"

namespace parley {

/// \brief The queries around a subquery, as the subquery's binder sees them.
struct OuterQuery {
  /// Scopes of the enclosing queries, innermost first. Only the innermost may be referenced.
  std::vector<const Scope*> scopes;
  /// Internal field names of the enclosing queries, which the subquery's fields must avoid.
  std::set<std::string> taken;
  /// The statement's counter of subqueries, for unique output names.
  int* counter = nullptr;
  /// The common table expressions visible to the subquery.
  const CteScope* ctes = nullptr;
};

/// \brief A bound subquery and its correlation with the query around it.
struct BoundSubquery {
  /// The subquery's plan: its select list's fields, then the inner values its correlation
  /// reads.
  PlanNodePtr plan;
  /// How many leading fields of `plan` are the select list.
  size_t columns = 0;
  /// Correlated conjuncts, over the enclosing query's fields and `plan`'s output.
  std::vector<BoundExprPtr> correlation;
  /// An aggregate query without GROUP BY.
  bool aggregate = false;
  /// An aggregate query without GROUP BY, HAVING, LIMIT or OFFSET: exactly one row.
  bool one_row = false;
  /// A correlated aggregate: its first column over no rows, when that is not NULL.
  BoundExprPtr empty_value;
};

/// \brief A join that a subquery expression adds below the operator that uses its value.
struct SubqueryJoin {
  PlanNodePtr right;
  PlanJoinType type = PlanJoinType::kCross;
  BoundExprPtr condition;  // may be null
};

/// \brief Plan the scalar subquery `expr` (bound as `subquery`): adds its join to `joins` and
/// returns the expression standing for its value. Errors:
/// INVALID_SUBQUERY_EXPRESSION.SCALAR_SUBQUERY_RETURN_MORE_THAN_ONE_OUTPUT_COLUMN,
/// UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.MUST_AGGREGATE_CORRELATED_SCALAR_SUBQUERY.
Result<BoundExprPtr> PlanScalarSubquery(const sql::Expr& expr, BoundSubquery subquery, int* counter,
                                        std::vector<SubqueryJoin>* joins);

/// \brief Plan `expr`, an EXISTS met elsewhere than as a WHERE conjunct (under OR, in the select
/// list): adds a join to `joins` and returns the boolean standing for it. Uncorrelated, the
/// join is with the subquery's row count; correlated by equalities, a left outer join with the
/// distinct inner sides of its correlation, marked. Errors: UNSUPPORTED_FEATURE.SUBQUERY (a
/// correlation other than equalities, a correlated aggregate).
Result<BoundExprPtr> PlanExistsValue(const sql::Expr& expr, BoundSubquery subquery, int* counter,
                                     std::vector<SubqueryJoin>* joins);

/// \brief Plan `expr`, `value` IN a subquery met elsewhere than as a WHERE conjunct, from two
/// bindings of the subquery (`match`, `count`): a left outer join with its distinct (correlation
/// keys, value) pairs says whether a row matched, and one with its row and non-NULL value counts
/// per key whether the answer is false or NULL, as Spark's three-valued IN. Errors: those of
/// PlanPredicateSubquery, and UNSUPPORTED_FEATURE.SUBQUERY for a correlation other than
/// equalities.
Result<BoundExprPtr> PlanInValue(const sql::Expr& expr, const BoundExprPtr& value,
                                 BoundSubquery match, BoundSubquery count, int* counter,
                                 std::vector<SubqueryJoin>* joins);

/// \brief Binds the query of a subquery expression (analysis/query_binder.h: BindSubquery).
using SubqueryBinder = std::function<Result<BoundSubquery>()>;

/// \brief Plan `expr`, a scalar, EXISTS or [NOT] IN subquery met as a value (`in_value`: IN's
/// bound left side), with PlanScalarSubquery, PlanExistsValue or PlanInValue: `bind` binds its
/// query (twice for IN). Adds its joins to `joins`, each of which keeps every row of its left
/// input exactly once, and returns the expression standing for its value.
Result<BoundExprPtr> PlanSubqueryValue(const sql::Expr& expr, const BoundExprPtr& in_value,
                                       const SubqueryBinder& bind, int* counter,
                                       std::vector<SubqueryJoin>* joins);

/// \brief The join of the WHERE conjunct `expr`: EXISTS (`value` null) or `value` IN the
/// subquery, negated for NOT. Errors: DATATYPE_MISMATCH.IN_SUBQUERY_LENGTH_MISMATCH,
/// DATATYPE_MISMATCH.IN_SUBQUERY_DATA_TYPE_MISMATCH, UNSUPPORTED_FEATURE.SUBQUERY (a correlated
/// aggregate).
Result<SubqueryJoin> PlanPredicateSubquery(const sql::Expr& expr, const BoundExprPtr& value,
                                           bool negated, BoundSubquery subquery);

/// \brief What `value`, an expression over the output of `aggregate` (a node without grouping
/// keys, or whose keys are NULL), gives over no rows, when a count makes that other than NULL:
/// `value` with each count 0 and every other field NULL; null otherwise.
BoundExprPtr ValueOverNoRows(const PlanNode& aggregate, const BoundExprPtr& value);

/// \brief `plan` joined with each of `joins` in turn, as their left input.
PlanNodePtr ApplySubqueryJoins(PlanNodePtr plan, const std::vector<SubqueryJoin>& joins);

/// \brief The conjuncts of `expr` split on AND.
void CollectConjuncts(const sql::Expr& expr, std::vector<const sql::Expr*>* out);

/// \brief The EXISTS or IN subquery node of `expr` when it is one, possibly under NOT, and
/// whether it is negated (NOT EXISTS, NOT IN, NOT (x IN ...)); null otherwise.
const sql::Expr* AsPredicateSubquery(const sql::Expr& expr, bool* negated);

}  // namespace parley
