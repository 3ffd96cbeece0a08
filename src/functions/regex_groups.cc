#include "functions/regex_groups.h"

#include <fmt/format.h>

#include "sql/positioned_error.h"

namespace parley {

std::string NameGroups(const std::string& pattern) {
  std::string out = "(?P<g0>";
  int group = 0;
  bool in_class = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      out += c;
      out += pattern[++i];
      continue;
    }
    if (c == '[') in_class = true;
    if (c == ']') in_class = false;
    if (c == '(' && !in_class && (i + 1 >= pattern.size() || pattern[i + 1] != '?')) {
      out += fmt::format("(?P<g{}>", ++group);
      continue;
    }
    out += c;
  }
  return out + ")";
}

int CaptureGroupCount(const std::string& pattern) {
  std::string named = NameGroups(pattern);
  int groups = -1;  // g0 is the whole match
  for (size_t at = named.find("(?P<g"); at != std::string::npos; at = named.find("(?P<g", at + 1)) {
    ++groups;
  }
  return groups;
}

Result<std::string> GroupNamedPattern(const FunctionCall& call, const std::string& pattern,
                                      int group) {
  int groups = CaptureGroupCount(pattern);
  if (group < 0 || group > groups) {
    return AnalysisError(
        "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX",
        fmt::format("The value of parameter(s) `idx` in `{}` is invalid: Expects group index "
                    "between 0 and {}, but got {}.",
                    call.name, groups, group),
        call.expr.pos);
  }
  return NameGroups(pattern);
}

}  // namespace parley
