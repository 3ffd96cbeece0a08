// parley_remainder(a, b) and parley_pmod(a, b) of two integers or two floating-point values of
// one type, as Spark's % (the sign of the dividend; MIN % -1 is 0, where Arrow's composition
// overflowed) and pmod (r = a % b; r < 0 ? (r + b) % b : r, with r + b computed wide). A zero
// divisor fails with REMAINDER_BY_ZERO, for floating point too (ANSI mode).
#include <cmath>
#include <type_traits>

#include "arrow/array/builder_primitive.h"
#include "kernels/kernel_support.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using kernels::Column;

Status RemainderByZero() {
  return MakeError(arrow::StatusCode::Invalid, "REMAINDER_BY_ZERO",
                   "Remainder by zero. Use `try_mod` to tolerate divisor being 0 and return NULL "
                   "instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass "
                   "this error.");
}

template <typename T>
T Remainder(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::fmod(a, b);
  } else {
    return b == -1 ? 0 : static_cast<T>(a % b);
  }
}

template <typename T>
T PositiveRemainder(T a, T b) {
  const T r = Remainder(a, b);
  if (!(r < 0)) return r;
  if constexpr (std::is_floating_point_v<T>) {
    return std::fmod(r + b, b);
  } else {
    // r + b leaves T when both are near its minimum.
    const __int128 wide = static_cast<__int128>(r) + b;
    return static_cast<T>(b == -1 ? 0 : wide % b);
  }
}

template <typename T, bool kPositive>
Status RemainderOf(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  using Builder = typename arrow::CTypeTraits<T>::BuilderType;
  Column<T> dividends(batch[0]);
  Column<T> divisors(batch[1]);
  Builder builder(batch[0].type()->GetSharedPtr(), ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!dividends.IsValid(row) || !divisors.IsValid(row)) {
      builder.UnsafeAppendNull();
      continue;
    }
    const T b = divisors.Value(row);
    if (b == 0) return RemainderByZero();
    const T a = dividends.Value(row);
    builder.UnsafeAppend(kPositive ? PositiveRemainder(a, b) : Remainder(a, b));
  }
  return kernels::FinishInto(&builder, out);
}

template <bool kPositive>
Status RemainderExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  switch (batch[0].type()->id()) {
    case arrow::Type::INT8: return RemainderOf<int8_t, kPositive>(ctx, batch, out);
    case arrow::Type::INT16: return RemainderOf<int16_t, kPositive>(ctx, batch, out);
    case arrow::Type::INT32: return RemainderOf<int32_t, kPositive>(ctx, batch, out);
    case arrow::Type::INT64: return RemainderOf<int64_t, kPositive>(ctx, batch, out);
    case arrow::Type::FLOAT: return RemainderOf<float, kPositive>(ctx, batch, out);
    case arrow::Type::DOUBLE: return RemainderOf<double, kPositive>(ctx, batch, out);
    default: return Status::Invalid("remainder of ", batch[0].type()->ToString());
  }
}

}  // namespace

namespace kernels {

Status RegisterRemainderKernels(cp::FunctionRegistry* registry) {
  const std::pair<const char*, cp::ArrayKernelExec> kFunctions[] = {
      {"parley_remainder", RemainderExec<false>}, {"parley_pmod", RemainderExec<true>}};
  for (const auto& [name, exec] : kFunctions) {
    auto function = std::make_shared<cp::ScalarFunction>(
        name, cp::Arity::Binary(), cp::FunctionDoc("Spark's remainder", "", {}));
    for (auto type : {arrow::Type::INT8, arrow::Type::INT16, arrow::Type::INT32, arrow::Type::INT64,
                      arrow::Type::FLOAT, arrow::Type::DOUBLE}) {
      cp::ScalarKernel kernel({cp::InputType(type), cp::InputType(type)},
                              cp::OutputType(kernels::InputTypeAt<0>), exec);
      kernel.null_handling = cp::NullHandling::COMPUTED_NO_PREALLOCATE;
      kernel.mem_allocation = cp::MemAllocation::NO_PREALLOCATE;
      ARROW_RETURN_NOT_OK(function->AddKernel(std::move(kernel)));
    }
    ARROW_RETURN_NOT_OK(registry->AddFunction(std::move(function), /*allow_overwrite=*/true));
  }
  return Status::OK();
}

Status RemainderByZeroError() { return RemainderByZero(); }

}  // namespace kernels
}  // namespace parley
