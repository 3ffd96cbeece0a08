// What may end a running statement early, and the memory its operators allocate from. One
// QueryControl is copied into every part of a statement's run (scan tasks, Acero plans, write
// jobs); the copies share the stop token and the pool.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "arrow/memory_pool.h"
#include "arrow/util/cancel.h"
#include "parley/connector/status.h"

namespace parley {

/// \brief The stop conditions and memory pool of one statement's run.
struct QueryControl {
  /// Stopped by another thread (arrow::StopSource::RequestStop) or a signal handler
  /// (arrow::SetSignalStopSource); the statement then ends with OPERATION_CANCELED.
  arrow::StopToken stop_token = arrow::StopToken::Unstoppable();
  /// When set, the statement ends with OPERATION_CANCELED once this time has passed.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  /// The pool operators allocate from (a MemoryPoolWithLimit pool); null: Arrow's default
  /// pool.
  arrow::MemoryPool* memory_pool = nullptr;

  /// \brief OK while the statement may go on; OPERATION_CANCELED (naming why) once the token
  /// was stopped or the deadline passed. Cheap: scan tasks call it before every batch.
  Status Check() const;
  /// \brief The pool to allocate from.
  arrow::MemoryPool* pool() const;
};

/// \brief A pool over Arrow's default pool that refuses any allocation that would take the
/// Arrow memory the process holds past `limit` bytes. The refused allocation fails with
/// OutOfMemory, which ToSparkError reports as UNABLE_TO_ACQUIRE_MEMORY. One pool per limit,
/// living as long as the process: what is allocated from it (a result table, rows a connector
/// keeps) may outlive the statement and the session.
arrow::MemoryPool* MemoryPoolWithLimit(int64_t limit);

/// \brief The memory of the machine, or of its control group when that is lower.
int64_t MachineMemory();

/// \brief A memory limit as parley.memory.limit takes one: bytes as Spark writes them ("512m",
/// "4g", "1048576"; suffixes b, k, m, g, t with an optional trailing b, any case) or a
/// percentage of MachineMemory() ("80%"); std::nullopt when `text` is neither.
std::optional<int64_t> ParseMemoryLimit(const std::string& text);

}  // namespace parley
