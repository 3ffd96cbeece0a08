// parley_connector_aggregate and hash_parley_connector_aggregate: a connector's aggregate
// function over batches of argument arrays.
#include "kernels/connector_aggregate.h"

#include <fmt/format.h>

#include <mutex>

#include "arrow/array/builder_base.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/array/util.h"
#include "arrow/compute/api_vector.h"
#include "arrow/compute/function.h"
#include "arrow/compute/kernel.h"
#include "arrow/compute/registry.h"
#include "arrow/type.h"
#include "parley/connector/status.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

class OptionsType : public cp::FunctionOptionsType {
 public:
  const char* type_name() const override { return ConnectorAggregateOptions::kTypeName; }
  std::string Stringify(const cp::FunctionOptions& options) const override {
    const auto& function = static_cast<const ConnectorAggregateOptions&>(options).function;
    return function == nullptr ? "<none>" : function->canonical_name();
  }
  bool Compare(const cp::FunctionOptions& a, const cp::FunctionOptions& b) const override {
    return static_cast<const ConnectorAggregateOptions&>(a).function ==
           static_cast<const ConnectorAggregateOptions&>(b).function;
  }
  std::unique_ptr<cp::FunctionOptions> Copy(const cp::FunctionOptions& options) const override {
    return std::make_unique<ConnectorAggregateOptions>(
        static_cast<const ConnectorAggregateOptions&>(options).function);
  }
};

const cp::FunctionOptionsType* GetOptionsType() {
  static const OptionsType type;
  return &type;
}

// One state per group (a single group when ungrouped).
struct AggregateKernelState : public cp::KernelState {
  std::shared_ptr<const AggregateFunction> function;
  std::vector<std::unique_ptr<AggregationState>> groups;
};

AggregateKernelState* StateOf(cp::KernelContext* context) {
  return static_cast<AggregateKernelState*>(context->state());
}

Result<std::unique_ptr<AggregateKernelState>> NewKernelState(const cp::KernelInitArgs& args) {
  const auto* options = static_cast<const ConnectorAggregateOptions*>(args.options);
  if (options == nullptr || options->function == nullptr) {
    return Status::Invalid(kConnectorAggregate, " needs the function to run in its options");
  }
  auto state = std::make_unique<AggregateKernelState>();
  state->function = options->function;
  return state;
}

Result<arrow::TypeHolder> ResultType(cp::KernelContext* context,
                                     const std::vector<arrow::TypeHolder>&) {
  return StateOf(context)->function->result_type();
}

// The first `count` values of `batch` as arrays of its length.
Result<arrow::ArrayVector> ArgumentArrays(const cp::ExecSpan& batch, int count,
                                          arrow::MemoryPool* pool) {
  arrow::ArrayVector args;
  for (int i = 0; i < count; ++i) {
    const cp::ExecValue& value = batch[i];
    if (value.is_array()) {
      args.push_back(value.array.ToArray());
    } else {
      ARROW_ASSIGN_OR_RAISE(auto array,
                            arrow::MakeArrayFromScalar(*value.scalar, batch.length, pool));
      args.push_back(std::move(array));
    }
  }
  return args;
}

// `into` merged with `other` as Spark merges partial aggregates: through their bytes.
Status MergeThroughBytes(const AggregateFunction& function, AggregationState* into,
                         const AggregationState& other) {
  ARROW_ASSIGN_OR_RAISE(std::string bytes, function.Serialize(other));
  ARROW_ASSIGN_OR_RAISE(auto copy, function.Deserialize(bytes));
  if (copy == nullptr) {
    return MakeError(
        arrow::StatusCode::Invalid, "CONNECTOR_CONTRACT_VIOLATION.FUNCTION_RESULT",
        fmt::format("The aggregate function {} deserialized no state.", function.name()));
  }
  return function.Merge(into, *copy);
}

