// Delta-based (merge-on-read) row-level DML end to end: a table whose operation implements
// SupportsDelta and whose writers record every DeltaWriter call shows that only changing rows
// reach the write (no copies), with the row ids and metadata the scan read; UPDATE as delete
// plus insert; the binding and writer contract errors; and, on a merge-on-read memory table, a
// failing task leaving the table as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "arrow/array.h"
#include "arrow/builder.h"
#include "arrow/record_batch.h"
#include "arrow/table.h"
#include "connectors/memory/memory_table.h"
#include "parley/connector/catalog.h"
#include "parley/connector/fault_injection.h"
#include "parley/connector/row_level.h"
#include "parley/session.h"
#include "testing/gtest_util.h"
#include "testing/query_harness.h"
#include "testing/session_rows.h"

namespace parley {
namespace {

// The writer receives rows in no particular task or order: tests compare them sorted.
std::vector<std::string> Sorted(std::vector<std::string> rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

// How the recording table's operation behaves.
struct DeltaOptions {
  std::vector<std::string> row_id = {"id"};
  bool metadata = true;  // require the memory table's `_batch` and `_pos`
  bool update_as_delete_and_insert = false;
  bool delta_writer = true;      // false: the factory creates a plain DataWriter
  bool implements_delta = true;  // false: representation() says delta-based, no mix-in
};

// Every DeltaWriter call and the outcome of the write, as text.
struct DeltaLog {
  std::mutex mutex;
  std::vector<std::string> deleted;   // "<row id>|<metadata>"
  std::vector<std::string> updated;   // "<row id>|<metadata> -> <row>"
  std::vector<std::string> inserted;  // "<row>"
  std::optional<RowLevelWriteSummary> committed;
  int aborted = 0;
  LogicalWriteInfo info;
};

Column MakeColumn(std::string name, std::shared_ptr<arrow::DataType> type, bool nullable) {
  Column column;
  column.name = std::move(name);
  column.type = std::move(type);
  column.nullable = nullable;
  return column;
}

// Row `row` of `batch` as "v1,v2,..." (NULL as "NULL").
std::string RowText(const arrow::RecordBatch& batch, int64_t row) {
  std::string text;
  for (int c = 0; c < batch.num_columns(); ++c) {
    auto value = batch.column(c)->GetScalar(row).ValueOrDie();
    text += (c ? "," : "") + (value->is_valid ? value->ToString() : std::string("NULL"));
  }
  return text;
}

class Message : public WriterCommitMessage {
 public:
  Result<std::string> Serialize() const override { return std::string("recorded"); }
};

class RecordingDeltaWriter : public DeltaWriter {
 public:
  explicit RecordingDeltaWriter(std::shared_ptr<DeltaLog> log) : log_(std::move(log)) {}
  Status Delete(const arrow::RecordBatch& metadata, const arrow::RecordBatch& row_ids) override {
    std::lock_guard<std::mutex> lock(log_->mutex);
    for (int64_t i = 0; i < row_ids.num_rows(); ++i) {
      log_->deleted.push_back(RowText(row_ids, i) + "|" + RowText(metadata, i));
    }
    return Status::OK();
  }
  Status Update(const arrow::RecordBatch& metadata, const arrow::RecordBatch& row_ids,
                const arrow::RecordBatch& rows) override {
    std::lock_guard<std::mutex> lock(log_->mutex);
    for (int64_t i = 0; i < row_ids.num_rows(); ++i) {
      log_->updated.push_back(RowText(row_ids, i) + "|" + RowText(metadata, i) + " -> " +
                              RowText(rows, i));
    }
    return Status::OK();
  }
  Status Insert(const arrow::RecordBatch& rows) override {
    std::lock_guard<std::mutex> lock(log_->mutex);
    for (int64_t i = 0; i < rows.num_rows(); ++i) log_->inserted.push_back(RowText(rows, i));
    return Status::OK();
  }
  Result<CommitMessagePtr> Commit() override { return std::make_shared<Message>(); }
  Status Abort() override { return Status::OK(); }

 private:
  std::shared_ptr<DeltaLog> log_;
};

class PlainWriter : public DataWriter {
 public:
  Status Write(const arrow::RecordBatch&) override { return Status::OK(); }
  Result<CommitMessagePtr> Commit() override { return std::make_shared<Message>(); }
  Status Abort() override { return Status::OK(); }
};

class RecordingFactory : public DataWriterFactory {
 public:
  RecordingFactory(std::shared_ptr<DeltaLog> log, bool delta)
      : log_(std::move(log)), delta_(delta) {}
  Result<std::unique_ptr<DataWriter>> CreateWriter(int, int64_t) override {
    if (!delta_) return std::make_unique<PlainWriter>();
    return std::make_unique<RecordingDeltaWriter>(log_);
  }
  Result<std::string> Serialize() const override { return std::string("factory"); }

 private:
  std::shared_ptr<DeltaLog> log_;
  bool delta_;
};

class RecordingBatchWrite : public BatchWrite {
 public:
  RecordingBatchWrite(std::shared_ptr<DeltaLog> log, bool delta)
      : log_(std::move(log)), delta_(delta) {}
  Result<std::shared_ptr<DataWriterFactory>> CreateBatchWriterFactory(
      const PhysicalWriteInfo&) override {
    return std::make_shared<RecordingFactory>(log_, delta_);
  }
  Result<std::shared_ptr<DataWriterFactory>> DeserializeWriterFactory(
      std::string_view) const override {
    return std::make_shared<RecordingFactory>(log_, delta_);
  }
  Result<CommitMessagePtr> DeserializeCommitMessage(std::string_view) const override {
    return std::make_shared<Message>();
  }
  Status Commit(const std::vector<CommitMessagePtr>&) override {
    return Status::Invalid("a row-level write commits with CommitRowLevel");
  }
  Status CommitRowLevel(const std::vector<CommitMessagePtr>&,
                        const RowLevelWriteSummary& summary) override {
    std::lock_guard<std::mutex> lock(log_->mutex);
    log_->committed = summary;
    return Status::OK();
  }
  Status Abort(const std::vector<CommitMessagePtr>&) override {
    std::lock_guard<std::mutex> lock(log_->mutex);
    ++log_->aborted;
    return Status::OK();
  }

 private:
  std::shared_ptr<DeltaLog> log_;
  bool delta_;
};

class RecordingWrite : public Write {
 public:
  RecordingWrite(std::shared_ptr<DeltaLog> log, bool delta) : log_(std::move(log)), delta_(delta) {}
  std::string description() const override { return "RecordingWrite"; }
  Result<std::shared_ptr<BatchWrite>> ToBatch() override {
    return std::make_shared<RecordingBatchWrite>(log_, delta_);
  }

 private:
  std::shared_ptr<DeltaLog> log_;
  bool delta_;
};

class RecordingWriteBuilder : public WriteBuilder {
 public:
  RecordingWriteBuilder(std::shared_ptr<DeltaLog> log, bool delta)
      : log_(std::move(log)), delta_(delta) {}
  Result<std::shared_ptr<Write>> Build() override {
    return std::make_shared<RecordingWrite>(log_, delta_);
  }

 private:
  std::shared_ptr<DeltaLog> log_;
  bool delta_;
};

// Scans the memory table (row ids `_batch`, `_pos` as its metadata columns) and records writes.
class RecordingOperation : public RowLevelOperation {
 public:
  RecordingOperation(std::shared_ptr<memory::MemoryTable> table, RowLevelCommand command,
                     DeltaOptions options, std::shared_ptr<DeltaLog> log)
      : table_(std::move(table)),
        command_(command),
        options_(std::move(options)),
        log_(std::move(log)) {}
  RowLevelCommand command() const override { return command_; }
  std::vector<Column> RequiredMetadataAttributes() const override {
    return options_.metadata ? table_->metadataColumns() : std::vector<Column>{};
  }
  Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options& options) override {
    return table_->NewScanBuilder(options);
  }
  Result<std::unique_ptr<WriteBuilder>> NewWriteBuilder(const LogicalWriteInfo& info) override {
    log_->info = info;
    return std::make_unique<RecordingWriteBuilder>(log_, options_.delta_writer);
  }

 protected:
  std::shared_ptr<memory::MemoryTable> table_;
  RowLevelCommand command_;
  DeltaOptions options_;
  std::shared_ptr<DeltaLog> log_;
};

class RecordingDeltaOperation : public RecordingOperation, public SupportsDelta {
 public:
  using RecordingOperation::RecordingOperation;
  std::vector<Column> RowId() const override {
    std::vector<Column> columns;
    for (const auto& name : options_.row_id) {
      columns.push_back(MakeColumn(name, arrow::int64(), false));
    }
    return columns;
  }
  bool RepresentUpdateAsDeleteAndInsert() const override {
    return options_.update_as_delete_and_insert;
  }
};

// Says it is delta-based without implementing SupportsDelta: a broken connector.
class MislabelledOperation : public RecordingOperation {
 public:
  using RecordingOperation::RecordingOperation;
  RowLevelRepresentation representation() const override {
    return RowLevelRepresentation::kDeltaBased;
  }
};

class RecordingOperationBuilder : public RowLevelOperationBuilder {
 public:
  RecordingOperationBuilder(std::shared_ptr<memory::MemoryTable> table, RowLevelCommand command,
                            DeltaOptions options, std::shared_ptr<DeltaLog> log)
      : table_(std::move(table)),
        command_(command),
        options_(std::move(options)),
        log_(std::move(log)) {}
  Result<std::shared_ptr<RowLevelOperation>> Build() override {
    if (!options_.implements_delta) {
      return std::make_shared<MislabelledOperation>(table_, command_, options_, log_);
    }
    return std::make_shared<RecordingDeltaOperation>(table_, command_, options_, log_);
  }

