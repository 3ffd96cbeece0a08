// hash_parley_decimal_sum: the grouped sum of a DECIMAL128 column in native 128-bit integers.
// Arrow's hash_sum adds Decimal128 values through an out-of-line operator per row; this kernel
// keeps one __int128 per group (TPC-H Q1's four decimal sums: about half the time). The sum
// keeps the input's scale, is typed DECIMAL(38, scale), is NULL for a group without a non-NULL
// value (as SQL's SUM), and fails with NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION when it
// leaves 38 digits; the engine then casts it to Spark's sum type, which checks its precision.
#include <fmt/format.h>

#include <cstring>
#include <memory>
#include <vector>

#include "arrow/array/builder_decimal.h"
#include "arrow/compute/function.h"
#include "arrow/compute/kernel.h"
#include "arrow/compute/registry.h"
#include "arrow/util/decimal.h"
#include "functions/kernel_support.h"

namespace parley::kernels {
namespace {

namespace cp = arrow::compute;

constexpr __int128 kLimit = static_cast<__int128>(10000000000000000000ULL) *
                                static_cast<__int128>(10000000000000000000ULL);  // 10^38

Status SumOutOfRange(const arrow::DataType& type) {
  const auto& decimal = static_cast<const arrow::DecimalType&>(type);
  return MakeError(arrow::StatusCode::Invalid, "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION",
                   fmt::format("The sum cannot be represented as DECIMAL({},{}). If necessary set "
                               "\"spark.sql.ansi.enabled\" to \"false\" to bypass this error.",
                               decimal.precision(), decimal.scale()));
}

struct DecimalSumState : cp::KernelState {
  std::shared_ptr<arrow::DataType> out_type;
  std::vector<__int128> sums;
  std::vector<uint8_t> seen;  // 1 where the group had a non-NULL value
  // No group's sum is further from 0 than this; kLimit when not known.
  __int128 bound = 0;
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
  return !__builtin_add_overflow(*sum, value, sum) && *sum < kLimit && *sum > -kLimit;
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

Status Consume(cp::KernelContext* ctx, const cp::ExecSpan& batch) {
  auto* state = static_cast<DecimalSumState*>(ctx->state());
  const uint32_t* groups = batch[1].array.GetValues<uint32_t>(1);
  __int128* sums = state->sums.data();
  uint8_t* seen = state->seen.data();
  bool in_range = true;
  if (batch[0].is_scalar()) {
    const auto& scalar = static_cast<const arrow::Decimal128Scalar&>(*batch[0].scalar);
    if (!scalar.is_valid) return Status::OK();
    __int128 value = LoadDecimal(scalar.value.native_endian_bytes());
    for (int64_t row = 0; row < batch.length; ++row) {
      in_range &= AddTo(&sums[groups[row]], value);
      seen[groups[row]] = 1;
    }
    state->bound = kLimit;
    return in_range ? Status::OK() : SumOutOfRange(*state->out_type);
  }
  const arrow::ArraySpan& values = batch[0].array;
  // While every sum stays far enough from 38 digits, values of at most 64 bits (below 2^63 in
  // magnitude) are added without a check per row. A batch with a wider value is taken back
  // (wrapping arithmetic undoes exactly) and added again with checks.
  const __int128 growth = static_cast<__int128>(batch.length) << 63;
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
  for (int64_t row = 0; row < batch.length; ++row) {
    if (nullable && !values.IsValid(row)) continue;
    in_range &= AddTo(&sums[groups[row]], LoadDecimal(data + row * 16));
    seen[groups[row]] = 1;
  }
  state->bound = kLimit;
  return in_range ? Status::OK() : SumOutOfRange(*state->out_type);
}

Status Merge(cp::KernelContext* ctx, cp::KernelState&& other_state,
             const arrow::ArrayData& group_id_mapping) {
  auto* state = static_cast<DecimalSumState*>(ctx->state());
  auto& other = static_cast<DecimalSumState&>(other_state);
  const uint32_t* mapping = group_id_mapping.GetValues<uint32_t>(1);
  bool in_range = true;
  for (size_t group = 0; group < other.sums.size(); ++group) {
    if (!other.seen[group]) continue;
    in_range &= AddTo(&state->sums[mapping[group]], other.sums[group]);
    state->seen[mapping[group]] = 1;
  }
  state->bound = AddBounds(state->bound, other.bound);
  return in_range ? Status::OK() : SumOutOfRange(*state->out_type);
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
    builder.UnsafeAppend(arrow::Decimal128(static_cast<int64_t>(bits >> 64),
                                           static_cast<uint64_t>(bits)));
  }
  ARROW_ASSIGN_OR_RAISE(auto sums, builder.Finish());
  *out = sums->data();
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
  cp::HashAggregateKernel kernel(
      cp::KernelSignature::Make({cp::InputType(arrow::Type::DECIMAL128),
                                 cp::InputType(arrow::Type::UINT32)},
                                cp::OutputType(SumType)),
      Init, Resize, Consume, Merge, Finalize, /*ordered=*/false);
  ARROW_RETURN_NOT_OK(function->AddKernel(std::move(kernel)));
  return registry->AddFunction(std::move(function), /*allow_overwrite=*/true);
}

}  // namespace parley::kernels
