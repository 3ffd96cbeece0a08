// Row selection: keeping the rows of a batch that a boolean mask selects.
#pragma once

#include <memory>
#include <vector>

#include "arrow/compute/expression.h"
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

/// \brief The rows of `batch` at `rows` (positions, ascending), in that order; a batch of the
/// same columns (no copy) when `rows` names every row.
Result<std::shared_ptr<arrow::RecordBatch>> TakeRows(const arrow::RecordBatch& batch,
                                                     const std::vector<int64_t>& rows);

/// \brief The members of the AND chain at the top of `condition` (Arrow's and_kleene), in
/// order; `condition` itself when it is not an AND.
std::vector<arrow::compute::Expression> Conjuncts(const arrow::compute::Expression& condition);

/// \brief The rows of `batch` for which every one of `conjuncts` (bound to the batch's schema)
/// is TRUE. The conjuncts are evaluated in order; as soon as the rows still kept are at most
/// half of those evaluated, the batch is narrowed to them and the next conjuncts see only
/// those, as Spark's AND evaluates its right side only where its left side is not FALSE (so an
/// error a later conjunct would raise on a row an earlier one rejected is then not raised).
/// Evaluation errors are returned as they are.
Result<std::shared_ptr<arrow::RecordBatch>> SelectRowsWhere(
    std::shared_ptr<arrow::RecordBatch> batch,
    const std::vector<arrow::compute::Expression>& conjuncts);

}  // namespace parley
