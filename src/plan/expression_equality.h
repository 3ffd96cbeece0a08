// Structural equality of bound expressions.
#pragma once

#include <map>
#include <string>

#include "plan/bound_expression.h"

namespace parley {

/// \brief True when `a` and `b` are the same expression: same kinds, types, columns (by
/// internal name, so `x.b` and `y.b` differ even though both print as `b`), literal values and
/// functions, argument by argument.
bool SameExpression(const BoundExpr& a, const BoundExpr& b);

/// \brief As SameExpression, for expressions over two inputs that compute the same rows: a
/// column of `a` matches the column of `b` that `fields` maps it to.
bool SameExpression(const BoundExpr& a, const BoundExpr& b,
                    const std::map<std::string, std::string>& fields);

}  // namespace parley
