// MemoryTable: a table of the `memory` catalog whose rows live in this process as Arrow record
// batches.
//
// A MemoryTable is created by MemoryCatalog::CreateTable and filled through AppendData or
// ReplaceData (the C++ population API; SQL INSERT will call the same methods). Reads go through
// the standard DSV2 path: NewScanBuilder -> column pruning -> Build -> one input partition per
// stored record batch. A scan sees the data as it was when its ScanBuilder::Build() ran: later
// appends or replacements do not change a scan already built. Because the rows exist only in
// this process, the serialized partitions and reader factory carry a reference to that
// snapshot (a process token and a snapshot id resolved through a process-wide registry), not
// the data; memory_scan_internal.h documents the encoding and the lifetime rule.
//
// Thread-safety: every method may be called from several threads at once; data changes are
// serialized by an internal mutex and are atomic with respect to scans.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/metadata_columns.h"
#include "parley/connector/read.h"
#include "parley/connector/row_level.h"
#include "parley/connector/table.h"
#include "parley/connector/types.h"
#include "parley/connector/write.h"

namespace parley::memory {

class MemoryCatalog;
struct MemoryWriteMode;

/// \brief An in-memory table: reads with column pruning pushdown; transactional writes (append,
/// truncate, overwrite by equality predicates, dynamic partition overwrite) whose rows appear
/// at BatchWrite::Commit in one step; TRUNCATE TABLE; filter deletes and row-level DML,
/// group-based or delta-based by table property; metadata columns `_batch` and `_pos`.
class MemoryTable : public Table,
                    public SupportsRead,
                    public SupportsMetadataColumns,
                    public SupportsWrite,
                    public TruncatableTable,
                    public SupportsDeleteV2,
                    public SupportsRowLevelOperations,
                    public std::enable_shared_from_this<MemoryTable> {
 public:
  /// \brief Create an empty table. `name` is the display name returned by name().
  /// REQUIRES: the table is owned by a std::shared_ptr (scans keep it alive); every column
  /// has a non-null type; column names are unique ignoring case. MemoryCatalog::CreateTable
  /// makes the table shared and checks the names.
  MemoryTable(std::string name, TableInfo info);

  std::string name() const override;
  std::vector<Column> columns() const override;
  std::vector<std::shared_ptr<Transform>> partitioning() const override;
  std::map<std::string, std::string> properties() const override;
  /// \brief BATCH_READ, BATCH_WRITE, TRUNCATE, OVERWRITE_BY_FILTER and OVERWRITE_DYNAMIC.
  std::set<TableCapability> capabilities() const override;

  /// \brief Return a builder that supports SupportsPushDownRequiredColumns (and no filter
  /// pushdown). `options` are accepted and ignored: the memory source has no read options.
  Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options& options) override;

  /// \brief `_batch` and `_pos`, a row's stored batch and position (memory_scan_internal.h).
  std::vector<Column> metadataColumns() const override;

  /// \brief A builder whose writers stage rows until BatchWrite::Commit; see
  /// memory_write_internal.h. Writers expect batches with exactly the table's column types.
  Result<std::unique_ptr<WriteBuilder>> NewWriteBuilder(const LogicalWriteInfo& info) override;

  /// \brief Remove every row; always true.
  Result<bool> TruncateTable() override;

  /// \brief Filter deletes of the predicates CanEvaluate accepts (none: every row).
  bool CanDeleteWhere(const std::vector<PredicatePtr>& predicates) const override;
  /// \brief Delete the matching rows in one step; returns how many went.
  Result<int64_t> DeleteWhere(const std::vector<PredicatePtr>& predicates) override;

  /// \brief DELETE/UPDATE/MERGE (memory_row_level.cc). The table properties
  /// `write.delete.mode`, `write.update.mode` and `write.merge.mode` choose, per command,
  /// `copy-on-write` (the default: group-based, a group is a stored batch) or `merge-on-read`
  /// (delta-based, a row is identified by `_batch` and `_pos`). Errors at Build():
  /// INVALID_OPTION_VALUE for another value; UNSUPPORTED_FEATURE.TABLE_OPERATION for
  /// merge-on-read when a data column shadows a metadata column.
  Result<std::unique_ptr<RowLevelOperationBuilder>> NewRowLevelOperationBuilder(
      const RowLevelOperationInfo& info) override;

  /// \brief Whether the overwrite predicates are a conjunction the table can evaluate:
  /// ALWAYS_TRUE, `column = literal`, `column <=> literal` and `column IS NULL`, on top-level
  /// columns.
  bool CanEvaluate(const std::vector<PredicatePtr>& predicates) const;

  /// \brief Apply a committed write in one step: drop the rows `mode` replaces, then add
  /// `batches` (each with exactly the table's schema). `removed`, when given, receives how
  /// many existing rows were dropped.
  Status CommitWrite(const MemoryWriteMode& mode,
                     std::vector<std::shared_ptr<arrow::RecordBatch>> batches,
                     int64_t* removed = nullptr);

  /// \brief Append the rows of `data` after the existing rows. Each record batch of `data`
  /// (as cut by arrow::TableBatchReader) becomes one stored batch, and thus one input partition
  /// of later scans; empty batches are dropped.
  ///
  /// `data` must have the table's columns in table order: the same count, names equal
  /// ignoring case, types equal (field metadata and nullability flags are ignored, the table's
  /// own schema is applied), and no nulls in a column declared NOT NULL. Otherwise nothing is
  /// appended and the error carries INCOMPATIBLE_DATA_FOR_TABLE.EXTRA_COLUMNS,
  /// .CANNOT_FIND_DATA, .CANNOT_SAFELY_CAST or .NULLABLE_COLUMN naming the column.
  /// REQUIRES: data != nullptr.
  Status AppendData(const std::shared_ptr<arrow::Table>& data);

  /// \brief Replace all rows with those of `data` (as INSERT OVERWRITE or TRUNCATE would).
  /// Same requirements and errors as AppendData; on error the old rows stay.
  /// REQUIRES: data != nullptr.
  Status ReplaceData(const std::shared_ptr<arrow::Table>& data);

  /// \brief The stored batches, in order, each with exactly the table's schema. The returned
  /// vector is a copy: it is not affected by later appends.
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches() const;

 private:
  friend class MemoryCatalog;

  // Check `data` against the table's columns and cut it into batches with the table's schema.
  Result<std::vector<std::shared_ptr<arrow::RecordBatch>>> ConformData(
      const arrow::Table& data) const;
  // Called by MemoryCatalog::RenameTable under the catalog's lock.
  void set_name(std::string name);

  const TableInfo info_;
  const std::shared_ptr<arrow::Schema> schema_;

  mutable std::mutex mutex_;
  std::string name_;                                       // guarded by mutex_
  std::vector<std::shared_ptr<arrow::RecordBatch>> data_;  // guarded by mutex_
};

}  // namespace parley::memory
