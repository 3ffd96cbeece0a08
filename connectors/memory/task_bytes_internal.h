// The byte encoding memory tasks cross the "executor boundary" with (see memory_scan_internal.h
// and memory_write_internal.h): colon-separated fields, integers in decimal, and a random token
// drawn once per process so bytes carried to another process are refused instead of resolving
// to unrelated data.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parley/connector/status.h"

namespace parley::memory {

/// \brief The random token of this process.
uint64_t ProcessToken();

/// \brief An error saying bytes do not rebuild a task: TASK_NOT_SERIALIZABLE.
Status NotSerializable(const std::string& message);

/// \brief `text` split on `separator`, empty fields kept.
std::vector<std::string_view> SplitFields(std::string_view text, char separator = ':');

/// \brief Parse a whole field as a decimal integer.
template <typename Int>
bool ParseInteger(std::string_view text, Int* out) {
  if (text.empty()) return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return error == std::errc() && end == text.data() + text.size();
}

/// \brief The first bytes of `bytes`, quoted and with non-printable characters replaced, for
/// messages.
std::string Printable(std::string_view bytes);

}  // namespace parley::memory
