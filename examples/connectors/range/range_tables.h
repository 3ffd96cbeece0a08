// The two tables of the example catalog, one per step of Spark's connector guide. Both hold the
// ten rows (i, j = -i) for i in [0, 10), columns `i INT, j INT`, and declare only BATCH_READ.
//
//   SimpleTable    Step 1 (JavaSimpleDataSourceV2): a ScanBuilder with no pushdown mix-in.
//                  The engine filters and projects above the scan; two partitions, [0,5) [5,10).
//   FilteredTable  Step 2 (JavaAdvancedDataSourceV2WithV2Filter): the ScanBuilder also
//                  implements SupportsPushDownV2Filters (accepting one `i > <int>` threshold)
//                  and SupportsPushDownRequiredColumns, and the scan plans fewer partitions and
//                  reads fewer columns accordingly.
//
// Tables are immutable and safe for concurrent use by several scans.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "parley/connector/table.h"

namespace parley::example {

/// \brief What the two tables share: name, columns, capabilities.
class RangeTable : public Table, public SupportsRead {
 public:
  /// \brief `name` is the display name, e.g. "ex.default.simple".
  explicit RangeTable(std::string name) : name_(std::move(name)) {}

  std::string name() const override { return name_; }
  /// \brief `i INT, j INT`, both nullable as in Spark's test schema.
  std::vector<Column> columns() const override;
  /// \brief {BATCH_READ}.
  std::set<TableCapability> capabilities() const override;

 private:
  std::string name_;
};

/// \brief Step 1: a minimal batch read.
class SimpleTable : public RangeTable {
 public:
  using RangeTable::RangeTable;
  /// \brief A builder with no pushdown mix-in; its scan reads both columns of all ten rows.
  Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options& options) override;
};

/// \brief Step 2: filter and column pushdown.
class FilteredTable : public RangeTable {
 public:
  using RangeTable::RangeTable;
  /// \brief A builder implementing SupportsPushDownV2Filters and
  /// SupportsPushDownRequiredColumns. PushPredicates accepts only the first predicate of the
  /// form `i > <non-null INT literal>` whose literal is >= -1, returns all the others, and
  /// replaces what an earlier call accepted. PruneColumns keeps `i` and/or `j` in table order
  /// and fails with INTERNAL_ERROR on any other name.
  Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options& options) override;
};

}  // namespace parley::example