 private:
  std::shared_ptr<memory::MemoryTable> table_;
  RowLevelCommand command_;
  DeltaOptions options_;
  std::shared_ptr<DeltaLog> log_;
};

// The memory table's rows and reads, with a recording delta-based operation.
class RecordingTable : public Table,
                       public SupportsRead,
                       public SupportsMetadataColumns,
                       public SupportsRowLevelOperations {
 public:
  RecordingTable(std::shared_ptr<memory::MemoryTable> table, DeltaOptions options,
                 std::shared_ptr<DeltaLog> log)
      : table_(std::move(table)), options_(std::move(options)), log_(std::move(log)) {}
  std::string name() const override { return table_->name(); }
  std::vector<Column> columns() const override { return table_->columns(); }
  std::set<TableCapability> capabilities() const override { return table_->capabilities(); }
  Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options& options) override {
    return table_->NewScanBuilder(options);
  }
  std::vector<Column> metadataColumns() const override { return table_->metadataColumns(); }
  Result<std::unique_ptr<RowLevelOperationBuilder>> NewRowLevelOperationBuilder(
      const RowLevelOperationInfo& info) override {
    return std::make_unique<RecordingOperationBuilder>(table_, info.command, options_, log_);
  }

 private:
  std::shared_ptr<memory::MemoryTable> table_;
  DeltaOptions options_;
  std::shared_ptr<DeltaLog> log_;
};

class OneTableCatalog : public TableCatalog {
 public:
  explicit OneTableCatalog(std::shared_ptr<Table> table) : table_(std::move(table)) {}
  Status Initialize(const std::string& name, const Options&) override {
    name_ = name;
    return Status::OK();
  }
  std::string name() const override { return name_; }
  Result<std::vector<Identifier>> ListTables(const std::vector<std::string>&) override {
    return std::vector<Identifier>{{{}, "t"}};
  }
  Result<std::shared_ptr<Table>> LoadTable(const Identifier& ident) override {
    if (ident.name != "t") return InvalidError("TABLE_OR_VIEW_NOT_FOUND", ident.name);
    return table_;
  }

