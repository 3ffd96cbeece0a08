// Metadata columns: columns of a table that a query reaches by name only, never through `*`.
#pragma once

#include <vector>

#include "parley/connector/types.h"

namespace parley {

/// \brief Mix-in for tables with metadata columns (Spark's SupportsMetadataColumns), such as a
/// file table's `_metadata` struct. A name that is also a data column resolves to the data
/// column. The engine asks for one in SupportsPushDownRequiredColumns::PruneColumns, by name,
/// like a data column, and the scan's ReadSchema() then holds it (after the data columns).
/// Metadata columns are reached in queries only; writes never see them.
class SupportsMetadataColumns {
 public:
  virtual ~SupportsMetadataColumns() = default;
  /// \brief The metadata columns, each with its name, type and nullability.
  virtual std::vector<Column> metadataColumns() const = 0;
};

}  // namespace parley
