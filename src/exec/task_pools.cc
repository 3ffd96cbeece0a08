// Task thread pools, created once and deliberately never destroyed.
#include "exec/task_pools.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>

#include "arrow/io/interfaces.h"

namespace parley {
namespace {

using PoolResult = Result<std::shared_ptr<arrow::internal::ThreadPool>>;

const PoolResult* scan_pool = nullptr;   // set once, see Pool()
const PoolResult* write_pool = nullptr;  // set once, see Pool()

// At exit, before Arrow's globals are destroyed, let every task finish: a task still running
// while Arrow tears down its globals crashes the process.
void DrainTasksAtExit() {
  for (const PoolResult* pool : {scan_pool, write_pool}) {
    if (pool != nullptr && pool->ok()) pool->ValueUnsafe()->WaitForIdle();
  }
  arrow::internal::GetCpuThreadPool()->WaitForIdle();
  if (auto* io =
          dynamic_cast<arrow::internal::ThreadPool*>(arrow::io::default_io_context().executor())) {
    io->WaitForIdle();
  }
}

Result<arrow::internal::ThreadPool*> Pool(const PoolResult** slot, int threads) {
  static std::once_flag registered;
  std::call_once(registered, [] {
    // Construct Arrow's pools first: exit handlers and static destructors run in reverse order
    // of registration, so the drain runs while they still exist.
    arrow::internal::GetCpuThreadPool();
    arrow::io::default_io_context();
    std::atexit(DrainTasksAtExit);
  });
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  if (*slot == nullptr) *slot = new PoolResult(arrow::internal::ThreadPool::Make(threads));
  if (!(*slot)->ok()) return (*slot)->status();
  return (*slot)->ValueUnsafe().get();
}

}  // namespace

Result<arrow::internal::ThreadPool*> ScanTaskPool() {
  return Pool(&scan_pool, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
}

Result<arrow::internal::ThreadPool*> WriteTaskPool() {
  return Pool(&write_pool, std::max(2, static_cast<int>(std::thread::hardware_concurrency())));
}

}  // namespace parley
