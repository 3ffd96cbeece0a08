// Join pushdown (SupportsPushDownJoin): an inner join of two scans whose builders both take
// joins and call each other compatible is offered to the left builder, after each side's
// filters were offered and before aggregates, limits and column pruning, as in Spark.
//
// A side qualifies when only column-to-column projections lie between the join and its scan
// (so a residual filter on a side means no offer). Each side's columns are offered with
// aliases that make every name unique, case-insensitively, as Spark generates them: a name
// used once keeps itself; a repeated one keeps itself the first time and takes `<name>_<n>`
// after. The join's keys and residual condition go as one V2 predicate over those names; a
// condition that does not translate, a cross join or a join that is not inner is not offered.
// On acceptance the join becomes a projection of the left scan, which now reads the joined
// relation; ScanNegotiation::pushed_joins records the agreement for EXPLAIN.
#pragma once

#include "plan/logical_plan.h"

namespace parley {

/// \brief Offer `join` to its sides' builders; return the node that replaces it (itself when
/// nothing was pushed). Both sides' builders must have been created.
Result<PlanNodePtr> OfferJoin(const PlanNodePtr& join);

/// \brief Spark's unique aliases for the columns of a join's two sides (see above); an empty
/// alias means the column keeps its name.
void AliasJoinColumns(const std::vector<std::string>& left, const std::vector<std::string>& right,
                      std::vector<ColumnWithAlias>* left_out,
                      std::vector<ColumnWithAlias>* right_out);

}  // namespace parley
