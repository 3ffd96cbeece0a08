// Pushdown negotiation: the one place where the engine and a connector's ScanBuilder agree on
// who does what, in Spark's order (sample, filters, join, aggregates, limit / top-N / offset,
// column pruning, then Build()).
//
// Filters: the conjuncts of a Filter directly above a scan are translated to V2 predicates and
// offered through SupportsPushDownV2Filters::PushPredicates; what the builder returns, plus what
// could not be translated, stays in the Filter above the scan. Column pruning then asks for the
// columns the operators above need, always including every column a residual filter reads. The
// built Scan's ReadSchema() becomes the scan's output. The agreement is recorded in the scan
// node's ScanNegotiation, where EXPLAIN prints it.
#pragma once

#include <map>
#include <string>

#include "catalog/sql_conf.h"
#include "plan/logical_plan.h"
#include "plan/physical_planning.h"

namespace parley {

/// \brief Which optional negotiations run (settings of the session's SqlConf).
struct PushdownOptions {
  /// spark.sql.optimizer.datasourceV2JoinPushdown: offer joins (plan/join_pushdown.h).
  bool join_pushdown = true;
  /// spark.sql.sources.v2.bucketing.enabled: storage-partitioned joins
  /// (plan/storage_partitioned_join.h).
  bool storage_partitioned_join = true;
  /// spark.sql.optimizer.nestedSchemaPruning.enabled: narrow struct columns read only through
  /// field accesses (plan/nested_pruning.h).
  bool nested_schema_pruning = true;
  /// The decisions that make the negotiated plan final (plan/physical_planning.h).
  PhysicalPlanningOptions physical;
};

/// \brief The options the session's settings ask for.
PushdownOptions PushdownOptionsFor(const SqlConf& conf);

/// \brief Negotiate every scan of a bound plan, order its joins, and make its physical
/// decisions (plan/physical_planning.h); return the plan, final for execution.
/// CONNECTOR_CONTRACT_VIOLATION.* when a connector's answers break the contract (a residual
/// predicate it was never offered, a read schema missing a required column).
Result<PlanNodePtr> NegotiatePushdown(const PlanNodePtr& plan, const PushdownOptions& options = {});

/// \brief Follow column projections (and, with `through_filters`, filters) down from `node`;
/// return the scan below them, or nullptr when another operator is in the way, and through
/// `mapping` the scan column each field of `node`'s output carries ("" where it is computed).
PlanNode* ScanBelowProjections(PlanNode* node, std::map<std::string, std::string>* mapping,
                               bool through_filters = false);

/// \brief Plan the physical form of a negotiated scan once: ToBatch() then
/// PlanInputPartitions(). Later calls reuse the result.
Status PlanScanPartitions(PlanNode* scan);

}  // namespace parley
