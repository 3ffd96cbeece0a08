// ALTER TABLE of the memory catalog: the altered copy of a table (memory_alter.cc).
#pragma once

#include <memory>
#include <vector>

#include "memory_table.h"
#include "parley/connector/catalog.h"

namespace parley::memory {

/// \brief A table's metadata and rows after ALTER TABLE changes.
struct AlteredTable {
  TableInfo info;
  std::shared_ptr<arrow::Table> data;
};

/// \brief Apply `changes` in order to a copy of `table`; the table itself is not touched.
/// Added columns are NULL in existing rows; a type change casts the stored values (failing when
/// a value does not fit). Errors: FIELD_NOT_FOUND, FIELD_ALREADY_EXISTS,
/// NOT_NULL_ASSERT_VIOLATION, UNSUPPORTED_FEATURE.TABLE_OPERATION (nested fields, dropping the
/// last column or a partition column), and cast errors.
Result<AlteredTable> AlterMemoryTable(const MemoryTable& table,
                                      const std::vector<TableChange>& changes);

}  // namespace parley::memory
