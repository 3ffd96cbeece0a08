// QueryControl: the stop token and deadline checks, and the process-wide Arrow memory limit.
#include "exec/query_control.h"

#include <unistd.h>

#include <cctype>
#include <fstream>
#include <map>
#include <mutex>

#include "arrow/util/io_util.h"

namespace parley {

Status QueryControl::Check() const {
  if (stop_token.IsStopRequested()) {
    const bool signalled = arrow::internal::SignalFromStatus(stop_token.Poll()) > 0;
    return MakeError(arrow::StatusCode::Cancelled, "OPERATION_CANCELED",
                     signalled ? "Operation has been canceled: interrupted (Ctrl-C)."
                               : "Operation has been canceled: stopped by its caller.");
  }
  if (deadline && std::chrono::steady_clock::now() >= *deadline) {
    return MakeError(arrow::StatusCode::Cancelled, "OPERATION_CANCELED",
                     "Operation has been canceled: the statement ran past its deadline.");
  }
  return Status::OK();
}

arrow::MemoryPool* QueryControl::pool() const {
  return memory_pool != nullptr ? memory_pool : arrow::default_memory_pool();
}

arrow::MemoryPool* MemoryPoolWithLimit(int64_t limit) {
  static std::mutex mutex;
  // Never destroyed: buffers from these pools are freed through them at any time until exit.
  static auto* pools = new std::map<int64_t, std::unique_ptr<arrow::CappedMemoryPool>>();
  std::lock_guard<std::mutex> lock(mutex);
  auto& pool = (*pools)[limit];
  if (pool == nullptr) {
    pool = std::make_unique<arrow::CappedMemoryPool>(arrow::default_memory_pool(), limit);
  }
  return pool.get();
}

int64_t MachineMemory() {
  int64_t physical = static_cast<int64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
  std::ifstream cgroup("/sys/fs/cgroup/memory.max");
  int64_t limited = 0;
  if (cgroup >> limited && limited > 0 && limited < physical) physical = limited;
  return physical;
}

std::optional<int64_t> ParseMemoryLimit(const std::string& text) {
  size_t end = 0;
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
  if (end == 0 || end > 18) return std::nullopt;
  int64_t value = std::stoll(text.substr(0, end));
  if (text.substr(end) == "%") {
    if (value < 1 || value > 100) return std::nullopt;
    return MachineMemory() / 100 * value;
  }
  std::string unit;
  for (size_t i = end; i < text.size(); ++i) {
    unit += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
  }
  if (unit.size() == 2 && unit[1] == 'b' && unit[0] != 'b') unit.pop_back();
  int shift = 0;
  if (unit.empty() || unit == "b") {
    shift = 0;
  } else if (unit == "k") {
    shift = 10;
  } else if (unit == "m") {
    shift = 20;
  } else if (unit == "g") {
    shift = 30;
  } else if (unit == "t") {
    shift = 40;
  } else {
    return std::nullopt;
  }
  if (value > (INT64_MAX >> shift)) return std::nullopt;
  return value << shift;
}

}  // namespace parley
