// The write path of MemoryTable, shared between memory_table.cc and memory_write.cc.
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

#include <memory>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/write.h"

namespace parley::memory {

class MemoryTable;

/// \brief How a committed write changes a table's existing rows.
struct MemoryWriteMode {
  enum class Kind { kAppend, kTruncate, kOverwriteByFilter, kOverwriteDynamic, kReplaceGroups };
  Kind kind = Kind::kAppend;
  /// kOverwriteByFilter: rows matching all of these are replaced.
  std::vector<PredicatePtr> predicates;
  /// kReplaceGroups: the stored batches a row-level operation read; they are replaced, and the
  /// commit fails when one of them is no longer in the table.
  std::vector<std::shared_ptr<arrow::RecordBatch>> groups;
};

/// \brief The write builder of one write into `table`, starting in `mode` (an append unless a
/// row-level operation sets it).
std::unique_ptr<WriteBuilder> MakeMemoryWriteBuilder(std::shared_ptr<MemoryTable> table,
                                                     const LogicalWriteInfo& info,
                                                     MemoryWriteMode mode = {});

}  // namespace parley::memory
