// One-time registration of Parley's kernels with Arrow.
#include "kernels/kernels.h"

#include <mutex>

#include "kernels/conditional_kernels.h"
#include "kernels/connector_aggregate.h"
#include "kernels/connector_function.h"
#include "kernels/expression_kernels.h"
#include "kernels/higher_order_kernels.h"
#include "kernels/kernel_support.h"
#include "kernels/value_text.h"

namespace parley {

Status RegisterParleyKernels() {
  static std::once_flag once;
  static Status status;
  std::call_once(once, [] {
    auto* registry = arrow::compute::GetFunctionRegistry();
    status = kernels::RegisterDatetimeKernels(registry);
    if (status.ok()) status = kernels::RegisterStringKernels(registry);
    if (status.ok()) status = kernels::RegisterDecimalKernels(registry);
    if (status.ok()) status = kernels::RegisterDecimalSumKernel(registry);
    if (status.ok()) status = kernels::RegisterCheckedSumKernels(registry);
    if (status.ok()) status = kernels::RegisterNumericCastKernels(registry);
    if (status.ok()) status = kernels::RegisterStringCastKernels(registry);
    if (status.ok()) status = kernels::RegisterTimestampCastKernels(registry);
    if (status.ok()) status = kernels::RegisterRemainderKernels(registry);
    if (status.ok()) status = kernels::RegisterMathKernels(registry);
    if (status.ok()) status = kernels::RegisterMathDoubleKernels(registry);
    if (status.ok()) status = kernels::RegisterIntegralKernels(registry);
    if (status.ok()) status = kernels::RegisterTextKernels(registry);
    if (status.ok()) status = kernels::RegisterArrayKernels(registry);
    if (status.ok()) status = kernels::RegisterArrayRowKernels(registry);
    if (status.ok()) status = kernels::RegisterHashKernels(registry);
    if (status.ok()) status = kernels::RegisterCharsetKernels(registry);
    if (status.ok()) status = kernels::RegisterHigherOrderKernels(registry);
    if (status.ok()) status = kernels::RegisterValueTextKernel(registry);
    if (status.ok()) status = kernels::RegisterMapKernels(registry);
    if (status.ok()) status = kernels::RegisterSequenceKernel(registry);
    if (status.ok()) status = kernels::RegisterDatetimePatternKernels(registry);
    if (status.ok()) status = kernels::RegisterJsonKernels(registry);
    if (status.ok()) status = kernels::RegisterArraysZipKernel(registry);
    if (status.ok()) status = kernels::RegisterRegexpKernels(registry);
    if (status.ok()) status = kernels::RegisterVectorKernels(registry);
    if (status.ok()) status = kernels::RegisterJsonConvertKernels(registry);
    if (status.ok()) status = RegisterExpressionKernels();
    if (status.ok()) status = RegisterConditionalKernels();
    if (status.ok()) status = RegisterConnectorFunction();
    if (status.ok()) status = RegisterConnectorAggregate();
  });
  return status;
}

}  // namespace parley
