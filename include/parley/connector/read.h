// The read path: ScanBuilder (pushdown negotiation) -> Scan (read schema, description) ->
// Batch (input partitions + reader factory) -> PartitionReader (per-task Arrow batches).
//
// Calling protocol, as in Spark:
//   1. The engine calls Table::NewScanBuilder once per scan, then offers pushdowns through the
//      mix-ins the builder implements, in Spark's order (filters, ..., column pruning last),
//      each at most once, then calls Build() once.
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

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/expressions.h"
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
  virtual Result<std::vector<PredicatePtr>> PushPredicates(std::vector<PredicatePtr> predicates) = 0;
  /// \brief The predicates the source accepted in the last PushPredicates call.
  virtual std::vector<PredicatePtr> PushedPredicates() const = 0;
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
  /// \brief The batch (physical) form of the scan. Required for tables with BATCH_READ.
  virtual Result<std::shared_ptr<Batch>> ToBatch() = 0;
};

/// \brief A serializable handle to one split of the data; one task reads one partition.
class InputPartition {
 public:
  virtual ~InputPartition() = default;
  /// \brief Serialize to bytes that PartitionReaderFactory::DeserializePartition rebuilds.
  virtual Result<std::string> Serialize() const = 0;
};

/// \brief Produces the Arrow record batches of one partition. Used by one thread.
class PartitionReader {
 public:
  virtual ~PartitionReader() = default;
  /// \brief Return the next batch (with the scan's ReadSchema()), or nullptr at the end.
  virtual Result<std::shared_ptr<arrow::RecordBatch>> Next() = 0;
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
