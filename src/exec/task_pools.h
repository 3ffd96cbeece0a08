// The thread pools tasks run on: scan tasks and write tasks each have their own, sized to the
// cores, not Arrow's CPU pool: readers and writers use Arrow (dataset scanners, compute), which
// schedules work on the CPU pool and waits for it, and a task blocking a CPU-pool thread on that
// would starve it. The pools are created on first use and never destroyed: joining worker
// threads during static destruction races with the destruction of what they use. At exit every
// task of these pools and of Arrow's CPU and IO pools is allowed to finish first.
#pragma once

#include "arrow/util/thread_pool.h"
#include "parley/connector/status.h"

namespace parley {

/// \brief The pool scan tasks run on.
Result<arrow::internal::ThreadPool*> ScanTaskPool();

/// \brief The pool write task attempts run on (at least two threads, so that a speculative
/// attempt can run beside a slow one).
Result<arrow::internal::ThreadPool*> WriteTaskPool();

}  // namespace parley
