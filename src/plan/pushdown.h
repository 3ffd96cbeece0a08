// Pushdown negotiation: the one place where the engine and a connector's ScanBuilder agree on
// who does what, in Spark's order (filters, then column pruning, then Build()).
//
// Filters: the conjuncts of a Filter directly above a scan are translated to V2 predicates and
// offered through SupportsPushDownV2Filters::PushPredicates; what the builder returns, plus what
// could not be translated, stays in the Filter above the scan. Column pruning then asks for the
// columns the operators above need, always including every column a residual filter reads. The
// built Scan's ReadSchema() becomes the scan's output. The agreement is recorded in the scan
// node's ScanNegotiation, where EXPLAIN prints it.
#pragma once

#include "plan/logical_plan.h"

namespace parley {

/// \brief Negotiate every scan of a bound plan and return the rewritten plan.
/// CONNECTOR_CONTRACT_VIOLATION.* when a connector's answers break the contract (a residual
/// predicate it was never offered, a read schema missing a required column).
Result<PlanNodePtr> NegotiatePushdown(const PlanNodePtr& plan);

/// \brief Plan the physical form of a negotiated scan once: ToBatch() then
/// PlanInputPartitions(). Later calls reuse the result.
Status PlanScanPartitions(PlanNode* scan);

}  // namespace parley
