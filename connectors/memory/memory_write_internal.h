// The write path of MemoryTable, shared between memory_table.cc, memory_write.cc and
// memory_delta_write.cc.
//
// Task output crosses the "executor boundary" the way scan snapshots do (memory_scan_internal.h):
// each DataWriter stages its batches in a process-wide registry under the write's id and its own
// task id, and the serialized factory and commit messages carry only those ids:
//   factory  "memory-writer:<process token>:<write id>"
//   message  "memory-commit:<process token>:<write id>:<partition id>:<task id>"
// BatchWrite::Commit takes the staged batches of exactly the tasks its messages name and hands
// them to MemoryTable::CommitWrite, which swaps the table's data in one step under its mutex, so a
// reader sees the data before or after the write, never in between. Abort and the end of Commit
// drop the write's staging; an attempt's Abort drops its own.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/row_level.h"
#include "parley/connector/write.h"

namespace parley::memory {

/// \brief A fresh id for a memory write of this process, unique across every kind of write.
uint64_t NewMemoryWriteId();

/// \brief Staged task output of every running memory write of one kind, in this process:
/// write id -> task id -> Output. Thread-safe.
template <typename Output>
class StagingRegistry {
 public:
  // Leaked on purpose: writes may be released during static destruction.
  static StagingRegistry& Instance() {
    static auto* registry = new StagingRegistry();
    return *registry;
  }

  /// \brief Change the task's output (created empty on first use) with `change(Output*)`.
  template <typename Change>
  void Stage(uint64_t write_id, int64_t task_id, Change&& change) {
    std::lock_guard<std::mutex> lock(mutex_);
    change(&staged_[write_id][task_id]);
  }

  /// \brief The output of a task that staged something or committed; UNKNOWN_COMMIT_MESSAGE
  /// when there is none (e.g. dropped by the task's Abort).
  Result<Output> Take(uint64_t write_id, int64_t task_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto write = staged_.find(write_id);
    if (write == staged_.end() || write->second.count(task_id) == 0) {
      return InvalidError("CONNECTOR_CONTRACT_VIOLATION.UNKNOWN_COMMIT_MESSAGE",
                          "Memory write " + std::to_string(write_id) + " has no staged output " +
                              "for task " + std::to_string(task_id) + ".");
    }
    return write->second[task_id];
  }

  /// \brief Forget a task's output (its attempt aborted).
  void DropTask(uint64_t write_id, int64_t task_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto write = staged_.find(write_id);
    if (write != staged_.end()) write->second.erase(task_id);
  }

  /// \brief Forget every task's output of a write (committed, aborted or released).
  void DropWrite(uint64_t write_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    staged_.erase(write_id);
  }

 private:
  StagingRegistry() = default;

  std::mutex mutex_;
  std::unordered_map<uint64_t, std::map<int64_t, Output>> staged_;  // guarded by mutex_
};

/// \brief The commit message of a memory write task: the write, partition and task it names.
class MemoryCommitMessage : public WriterCommitMessage {
 public:
  MemoryCommitMessage(uint64_t write_id, int partition_id, int64_t task_id)
      : write_id_(write_id), partition_id_(partition_id), task_id_(task_id) {}

  /// \brief "memory-commit:<process token>:<write id>:<partition id>:<task id>".
  Result<std::string> Serialize() const override;

  uint64_t write_id() const { return write_id_; }
  int64_t task_id() const { return task_id_; }

