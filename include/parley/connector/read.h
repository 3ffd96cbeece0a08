// The read path: ScanBuilder (pushdown negotiation) -> Scan (read schema, description) ->
// Batch (input partitions + reader factory) -> PartitionReader (per-task Arrow batches).
//
// Calling protocol, as in Spark:
//   1. The engine calls Table::NewScanBuilder once per scan, then offers pushdowns through the
//      mix-ins the builder implements, in Spark's order: table sample, filters (V1 form first
//      when the builder implements it), join, aggregate, limit / top-N / offset, column pruning
//      last; each at most once (filters again only with SupportsIterativePushdown). Aggregate,
//      limit, top-N and offset are offered only when no filter is left above the scan. Then
//      Build() is called once.
//   2. Scan::ToBatch() is called once; Batch::PlanInputPartitions() and CreateReaderFactory()
//      are called once each, on the driver.
//   3. Each InputPartition and the PartitionReaderFactory cross the driver/executor boundary:
//      they must serialize to bytes and be rebuilt from bytes with no live handle inside. In test
//      mode (`parley.test.roundTripTasks=true`) the engine round-trips every one of them before
//      use and fails with CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE when that breaks.
//   4. Each task creates one PartitionReader from the factory and drains it.
// Builders, scans and batches are used from one thread at a time. A PartitionReaderFactory must
// be safe to call from several task threads at once; each PartitionReader is used by one thread.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/aggregation.h"
#include "parley/connector/expressions.h"
#include "parley/connector/filters.h"
#include "parley/connector/metrics.h"
#include "parley/connector/status.h"

