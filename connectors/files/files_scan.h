// The scan builder of one read: pushdown, pruning, statistics and planning (files_scan.cc).
#pragma once

#include <memory>

#include "arrow/type_fwd.h"
#include "connectors/files/files_table.h"
#include "parley/connector/read.h"
#include "parley/connector/status.h"
#include "parley/connector/types.h"

namespace parley::files {

/// \brief The scan builder of one read of `table`. Of the scan's `options`, only the planning
/// ones (maxpartitionbytes, opencostinbytes, minpartitionnum) override the table's.
Result<std::unique_ptr<ScanBuilder>> MakeFilesScanBuilder(std::shared_ptr<const TableData> table,
                                                          const Options& options);

}  // namespace parley::files
