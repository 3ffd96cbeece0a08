// Storage-partitioned joins (SupportsReportPartitioning, HasPartitionKey), as Spark plans them
// with spark.sql.sources.v2.bucketing.enabled.
//
// A join with equi keys qualifies when each input is a scan, through nothing but column
// projections and filters, whose built Scan reports key-grouped partitioning, the two sides'
// partition keys pair up transform by transform (same transform name and parameters, e.g.
// bucket(8, ...) on both) over columns that a join key pairs, and every partition reports its
// key values with the same types on both sides. Rows that can match then have equal partition
// keys, so the join runs one key group at a time: the partitions of each side with one key
// value (several partitions with one value are grouped) are joined together and the groups'
// results are unioned; no row moves between groups. A value present on one side only is
// joined with no rows of the other (kept by outer and anti joins, skipped by the rest).
#pragma once

#include "plan/logical_plan.h"

namespace parley {

/// \brief The partitions of both sides of a storage-partitioned join, by key group.
struct PartitionGroups {
  PlanNode* left_scan = nullptr;
  PlanNode* right_scan = nullptr;
  /// One entry per key group, in key order: the indices into each scan's planned partitions.
  std::vector<std::vector<size_t>> left;
  std::vector<std::vector<size_t>> right;
  /// The paired partition keys, as EXPLAIN prints them: `identity(k) = identity(k)`.
  std::vector<std::string> keys;
};

/// \brief Group the partitions of `join`'s sides by key value (planning them first); nullopt
/// when the join does not qualify as described above.
Result<std::optional<PartitionGroups>> GroupJoinPartitions(const PlanNode& join);

/// \brief Set PlanNode::storage_partitioned on every join of `plan` that qualifies now.
Status MarkStoragePartitionedJoins(const PlanNodePtr& plan);

}  // namespace parley