// A group's result, checked against the function's result type.
Result<std::shared_ptr<arrow::Scalar>> Produce(const AggregateFunction& function,
                                               const AggregationState& state) {
  ARROW_ASSIGN_OR_RAISE(auto result, function.Produce(state));
  if (result == nullptr || !result->type->Equals(*function.result_type())) {
    return MakeError(
        arrow::StatusCode::Invalid, "CONNECTOR_CONTRACT_VIOLATION.FUNCTION_RESULT",
        fmt::format("The aggregate function {} produced {} where {} was expected.", function.name(),
                    result == nullptr ? std::string("nothing") : result->type->ToString(),
                    function.result_type()->ToString()));
  }
  return result;
}

// ---- The grouped kernel

Result<std::unique_ptr<cp::KernelState>> HashInit(cp::KernelContext*,
                                                  const cp::KernelInitArgs& args) {
  return NewKernelState(args);
}

Status HashResize(cp::KernelContext* context, int64_t groups) {
  auto* state = StateOf(context);
  while (static_cast<int64_t>(state->groups.size()) < groups) {
    state->groups.push_back(state->function->NewState());
  }
  return Status::OK();
}

// Orders the batch's rows by group (a counting sort), takes the arguments in that order once,
// and updates each group present with its slice.
Status HashConsume(cp::KernelContext* context, const cp::ExecSpan& batch) {
  auto* state = StateOf(context);
  const int arg_count = batch.num_values() - 1;
  const uint32_t* groups = batch[arg_count].array.GetValues<uint32_t>(1);
  const int64_t length = batch.length;
  if (length == 0) return Status::OK();
  ARROW_ASSIGN_OR_RAISE(auto args, ArgumentArrays(batch, arg_count, context->memory_pool()));
  bool one_group = true;
  for (int64_t row = 1; row < length && one_group; ++row) one_group = groups[row] == groups[0];
  if (one_group) return state->function->Update(state->groups[groups[0]].get(), args, length);
  std::vector<int64_t> starts(state->groups.size() + 1, 0);
  for (int64_t row = 0; row < length; ++row) ++starts[groups[row] + 1];
  for (size_t group = 1; group < starts.size(); ++group) starts[group] += starts[group - 1];
  std::vector<int64_t> next(starts.begin(), starts.end() - 1);
  std::vector<int64_t> positions(length);
  for (int64_t row = 0; row < length; ++row) positions[next[groups[row]]++] = row;
  arrow::Int64Builder order(context->memory_pool());
  ARROW_RETURN_NOT_OK(order.AppendValues(positions));
  ARROW_ASSIGN_OR_RAISE(auto indices, order.Finish());
  arrow::ArrayVector sorted;
  for (const auto& arg : args) {
    ARROW_ASSIGN_OR_RAISE(auto taken, cp::Take(arg, indices));
    sorted.push_back(taken.make_array());
  }
  for (size_t group = 0; group + 1 < starts.size(); ++group) {
    const int64_t begin = starts[group];
    const int64_t count = starts[group + 1] - begin;
    if (count == 0) continue;
    arrow::ArrayVector slices;
    for (const auto& arg : sorted) slices.push_back(arg->Slice(begin, count));
    ARROW_RETURN_NOT_OK(state->function->Update(state->groups[group].get(), slices, count));
  }
  return Status::OK();
}

Status HashMerge(cp::KernelContext* context, cp::KernelState&& other_state,
                 const arrow::ArrayData& group_id_mapping) {
  auto* state = StateOf(context);
  auto& other = static_cast<AggregateKernelState&>(other_state);
  const uint32_t* mapping = group_id_mapping.GetValues<uint32_t>(1);
  for (size_t group = 0; group < other.groups.size(); ++group) {
    ARROW_RETURN_NOT_OK(MergeThroughBytes(*state->function, state->groups[mapping[group]].get(),
                                          *other.groups[group]));
  }
  return Status::OK();
}

