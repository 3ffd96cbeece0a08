// The memory connector's merge-on-read mode through the public connector API: the metadata
// columns that identify a row, a delta write patching its batches in place at commit, and the
// commit refusing when the batches read were replaced meanwhile.
#include "arrow/api.h"
#include "arrow/json/from_string.h"
#include "connectors/memory/memory_catalog.h"
#include "testing/gtest_util.h"
#include "testing/scan_harness.h"

namespace parley::memory {
namespace {

std::shared_ptr<arrow::Schema> AbSchema() {
  return arrow::schema({arrow::field("a", arrow::int64()), arrow::field("b", arrow::utf8())});
}

Result<std::shared_ptr<arrow::RecordBatch>> Batch(const std::shared_ptr<arrow::Schema>& schema,
                                                  const std::vector<std::string>& columns) {
  arrow::ArrayVector arrays;
  for (int i = 0; i < schema->num_fields(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto array,
                          arrow::json::ArrayFromJSONString(schema->field(i)->type(), columns[i]));
    arrays.push_back(std::move(array));
  }
  const int64_t rows = arrays[0]->length();
  return arrow::RecordBatch::Make(schema, rows, std::move(arrays));
}

std::shared_ptr<arrow::Schema> RowIdSchema() {
  return arrow::schema(
      {arrow::field("_batch", arrow::int64(), false), arrow::field("_pos", arrow::int64(), false)});
}

class MemoryMergeOnReadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(catalog_.Initialize("mem", {}));
    TableInfo info{SchemaToColumns(*AbSchema()), {}, {}};
    info.properties = {{"write.update.mode", "merge-on-read"}};
    ASSERT_OK_AND_ASSIGN(table_, catalog_.CreateTable({{"default"}, "t"}, info));
    // Two stored batches: a = 1, 2, 3 and a = 4, 5.
    for (const auto& columns : std::vector<std::vector<std::string>>{
             {"[1, 2, 3]", R"(["x", "y", "z"])"}, {"[4, 5]", R"(["u", "v"])"}}) {
      ASSERT_OK_AND_ASSIGN(auto batch, Batch(AbSchema(), columns));
      ASSERT_OK_AND_ASSIGN(auto data, arrow::Table::FromRecordBatches({batch}));
      ASSERT_OK(catalog_.AppendData({{"default"}, "t"}, data));
    }
  }

  // The merge-on-read UPDATE operation with its scan built (reading a, b, _batch, _pos).
  void BuildOperation() {
    auto& supports = dynamic_cast<SupportsRowLevelOperations&>(*table_);
    ASSERT_OK_AND_ASSIGN(auto builder,
                         supports.NewRowLevelOperationBuilder({RowLevelCommand::kUpdate, {}}));
    ASSERT_OK_AND_ASSIGN(operation_, builder->Build());
    ASSERT_EQ(operation_->representation(), RowLevelRepresentation::kDeltaBased);
    ASSERT_OK_AND_ASSIGN(auto scan_builder, operation_->NewScanBuilder({}));
    auto fields = AbSchema()->fields();
    const auto row_id = RowIdSchema();
    fields.insert(fields.end(), row_id->fields().begin(), row_id->fields().end());
    ASSERT_OK(dynamic_cast<SupportsPushDownRequiredColumns&>(*scan_builder)
                  .PruneColumns(arrow::schema(fields)));
    ASSERT_OK_AND_ASSIGN(auto scan, scan_builder->Build());
    ASSERT_OK_AND_ASSIGN(auto run, testing::RunScan(*scan));
    scanned_ = run.rows;
  }

  // A delta write of the operation, with one task writer.
  void StartWrite() {
    LogicalWriteInfo info{"q", AbSchema(), {}};
    info.row_id_schema = RowIdSchema();
    info.metadata_schema = RowIdSchema();
    ASSERT_OK_AND_ASSIGN(auto write_builder, operation_->NewWriteBuilder(info));
    ASSERT_OK_AND_ASSIGN(auto write, write_builder->Build());
    ASSERT_OK_AND_ASSIGN(batch_write_, write->ToBatch());
    ASSERT_OK_AND_ASSIGN(auto factory, batch_write_->CreateBatchWriterFactory({0}));
    ASSERT_OK_AND_ASSIGN(auto writer, factory->CreateWriter(0, 0));
    writer_.reset(dynamic_cast<DeltaWriter*>(writer.release()));
    ASSERT_NE(writer_, nullptr);
  }

  // The table's rows, batch by batch, as "a:b" joined by spaces.
  std::vector<std::string> Stored() {
    std::vector<std::string> stored;
    for (const auto& batch : dynamic_cast<MemoryTable&>(*table_).batches()) {
      std::string text;
      for (int64_t i = 0; i < batch->num_rows(); ++i) {
        text += (i ? " " : "") + batch->column(0)->GetScalar(i).ValueOrDie()->ToString() + ":" +
                batch->column(1)->GetScalar(i).ValueOrDie()->ToString();
      }
      stored.push_back(text);
    }
    return stored;
  }

  MemoryCatalog catalog_;
  std::shared_ptr<Table> table_;
  std::shared_ptr<RowLevelOperation> operation_;
  std::shared_ptr<arrow::Table> scanned_;
  std::shared_ptr<BatchWrite> batch_write_;
  std::unique_ptr<DeltaWriter> writer_;
};