 private:
  std::string name_;
  std::shared_ptr<Table> table_;
};

class DeltaRowLevelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SessionOptions options;
    options.conf["parley.test.roundTripTasks"] = "true";
    options.conf["spark.sql.catalog.spark_catalog"] = "memory";
    ASSERT_OK_AND_ASSIGN(session_, Session::Make(options));
  }
  void TearDown() override { ASSERT_OK(SetFaultInjection("")); }

  // Register `tc.t`: ids 1..6 with values 'v1'.. in two stored batches of three rows.
  void MakeTable(DeltaOptions options = {}) {
    TableInfo info;
    info.columns = {MakeColumn("id", arrow::int64(), false), MakeColumn("v", arrow::utf8(), true)};
    memory_ = std::make_shared<memory::MemoryTable>("tc.t", info);
    for (int first : {1, 4}) {
      arrow::Int64Builder ids;
      arrow::StringBuilder values;
      for (int id = first; id < first + 3; ++id) {
        ASSERT_OK(ids.Append(id));
        ASSERT_OK(values.Append("v" + std::to_string(id)));
      }
      ASSERT_OK_AND_ASSIGN(auto id_array, ids.Finish());
      ASSERT_OK_AND_ASSIGN(auto value_array, values.Finish());
      ASSERT_OK(
          memory_->AppendData(arrow::Table::Make(memory_->schema(), {id_array, value_array})));
    }
    log_ = std::make_shared<DeltaLog>();
    auto table = std::make_shared<RecordingTable>(memory_, std::move(options), log_);
    ASSERT_OK(session_->RegisterCatalog("tc", std::make_shared<OneTableCatalog>(table)));
  }

  std::vector<std::string> Rows(const std::string& sql) {
    return testing::SessionRows(session_.get(), sql);
  }

  using Strings = std::vector<std::string>;

  std::shared_ptr<Session> session_;
  std::shared_ptr<memory::MemoryTable> memory_;
  std::shared_ptr<DeltaLog> log_;
};