 private:
  uint64_t write_id_;
  int partition_id_;
  int64_t task_id_;
};

/// \brief Rebuild a MemoryCommitMessage of write `write_id` from its bytes;
/// TASK_NOT_SERIALIZABLE for bytes of another process or write, or malformed ones.
Result<CommitMessagePtr> ParseMemoryCommitMessage(std::string_view bytes, uint64_t write_id);

/// \brief The task ids of `messages`, all MemoryCommitMessages of write `write_id`;
/// UNKNOWN_COMMIT_MESSAGE naming `table_name` otherwise.
Result<std::vector<int64_t>> MemoryCommitTasks(const std::vector<CommitMessagePtr>& messages,
                                               uint64_t write_id, const std::string& table_name);

/// \brief For a BatchWrite's Commit: the staged output of every task `messages` name, in
/// their order, taken from `registry`; COMMIT_TWICE when `committed`, UNKNOWN_COMMIT_MESSAGE
/// (naming `table_name`) for a message of another write or without output.
template <typename Output>
Result<std::vector<Output>> TakeCommittedOutputs(StagingRegistry<Output>* registry, bool committed,
                                                 const std::vector<CommitMessagePtr>& messages,
                                                 uint64_t write_id, const std::string& table_name) {
  if (committed) {
    return InvalidError("CONNECTOR_CONTRACT_VIOLATION.COMMIT_TWICE",
                        "The memory write into " + table_name + " was already committed.");
  }
  ARROW_ASSIGN_OR_RAISE(auto tasks, MemoryCommitTasks(messages, write_id, table_name));
  std::vector<Output> outputs;
  for (int64_t task : tasks) {
    ARROW_ASSIGN_OR_RAISE(auto staged, registry->Take(write_id, task));
    outputs.push_back(std::move(staged));
  }
  return outputs;
}

/// \brief The serialized writer factory of write `write_id`: "memory-writer:<process
/// token>:<write id>".
std::string MemoryFactoryBytes(uint64_t write_id);

/// \brief Check factory bytes against write `write_id`: TASK_NOT_SERIALIZABLE for bytes of
/// another process or write, or malformed ones.
Status CheckMemoryFactoryBytes(std::string_view bytes, uint64_t write_id);

class MemoryTable;

/// \brief How a committed write changes a table's existing rows.
struct MemoryWriteMode {
  enum class Kind {
    kAppend,
    kTruncate,
    kOverwriteByFilter,
    kOverwriteDynamic,
    kReplaceGroups,
    kPatchGroups,
  };
  Kind kind = Kind::kAppend;
  /// kOverwriteByFilter: rows matching all of these are replaced.
  std::vector<PredicatePtr> predicates;
  /// kReplaceGroups, kPatchGroups: the stored batches a row-level operation read; the commit
  /// fails when one of them is no longer in the table. kReplaceGroups removes them all.
  std::vector<std::shared_ptr<arrow::RecordBatch>> groups;
  /// kPatchGroups: each group is replaced in place by the batch at the same index (itself
  /// when unchanged, null when none of its rows stays).
  std::vector<std::shared_ptr<arrow::RecordBatch>> patched;
};

/// \brief The write builder of one write into `table`, starting in `mode` (an append unless a
/// row-level operation sets it).
std::unique_ptr<WriteBuilder> MakeMemoryWriteBuilder(std::shared_ptr<MemoryTable> table,
                                                     const LogicalWriteInfo& info,
                                                     MemoryWriteMode mode = {});

/// \brief The write builder of a merge-on-read `command` on `table` whose scan read `groups`
/// (memory_delta_write.cc). Its writers are DeltaWriters taking row ids (`_batch`, `_pos`:
/// index into `groups` and row position) and staging the changes; the commit patches the
/// touched groups in place and appends the inserted rows, in one step (kPatchGroups), and
/// fails with CONCURRENT_MODIFICATION when a group read is no longer in the table.
std::unique_ptr<WriteBuilder> MakeMemoryDeltaWriteBuilder(
    std::shared_ptr<MemoryTable> table, RowLevelCommand command,
    std::vector<std::shared_ptr<arrow::RecordBatch>> groups);

/// \brief Check that `batch` holds rows of `schema`: the same column count and types, and no
/// NULL in a NOT NULL column (INCOMPATIBLE_DATA_FOR_TABLE.*, NOT_NULL_ASSERT_VIOLATION).
Status CheckWriterRows(const arrow::Schema& schema, const arrow::RecordBatch& batch);

}  // namespace parley::memory