TEST_F(MemoryMergeOnReadTest, ModeByCommandAndRowIds) {
  auto& supports = dynamic_cast<SupportsRowLevelOperations&>(*table_);
  ASSERT_OK_AND_ASSIGN(auto delete_builder,
                       supports.NewRowLevelOperationBuilder({RowLevelCommand::kDelete, {}}));
  ASSERT_OK_AND_ASSIGN(auto copy_on_write, delete_builder->Build());
  EXPECT_EQ(copy_on_write->representation(), RowLevelRepresentation::kGroupBased);

  BuildOperation();
  auto* delta = dynamic_cast<SupportsDelta*>(operation_.get());
  ASSERT_NE(delta, nullptr);
  ASSERT_EQ(delta->RowId().size(), 2u);
  EXPECT_EQ(delta->RowId()[0].name, "_batch");
  EXPECT_EQ(delta->RowId()[1].name, "_pos");
  // Each row's batch and position.
  ASSERT_OK_AND_ASSIGN(auto batch_ids,
                       arrow::json::ArrayFromJSONString(arrow::int64(), "[0, 0, 0, 1, 1]"));
  ASSERT_OK_AND_ASSIGN(auto positions,
                       arrow::json::ArrayFromJSONString(arrow::int64(), "[0, 1, 2, 0, 1]"));
  EXPECT_TRUE(scanned_->column(2)->Equals(arrow::ChunkedArray(batch_ids)));
  EXPECT_TRUE(scanned_->column(3)->Equals(arrow::ChunkedArray(positions)));
}

TEST_F(MemoryMergeOnReadTest, CommitPatchesBatchesInPlace) {
  BuildOperation();
  StartWrite();
  ASSERT_OK_AND_ASSIGN(auto deleted, Batch(RowIdSchema(), {"[0, 1]", "[1, 1]"}));
  ASSERT_OK(writer_->Delete(*deleted, *deleted));
  ASSERT_OK_AND_ASSIGN(auto updated_ids, Batch(RowIdSchema(), {"[0]", "[2]"}));
  ASSERT_OK_AND_ASSIGN(auto updated_rows, Batch(AbSchema(), {"[30]", R"(["zz"])"}));
  ASSERT_OK(writer_->Update(*updated_ids, *updated_ids, *updated_rows));
  ASSERT_OK_AND_ASSIGN(auto inserted, Batch(AbSchema(), {"[9]", R"(["new"])"}));
  ASSERT_OK(writer_->Insert(*inserted));
  // Nothing is visible before the commit.
  ASSERT_OK_AND_ASSIGN(auto message, writer_->Commit());
  EXPECT_EQ(Stored(), std::vector<std::string>({"1:x 2:y 3:z", "4:u 5:v"}));
  ASSERT_OK(batch_write_->CommitRowLevel({message}, RowLevelWriteSummary{0, 1, 2, 1}));
  // Row 2 and row 5 went, row 3 changed in its place, the new row is a batch of its own.
  EXPECT_EQ(Stored(), std::vector<std::string>({"1:x 30:zz", "4:u", "9:new"}));
}

TEST_F(MemoryMergeOnReadTest, RowNamedTwiceIsRefused) {
  BuildOperation();
  StartWrite();
  ASSERT_OK_AND_ASSIGN(auto ids, Batch(RowIdSchema(), {"[1]", "[0]"}));
  ASSERT_OK(writer_->Delete(*ids, *ids));
  ASSERT_OK_AND_ASSIGN(auto rows, Batch(AbSchema(), {"[40]", R"(["uu"])"}));
  ASSERT_OK(writer_->Update(*ids, *ids, *rows));
  ASSERT_OK_AND_ASSIGN(auto message, writer_->Commit());
  ASSERT_RAISES_CONDITION("CONNECTOR_CONTRACT_VIOLATION.INVALID_ROW_ID",
                          batch_write_->Commit({message}));
  EXPECT_EQ(Stored(), std::vector<std::string>({"1:x 2:y 3:z", "4:u 5:v"}));
}

TEST_F(MemoryMergeOnReadTest, CommitRefusesWhenTheBatchesReadWereReplaced) {
  BuildOperation();
  StartWrite();
  ASSERT_OK_AND_ASSIGN(auto ids, Batch(RowIdSchema(), {"[0]", "[0]"}));
  ASSERT_OK(writer_->Delete(*ids, *ids));
  ASSERT_OK_AND_ASSIGN(auto message, writer_->Commit());
  // Another writer replaces the table's rows before the commit.
  ASSERT_OK_AND_ASSIGN(auto batch, Batch(AbSchema(), {"[7]", R"(["w"])"}));
  ASSERT_OK_AND_ASSIGN(auto data, arrow::Table::FromRecordBatches({batch}));
  ASSERT_OK(dynamic_cast<MemoryTable&>(*table_).ReplaceData(data));
  ASSERT_RAISES_CONDITION("CONCURRENT_MODIFICATION", batch_write_->Commit({message}));
  EXPECT_EQ(Stored(), std::vector<std::string>({"7:w"}));
}

TEST_F(MemoryMergeOnReadTest, UnknownModeIsRefused) {
  TableInfo info{SchemaToColumns(*AbSchema()), {}, {}};
  info.properties = {{"write.merge.mode", "merge-on-write"}};
  ASSERT_OK_AND_ASSIGN(auto table, catalog_.CreateTable({{"default"}, "bad"}, info));
  auto& supports = dynamic_cast<SupportsRowLevelOperations&>(*table);
  ASSERT_OK_AND_ASSIGN(auto builder,
                       supports.NewRowLevelOperationBuilder({RowLevelCommand::kMerge, {}}));
  ASSERT_RAISES_CONDITION("INVALID_OPTION_VALUE", builder->Build().status());
}

}  // namespace
}  // namespace parley::memory
