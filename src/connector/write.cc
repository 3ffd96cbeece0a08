// Helpers of the write API: distribution constructors, truncation as an overwrite, the names
// of row-level commands and an operation's default representation.
#include "parley/connector/write.h"

#include "parley/connector/row_level.h"

#include "arrow/scalar.h"

namespace parley {

const char* RowLevelCommandName(RowLevelCommand command) {
  switch (command) {
    case RowLevelCommand::kDelete: return "DELETE";
    case RowLevelCommand::kUpdate: return "UPDATE";
    case RowLevelCommand::kMerge: return "MERGE";
  }
  return "UNKNOWN";
}

RowLevelRepresentation RowLevelOperation::representation() const {
  return dynamic_cast<const SupportsDelta*>(this) != nullptr ? RowLevelRepresentation::kDeltaBased
                                                             : RowLevelRepresentation::kGroupBased;
}

Status SupportsOverwriteV2::Truncate() { return Overwrite({MakePredicate("ALWAYS_TRUE", {})}); }

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
