// The process-wide table of armed fault points (parley/connector/fault_injection.h).
#include "parley/connector/fault_injection.h"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <vector>

namespace parley {
namespace {

struct FaultEntry {
  std::string point;
  std::optional<int> partition;
  std::optional<int> attempt;
  bool kill = false;
};

struct FaultTable {
  std::mutex mutex;
  std::vector<FaultEntry> entries;  // guarded by mutex
  std::atomic<bool> armed{false};
};

Result<std::vector<FaultEntry>> ParseSpec(const std::string& spec);

FaultTable& Table() {
  static auto* table = [] {
    auto* created = new FaultTable();
    if (const char* env = std::getenv("PARLEY_FAULT_INJECTION")) {
      if (auto entries = ParseSpec(env); entries.ok()) {
        created->entries = std::move(*entries);
        created->armed = !created->entries.empty();
      }
    }
    return created;
  }();
  return *table;
}

bool ParseNumber(std::string_view text, int* out) {
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return !text.empty() && error == std::errc() && end == text.data() + text.size();
}

Result<std::vector<FaultEntry>> ParseSpec(const std::string& spec) {
  std::vector<FaultEntry> entries;
  size_t start = 0;
  while (start < spec.size()) {
    size_t end = std::min(spec.find(',', start), spec.size());
    std::string_view text = std::string_view(spec).substr(start, end - start);
    start = end + 1;
    if (text.empty()) continue;
    auto invalid = [&] {
      return InvalidError("INVALID_CONF_VALUE",
                          fmt::format("The fault injection entry '{}' is not "
                                      "<point>[@<partition>][#<attempt>][:fail|:kill].",
                                      text));
    };
    FaultEntry entry;
    if (size_t colon = text.rfind(':'); colon != std::string_view::npos) {
      std::string_view action = text.substr(colon + 1);
      if (action == "kill") {
        entry.kill = true;
      } else if (action != "fail") {
        return invalid();
      }
      text = text.substr(0, colon);
    }
    if (size_t hash = text.find('#'); hash != std::string_view::npos) {
      int attempt = 0;
      if (!ParseNumber(text.substr(hash + 1), &attempt)) return invalid();
      entry.attempt = attempt;
      text = text.substr(0, hash);
    }
    if (size_t at = text.find('@'); at != std::string_view::npos) {
      int partition = 0;
      if (!ParseNumber(text.substr(at + 1), &partition)) return invalid();
      entry.partition = partition;
      text = text.substr(0, at);
    }
    if (text.empty()) return invalid();
    entry.point = std::string(text);
    entries.push_back(std::move(entry));
  }
  return entries;
}

}  // namespace

Status SetFaultInjection(const std::string& spec) {
  ARROW_ASSIGN_OR_RAISE(auto entries, ParseSpec(spec));
  FaultTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  table.entries = std::move(entries);
  table.armed = !table.entries.empty();
  return Status::OK();
}

Status InjectFault(std::string_view point, int partition, int attempt) {
  FaultTable& table = Table();
  if (!table.armed.load(std::memory_order_relaxed)) return Status::OK();
  std::lock_guard<std::mutex> lock(table.mutex);
  for (const auto& entry : table.entries) {
    if (entry.point != point) continue;
    if (entry.partition && *entry.partition != partition) continue;
    if (entry.attempt && *entry.attempt != attempt) continue;
    if (entry.kill) ::kill(::getpid(), SIGKILL);
    return InvalidError(
        "INJECTED_FAULT",
        fmt::format("Injected fault at {} (partition {}, attempt {}).", point, partition, attempt));
  }
  return Status::OK();
}

}  // namespace parley
