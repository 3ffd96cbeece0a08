// Capture groups of the regular expressions Spark's regexp_extract family takes, named for
// Arrow's extract_regex (which reads named groups only).
#pragma once

#include <string>

#include "functions/function_registry.h"

namespace parley {

/// \brief `pattern` with its unnamed capture groups named g1, g2, ... and the whole match g0.
std::string NameGroups(const std::string& pattern);

/// \brief The number of capture groups of `pattern` (not counting the whole match).
int CaptureGroupCount(const std::string& pattern);

/// \brief NameGroups(pattern), after checking that `group` is one of its groups (0 the whole
/// match): INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX naming the call's function otherwise.
Result<std::string> GroupNamedPattern(const FunctionCall& call, const std::string& pattern,
                                      int group);

}  // namespace parley
