// scalar_subquery_value: pass the value through, or fail when the subquery had several rows.
#include "exec/scalar_subquery_value.h"

#include <mutex>

#include "arrow/array/util.h"
#include "arrow/compute/api.h"
#include "arrow/compute/kernel.h"
#include "arrow/compute/registry.h"
#include "arrow/scalar.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

Status TooManyRows() {
  return MakeError(arrow::StatusCode::Invalid, "SCALAR_SUBQUERY_TOO_MANY_ROWS",
                   "More than one row returned by a subquery used as an expression.");
}

Status Exec(cp::KernelContext*, const cp::ExecSpan& batch, cp::ExecResult* out) {
  const cp::ExecValue& counts = batch[0];
  if (counts.is_scalar()) {
    const auto& count = static_cast<const arrow::Int64Scalar&>(*counts.scalar);
    if (count.is_valid && count.value > 1) return TooManyRows();
  } else {
    const int64_t* values = counts.array.GetValues<int64_t>(1);
    for (int64_t i = 0; i < counts.array.length; ++i) {
      if (counts.array.IsValid(i) && values[i] > 1) return TooManyRows();
    }
  }
  const cp::ExecValue& value = batch[1];
  if (value.is_array()) {
    out->value = value.array.ToArrayData();
    return Status::OK();
  }
  ARROW_ASSIGN_OR_RAISE(auto array, arrow::MakeArrayFromScalar(*value.scalar, batch.length));
  out->value = array->data();
  return Status::OK();
}

Status Register() {
  auto function = std::make_shared<cp::ScalarFunction>(
      kScalarSubqueryValueFunction, cp::Arity::Binary(), cp::FunctionDoc::Empty());
  auto value_type = [](cp::KernelContext*,
                       const std::vector<arrow::TypeHolder>& types) -> Result<arrow::TypeHolder> {
    return types[1];
  };
  cp::ScalarKernel kernel({cp::InputType(arrow::Type::INT64), cp::InputType::Any()},
                          cp::OutputType(value_type), Exec);
  kernel.null_handling = cp::NullHandling::COMPUTED_NO_PREALLOCATE;
  kernel.mem_allocation = cp::MemAllocation::NO_PREALLOCATE;
  ARROW_RETURN_NOT_OK(function->AddKernel(std::move(kernel)));
  return cp::GetFunctionRegistry()->AddFunction(std::move(function));
}

}  // namespace

const char kScalarSubqueryValueFunction[] = "parley_scalar_subquery_value";

Status RegisterScalarSubqueryValueFunction() {
  static std::once_flag once;
  static Status status;
  std::call_once(once, [] { status = Register(); });
  return status;
}

}  // namespace parley
