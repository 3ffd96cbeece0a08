// parley_try and parley_guard: the expression is bound once per kernel instance against the
// argument types, evaluated over each batch, and (for try) evaluated again row by row when the
// batch fails, so that only the failing rows become NULL.
#include "kernels/expression_kernels.h"

#include <fmt/format.h>

#include "arrow/array/builder_base.h"
#include "arrow/array/util.h"
#include "arrow/compute/api.h"
#include "arrow/compute/function.h"
#include "arrow/compute/kernel.h"
#include "arrow/compute/registry.h"
#include "arrow/type.h"
#include "kernels/kernel_support.h"
#include "kernels/spark_errors.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

class EvaluateOptionsType;

// The expression an evaluating call runs, the text that names it in errors and the condition
// its errors get (empty: ToSparkError's).
class EvaluateOptions : public cp::FunctionOptions {
 public:
  EvaluateOptions(cp::Expression expression, std::string text, std::string condition);

  cp::Expression expression;
  std::string text;
  std::string condition;
};

class EvaluateOptionsType : public cp::FunctionOptionsType {
 public:
  static const EvaluateOptionsType* Get() {
    static const EvaluateOptionsType instance;
    return &instance;
  }
  const char* type_name() const override { return "ParleyEvaluateOptions"; }
  std::string Stringify(const cp::FunctionOptions& options) const override {
    return static_cast<const EvaluateOptions&>(options).expression.ToString();
  }
  bool Compare(const cp::FunctionOptions& a, const cp::FunctionOptions& b) const override {
    const auto& left = static_cast<const EvaluateOptions&>(a);
    const auto& right = static_cast<const EvaluateOptions&>(b);
    return left.expression.Equals(right.expression) && left.text == right.text &&
           left.condition == right.condition;
  }
  std::unique_ptr<cp::FunctionOptions> Copy(const cp::FunctionOptions& options) const override {
    return std::make_unique<EvaluateOptions>(static_cast<const EvaluateOptions&>(options));
  }
};

EvaluateOptions::EvaluateOptions(cp::Expression expression, std::string text, std::string condition)
    : cp::FunctionOptions(EvaluateOptionsType::Get()),
      expression(std::move(expression)),
      text(std::move(text)),
      condition(std::move(condition)) {}

struct EvaluateState : public cp::KernelState {
  cp::Expression bound;
  std::string text;
  std::string condition;
};

Result<std::unique_ptr<cp::KernelState>> InitEvaluate(cp::KernelContext* ctx,
                                                      const cp::KernelInitArgs& args) {
  if (args.options == nullptr) return Status::Invalid("an evaluating call needs its options");
  const auto& options = static_cast<const EvaluateOptions&>(*args.options);
  arrow::FieldVector fields;
  for (size_t i = 0; i < args.inputs.size(); ++i) {
    fields.push_back(arrow::field(ArgumentField(i), args.inputs[i].GetSharedPtr()));
  }
  auto state = std::make_unique<EvaluateState>();
  ARROW_ASSIGN_OR_RAISE(state->bound,
                        options.expression.Bind(arrow::Schema(fields), ctx->exec_context()));
  state->text = options.text;
  state->condition = options.condition;
  return state;
}

Result<arrow::TypeHolder> EvaluatedType(cp::KernelContext* ctx,
                                        const std::vector<arrow::TypeHolder>&) {
  return static_cast<EvaluateState*>(ctx->state())->bound.type()->GetSharedPtr();
}

// The evaluation's result as an array of `length` rows.
Status SetOutput(const arrow::Datum& result, int64_t length, cp::ExecResult* out) {
  if (result.is_scalar()) {
    ARROW_ASSIGN_OR_RAISE(auto array, arrow::MakeArrayFromScalar(*result.scalar(), length));
    out->value = array->data();
  } else {
    out->value = result.array();
  }
  return Status::OK();
}

