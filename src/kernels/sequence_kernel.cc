// Spark's sequence(start, stop[, step]) of integers: start, start + step, ... up to stop
// inclusive, step 1 or -1 by default. A step that cannot reach stop fails as Spark's does.
//   parley_sequence(int64 start, int64 stop, int64 step or NULL) -> list<int64>
#include <fmt/format.h>

#include "arrow/array/builder_nested.h"
#include "arrow/array/builder_primitive.h"
#include "kernels/kernel_support.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

// Spark's longest array.
constexpr int64_t kMaxElements = 2147483632;

Status SequenceExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  kernels::Column<int64_t> start(batch[0]);
  kernels::Column<int64_t> stop(batch[1]);
  kernels::Column<int64_t> step(batch[2]);
  arrow::ListBuilder builder(ctx->memory_pool(), std::make_shared<arrow::Int64Builder>());
  auto* values = static_cast<arrow::Int64Builder*>(builder.value_builder());
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!start.IsValid(row) || !stop.IsValid(row)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    int64_t from = start.Value(row);
    int64_t to = stop.Value(row);
    int64_t by = step.IsValid(row) ? step.Value(row) : (from <= to ? 1 : -1);
    bool reaches = (by > 0 && from <= to) || (by < 0 && from >= to) || (by == 0 && from == to);
    if (!reaches) {
      return MakeError(arrow::StatusCode::Invalid, "ILLEGAL_SEQUENCE_BOUNDARIES",
                       fmt::format("Illegal sequence boundaries: {} to {} by {}", from, to, by));
    }
    // How many elements: |to - from| / |by| + 1, computed without overflow.
    __int128 span = static_cast<__int128>(to) - from;
    __int128 count = by == 0 ? 1 : span / by + 1;
    if (count > kMaxElements) {
      return MakeError(arrow::StatusCode::Invalid, "COLLECTION_SIZE_LIMIT_EXCEEDED.FUNCTION",
                       fmt::format("Can't create array with {} elements which exceeding the "
                                   "array size limit {}, in the function `sequence`.",
                                   static_cast<int64_t>(count), kMaxElements));
    }
    ARROW_RETURN_NOT_OK(builder.Append());
    for (__int128 i = 0; i < count; ++i) {
      ARROW_RETURN_NOT_OK(values->Append(static_cast<int64_t>(from + i * by)));
    }
  }
  return kernels::FinishInto(&builder, out);
}

}  // namespace

namespace kernels {

Status RegisterSequenceKernel(cp::FunctionRegistry* registry) {
  return AddFunction(
      registry, "parley_sequence",
      {cp::InputType(arrow::int64()), cp::InputType(arrow::int64()), cp::InputType(arrow::int64())},
      cp::OutputType(arrow::list(arrow::int64())), SequenceExec, "Spark's sequence of integers");
}

}  // namespace kernels
}  // namespace parley
