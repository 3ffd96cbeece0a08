// Case rules for identifiers: Spark's default (spark.sql.caseSensitive=false) matches column,
// table and setting names ignoring ASCII case. Pure functions.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace parley {

/// \brief `text` with ASCII letters lower-cased.
inline std::string ToLowerAscii(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  });
  return out;
}

/// \brief `text` with ASCII letters upper-cased.
inline std::string ToUpperAscii(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](char c) {
    return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
  });
  return out;
}

/// \brief Whether two names are equal ignoring ASCII case.
inline bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && ToLowerAscii(a) == ToLowerAscii(b);
}

}  // namespace parley