Status TryExec(cp::KernelContext* ctx, const cp::ExecSpan& span, cp::ExecResult* out) {
  auto* state = static_cast<EvaluateState*>(ctx->state());
  cp::ExecBatch batch = span.ToExecBatch();
  auto whole = cp::ExecuteScalarExpression(state->bound, batch, ctx->exec_context());
  if (whole.ok()) return SetOutput(*whole, span.length, out);
  ARROW_ASSIGN_OR_RAISE(
      auto builder, arrow::MakeBuilder(state->bound.type()->GetSharedPtr(), ctx->memory_pool()));
  for (int64_t row = 0; row < span.length; ++row) {
    auto one = cp::ExecuteScalarExpression(state->bound, batch.Slice(row, 1), ctx->exec_context());
    if (!one.ok()) {
      ARROW_RETURN_NOT_OK(builder->AppendNull());
    } else if (one->is_scalar()) {
      ARROW_RETURN_NOT_OK(builder->AppendScalar(*one->scalar()));
    } else {
      ARROW_RETURN_NOT_OK(builder->AppendArraySlice(*one->array(), 0, 1));
    }
  }
  return kernels::FinishInto(builder.get(), out);
}

Status GuardExec(cp::KernelContext* ctx, const cp::ExecSpan& span, cp::ExecResult* out) {
  auto* state = static_cast<EvaluateState*>(ctx->state());
  auto result = cp::ExecuteScalarExpression(state->bound, span.ToExecBatch(), ctx->exec_context());
  if (!result.ok()) {
    if (!state->condition.empty()) {
      return MakeError(
          result.status().code(), state->condition,
          fmt::format("{}\n== Expression ==\n{}", result.status().message(), state->text));
    }
    Status error = ToSparkError(result.status());
    return Status(error.code(),
                  fmt::format("{}\n== Expression ==\n{}", error.message(), state->text),
                  error.detail());
  }
  return SetOutput(*result, span.length, out);
}

Status AddEvaluating(cp::FunctionRegistry* registry, const std::string& name,
                     cp::ArrayKernelExec exec) {
  auto function = std::make_shared<cp::ScalarFunction>(
      name, cp::Arity::VarArgs(1), cp::FunctionDoc("Evaluates an expression", "", {}));
  cp::ScalarKernel kernel({cp::InputType::Any()}, cp::OutputType(EvaluatedType), exec,
                          InitEvaluate);
  kernel.signature =
      cp::KernelSignature::Make({cp::InputType::Any()}, cp::OutputType(EvaluatedType),
                                /*is_varargs=*/true);
  kernel.null_handling = cp::NullHandling::COMPUTED_NO_PREALLOCATE;
  kernel.mem_allocation = cp::MemAllocation::NO_PREALLOCATE;
  ARROW_RETURN_NOT_OK(function->AddKernel(std::move(kernel)));
  return registry->AddFunction(std::move(function), /*allow_overwrite=*/true);
}

cp::Expression EvaluatingCall(const std::string& name, cp::Expression expression,
                              std::vector<cp::Expression> args, std::string text,
                              std::string condition) {
  return cp::call(name, std::move(args),
                  std::make_shared<EvaluateOptions>(std::move(expression), std::move(text),
                                                    std::move(condition)));
}

}  // namespace

std::string ArgumentField(size_t index) { return fmt::format("a{}", index); }

cp::Expression TryCall(cp::Expression expression, std::vector<cp::Expression> args) {
  return EvaluatingCall("parley_try", std::move(expression), std::move(args), "", "");
}

cp::Expression GuardCall(cp::Expression expression, std::vector<cp::Expression> args,
                         std::string text, std::string condition) {
  return EvaluatingCall("parley_guard", std::move(expression), std::move(args), std::move(text),
                        std::move(condition));
}

Status RegisterExpressionKernels() {
  auto* registry = cp::GetFunctionRegistry();
  ARROW_RETURN_NOT_OK(AddEvaluating(registry, "parley_try", TryExec));
  return AddEvaluating(registry, "parley_guard", GuardExec);
}

}  // namespace parley
