// The names an error suggests for one that resolves to nothing, nearest first, as Spark orders
// its suggestions (edit distance, ignoring case).
#pragma once

#include <string>
#include <vector>

namespace parley {

/// \brief Up to `limit` of `candidates`, ordered by their edit distance to `name` (letters
/// compared without case); candidates at the same distance keep their order.
std::vector<std::string> NearestNames(const std::string& name,
                                      const std::vector<std::string>& candidates, size_t limit);

}  // namespace parley
