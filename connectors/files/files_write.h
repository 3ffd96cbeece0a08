// The driver side of writes: builder, write and batch write, and what an overwrite deletes
// (files_write.cc).
#pragma once

#include <memory>

#include "arrow/type_fwd.h"
#include "connectors/files/files_table.h"
#include "parley/connector/status.h"
#include "parley/connector/write.h"

namespace parley::files {

/// \brief The write builder of one write to `table` (which must have a root_dir).
Result<std::unique_ptr<WriteBuilder>> MakeFilesWriteBuilder(std::shared_ptr<const TableData> table,
                                                            const LogicalWriteInfo& info);

/// \brief TRUNCATE TABLE: delete every data file in one commit.
Result<bool> TruncateFilesTable(const TableData& table);

}  // namespace parley::files
