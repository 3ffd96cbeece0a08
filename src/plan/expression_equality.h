// Structural equality of bound expressions.
#pragma once

#include "plan/bound_expression.h"

namespace parley {

/// \brief True when `a` and `b` are the same expression: same kinds, types, columns (by
/// internal name, so `x.b` and `y.b` differ even though both print as `b`), literal values and
/// functions, argument by argument.
bool SameExpression(const BoundExpr& a, const BoundExpr& b);

}  // namespace parley
