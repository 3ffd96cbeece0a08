// WriteBuilder, Write and BatchWrite of a Delta table (delta_write.cc).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "arrow/type_fwd.h"
#include "connectors/delta/log/delta_log.h"
#include "connectors/delta/table_state.h"
#include "connectors/delta/write/data_writer.h"
#include "parley/connector/read.h"
#include "parley/connector/status.h"
#include "parley/connector/write.h"

namespace parley::delta {

/// \brief What every Delta batch write shares: tasks write data files of `table` (WriteSpecFor)
/// and report them in commit messages; Abort deletes the files the messages name. Subclasses
/// decide what Commit publishes.
class DeltaFilesBatchWrite : public BatchWrite {
 public:
  explicit DeltaFilesBatchWrite(std::shared_ptr<const TableState> table)
      : table_(std::move(table)) {}

  Result<std::shared_ptr<DataWriterFactory>> CreateBatchWriterFactory(
      const PhysicalWriteInfo& info) override;
  Result<std::shared_ptr<DataWriterFactory>> DeserializeWriterFactory(
      std::string_view bytes) const override;
  Result<CommitMessagePtr> DeserializeCommitMessage(std::string_view bytes) const override;
  Status Abort(const std::vector<CommitMessagePtr>& messages) override;

 protected:
  /// \brief The add actions of every (non-null) message, in order.
  static Result<std::vector<FileAction>> AddsOfMessages(
      const std::vector<CommitMessagePtr>& messages);
  /// \brief Delete the data files of `files`; every deletion is tried.
  Status DeleteFiles(const std::vector<FileAction>& files) const;

  std::shared_ptr<const TableState> table_;
};

/// \brief The Write of a DeltaFilesBatchWrite, reporting bytes and files written.
class DeltaFilesWrite : public Write {
 public:
  DeltaFilesWrite(std::shared_ptr<DeltaFilesBatchWrite> batch, std::string description)
      : batch_(std::move(batch)), description_(std::move(description)) {}
  std::string description() const override { return description_; }
  Result<std::shared_ptr<BatchWrite>> ToBatch() override { return batch_; }
  std::vector<std::shared_ptr<CustomMetric>> SupportedCustomMetrics() const override;

 private:
  std::shared_ptr<DeltaFilesBatchWrite> batch_;
  std::string description_;
};

/// \brief The files a write into a staged table (CTAS, RTAS) produced, kept until the staged
/// table commits them together with its metadata.
struct StagedData {
  std::mutex mutex;
  std::vector<FileAction> adds;
  /// Whether a write committed into the staged table (CTAS/RTAS rather than plain DDL).
  bool written = false;
};

/// \brief The write builder of `table` (append by default; SupportsOverwriteV2 for predicates
/// on partition columns, SupportsDynamicOverwrite). BatchWrite::Commit commits to the log, or,
/// when `staged` is given, hands the files to it. Fails with DELTA_UNSUPPORTED_FEATURES_FOR_WRITE
/// when the table needs a writer feature this writer lacks.
Result<std::unique_ptr<WriteBuilder>> MakeDeltaWriteBuilder(std::shared_ptr<const TableState> table,
                                                            LogicalWriteInfo info,
                                                            std::shared_ptr<StagedData> staged);

/// \brief The write spec of `table`'s data files (neither change data nor materialized
/// columns).
WriteSpec WriteSpecFor(const TableState& table);

/// \brief DELTA_CANNOT_MODIFY_APPEND_ONLY when `table` has delta.appendOnly=true; `operation`
/// names what would remove data.
Status CheckNotAppendOnly(const TableState& table, std::string_view operation);

}  // namespace parley::delta
