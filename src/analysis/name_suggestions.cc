// Edit distance between names, for the suggestions of analysis errors.
#include "analysis/name_suggestions.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace parley {
namespace {

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1,
                         diagonal + (::tolower(a[i - 1]) == ::tolower(b[j - 1]) ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::vector<std::string> NearestNames(const std::string& name,
                                      const std::vector<std::string>& candidates, size_t limit) {
  std::vector<std::pair<size_t, const std::string*>> ranked;
  ranked.reserve(candidates.size());
  for (const auto& candidate : candidates)
    ranked.emplace_back(EditDistance(candidate, name), &candidate);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> nearest;
  for (size_t i = 0; i < ranked.size() && i < limit; ++i) nearest.push_back(*ranked[i].second);
  return nearest;
}

}  // namespace parley
