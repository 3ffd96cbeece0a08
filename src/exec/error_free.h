// Which bound expressions cannot raise an error at run time, whatever rows they meet. Spark's
// ANSI mode makes arithmetic, casts and many functions fail on some values (DIVIDE_BY_ZERO,
// ARITHMETIC_OVERFLOW, CAST_INVALID_INPUT...); a conditional expression whose branches are all
// error-free may evaluate them on every row, as Arrow's case_when and coalesce do, while one
// with a branch that can fail must evaluate it only on the rows that reach it.
#pragma once

#include "plan/bound_expression.h"

namespace parley {

/// \brief True when no row can make `expr` fail: it reads columns and literals through calls
/// known to be total on their argument types (comparisons, boolean logic, floating-point and
/// exact decimal arithmetic, widening casts, casts of literals that succeed...). False for
/// anything else, including every function not known to be total.
bool IsErrorFree(const BoundExpr& expr);

/// \brief True for a decimal +, - or NEGATE whose exact result type fits 38 digits: it is then
/// Spark's result type, and nothing can overflow (nor fail).
bool IsExactDecimalAdditive(const BoundExpr& expr);

/// \brief True for a decimal-to-decimal CAST that keeps every digit (no smaller scale, no
/// fewer integer digits): it cannot fail.
bool IsWideningDecimalCast(const BoundExpr& expr);

}  // namespace parley
