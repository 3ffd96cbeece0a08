// Task thread pools, created once and deliberately never destroyed.
#include "exec/task_pools.h"

#include <algorithm>
#include <memory>
#include <thread>

namespace parley {
namespace {

using PoolResult = Result<std::shared_ptr<arrow::internal::ThreadPool>>;

Result<arrow::internal::ThreadPool*> Get(const PoolResult& pool) {
  if (!pool.ok()) return pool.status();
  return pool.ValueUnsafe().get();
}

}  // namespace

Result<arrow::internal::ThreadPool*> ScanTaskPool() {
  static const auto* pool = new PoolResult(
      arrow::internal::ThreadPool::Make(std::max(1u, std::thread::hardware_concurrency())));
  return Get(*pool);
}

Result<arrow::internal::ThreadPool*> WriteTaskPool() {
  static const auto* pool = new PoolResult(arrow::internal::ThreadPool::Make(
      std::max(2, static_cast<int>(std::thread::hardware_concurrency()))));
  return Get(*pool);
}

}  // namespace parley