TEST_F(DeltaRowLevelTest, OnlyChangingRowsReachTheDeltaWriter) {
  MakeTable();
  // Every clause kind; targets 1, 4, 5 and 6 stay as they are, and are never written.
  EXPECT_EQ(Rows("MERGE INTO tc.t USING (SELECT * FROM VALUES (CAST(2 AS BIGINT), 'u'), "
                 "(CAST(3 AS BIGINT), 'd'), (CAST(9 AS BIGINT), 'i'), (CAST(5 AS BIGINT), 'n') "
                 "AS s(id, op)) s ON t.id = s.id "
                 "WHEN MATCHED AND s.op = 'u' THEN UPDATE SET v = 'new' "
                 "WHEN MATCHED AND s.op = 'd' THEN DELETE "
                 "WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.op)"),
            Strings({"3,1,1,1"}));
  // Row ids and metadata (`_batch`, `_pos`) as the scan read them.
  EXPECT_EQ(Sorted(log_->deleted), Strings({"3|0,2"}));
  EXPECT_EQ(Sorted(log_->updated), Strings({"2|0,1 -> 2,new"}));
  EXPECT_EQ(Sorted(log_->inserted), Strings({"9,i"}));
  ASSERT_TRUE(log_->committed.has_value());
  EXPECT_EQ(log_->committed->copied, 0);
  EXPECT_EQ(log_->committed->updated, 1);
  EXPECT_EQ(log_->committed->deleted, 1);
  EXPECT_EQ(log_->committed->inserted, 1);
  EXPECT_EQ(log_->aborted, 0);
  // The write was told the three schemas.
  EXPECT_EQ(log_->info.schema->ToString(), memory_->schema()->ToString());
  EXPECT_EQ(log_->info.row_id_schema->field_names(), Strings({"id"}));
  EXPECT_EQ(log_->info.metadata_schema->field_names(), Strings({"_batch", "_pos"}));
}

TEST_F(DeltaRowLevelTest, DeleteAndUpdateSendOnlyTheirRows) {
  MakeTable({{"id"}, /*metadata=*/false});
  EXPECT_EQ(Rows("DELETE FROM tc.t WHERE id > 4"), Strings({"2"}));
  EXPECT_EQ(Sorted(log_->deleted), Strings({"5|", "6|"}));
  EXPECT_TRUE(log_->updated.empty());
  EXPECT_TRUE(log_->inserted.empty());
  EXPECT_EQ(log_->info.metadata_schema->num_fields(), 0);

  // A row id that the statement assigns is passed as read.
  EXPECT_EQ(Rows("UPDATE tc.t SET id = id + 100, v = 'x' WHERE v = 'v1' OR id = 4"),
            Strings({"2"}));
  EXPECT_EQ(Sorted(log_->updated), Strings({"1| -> 101,x", "4| -> 104,x"}));
  ASSERT_TRUE(log_->committed.has_value());
  EXPECT_EQ(log_->committed->updated, 2);
  EXPECT_EQ(log_->committed->copied, 0);
}

TEST_F(DeltaRowLevelTest, UpdateAsDeleteAndInsert) {
  DeltaOptions options;
  options.update_as_delete_and_insert = true;
  MakeTable(options);
  EXPECT_EQ(Rows("UPDATE tc.t SET v = 'x' WHERE id IN (2, 6)"), Strings({"2"}));
  EXPECT_TRUE(log_->updated.empty());
  EXPECT_EQ(Sorted(log_->deleted), Strings({"2|0,1", "6|1,2"}));
  EXPECT_EQ(Sorted(log_->inserted), Strings({"2,x", "6,x"}));
  ASSERT_TRUE(log_->committed.has_value());
  EXPECT_EQ(log_->committed->updated, 2);
  EXPECT_EQ(log_->committed->deleted, 0);
  EXPECT_EQ(log_->committed->inserted, 0);
}

