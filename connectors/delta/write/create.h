// CREATE TABLE: the metadata and protocol of a new table (delta_create.cc).
#pragma once

#include <optional>

#include "arrow/type_fwd.h"
#include "connectors/delta/log/delta_log.h"
#include "connectors/delta/log/delta_schema.h"
#include "parley/connector/catalog.h"
#include "parley/connector/status.h"

namespace parley::delta {

/// \brief The first metadata and protocol of a table.
struct NewTableMetadata {
  Metadata metadata;
  Protocol protocol;
};

/// \brief OK when every column name in `fields` (nested fields too) may be stored under
/// `mode`: without column mapping a name holds none of ` ,;{}()\n\t=`, else
/// DELTA_INVALID_CHARACTERS_IN_COLUMN_NAMES listing the names at fault.
Status CheckColumnNames(const arrow::FieldVector& fields, ColumnMappingMode mode);

/// \brief The metadata of a table created (or replaced) from CREATE TABLE's `info`: a fresh id,
/// the columns (with column mapping ids and physical names when the properties ask for it),
/// identity partitioning only, the comment as description, the other non-reserved properties
/// as configuration (validated), and RequiredProtocol (never below `current` for a
/// replacement). Fails for another provider than delta, partition transforms, partition
/// columns that are missing or of a type that cannot partition, column defaults, and column
/// names CheckColumnNames refuses.
Result<NewTableMetadata> MetadataForCreate(const TableInfo& info,
                                           const std::optional<Protocol>& current);

}  // namespace parley::delta
