// Row-level DML (DELETE, UPDATE, MERGE): the operation a table hands the engine, and the two
// ways its rows are rewritten.
//
// Calling protocol, as in Spark:
//   1. DELETE first tries SupportsDeleteV2 (table.h): when CanDeleteWhere accepts every
//      translated conjunct of the condition, DeleteWhere runs alone, with no scan or write.
//   2. Otherwise the table must implement SupportsRowLevelOperations. The engine calls
//      NewRowLevelOperationBuilder once per statement, then Build() once; it does so when it
//      binds the statement (to learn its representation, RequiredMetadataAttributes() and
//      SupportsDelta::RowId()), so a DELETE that then runs as DeleteWhere has built an
//      operation it never uses.
//   3. The engine calls RowLevelOperation::NewScanBuilder once and offers the statement's
//      condition (DELETE/UPDATE: the WHERE conjuncts; MERGE: the ON conjuncts that read only the
//      target, none when a NOT MATCHED BY SOURCE clause needs every row) through
//      SupportsPushDownV2Filters; the engine evaluates the condition itself in any case, and an
//      empty predicate list means "no condition". The operation's representation() says what
//      the scan returns:
//      - group-based (copy-on-write): the predicates only choose the groups (files,
//        partitions) to rewrite; the scan returns every row of each group that may hold a
//        matching row;
//      - delta-based (merge-on-read, the operation implements SupportsDelta): the scan returns
//        at least every row that may change, with its RowId() and RequiredMetadataAttributes()
//        columns; it may leave out rows the predicates exclude.
//   4. The engine computes the new rows and streams them into NewWriteBuilder's write as they
//      are computed, with the two-phase commit of write.h; it commits with
//      BatchWrite::CommitRowLevel, which receives what the rows did (RowLevelWriteSummary), or
//      aborts the write when the rows change nothing. A failed task or commit aborts the write
//      and must leave the table as it was.
//      - Group-based: the commit replaces exactly the groups the scan read with the written
//        rows, atomically, or fails (e.g. when a concurrent change touched those groups). When
//        the operation has RequiredMetadataAttributes() or RequiresChangeRows(), its write
//        receives with every row those attributes (if any) and the row's RowLevelWriteAction
//        (kRowLevelWriteActionColumn). With RequiresChangeRows() the write also receives the
//        rows that go and the pre-images of the updated rows, which it must not write as table
//        rows (e.g. for a change data feed).
//      - Delta-based: unchanged rows never reach the write. Each task's DataWriter must be a
//        DeltaWriter: the engine calls Delete for each row that goes, Update (or Delete then
//        Insert, when RepresentUpdateAsDeleteAndInsert()) for each changed row, with the row
//        id and metadata values the scan read, and Insert for MERGE's new rows. The commit
//        applies every recorded change atomically, or fails (e.g. when a row it deletes or
//        updates changed since the scan). LogicalWriteInfo carries the row id and metadata
//        schemas; RequiresChangeRows() does not apply.
// Builders and operations are used by one thread at a time, on the driver.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/expressions.h"
#include "parley/connector/status.h"
#include "parley/connector/types.h"
#include "parley/connector/write.h"

