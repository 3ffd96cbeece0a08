// Arrow filters a record batch by turning the mask into indices and taking each column by
// them; filtering each column by the mask itself copies runs of kept rows and is about twice
// as fast when most rows stay (measured on TPC-H lineitem columns). SelectRows picks per batch.
#include "exec/row_selection.h"

#include <utility>

#include "arrow/array.h"
#include "arrow/compute/api_vector.h"
#include "arrow/record_batch.h"
#include "arrow/scalar.h"

namespace parley {
namespace {

// At or above this share of kept rows, columns are filtered by the mask rather than by index.
constexpr double kDenseSelection = 0.5;

}  // namespace

Result<std::shared_ptr<arrow::RecordBatch>> SelectRows(
    const std::shared_ptr<arrow::RecordBatch>& batch, const arrow::Datum& mask) {
  if (mask.is_scalar()) {
    const auto& scalar = static_cast<const arrow::BooleanScalar&>(*mask.scalar());
    if (scalar.is_valid && scalar.value) return batch;
    return batch->Slice(0, 0);
  }
  const auto& selection = static_cast<const arrow::BooleanArray&>(*mask.make_array());
  const int64_t rows = batch->num_rows();
  const int64_t kept = selection.true_count();
  if (kept == rows) return batch;
  if (kept == 0) return batch->Slice(0, 0);
  if (static_cast<double>(kept) < kDenseSelection * static_cast<double>(rows)) {
    ARROW_ASSIGN_OR_RAISE(auto taken, arrow::compute::Filter(batch, mask));
    return taken.record_batch();
  }
  arrow::ArrayVector columns;
  columns.reserve(batch->num_columns());
  for (const auto& column : batch->columns()) {
    ARROW_ASSIGN_OR_RAISE(auto filtered, arrow::compute::Filter(column, mask));
    columns.push_back(filtered.make_array());
  }
  return arrow::RecordBatch::Make(batch->schema(), kept, std::move(columns));
}

}  // namespace parley
