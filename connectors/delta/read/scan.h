// The scan builder of one read (delta_scan.cc).
#pragma once

#include <memory>

#include "arrow/type_fwd.h"
#include "connectors/delta/table_state.h"
#include "parley/connector/read.h"
#include "parley/connector/status.h"

namespace parley::delta {

/// \brief The scan builder of one read of `table`.
std::unique_ptr<ScanBuilder> MakeDeltaScanBuilder(std::shared_ptr<const TableState> table);

}  // namespace parley::delta