TEST_F(DeltaRowLevelTest, NothingChangedAbortsWithoutCommit) {
  MakeTable();
  EXPECT_EQ(Rows("UPDATE tc.t SET v = 'x' WHERE id > 100"), Strings({"0"}));
  EXPECT_FALSE(log_->committed.has_value());
  EXPECT_EQ(log_->aborted, 1);
}

TEST_F(DeltaRowLevelTest, RowIdMustBeATableOrMetadataColumn) {
  DeltaOptions options;
  options.row_id = {"id", "nope"};
  MakeTable(options);
  auto status = session_->Sql("DELETE FROM tc.t WHERE id > 4").status();
  ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.UNRESOLVED_ROW_ID", status);
  EXPECT_NE(status.message().find("`tc`.`t`"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("`nope`"), std::string::npos) << status.message();
  // A metadata column the operation does not require is not read either.
  DeltaOptions unread;
  unread.row_id = {"_pos"};
  unread.metadata = false;
  MakeTable(unread);
  ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.UNRESOLVED_ROW_ID",
                          session_->Sql("DELETE FROM tc.t WHERE id > 4").status());
  EXPECT_FALSE(log_->committed.has_value());
  EXPECT_EQ(log_->aborted, 0);
}

TEST_F(DeltaRowLevelTest, DeltaBasedOperationMustImplementSupportsDelta) {
  DeltaOptions options;
  options.implements_delta = false;
  MakeTable(options);
  ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.MISSING_DELTA_MIXIN",
                          session_->Sql("UPDATE tc.t SET v = 'x' WHERE id = 1").status());
}

TEST_F(DeltaRowLevelTest, TaskWriterMustBeADeltaWriter) {
  DeltaOptions options;
  options.delta_writer = false;
  MakeTable(options);
  auto status = session_->Sql("UPDATE tc.t SET v = 'x' WHERE id = 1").status();
  ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.NOT_A_DELTA_WRITER", status);
  EXPECT_NE(status.message().find("`tc`.`t`"), std::string::npos) << status.message();
  EXPECT_FALSE(log_->committed.has_value());
  EXPECT_EQ(log_->aborted, 1);
}

// The memory connector's merge-on-read mode: a task fails after others staged their changes.
TEST_F(DeltaRowLevelTest, FailedTaskLeavesMergeOnReadMemoryTableUnchanged) {
  ASSERT_OK(session_
                ->Sql("CREATE TABLE m (id INT, v STRING) TBLPROPERTIES ("
                      "'write.merge.mode' = 'merge-on-read')")
                .status());
  ASSERT_OK(session_->Sql("INSERT INTO m VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')").status());
  const std::string query = "SELECT id, v, _batch, _pos FROM m ORDER BY id";
  const auto before = Rows(query);
  ASSERT_EQ(before.size(), 4u);
  // One changed row per task: the third task fails, the first two staged their changes.
  ASSERT_OK(session_->Sql("SET parley.write.rowsPerTask=1").status());
  ASSERT_OK(session_->Sql("SET spark.task.maxFailures=1").status());
  ASSERT_OK(session_->Sql("SET parley.test.faultInjection=task.beforeCommit@2").status());
  ASSERT_RAISES_CONDITION(
      "INJECTED_FAULT",
      session_
          ->Sql("MERGE INTO m USING (SELECT * FROM VALUES (1, 'x'), (2, 'y'), (3, 'z'), "
                "(9, 'i') AS s(id, v)) s ON m.id = s.id "
                "WHEN MATCHED AND s.v = 'x' THEN DELETE "
                "WHEN MATCHED THEN UPDATE SET v = s.v "
                "WHEN NOT MATCHED THEN INSERT *")
          .status());
  EXPECT_EQ(Rows(query), before);
  // Disarmed, the same statement applies every change.
  ASSERT_OK(session_->Sql("SET parley.test.faultInjection=").status());
  EXPECT_EQ(Rows("MERGE INTO m USING (SELECT * FROM VALUES (1, 'x'), (2, 'y'), (3, 'z'), "
                 "(9, 'i') AS s(id, v)) s ON m.id = s.id "
                 "WHEN MATCHED AND s.v = 'x' THEN DELETE "
                 "WHEN MATCHED THEN UPDATE SET v = s.v "
                 "WHEN NOT MATCHED THEN INSERT *"),
            Strings({"4,2,1,1"}));
  EXPECT_EQ(Rows("SELECT id, v FROM m ORDER BY id"), Strings({"2,y", "3,z", "4,d", "9,i"}));
}

}  // namespace
}  // namespace parley
