// parley_checked_sum and hash_parley_checked_sum: SUM of an integral column (TINYINT to
// BIGINT) as a BIGINT that fails with ARITHMETIC_OVERFLOW when it leaves 64 bits, as Spark's
// ANSI SUM does (Arrow's sum wraps). NULL for no non-NULL value.
#include <limits>
#include <memory>
#include <vector>

#include "arrow/array/builder_primitive.h"
#include "arrow/compute/function.h"
#include "arrow/compute/kernel.h"
#include "arrow/compute/registry.h"
#include "kernels/kernel_support.h"

namespace parley::kernels {
namespace {

namespace cp = arrow::compute;

Status SumOverflow() {
  return MakeError(arrow::StatusCode::Invalid, "ARITHMETIC_OVERFLOW",
                   "overflow. Use 'try_add' to tolerate overflow and return NULL instead. If "
                   "necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.");
}

// One sum per group (a single one for the ungrouped SUM).
struct CheckedSumState : cp::KernelState {
  std::vector<int64_t> sums;
  std::vector<uint8_t> seen;  // 1 where the group had a non-NULL value
};

inline bool AddTo(CheckedSumState* state, uint32_t group, int64_t value) {
  state->seen[group] = 1;
  return !__builtin_add_overflow(state->sums[group], value, &state->sums[group]);
}

// Adds the non-NULL values of `input` to their groups' sums (`groups` null: all to group 0).
template <typename T>
Status AddValues(CheckedSumState* state, const cp::ExecValue& input, const uint32_t* groups,
                 int64_t length) {
  Column<T> values(input);
  bool in_range = true;
  for (int64_t row = 0; row < length; ++row) {
    if (!values.IsValid(row)) continue;
    in_range &=
        AddTo(state, groups == nullptr ? 0 : groups[row], static_cast<int64_t>(values.Value(row)));
  }
  return in_range ? Status::OK() : SumOverflow();
}

Status Add(CheckedSumState* state, const cp::ExecValue& input, const uint32_t* groups,
           int64_t length) {
  switch (input.type()->id()) {
    case arrow::Type::INT8: return AddValues<int8_t>(state, input, groups, length);
    case arrow::Type::INT16: return AddValues<int16_t>(state, input, groups, length);
    case arrow::Type::INT32: return AddValues<int32_t>(state, input, groups, length);
    case arrow::Type::INT64: return AddValues<int64_t>(state, input, groups, length);
    default: return Status::Invalid("checked sum of ", input.type()->ToString());
  }
}

Status MergeGroups(CheckedSumState* state, const CheckedSumState& other, const uint32_t* mapping) {
  bool in_range = true;
  for (size_t group = 0; group < other.sums.size(); ++group) {
    if (!other.seen[group]) continue;
    in_range &= AddTo(state, mapping == nullptr ? 0 : mapping[group], other.sums[group]);
  }
  return in_range ? Status::OK() : SumOverflow();
}

Result<std::shared_ptr<arrow::Array>> Sums(const CheckedSumState& state, arrow::MemoryPool* pool) {
  arrow::Int64Builder builder(pool);
  ARROW_RETURN_NOT_OK(builder.Reserve(static_cast<int64_t>(state.sums.size())));
  for (size_t group = 0; group < state.sums.size(); ++group) {
    if (state.seen[group]) {
      builder.UnsafeAppend(state.sums[group]);
    } else {
      builder.UnsafeAppendNull();
    }
  }
  return builder.Finish();
}

Result<std::unique_ptr<cp::KernelState>> Init(cp::KernelContext*, const cp::KernelInitArgs&) {
  return std::make_unique<CheckedSumState>();
}

// The grouped kernel.
Status Resize(cp::KernelContext* ctx, int64_t groups) {
  auto* state = static_cast<CheckedSumState*>(ctx->state());
  state->sums.resize(groups, 0);
  state->seen.resize(groups, 0);
  return Status::OK();
}

Status HashConsume(cp::KernelContext* ctx, const cp::ExecSpan& batch) {
  return Add(static_cast<CheckedSumState*>(ctx->state()), batch[0],
             batch[1].array.GetValues<uint32_t>(1), batch.length);
}

Status HashMerge(cp::KernelContext* ctx, cp::KernelState&& other,
                 const arrow::ArrayData& group_id_mapping) {
  return MergeGroups(static_cast<CheckedSumState*>(ctx->state()),
                     static_cast<CheckedSumState&>(other), group_id_mapping.GetValues<uint32_t>(1));
}

Status HashFinalize(cp::KernelContext* ctx, arrow::Datum* out) {
  ARROW_ASSIGN_OR_RAISE(auto sums,
                        Sums(*static_cast<CheckedSumState*>(ctx->state()), ctx->memory_pool()));
  *out = sums->data();
  return Status::OK();
}

// The ungrouped kernel: one group.
Result<std::unique_ptr<cp::KernelState>> InitOne(cp::KernelContext* ctx,
                                                 const cp::KernelInitArgs& args) {
  auto state = std::make_unique<CheckedSumState>();
  state->sums.assign(1, 0);
  state->seen.assign(1, 0);
  return state;
}

Status Consume(cp::KernelContext* ctx, const cp::ExecSpan& batch) {
  return Add(static_cast<CheckedSumState*>(ctx->state()), batch[0], nullptr, batch.length);
}

Status Merge(cp::KernelContext*, cp::KernelState&& from, cp::KernelState* into) {
  return MergeGroups(static_cast<CheckedSumState*>(into), static_cast<CheckedSumState&>(from),
                     nullptr);
}

Status Finalize(cp::KernelContext* ctx, arrow::Datum* out) {
  auto* state = static_cast<CheckedSumState*>(ctx->state());
  *out = state->seen[0] ? arrow::Datum(state->sums[0])
                        : arrow::Datum(arrow::MakeNullScalar(arrow::int64()));
  return Status::OK();
}

}  // namespace

Status RegisterCheckedSumKernels(cp::FunctionRegistry* registry) {
  const arrow::Type::type kIntegral[] = {arrow::Type::INT8, arrow::Type::INT16, arrow::Type::INT32,
                                         arrow::Type::INT64};
  auto grouped = std::make_shared<cp::HashAggregateFunction>(
      "hash_parley_checked_sum", cp::Arity::Binary(),
      cp::FunctionDoc("Grouped sum of an integral column, failing on overflow", "",
                      {"x", "group"}));
  auto ungrouped = std::make_shared<cp::ScalarAggregateFunction>(
      "parley_checked_sum", cp::Arity::Unary(),
      cp::FunctionDoc("Sum of an integral column, failing on overflow", "", {"x"}));
  for (auto type : kIntegral) {
    cp::HashAggregateKernel hash_kernel(
        cp::KernelSignature::Make({cp::InputType(type), cp::InputType(arrow::Type::UINT32)},
                                  cp::OutputType(arrow::int64())),
        Init, Resize, HashConsume, HashMerge, HashFinalize, /*ordered=*/false);
    ARROW_RETURN_NOT_OK(grouped->AddKernel(std::move(hash_kernel)));
    cp::ScalarAggregateKernel kernel(
        cp::KernelSignature::Make({cp::InputType(type)}, cp::OutputType(arrow::int64())), InitOne,
        Consume, Merge, Finalize, /*ordered=*/false);
    ARROW_RETURN_NOT_OK(ungrouped->AddKernel(std::move(kernel)));
  }
  ARROW_RETURN_NOT_OK(registry->AddFunction(std::move(grouped), /*allow_overwrite=*/true));
  return registry->AddFunction(std::move(ungrouped), /*allow_overwrite=*/true);
}

}  // namespace parley::kernels
