// Null rejection: whether a predicate can hold on a row whose columns from one join input are
// all NULL. A filter above an outer join that cannot makes the NULL-extended rows of that join
// pointless, so the join may become an inner one (Spark's EliminateOuterJoin).
#pragma once

#include <set>
#include <string>

#include "plan/bound_expression.h"

namespace parley {

/// \brief True when `predicate` is never TRUE on a row whose `fields` (internal names) are all
/// NULL, whatever the other columns hold. Conservative: false when unsure.
bool RejectsNulls(const BoundExpr& predicate, const std::set<std::string>& fields);

}  // namespace parley
