// IsBasicSelect: whether a query uses only the forms SelectStatement had before the full query
// grammar, found by walking every expression of the query (see ast.h).
#include "sql/ast.h"

namespace parley::sql {
namespace {

bool IsBasicExpr(const Expr& expr) {
  if (expr.subquery_kind != SubqueryKind::kNone || expr.subquery || expr.interval || expr.filter ||
      expr.window || expr.ignore_nulls.has_value() || !expr.within_group.empty()) {
    return false;
  }
  for (const ExprPtr& child : expr.children) {
    if (!IsBasicExpr(*child)) return false;
  }
  return true;
}

bool IsBasic(const ExprPtr& expr) { return expr == nullptr || IsBasicExpr(*expr); }

}  // namespace

bool IsBasicSelect(const SelectStatement& select) {
  if (select.kind != QueryKind::kSelect || !select.with.empty() || select.group_by ||
      select.having || !select.windows.empty()) {
    return false;
  }
  if (select.from_item && !select.from) return false;
  for (const SelectItem& item : select.items) {
    if (!IsBasic(item.expr)) return false;
  }
  for (const OrderItem& item : select.order_by) {
    if (!IsBasic(item.expr)) return false;
  }
  return IsBasic(select.where) && IsBasic(select.limit) && IsBasic(select.offset);
}

}  // namespace parley::sql