namespace parley {

class Scan;
class Batch;

/// \brief Configures one read; the engine negotiates pushdown with it, then calls Build().
class ScanBuilder {
 public:
  virtual ~ScanBuilder() = default;
  /// \brief Return the configured Scan. Called once, after every pushdown offer.
  virtual Result<std::shared_ptr<Scan>> Build() = 0;
};

/// \brief ScanBuilder mix-in: accept predicates (V2 form) that the source will apply.
class SupportsPushDownV2Filters {
 public:
  virtual ~SupportsPushDownV2Filters() = default;
  /// \brief Offer the conjuncts of the query's filter. Return the predicates the engine must
  /// still evaluate above the scan. A predicate neither returned nor applied by the reader is
  /// silently lost, which makes the query wrong: return anything you do not apply exactly.
  /// A predicate may be both accepted and returned (e.g. used only to skip row groups).
  virtual Result<std::vector<PredicatePtr>> PushPredicates(
      std::vector<PredicatePtr> predicates) = 0;
  /// \brief The predicates the source accepted in the last PushPredicates call (all calls, for
  /// an iterative source).
  virtual std::vector<PredicatePtr> PushedPredicates() const = 0;
  /// \brief Whether PushPredicates may be called more than once, accumulating. Default false.
  virtual bool SupportsIterativePushdown() const { return false; }
};

/// \brief ScanBuilder mix-in, the older form: accept V1 filters. The engine checks this form
/// first, as Spark does; implement one form or the other.
class SupportsPushDownFilters {
 public:
  virtual ~SupportsPushDownFilters() = default;
  /// \brief Offer the filters; return the ones the engine must still evaluate.
  virtual Result<std::vector<FilterPtr>> PushFilters(std::vector<FilterPtr> filters) = 0;
  /// \brief The filters the source accepted.
  virtual std::vector<FilterPtr> PushedFilters() const = 0;
};

/// \brief ScanBuilder mix-in: sample the table at the source (TABLESAMPLE).
class SupportsPushDownTableSample {
 public:
  virtual ~SupportsPushDownTableSample() = default;
  /// \brief Return whether the source samples rows with a fraction in [lower, upper).
  virtual bool PushTableSample(double lower_bound, double upper_bound, bool with_replacement,
                               int64_t seed) = 0;
};

/// \brief The join types the engine may push (Spark's connector.join.JoinType).
enum class JoinType { kInner };

/// \brief A column of one join side and the unique name it takes in the joined output.
struct ColumnWithAlias {
  std::string column;
  std::string alias;
};

/// \brief ScanBuilder mix-in: execute a join with another scan of the same source.
class SupportsPushDownJoin {
 public:
  virtual ~SupportsPushDownJoin() = default;
  /// \brief Whether `other` can be joined here (e.g. the same database connection).
  virtual bool IsOtherSideCompatibleForJoin(const SupportsPushDownJoin& other) const = 0;
  /// \brief Join this builder's relation (left) with `other` (right). On true this builder
  /// represents the joined relation, whose columns are the left then right aliases.
  virtual Result<bool> PushDownJoin(const SupportsPushDownJoin& other, JoinType type,
                                    const std::vector<ColumnWithAlias>& left_columns,
                                    const std::vector<ColumnWithAlias>& right_columns,
                                    const PredicatePtr& condition) = 0;
};

/// \brief ScanBuilder mix-in: compute aggregates at the source.
class SupportsPushDownAggregates {
 public:
  virtual ~SupportsPushDownAggregates() = default;
  /// \brief Whether the source computes the aggregation completely (one output row per group),
  /// so the engine can drop its own aggregate. Default false: the engine re-aggregates.
  virtual bool SupportCompletePushDown(const Aggregation& aggregation) const { return false; }
  /// \brief Return whether the source accepted the aggregation.
  virtual Result<bool> PushAggregation(const Aggregation& aggregation) = 0;
};

/// \brief ScanBuilder mix-in: stop after a number of rows.
class SupportsPushDownLimit {
 public:
  virtual ~SupportsPushDownLimit() = default;
  /// \brief Return whether the source applies the limit.
  virtual bool PushLimit(int64_t limit) = 0;
  /// \brief Whether the engine must still apply the limit (default true).
  virtual bool IsPartiallyPushed() const { return true; }
};

/// \brief ScanBuilder mix-in: return only the first `limit` rows in an order.
class SupportsPushDownTopN {
 public:
  virtual ~SupportsPushDownTopN() = default;
  /// \brief Return whether the source applies the top-N.
  virtual bool PushTopN(const std::vector<std::shared_ptr<SortOrder>>& orders, int64_t limit) = 0;
  /// \brief Whether the engine must still sort and limit (default true).
  virtual bool IsPartiallyPushed() const { return true; }
};

/// \brief ScanBuilder mix-in: skip a number of rows (all or nothing).
class SupportsPushDownOffset {
 public:
  virtual ~SupportsPushDownOffset() = default;
  /// \brief Return whether the source skips exactly `offset` rows.
  virtual bool PushOffset(int64_t offset) = 0;
};

/// \brief ScanBuilder mix-in: read only the columns the query needs.
class SupportsPushDownRequiredColumns {
 public:
  virtual ~SupportsPushDownRequiredColumns() = default;
  /// \brief Narrow the output to `required_schema` (a subset of the table's columns, in table
  /// order). Pruning may be partial; Scan::ReadSchema() reports what was really applied.
  virtual Status PruneColumns(const std::shared_ptr<arrow::Schema>& required_schema) = 0;
};

/// \brief A configured read: its output schema, a description for EXPLAIN, its physical form.
class Scan {
 public:
  virtual ~Scan() = default;
  /// \brief The schema of the batches the readers produce, after any pruning.
  virtual std::shared_ptr<arrow::Schema> ReadSchema() const = 0;
  /// \brief What EXPLAIN prints inside the scan node, e.g. pushed predicates and pruned
  /// columns. Defaults to an empty string.
  virtual std::string Description() const { return {}; }
  /// \brief The batch (physical) form of the scan. Required for tables with BATCH_READ. Called
  /// again after a runtime filter (SupportsRuntimeV2Filtering).
  virtual Result<std::shared_ptr<Batch>> ToBatch() = 0;
  /// \brief The metrics readers report through PartitionReader::CurrentMetricsValues().
  virtual std::vector<std::shared_ptr<CustomMetric>> SupportedCustomMetrics() const { return {}; }
};

/// \brief Per-column statistics; unset fields are unknown.
struct ColumnStatistics {
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::shared_ptr<arrow::Scalar> min;
  std::shared_ptr<arrow::Scalar> max;
};

/// \brief What a scan expects to produce, after pushdown.
struct Statistics {
  std::optional<int64_t> size_in_bytes;
  std::optional<int64_t> num_rows;
  /// Keyed by column name.
  std::map<std::string, ColumnStatistics> column_stats;
};

/// \brief Scan mix-in: report statistics (after pushdown), used to plan joins.
class SupportsReportStatistics {
 public:
  virtual ~SupportsReportStatistics() = default;
  virtual Result<Statistics> EstimateStatistics() const = 0;
};

/// \brief How a scan's partitions divide the rows. Key-grouped: every row of a partition has
/// the partition's key (HasPartitionKey) under `keys`; otherwise the split is unknown.
struct Partitioning {
  std::vector<std::shared_ptr<Transform>> keys;  // empty: unknown partitioning
  int num_partitions = 0;
};

/// \brief Scan mix-in: report partitioning, enabling storage-partitioned joins.
class SupportsReportPartitioning {
 public:
  virtual ~SupportsReportPartitioning() = default;
  virtual Partitioning OutputPartitioning() const = 0;
};

/// \brief Scan mix-in: report the order of rows within each partition.
class SupportsReportOrdering {
 public:
  virtual ~SupportsReportOrdering() = default;
  virtual std::vector<std::shared_ptr<SortOrder>> OutputOrdering() const = 0;
};

/// \brief Scan mix-in: prune partitions at run time from predicates derived from a join's
/// build side. After Filter(), ToBatch() is called again and must keep the reported
/// partitioning (partitions may become empty).
class SupportsRuntimeV2Filtering {
 public:
  virtual ~SupportsRuntimeV2Filtering() = default;
  /// \brief The columns the source can filter on at run time.
  virtual std::vector<std::shared_ptr<NamedReference>> FilterAttributes() const = 0;
  /// \brief Apply runtime predicates over FilterAttributes() columns. They are advisory: the
  /// engine still evaluates the join; a source may ignore any of them.
  virtual Status Filter(const std::vector<PredicatePtr>& predicates) = 0;
};

/// \brief A serializable handle to one split of the data; one task reads one partition.
class InputPartition {
 public:
  virtual ~InputPartition() = default;
  /// \brief Serialize to bytes that PartitionReaderFactory::DeserializePartition rebuilds.
  virtual Result<std::string> Serialize() const = 0;
};

/// \brief InputPartition mix-in for key-grouped partitioning: the partition's key values, one
/// per Partitioning::keys transform.
class HasPartitionKey {
 public:
  virtual ~HasPartitionKey() = default;
  virtual std::vector<std::shared_ptr<arrow::Scalar>> PartitionKey() const = 0;
};

/// \brief Produces the Arrow record batches of one partition. Used by one thread.
class PartitionReader {
 public:
  virtual ~PartitionReader() = default;
  /// \brief Return the next batch (with the scan's ReadSchema()), or nullptr at the end.
  virtual Result<std::shared_ptr<arrow::RecordBatch>> Next() = 0;
  /// \brief The current values of the scan's custom metrics for this task; the engine reads
  /// them when the reader is exhausted.
  virtual std::vector<CustomTaskMetric> CurrentMetricsValues() const { return {}; }
};

/// \brief Creates readers on the executor side. Must be safe for concurrent CreateReader calls.
class PartitionReaderFactory {
 public:
  virtual ~PartitionReaderFactory() = default;
  /// \brief Create the reader of one partition.
  virtual Result<std::unique_ptr<PartitionReader>> CreateReader(
      const InputPartition& partition) const = 0;
  /// \brief Serialize to bytes that Batch::DeserializeReaderFactory rebuilds.
  virtual Result<std::string> Serialize() const = 0;
  /// \brief Rebuild a partition of this connector from InputPartition::Serialize() bytes.
  virtual Result<std::shared_ptr<InputPartition>> DeserializePartition(
      std::string_view bytes) const = 0;
};

/// \brief The physical form of a batch scan: its partitions and the factory of their readers.
class Batch {
 public:
  virtual ~Batch() = default;
  /// \brief Plan the splits; one task runs per partition. May return none.
  virtual Result<std::vector<std::shared_ptr<InputPartition>>> PlanInputPartitions() = 0;
  /// \brief The factory that creates the partitions' readers.
  virtual Result<std::shared_ptr<PartitionReaderFactory>> CreateReaderFactory() = 0;
  /// \brief Rebuild a reader factory of this scan from PartitionReaderFactory::Serialize() bytes.
  virtual Result<std::shared_ptr<PartitionReaderFactory>> DeserializeReaderFactory(
      std::string_view bytes) const = 0;
};

}  // namespace parley
