// Row-level DML on MemoryTable. Copy-on-write (group-based): a group is one stored batch. The
// operation's scan reads every batch (the memory source keeps no statistics to skip one) and
// records which it read; its write replaces exactly those batches in one step, and fails when
// one of them was replaced meanwhile. Merge-on-read (delta-based, chosen per command by the
// Iceberg-named table properties write.{delete,update,merge}.mode): the same scan also returns
// each row's `_batch` and `_pos`, its row id; the write records deletes, updates and inserts
// and its commit patches the touched batches in place, under the same rule. Filter deletes
// whose predicates the table can evaluate run without a scan, in either mode.
#include "memory_scan_internal.h"
#include "memory_table.h"
#include "memory_write_internal.h"
#include "names_internal.h"
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

class MemoryMergeOnReadOperation : public RowLevelOperation, public SupportsDelta {
 public:
  MemoryMergeOnReadOperation(std::shared_ptr<MemoryTable> table, RowLevelCommand command)
      : table_(std::move(table)), command_(command), read_(std::make_shared<Batches>()) {}

  RowLevelCommand command() const override { return command_; }

  std::vector<Column> RequiredMetadataAttributes() const override {
    return MemoryMetadataColumns();
  }
  std::vector<Column> RowId() const override { return MemoryMetadataColumns(); }

  Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options&) override {
    return MakeMemoryScanBuilder(table_, read_);
  }

  Result<std::unique_ptr<WriteBuilder>> NewWriteBuilder(const LogicalWriteInfo&) override {
    return MakeMemoryDeltaWriteBuilder(table_, command_, *read_);
  }

 private:
  std::shared_ptr<MemoryTable> table_;
  RowLevelCommand command_;
  std::shared_ptr<Batches> read_;  // the batches the scan read, set at its Build()
};

// The table property that chooses how `command` rewrites rows.
const char* ModeProperty(RowLevelCommand command) {
  switch (command) {
    case RowLevelCommand::kDelete: return "write.delete.mode";
    case RowLevelCommand::kUpdate: return "write.update.mode";
    case RowLevelCommand::kMerge: return "write.merge.mode";
  }
  return "write.delete.mode";
}

class MemoryRowLevelOperationBuilder : public RowLevelOperationBuilder {
 public:
  MemoryRowLevelOperationBuilder(std::shared_ptr<MemoryTable> table, RowLevelCommand command)
      : table_(std::move(table)), command_(command) {}

  Result<std::shared_ptr<RowLevelOperation>> Build() override {
    const auto properties = table_->properties();
    auto mode = properties.find(ModeProperty(command_));
    if (mode == properties.end() || mode->second == "copy-on-write") {
      return std::make_shared<MemoryRowLevelOperation>(table_, command_);
    }
    if (mode->second != "merge-on-read") {
      return InvalidError("INVALID_OPTION_VALUE",
                          "The table property " + mode->first + " of the memory table " +
                              table_->name() + " is '" + mode->second +
                              "'; expected 'copy-on-write' or 'merge-on-read'.");
    }
    for (const auto& metadata : MemoryMetadataColumns()) {
      for (const auto& column : table_->columns()) {
        if (EqualsIgnoreCase(column.name, metadata.name)) {
          return InvalidError("UNSUPPORTED_FEATURE.TABLE_OPERATION",
                              "The feature is not supported: Table " + table_->name() +
                                  " does not support merge-on-read " +
                                  RowLevelCommandName(command_) + ": its column " +
                                  QuoteIdentifier(column.name) +
                                  " shadows the row id metadata column.");
        }
      }
    }
    return std::make_shared<MemoryMergeOnReadOperation>(table_, command_);
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
