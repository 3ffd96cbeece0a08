// Row-level DML on MemoryTable: a group is one stored batch. The operation's scan reads every
// batch (the memory source keeps no statistics to skip one) and records which it read; its
// write replaces exactly those batches in one step, and fails when one of them was replaced
// meanwhile. Filter deletes whose predicates the table can evaluate run without a scan.
#include "memory_scan_internal.h"
#include "memory_table.h"
#include "memory_write_internal.h"
#include "parley/connector/row_level.h"

namespace parley::memory {
namespace {

using Batches = std::vector<std::shared_ptr<arrow::RecordBatch>>;

class MemoryRowLevelOperation : public RowLevelOperation {
 public:
  MemoryRowLevelOperation(std::shared_ptr<MemoryTable> table, RowLevelCommand command)
      : table_(std::move(table)), command_(command), read_(std::make_shared<Batches>()) {}

  RowLevelCommand command() const override { return command_; }

  Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options&) override {
    return MakeMemoryScanBuilder(table_, read_);
  }

  Result<std::unique_ptr<WriteBuilder>> NewWriteBuilder(const LogicalWriteInfo& info) override {
    MemoryWriteMode mode;
    mode.kind = MemoryWriteMode::Kind::kReplaceGroups;
    mode.groups = *read_;
    return MakeMemoryWriteBuilder(table_, info, std::move(mode));
  }

 private:
  std::shared_ptr<MemoryTable> table_;
  RowLevelCommand command_;
  std::shared_ptr<Batches> read_;  // the batches the scan read, set at its Build()
};

class MemoryRowLevelOperationBuilder : public RowLevelOperationBuilder {
 public:
  MemoryRowLevelOperationBuilder(std::shared_ptr<MemoryTable> table, RowLevelCommand command)
      : table_(std::move(table)), command_(command) {}

  Result<std::shared_ptr<RowLevelOperation>> Build() override {
    return std::make_shared<MemoryRowLevelOperation>(table_, command_);
  }

 private:
  std::shared_ptr<MemoryTable> table_;
  RowLevelCommand command_;
};

}  // namespace

Result<std::unique_ptr<RowLevelOperationBuilder>> MemoryTable::NewRowLevelOperationBuilder(
    const RowLevelOperationInfo& info) {
  return std::make_unique<MemoryRowLevelOperationBuilder>(shared_from_this(), info.command);
}

bool MemoryTable::CanDeleteWhere(const std::vector<PredicatePtr>& predicates) const {
  return CanEvaluate(predicates);
}

Result<int64_t> MemoryTable::DeleteWhere(const std::vector<PredicatePtr>& predicates) {
  if (!CanEvaluate(predicates)) {
    return InvalidError("UNSUPPORTED_FEATURE.TABLE_OPERATION",
                        "The memory table " + name() + " cannot delete rows by these predicates.");
  }
  MemoryWriteMode mode;
  mode.kind = predicates.empty() ? MemoryWriteMode::Kind::kTruncate
                                 : MemoryWriteMode::Kind::kOverwriteByFilter;
  mode.predicates = predicates;
  int64_t removed = 0;
  ARROW_RETURN_NOT_OK(CommitWrite(mode, {}, &removed));
  return removed;
}

}  // namespace parley::memory
