// Translation of bound conditions into connector (V2) predicates, following Spark's rules: only
// deterministic expressions over columns and literals translate; anything else stays with the
// engine.
#pragma once

#include "parley/connector/expressions.h"
#include "parley/connector/filters.h"
#include "plan/bound_expression.h"

namespace parley {

/// \brief Translate a bound condition over a scan's columns (field names are column names)
/// into a V2 Predicate, or nullptr when it has no V2 form.
PredicatePtr TranslatePredicate(const BoundExpr& condition);

/// \brief The V1 (sources.Filter) form of a V2 predicate, for builders that implement the
/// older SupportsPushDownFilters; nullptr when V1 cannot express it (e.g. `a < b`).
FilterPtr ToV1Filter(const Predicate& predicate);

}  // namespace parley