namespace parley {

class ScanBuilder;
class RowLevelOperation;

/// \brief The statement behind a row-level operation (Spark's RowLevelOperation.Command).
enum class RowLevelCommand { kDelete, kUpdate, kMerge };

/// \brief "DELETE", "UPDATE" or "MERGE".
const char* RowLevelCommandName(RowLevelCommand command);

/// \brief What a row-level write did to rows, counted by the engine while the rows streamed
/// into the write and handed to BatchWrite::CommitRowLevel (Spark's WriteSummary /
/// MergeSummary); -1 when not known. Connectors may report it, e.g. in their commit history.
struct RowLevelWriteSummary {
  int64_t copied = -1;  // unchanged rows of the rewritten groups, written again (delta: 0)
  int64_t updated = -1;
  int64_t deleted = -1;
  int64_t inserted = -1;
};

/// \brief What happened to a row that a group-based write receives.
/// kDelete and kUpdatePreimage rows reach the write only when the operation
/// RequiresChangeRows(); they describe the change and are not rows of the new groups.
enum class RowLevelWriteAction : int32_t {
  kCopy = 0,            // an unchanged row of a rewritten group
  kUpdate = 1,          // a row of a rewritten group, changed: its new values
  kDelete = 2,          // a row of a rewritten group that goes, as read
  kInsert = 3,          // a new row (MERGE's INSERT)
  kUpdatePreimage = 5,  // a row of a rewritten group that changes, as read (before the change)
};

/// \brief When a group-based operation has RequiredMetadataAttributes() or
/// RequiresChangeRows(), the rows its write receives hold the table's columns, then those
/// attributes (as read for copied, updated, deleted and pre-image rows, null for inserted
/// ones), then this INT32 column with each row's RowLevelWriteAction. LogicalWriteInfo::schema
/// lists them all. With RequiresChangeRows(), each kUpdate row has exactly one kUpdatePreimage
/// row (same attributes), in no particular task or order.
inline constexpr char kRowLevelWriteActionColumn[] = "__row_action";

/// \brief What the engine tells the table about the statement it plans.
struct RowLevelOperationInfo {
  RowLevelCommand command = RowLevelCommand::kDelete;
  /// Options of the statement, keys lower-cased.
  Options options;
};

/// \brief How an operation's rows are rewritten.
enum class RowLevelRepresentation {
  /// Copy-on-write: the scan returns whole groups and the write replaces them.
  kGroupBased,
  /// Merge-on-read: the scan may return only the rows that can change, with their row ids, and
  /// a DeltaWriter records deletes, updates and inserts (the operation implements SupportsDelta).
  kDeltaBased,
};

/// \brief Table mix-in: the table can run DELETE, UPDATE and MERGE by rewriting rows.
class SupportsRowLevelOperations {
 public:
  virtual ~SupportsRowLevelOperations() = default;
  /// \brief A builder for one statement. Called once per statement, on the driver.
  virtual Result<std::unique_ptr<class RowLevelOperationBuilder>> NewRowLevelOperationBuilder(
      const RowLevelOperationInfo& info) = 0;
};

/// \brief Configures one row-level operation.
class RowLevelOperationBuilder {
 public:
  virtual ~RowLevelOperationBuilder() = default;
  /// \brief The configured operation. Called once.
  virtual Result<std::shared_ptr<RowLevelOperation>> Build() = 0;
};

/// \brief One DELETE, UPDATE or MERGE against a table: its scan and its write share state (the
/// groups read are the groups replaced), so both come from the operation.
class RowLevelOperation {
 public:
  virtual ~RowLevelOperation() = default;
  /// \brief The statement this operation runs.
  virtual RowLevelCommand command() const = 0;
  /// \brief A short description for messages and EXPLAIN.
  virtual std::string description() const { return RowLevelCommandName(command()); }
  /// \brief Delta-based when the operation implements SupportsDelta, else group-based. An
  /// override that answers delta-based must implement SupportsDelta.
  virtual RowLevelRepresentation representation() const;
  /// \brief The scan of the rows to rewrite. Called once, before NewWriteBuilder; see the
  /// protocol above for what pushed predicates mean here.
  virtual Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options& options) = 0;
  /// \brief The write of the new rows. Called once, after the scan was built and before its
  /// tasks run.
  virtual Result<std::unique_ptr<WriteBuilder>> NewWriteBuilder(const LogicalWriteInfo& info) = 0;
  /// \brief Metadata columns (SupportsMetadataColumns) the scan must also return, e.g. a row
  /// id and position for delta-based writes, or row lineage a group-based rewrite preserves.
  /// The scan is offered them through SupportsPushDownRequiredColumns. A group-based write
  /// receives them with each row (kRowLevelWriteActionColumn), a DeltaWriter as the
  /// `metadata` of Delete and Update; they are never data. Default none.
  virtual std::vector<Column> RequiredMetadataAttributes() const { return {}; }
  /// \brief Whether the group-based write must also receive the deleted rows and the
  /// pre-images of updated rows (RowLevelWriteAction::kDelete, kUpdatePreimage), e.g. to record
  /// a change data feed in the same commit. Asked once, when the statement is bound, of
  /// group-based operations only; the engine only computes pre-images when this is true.
  /// Default false.
  virtual bool RequiresChangeRows() const { return false; }
};

/// \brief RowLevelOperation mix-in for the delta-based (merge-on-read) representation. Asked
/// when the statement is bound.
class SupportsDelta {
 public:
  virtual ~SupportsDelta() = default;
  /// \brief The columns that identify a row for DeltaWriter::Delete and Update, each a column
  /// of the table or one of RequiredMetadataAttributes() (by name); otherwise the statement
  /// fails with CONNECTOR_CONTRACT_VIOLATION.UNRESOLVED_ROW_ID. A row id that is a table
  /// column is passed as the scan read it, also when the statement assigns that column.
  virtual std::vector<Column> RowId() const = 0;
  /// \brief Whether UPDATE is represented as a delete plus an insert (true) or as Update calls.
  virtual bool RepresentUpdateAsDeleteAndInsert() const { return false; }
};

/// \brief The writer of a delta-based operation's task attempt: each call records one batch of
/// changes, of one or more rows; a row id appears in at most one Delete or Update of the whole
/// write. The writer may keep the batches' arrays (Arrow data is immutable). Commit/Abort/Close
/// follow DataWriter's contract (write.h): nothing becomes visible before
/// BatchWrite::CommitRowLevel. A task whose DataWriterFactory creates another kind of
/// DataWriter fails with CONNECTOR_CONTRACT_VIOLATION.NOT_A_DELTA_WRITER.
class DeltaWriter : public DataWriter {
 public:
  /// \brief Delete the rows whose ids are in `row_ids` (LogicalWriteInfo::row_id_schema).
  /// `metadata` holds the RequiredMetadataAttributes() of the same rows
  /// (LogicalWriteInfo::metadata_schema; no columns when there are none).
  virtual Status Delete(const arrow::RecordBatch& metadata, const arrow::RecordBatch& row_ids) = 0;
  /// \brief Replace the rows with ids `row_ids` by `rows` (the table's columns), row for row.
  virtual Status Update(const arrow::RecordBatch& metadata, const arrow::RecordBatch& row_ids,
                        const arrow::RecordBatch& rows) = 0;
  /// \brief Add new rows (the table's columns).
  virtual Status Insert(const arrow::RecordBatch& rows) = 0;
  /// \brief A plain Write is an insert. The engine calls Delete, Update and Insert only.
  Status Write(const arrow::RecordBatch& batch) override { return Insert(batch); }
};

}  // namespace parley
