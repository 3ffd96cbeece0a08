// Table: the central abstraction of a dataset reached through a connector, and its read mix-in.
//
// A connector returns a Table from TableCatalog::LoadTable or TableProvider::GetTable. The table
// declares what it can do with capabilities(); the engine checks them at analysis, before any
// task runs, and discovers the matching mix-ins (SupportsRead, later SupportsWrite...) with
// dynamic_cast. A Table is safe for concurrent use by several scans.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/expressions.h"
#include "parley/connector/status.h"
#include "parley/connector/types.h"

namespace parley {

class ScanBuilder;
class WriteBuilder;
struct LogicalWriteInfo;

/// \brief What a table can do, with Spark's names (TableCapability).
enum class TableCapability {
  kBatchRead,
  kMicroBatchRead,
  kContinuousRead,
  kBatchWrite,
  kStreamingWrite,
  kTruncate,
  kOverwriteByFilter,
  kOverwriteDynamic,
  kAcceptAnySchema,
  kV1BatchWrite,
  kAutomaticSchemaEvolution,
};

/// \brief Spark's name of a capability, e.g. "BATCH_READ".
const char* TableCapabilityName(TableCapability capability);

/// \brief A logical dataset. Implementations add mix-ins such as SupportsRead.
class Table {
 public:
  virtual ~Table() = default;
  /// \brief A name identifying the table in messages and EXPLAIN.
  virtual std::string name() const = 0;
  /// \brief The table's columns, in order.
  virtual std::vector<Column> columns() const = 0;
  /// \brief The partition transforms, empty when the table is not partitioned.
  virtual std::vector<std::shared_ptr<Transform>> partitioning() const { return {}; }
  /// \brief Table properties (e.g. "provider", "location").
  virtual std::map<std::string, std::string> properties() const { return {}; }
  /// \brief The capabilities this table supports; the engine fails at analysis when an
  /// operation needs one that is missing.
  virtual std::set<TableCapability> capabilities() const = 0;

  /// \brief The columns as an Arrow schema.
  std::shared_ptr<arrow::Schema> schema() const;
};

/// \brief Mix-in for tables that can be read: BATCH_READ (and streaming reads later).
class SupportsRead {
 public:
  virtual ~SupportsRead() = default;
  /// \brief Return a fresh ScanBuilder for one read of the table. Called once per scan in a
  /// query, on the driver. `options` are the read options, keys lower-cased.
  virtual Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options& options) = 0;
};

/// \brief Mix-in for tables that can be written: BATCH_WRITE (see write.h for the protocol).
class SupportsWrite {
 public:
  virtual ~SupportsWrite() = default;
  /// \brief Return a fresh WriteBuilder for one write. Called once per write, on the driver,
  /// after the engine has checked the capabilities the write needs.
  virtual Result<std::unique_ptr<WriteBuilder>> NewWriteBuilder(const LogicalWriteInfo& info) = 0;
};

/// \brief Mix-in for TRUNCATE TABLE: remove every row at once, atomically where the source can.
class TruncatableTable {
 public:
  virtual ~TruncatableTable() = default;
  /// \brief Remove all rows; return whether the table was truncated.
  virtual Result<bool> TruncateTable() = 0;
};

/// \brief Mix-in for DELETE by filter without reading rows (Spark's SupportsDeleteV2): the
/// table drops whole groups (files, partitions) at once. The engine uses it only when every
/// conjunct of the condition translates and CanDeleteWhere accepts them; otherwise it falls back
/// to SupportsRowLevelOperations (row_level.h).
class SupportsDeleteV2 {
 public:
  virtual ~SupportsDeleteV2() = default;
  /// \brief Whether DeleteWhere(predicates) can delete exactly the rows matching all of them
  /// (a conjunction) without rewriting any row. An empty list means "every row".
  virtual bool CanDeleteWhere(const std::vector<PredicatePtr>& predicates) const = 0;
  /// \brief Delete the rows matching all predicates, atomically; return how many rows went, or
  /// -1 when the table cannot tell.
  virtual Result<int64_t> DeleteWhere(const std::vector<PredicatePtr>& predicates) = 0;
};

}  // namespace parley
