// Row selection: keeping the rows of a batch that a boolean mask selects.
#pragma once

#include <memory>

#include "arrow/datum.h"
#include "arrow/type_fwd.h"
#include "parley/connector/status.h"

namespace parley {

/// \brief The rows of `batch` where `mask` (a boolean array as long as the batch, or a
/// boolean scalar) is true; NULL drops the row, as in a WHERE clause. Rows keep their order.
/// A mask selecting every row returns `batch` itself (no copy). A dense selection copies each
/// column by the mask's runs; a sparse one gathers the kept rows by index, which is faster when
/// few rows remain.
Result<std::shared_ptr<arrow::RecordBatch>> SelectRows(
    const std::shared_ptr<arrow::RecordBatch>& batch, const arrow::Datum& mask);

}  // namespace parley
