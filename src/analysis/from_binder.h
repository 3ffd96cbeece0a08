// FromBinder: binds a FROM clause (named tables, subqueries and joins of them) into a plan and
// the scope its columns are visible in.
//
// Every relation keeps its own qualifier (its alias, or catalog.namespace.table), so `t.a`,
// `alias.a` and `cat.ns.t.a` resolve, and an unqualified name found in two relations is
// AMBIGUOUS_REFERENCE. A join's output is its left input's fields then its right's; fields of
// the right input whose internal names clash with the left's are renamed by a projection, so
// every field of a join has a unique name. USING and NATURAL joins list each key column once,
// first, as Spark does; the other side's copy stays reachable by a qualified name (hidden).
#pragma once

#include <set>
#include <string>

#include "analysis/cte_scope.h"
#include "analysis/expression_binder.h"
#include "catalog/catalog_manager.h"
#include "plan/logical_plan.h"
#include "sql/ast.h"

namespace parley {

/// \brief A bound FROM clause: its plan and the columns visible above it, in `*` order.
struct BoundRelation {
  PlanNodePtr plan;
  Scope scope;
};

/// \brief `relation` with each field whose internal name is in `taken` renamed (to `name#N`,
/// a name neither `taken` nor the relation has) by a projection over its plan, its scope
/// following; unchanged when no name clashes.
BoundRelation RenameApart(BoundRelation relation, const std::set<std::string>& taken);

/// \brief Bind `item`; a one-part table name found in `ctes` is that CTE. Errors:
/// TABLE_OR_VIEW_NOT_FOUND, UNSUPPORTED_FEATURE.TABLE_OPERATION, UNRESOLVED_USING_COLUMN_FOR_JOIN,
/// JOIN_CONDITION_IS_NOT_BOOLEAN_TYPE, ASSIGNMENT_ARITY_MISMATCH (column aliases),
/// UNSUPPORTED_FEATURE.CHANGE_DATA_CAPTURE_ON_RELATION (CHANGES on a CTE),
/// UNSUPPORTED_FEATURE.QUERY_SHAPE (table functions, TABLESAMPLE, LATERAL).
Result<BoundRelation> BindFromItem(const sql::FromItem& item, CatalogManager* catalogs,
                                   const CteScope* ctes = nullptr);

/// \brief While alive, binding on this thread treats the view `display` (as errors name it) as
/// being expanded, so a query that reaches it is RECURSIVE_VIEW, and lists the temporary views
/// the bound queries read in `temp_views` (when not null). Used to check a view's new query
/// before it is stored. Scopes nest.
class ViewDefinitionScope {
 public:
  ViewDefinitionScope(std::string display, std::vector<std::string>* temp_views);
  ~ViewDefinitionScope();
  ViewDefinitionScope(const ViewDefinitionScope&) = delete;
  ViewDefinitionScope& operator=(const ViewDefinitionScope&) = delete;

 private:
  std::vector<std::string>* outer_temp_views_;
};

}  // namespace parley