Status HashFinalize(cp::KernelContext* context, arrow::Datum* out) {
  auto* state = StateOf(context);
  std::unique_ptr<arrow::ArrayBuilder> builder;
  ARROW_RETURN_NOT_OK(
      arrow::MakeBuilder(context->memory_pool(), state->function->result_type(), &builder));
  ARROW_RETURN_NOT_OK(builder->Reserve(static_cast<int64_t>(state->groups.size())));
  for (const auto& group : state->groups) {
    ARROW_ASSIGN_OR_RAISE(auto result, Produce(*state->function, *group));
    ARROW_RETURN_NOT_OK(builder->AppendScalar(*result));
  }
  ARROW_ASSIGN_OR_RAISE(auto array, builder->Finish());
  *out = array->data();
  return Status::OK();
}

// ---- The ungrouped kernel: one group

Result<std::unique_ptr<cp::KernelState>> Init(cp::KernelContext*, const cp::KernelInitArgs& args) {
  ARROW_ASSIGN_OR_RAISE(auto state, NewKernelState(args));
  state->groups.push_back(state->function->NewState());
  return state;
}

Status Consume(cp::KernelContext* context, const cp::ExecSpan& batch) {
  auto* state = StateOf(context);
  if (batch.length == 0) return Status::OK();
  ARROW_ASSIGN_OR_RAISE(auto args,
                        ArgumentArrays(batch, batch.num_values(), context->memory_pool()));
  return state->function->Update(state->groups[0].get(), args, batch.length);
}

Status Merge(cp::KernelContext*, cp::KernelState&& from, cp::KernelState* into) {
  auto* target = static_cast<AggregateKernelState*>(into);
  auto& source = static_cast<AggregateKernelState&>(from);
  return MergeThroughBytes(*target->function, target->groups[0].get(), *source.groups[0]);
}

Status Finalize(cp::KernelContext* context, arrow::Datum* out) {
  auto* state = StateOf(context);
  ARROW_ASSIGN_OR_RAISE(auto result, Produce(*state->function, *state->groups[0]));
  *out = std::move(result);
  return Status::OK();
}

Status Register() {
  static const ConnectorAggregateOptions kDefault;
  auto* registry = cp::GetFunctionRegistry();
  auto grouped = std::make_shared<cp::HashAggregateFunction>(
      kHashConnectorAggregate, cp::Arity::VarArgs(1), cp::FunctionDoc::Empty(), &kDefault);
  cp::HashAggregateKernel hash_kernel(
      cp::KernelSignature::Make({cp::InputType::Any()}, cp::OutputType(ResultType),
                                /*is_varargs=*/true),
      HashInit, HashResize, HashConsume, HashMerge, HashFinalize, /*ordered=*/false);
  ARROW_RETURN_NOT_OK(grouped->AddKernel(std::move(hash_kernel)));
  ARROW_RETURN_NOT_OK(registry->AddFunction(std::move(grouped)));
  auto ungrouped = std::make_shared<cp::ScalarAggregateFunction>(
      kConnectorAggregate, cp::Arity::VarArgs(0), cp::FunctionDoc::Empty(), &kDefault);
  cp::ScalarAggregateKernel kernel(
      cp::KernelSignature::Make({cp::InputType::Any()}, cp::OutputType(ResultType),
                                /*is_varargs=*/true),
      Init, Consume, Merge, Finalize, /*ordered=*/false);
  ARROW_RETURN_NOT_OK(ungrouped->AddKernel(std::move(kernel)));
  return registry->AddFunction(std::move(ungrouped));
}

}  // namespace

const char kConnectorAggregate[] = "parley_connector_aggregate";
const char kHashConnectorAggregate[] = "hash_parley_connector_aggregate";

ConnectorAggregateOptions::ConnectorAggregateOptions(
    std::shared_ptr<const AggregateFunction> function)
    : cp::FunctionOptions(GetOptionsType()), function(std::move(function)) {}

Status RegisterConnectorAggregate() {
  static std::once_flag once;
  static Status status;
  std::call_once(once, [] { status = Register(); });
  return status;
}

}  // namespace parley
