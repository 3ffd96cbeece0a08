// Streaming row numbers: a Window node whose every call is row_number() over the whole input
// (no PARTITION BY, no ORDER BY) numbers rows in the order they arrive, so it needs no gathered
// input. A MERGE numbers its target rows this way.
#pragma once

#include <memory>

#include "arrow/record_batch.h"
#include "plan/logical_plan.h"

namespace parley {

/// \brief Whether `node` (a Window node) only numbers the rows of its whole input: every call
/// is row_number() with no PARTITION BY and no ORDER BY.
bool IsRowNumbering(const PlanNode& node);

/// \brief The output of the row-numbering Window node `node` (IsRowNumbering) over `input`,
/// its child's output, batch by batch: the columns of `input` that `node` outputs, then 1, 2,
/// ... (INT32) for each call. Errors of `input` carry their Spark conditions; Close() closes
/// `input`. Read by one thread at a time.
std::shared_ptr<arrow::RecordBatchReader> NumberRows(
    const PlanNode& node, std::shared_ptr<arrow::RecordBatchReader> input);

}  // namespace parley
