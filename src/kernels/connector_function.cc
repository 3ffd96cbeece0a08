// parley_connector_function: a connector's scalar function over a batch of argument arrays.
#include "kernels/connector_function.h"

#include <fmt/format.h>

#include <mutex>

#include "arrow/array/util.h"
#include "arrow/compute/function.h"
#include "arrow/compute/kernel.h"
#include "arrow/compute/registry.h"
#include "arrow/type.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

class OptionsType : public cp::FunctionOptionsType {
 public:
  const char* type_name() const override { return ConnectorFunctionOptions::kTypeName; }
  std::string Stringify(const cp::FunctionOptions& options) const override {
    const auto& function = static_cast<const ConnectorFunctionOptions&>(options).function;
    return function == nullptr ? "<none>" : function->canonical_name();
  }
  bool Compare(const cp::FunctionOptions& a, const cp::FunctionOptions& b) const override {
    return static_cast<const ConnectorFunctionOptions&>(a).function ==
           static_cast<const ConnectorFunctionOptions&>(b).function;
  }
  std::unique_ptr<cp::FunctionOptions> Copy(const cp::FunctionOptions& options) const override {
    return std::make_unique<ConnectorFunctionOptions>(
        static_cast<const ConnectorFunctionOptions&>(options).function);
  }
};

const cp::FunctionOptionsType* GetOptionsType() {
  static const OptionsType type;
  return &type;
}

// The kernel's state: the bound function of the call.
struct FunctionState : public cp::KernelState {
  std::shared_ptr<const ScalarFunction> function;
};

Result<std::unique_ptr<cp::KernelState>> Init(cp::KernelContext*, const cp::KernelInitArgs& args) {
  const auto* options = static_cast<const ConnectorFunctionOptions*>(args.options);
  if (options == nullptr || options->function == nullptr) {
    return Status::Invalid(kConnectorFunction, " needs the function to call in its options");
  }
  auto state = std::make_unique<FunctionState>();
  state->function = options->function;
  return state;
}

Result<arrow::TypeHolder> ResultType(cp::KernelContext* context,
                                     const std::vector<arrow::TypeHolder>&) {
  return static_cast<const FunctionState*>(context->state())->function->result_type();
}

Status Exec(cp::KernelContext* context, const cp::ExecSpan& batch, cp::ExecResult* out) {
  const ScalarFunction& function = *static_cast<const FunctionState*>(context->state())->function;
  arrow::ArrayVector args;
  for (int i = 0; i < batch.num_values(); ++i) {
    const cp::ExecValue& value = batch[i];
    if (value.is_array()) {
      args.push_back(value.array.ToArray());
    } else {
      ARROW_ASSIGN_OR_RAISE(auto array, arrow::MakeArrayFromScalar(*value.scalar, batch.length,
                                                                   context->memory_pool()));
      args.push_back(std::move(array));
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto result, function.Invoke(args, batch.length));
  if (result == nullptr || result->length() != batch.length ||
      !result->type()->Equals(*function.result_type())) {
    return MakeError(arrow::StatusCode::Invalid, "CONNECTOR_CONTRACT_VIOLATION.FUNCTION_RESULT",
                     fmt::format("The function {} returned {} where {} rows of {} were expected.",
                                 function.name(),
                                 result == nullptr ? std::string("nothing")
                                                   : fmt::format("{} rows of {}", result->length(),
                                                                 result->type()->ToString()),
                                 batch.length, function.result_type()->ToString()));
  }
  out->value = result->data();
  return Status::OK();
}

Status Register() {
  static const ConnectorFunctionOptions kDefault;
  auto function = std::make_shared<cp::ScalarFunction>(kConnectorFunction, cp::Arity::VarArgs(0),
                                                       cp::FunctionDoc::Empty(), &kDefault);
  cp::ScalarKernel kernel(
      cp::KernelSignature::Make({cp::InputType::Any()}, cp::OutputType(ResultType),
                                /*is_varargs=*/true),
      Exec, Init);
  kernel.null_handling = cp::NullHandling::COMPUTED_NO_PREALLOCATE;
  kernel.mem_allocation = cp::MemAllocation::NO_PREALLOCATE;
  ARROW_RETURN_NOT_OK(function->AddKernel(std::move(kernel)));
  return cp::GetFunctionRegistry()->AddFunction(std::move(function));
}

}  // namespace

const char kConnectorFunction[] = "parley_connector_function";

ConnectorFunctionOptions::ConnectorFunctionOptions(std::shared_ptr<const ScalarFunction> function)
    : cp::FunctionOptions(GetOptionsType()), function(std::move(function)) {}

Status RegisterConnectorFunction() {
  static std::once_flag once;
  static Status status;
  std::call_once(once, [] { status = Register(); });
  return status;
}

}  // namespace parley
