// Helpers of the write API: distribution constructors and truncation as an overwrite.
#include "parley/connector/write.h"

#include "arrow/scalar.h"

namespace parley {

Status SupportsOverwriteV2::Truncate() {
  return Overwrite({MakePredicate("ALWAYS_TRUE", {})});
}

Distribution Distribution::Clustered(std::vector<ExpressionPtr> expressions) {
  Distribution distribution;
  distribution.kind = Kind::kClustered;
  distribution.clustering = std::move(expressions);
  return distribution;
}

Distribution Distribution::Ordered(std::vector<std::shared_ptr<SortOrder>> ordering) {
  Distribution distribution;
  distribution.kind = Kind::kOrdered;
  distribution.ordering = std::move(ordering);
  return distribution;
}

}  // namespace parley
