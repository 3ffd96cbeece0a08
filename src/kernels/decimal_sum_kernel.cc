// hash_parley_decimal_sum and parley_decimal_sum: the grouped and the ungrouped sum of a
// DECIMAL128 column in native 128-bit integers. Arrow's hash_sum adds Decimal128 values through
// an out-of-line operator per row, and its sum wraps past 38 digits; these kernels keep one
// __int128 per group (TPC-H Q1's four decimal sums: about half the time). The sum keeps the
// input's scale, is typed DECIMAL(38, scale), is NULL for a group without a non-NULL value (as
// SQL's SUM), and fails with Spark's ARITHMETIC_OVERFLOW when it leaves 38 digits; the engine
// then casts it to Spark's sum type, which checks its precision.

#include <cstring>
#include <memory>
#include <vector>

#include "arrow/array/builder_decimal.h"
#include "arrow/compute/function.h"
#include "arrow/compute/kernel.h"
#include "arrow/compute/registry.h"
#include "arrow/util/decimal.h"
#include "kernels/kernel_support.h"

namespace parley::kernels {
namespace {

namespace cp = arrow::compute;

constexpr __int128 kLimit = static_cast<__int128>(10000000000000000000ULL) *
                            static_cast<__int128>(10000000000000000000ULL);  // 10^38

struct DecimalSumState : cp::KernelState {
  std::shared_ptr<arrow::DataType> out_type;
  std::vector<__int128> sums;
  std::vector<uint8_t> seen;  // 1 where the group had a non-NULL value
  // No group's sum is further from 0 than this; kLimit when not known.
  __int128 bound = 0;
  // The ungrouped kernel's group ids (all 0), kept across batches.
  std::vector<uint32_t> zero_groups;
};

__int128 LoadDecimal(const uint8_t* bytes) {
  __int128 value;
  std::memcpy(&value, bytes, sizeof(value));  // Arrow's little-endian two's complement
  return value;
}

Result<std::unique_ptr<cp::KernelState>> Init(cp::KernelContext*, const cp::KernelInitArgs& args) {
  auto state = std::make_unique<DecimalSumState>();
  const auto& input = static_cast<const arrow::DecimalType&>(*args.inputs[0].type);
  state->out_type = arrow::decimal128(arrow::Decimal128Type::kMaxPrecision, input.scale());
  return state;
}

Status Resize(cp::KernelContext* ctx, int64_t groups) {
  auto* state = static_cast<DecimalSumState*>(ctx->state());
  state->sums.resize(groups, 0);
  state->seen.resize(groups, 0);
  return Status::OK();
}

// Adds `value` to `sum`; false when the sum leaves 38 digits.
inline bool AddTo(__int128* sum, __int128 value) {
  return !__builtin_add_overflow(*sum, value, sum) && *sum<kLimit&& * sum> - kLimit;
}

// `a + b` for bounds below kLimit, or kLimit once it reaches it.
__int128 AddBounds(__int128 a, __int128 b) { return a >= kLimit - b ? kLimit : a + b; }

// The low and high words of row `row`'s value.
inline void LoadWords(const uint8_t* data, int64_t row, int64_t* low, int64_t* high) {
  std::memcpy(low, data + row * 16, 8);
  std::memcpy(high, data + row * 16 + 8, 8);
}

inline unsigned __int128 Combine(int64_t low, int64_t high) {
  return (static_cast<unsigned __int128>(static_cast<uint64_t>(high)) << 64) |
         static_cast<uint64_t>(low);
}

// Up to this many groups, rows are summed into four interleaved sets of partial sums first, so
// that consecutive rows of one group do not wait on each other's addition.
constexpr int64_t kFewGroups = 64;

// Adds (with kSign -1, subtracts) every non-NULL value to its group's sum without checks, in
// wrapping two's complement arithmetic. Returns whether every value fits 64 bits.
template <int kSign>
bool AddUnchecked(const arrow::ArraySpan& values, const uint32_t* groups, int64_t num_groups,
                  __int128* sums, uint8_t* seen) {
  const uint8_t* data = values.buffers[1].data + values.offset * 16;
  const bool nullable = values.MayHaveNulls();
  uint64_t wide = 0;  // non-zero once a value's high word is not its low word's sign
  auto* totals = reinterpret_cast<unsigned __int128*>(sums);
  auto add = [](unsigned __int128* sum, unsigned __int128 value) {
    *sum = kSign > 0 ? *sum + value : *sum - value;
  };
  if (nullable || num_groups > kFewGroups) {
    for (int64_t row = 0; row < values.length; ++row) {
      if (nullable && !values.IsValid(row)) continue;
      int64_t low, high;
      LoadWords(data, row, &low, &high);
      wide |= static_cast<uint64_t>(high ^ (low >> 63));
      add(&totals[groups[row]], Combine(low, high));
      seen[groups[row]] = 1;
    }
    return wide == 0;
  }
  std::vector<unsigned __int128> partial(static_cast<size_t>(4 * num_groups), 0);
  for (int64_t row = 0; row < values.length; ++row) {
    int64_t low, high;
    LoadWords(data, row, &low, &high);
    wide |= static_cast<uint64_t>(high ^ (low >> 63));
    partial[static_cast<size_t>((row & 3) * num_groups + groups[row])] += Combine(low, high);
    seen[groups[row]] = 1;
  }
  for (int64_t lane = 0; lane < 4; ++lane) {
    for (int64_t group = 0; group < num_groups; ++group) {
      add(&totals[group], partial[static_cast<size_t>(lane * num_groups + group)]);
    }
  }
  return wide == 0;
}

// Adds the values of `input` to the sums of their `groups`.
Status AddToGroups(DecimalSumState* state, const cp::ExecValue& input, const uint32_t* groups,
                   int64_t length) {
  __int128* sums = state->sums.data();
  uint8_t* seen = state->seen.data();
  bool in_range = true;
  if (input.is_scalar()) {
    const auto& scalar = static_cast<const arrow::Decimal128Scalar&>(*input.scalar);
    if (!scalar.is_valid) return Status::OK();
    __int128 value = LoadDecimal(scalar.value.native_endian_bytes());
    for (int64_t row = 0; row < length; ++row) {
      in_range &= AddTo(&sums[groups[row]], value);
      seen[groups[row]] = 1;
    }
    state->bound = kLimit;
    return in_range ? Status::OK() : DecimalSumOverflow();
  }
  const arrow::ArraySpan& values = input.array;
  // While every sum stays far enough from 38 digits, values of at most 64 bits (below 2^63 in
  // magnitude) are added without a check per row. A batch with a wider value is taken back
  // (wrapping arithmetic undoes exactly) and added again with checks.
  const __int128 growth = static_cast<__int128>(length) << 63;
  if (state->bound < kLimit - growth) {
    const auto num_groups = static_cast<int64_t>(state->sums.size());
    if (AddUnchecked<+1>(values, groups, num_groups, sums, seen)) {
      state->bound += growth;
      return Status::OK();
    }
    AddUnchecked<-1>(values, groups, num_groups, sums, seen);
  }
  const uint8_t* data = values.buffers[1].data + values.offset * 16;
  const bool nullable = values.MayHaveNulls();
  for (int64_t row = 0; row < length; ++row) {
    if (nullable && !values.IsValid(row)) continue;
    in_range &= AddTo(&sums[groups[row]], LoadDecimal(data + row * 16));
    seen[groups[row]] = 1;
  }
  state->bound = kLimit;
  return in_range ? Status::OK() : DecimalSumOverflow();
}

Status Consume(cp::KernelContext* ctx, const cp::ExecSpan& batch) {
  return AddToGroups(static_cast<DecimalSumState*>(ctx->state()), batch[0],
                     batch[1].array.GetValues<uint32_t>(1), batch.length);
}

// Adds the sums of `other` to those of `state` (group g to mapping[g]; every one to group 0
// when `mapping` is null).
Status MergeGroups(DecimalSumState* state, const DecimalSumState& other, const uint32_t* mapping) {
  bool in_range = true;
  for (size_t group = 0; group < other.sums.size(); ++group) {
    if (!other.seen[group]) continue;
    const size_t into = mapping == nullptr ? 0 : mapping[group];
    in_range &= AddTo(&state->sums[into], other.sums[group]);
    state->seen[into] = 1;
  }
  state->bound = AddBounds(state->bound, other.bound);
  return in_range ? Status::OK() : DecimalSumOverflow();
}

Status Merge(cp::KernelContext* ctx, cp::KernelState&& other_state,
             const arrow::ArrayData& group_id_mapping) {
  return MergeGroups(static_cast<DecimalSumState*>(ctx->state()),
                     static_cast<DecimalSumState&>(other_state),
                     group_id_mapping.GetValues<uint32_t>(1));
}

Status Finalize(cp::KernelContext* ctx, arrow::Datum* out) {
  auto* state = static_cast<DecimalSumState*>(ctx->state());
  arrow::Decimal128Builder builder(state->out_type, ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(static_cast<int64_t>(state->sums.size())));
  for (size_t group = 0; group < state->sums.size(); ++group) {
    if (!state->seen[group]) {
      builder.UnsafeAppendNull();
      continue;
    }
    auto bits = static_cast<unsigned __int128>(state->sums[group]);
    builder.UnsafeAppend(
        arrow::Decimal128(static_cast<int64_t>(bits >> 64), static_cast<uint64_t>(bits)));
  }
  ARROW_ASSIGN_OR_RAISE(auto sums, builder.Finish());
  *out = sums->data();
  return Status::OK();
}

// The ungrouped kernel: the grouped one's state with one group.
Result<std::unique_ptr<cp::KernelState>> InitOne(cp::KernelContext* ctx,
                                                 const cp::KernelInitArgs& args) {
  ARROW_ASSIGN_OR_RAISE(auto state, Init(ctx, args));
  auto* sums = static_cast<DecimalSumState*>(state.get());
  sums->sums.assign(1, 0);
  sums->seen.assign(1, 0);
  return state;
}

Status ConsumeOne(cp::KernelContext* ctx, const cp::ExecSpan& batch) {
  auto* state = static_cast<DecimalSumState*>(ctx->state());
  if (state->zero_groups.size() < static_cast<size_t>(batch.length)) {
    state->zero_groups.resize(static_cast<size_t>(batch.length), 0);
  }
  return AddToGroups(state, batch[0], state->zero_groups.data(), batch.length);
}

Status MergeOne(cp::KernelContext*, cp::KernelState&& from, cp::KernelState* into) {
  return MergeGroups(static_cast<DecimalSumState*>(into), static_cast<DecimalSumState&>(from),
                     nullptr);
}

Status FinalizeOne(cp::KernelContext* ctx, arrow::Datum* out) {
  arrow::Datum sums;
  ARROW_RETURN_NOT_OK(Finalize(ctx, &sums));
  ARROW_ASSIGN_OR_RAISE(auto sum, sums.make_array()->GetScalar(0));
  *out = std::move(sum);
  return Status::OK();
}

Result<arrow::TypeHolder> SumType(cp::KernelContext*, const std::vector<arrow::TypeHolder>& in) {
  const auto& input = static_cast<const arrow::DecimalType&>(*in[0].type);
  return arrow::decimal128(arrow::Decimal128Type::kMaxPrecision, input.scale());
}

}  // namespace

Status RegisterDecimalSumKernel(cp::FunctionRegistry* registry) {
  auto function = std::make_shared<cp::HashAggregateFunction>(
      "hash_parley_decimal_sum", cp::Arity::Binary(),
      cp::FunctionDoc("Grouped sum of a decimal column in 128-bit integers", "", {"x", "group"}));
  cp::HashAggregateKernel kernel(cp::KernelSignature::Make({cp::InputType(arrow::Type::DECIMAL128),
                                                            cp::InputType(arrow::Type::UINT32)},
                                                           cp::OutputType(SumType)),
                                 Init, Resize, Consume, Merge, Finalize, /*ordered=*/false);
  ARROW_RETURN_NOT_OK(function->AddKernel(std::move(kernel)));
  ARROW_RETURN_NOT_OK(registry->AddFunction(std::move(function), /*allow_overwrite=*/true));
  auto ungrouped = std::make_shared<cp::ScalarAggregateFunction>(
      "parley_decimal_sum", cp::Arity::Unary(),
      cp::FunctionDoc("Sum of a decimal column in 128-bit integers", "", {"x"}));
  cp::ScalarAggregateKernel one(
      cp::KernelSignature::Make({cp::InputType(arrow::Type::DECIMAL128)}, cp::OutputType(SumType)),
      InitOne, ConsumeOne, MergeOne, FinalizeOne, /*ordered=*/false);
  ARROW_RETURN_NOT_OK(ungrouped->AddKernel(std::move(one)));
  return registry->AddFunction(std::move(ungrouped), /*allow_overwrite=*/true);
}

Status DecimalSumOverflow() {
  return MakeError(arrow::StatusCode::Invalid, "ARITHMETIC_OVERFLOW",
                   "Overflow in sum of decimals. Use 'try_sum' to tolerate overflow and return "
                   "NULL instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to "
                   "bypass this error.");
}

}  // namespace parley::kernels
