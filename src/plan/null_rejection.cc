// Null rejection by the NULL propagation of comparisons, arithmetic and casts.
#include "plan/null_rejection.h"

#include <algorithm>

#include "arrow/scalar.h"

namespace parley {
namespace {

// Functions whose result is NULL when any argument is NULL (ANSI casts of NULL included).
bool PropagatesNull(const std::string& function) {
  static const std::set<std::string> kStrict = {
      "=",     "<>",    "<",      "<=",        ">",      ">=",          "+",         "-",
      "*",     "/",     "%",      "DIV",       "NEGATE", "CAST",        "NOT",       "abs",
      "upper", "lower", "length", "substring", "LIKE",   "STARTS_WITH", "ENDS_WITH", "CONTAINS"};
  return kStrict.count(function) > 0;
}

// True when `expr` is NULL whenever `fields` are all NULL.
bool NullWhenFieldsNull(const BoundExpr& expr, const std::set<std::string>& fields) {
  switch (expr.kind) {
    case BoundExpr::Kind::kColumn: return fields.count(expr.field) > 0;
    case BoundExpr::Kind::kLiteral: return expr.literal == nullptr || !expr.literal->is_valid;
    case BoundExpr::Kind::kCall:
      if (expr.function == "IN") return NullWhenFieldsNull(*expr.args[0], fields);
      if (!PropagatesNull(expr.function)) return false;
      return std::any_of(expr.args.begin(), expr.args.end(),
                         [&](const BoundExprPtr& arg) { return NullWhenFieldsNull(*arg, fields); });
  }
  return false;
}

}  // namespace

bool RejectsNulls(const BoundExpr& predicate, const std::set<std::string>& fields) {
  if (predicate.kind == BoundExpr::Kind::kCall) {
    if (predicate.function == "AND") {
      return std::any_of(predicate.args.begin(), predicate.args.end(),
                         [&](const BoundExprPtr& arg) { return RejectsNulls(*arg, fields); });
    }
    if (predicate.function == "OR") {
      return std::all_of(predicate.args.begin(), predicate.args.end(),
                         [&](const BoundExprPtr& arg) { return RejectsNulls(*arg, fields); });
    }
    if (predicate.function == "IS_NOT_NULL") return NullWhenFieldsNull(*predicate.args[0], fields);
  }
  return NullWhenFieldsNull(predicate, fields);
}

}  // namespace parley
