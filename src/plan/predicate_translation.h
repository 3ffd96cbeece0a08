// Translation of bound conditions into connector (V2) predicates, following Spark's rules: only
// deterministic expressions over columns and literals translate; anything else stays with the
// engine.
#pragma once

#include "parley/connector/expressions.h"
#include "plan/bound_expression.h"

namespace parley {

/// \brief Translate a bound condition over a scan's columns (field names are column names)
/// into a V2 Predicate, or nullptr when it has no V2 form.
PredicatePtr TranslatePredicate(const BoundExpr& condition);

}  // namespace parley
