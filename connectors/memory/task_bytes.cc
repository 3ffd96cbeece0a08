// The byte encoding of memory tasks.
#include "task_bytes_internal.h"

#include <random>

namespace parley::memory {

uint64_t ProcessToken() {
  static const uint64_t token = [] {
    std::random_device random;
    return (static_cast<uint64_t>(random()) << 32) ^ random();
  }();
  return token;
}

Status NotSerializable(const std::string& message) {
  return InvalidError("CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE", message);
}

std::vector<std::string_view> SplitFields(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

std::string Printable(std::string_view bytes) {
  constexpr size_t kMax = 80;
  std::string out;
  for (char c : bytes.substr(0, kMax)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (bytes.size() > kMax) out += "...";
  return "'" + out + "'";
}

}  // namespace parley::memory
