// parley_case_when and parley_coalesce. Each batch is worked through as Spark works through a
// row: the rows still undecided start as the whole batch; a sub-expression is evaluated on the
// undecided rows only (the batch's columns taken at those rows, or the batch itself while every
// row is undecided), decides some of them, and leaves the rest to the next one. The values of
// each decided group are then put back in row order with one take over their concatenation;
// when one sub-expression decided every row of the batch at once, its result is the answer.
#include "kernels/conditional_kernels.h"

#include <fmt/format.h>

#include <set>
#include <string>
#include <utility>

#include "arrow/array.h"
#include "arrow/array/concatenate.h"
#include "arrow/array/util.h"
#include "arrow/buffer.h"
#include "arrow/compute/api.h"
#include "arrow/compute/function.h"
#include "arrow/compute/kernel.h"
#include "arrow/compute/registry.h"
#include "arrow/type.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

constexpr char kCaseWhen[] = "parley_case_when";
constexpr char kCoalesce[] = "parley_coalesce";

// What a lazily evaluating call evaluates.
class LazyOptions : public cp::FunctionOptions {
 public:
  LazyOptions(std::vector<cp::Expression> expressions, bool has_else,
              std::vector<std::string> fields, std::shared_ptr<arrow::DataType> type);

  /// CASE WHEN: c0, v0, c1, v1, ..., then the ELSE value when has_else. COALESCE: the
  /// arguments.
  std::vector<cp::Expression> expressions;
  bool has_else;
  /// The input fields the expressions read: the call's arguments, in order (one constant
  /// argument with an empty name when they read none).
  std::vector<std::string> fields;
  /// The result's type; every value is cast to it.
  std::shared_ptr<arrow::DataType> type;
};

class LazyOptionsType : public cp::FunctionOptionsType {
 public:
  static const LazyOptionsType* Get() {
    static const LazyOptionsType instance;
    return &instance;
  }
  const char* type_name() const override { return "ParleyLazyConditionalOptions"; }
  std::string Stringify(const cp::FunctionOptions& options) const override {
    const auto& lazy = static_cast<const LazyOptions&>(options);
    std::string out = "{";
    for (const auto& expression : lazy.expressions) out += expression.ToString() + ", ";
    return out + fmt::format("has_else={}, type={}}}", lazy.has_else, lazy.type->ToString());
  }
  bool Compare(const cp::FunctionOptions& a, const cp::FunctionOptions& b) const override {
    const auto& left = static_cast<const LazyOptions&>(a);
    const auto& right = static_cast<const LazyOptions&>(b);
    if (left.expressions.size() != right.expressions.size()) return false;
    for (size_t i = 0; i < left.expressions.size(); ++i) {
      if (!left.expressions[i].Equals(right.expressions[i])) return false;
    }
    return left.has_else == right.has_else && left.fields == right.fields &&
           left.type->Equals(*right.type);
  }
  std::unique_ptr<cp::FunctionOptions> Copy(const cp::FunctionOptions& options) const override {
    return std::make_unique<LazyOptions>(static_cast<const LazyOptions&>(options));
  }
};

LazyOptions::LazyOptions(std::vector<cp::Expression> expressions, bool has_else,
                         std::vector<std::string> fields, std::shared_ptr<arrow::DataType> type)
    : cp::FunctionOptions(LazyOptionsType::Get()),
      expressions(std::move(expressions)),
      has_else(has_else),
      fields(std::move(fields)),
      type(std::move(type)) {}

// The options' expressions bound against the call's argument types; conditions are BOOLEAN
// and values of the result type.
struct LazyState : public cp::KernelState {
  std::vector<cp::Expression> bound;
  bool has_else = false;
  std::shared_ptr<arrow::DataType> type;
};

// `expression` bound to `schema`, cast to `type` when it has another.
Result<cp::Expression> BindAs(const cp::Expression& expression, const arrow::Schema& schema,
                              const std::shared_ptr<arrow::DataType>& type,
                              cp::ExecContext* context) {
  ARROW_ASSIGN_OR_RAISE(auto bound, expression.Bind(schema, context));
  if (bound.type()->Equals(*type)) return bound;
  return cp::call("cast", {expression}, cp::CastOptions::Safe(type)).Bind(schema, context);
}

// Binds a call's options; `is_condition(i)` tells whether expression i is a condition.
template <typename IsCondition>
Result<std::unique_ptr<cp::KernelState>> InitLazy(cp::KernelContext* ctx,
                                                  const cp::KernelInitArgs& args,
                                                  IsCondition is_condition) {
  if (args.options == nullptr) return Status::Invalid("a lazy conditional call needs its options");
  const auto& options = static_cast<const LazyOptions&>(*args.options);
  if (args.inputs.size() != options.fields.size()) {
    return Status::Invalid("a lazy conditional call has one argument per field it reads");
  }
  arrow::FieldVector fields;
  for (size_t i = 0; i < args.inputs.size(); ++i) {
    fields.push_back(arrow::field(options.fields[i], args.inputs[i].GetSharedPtr()));
  }
  const arrow::Schema schema(fields);
  auto state = std::make_unique<LazyState>();
  for (size_t i = 0; i < options.expressions.size(); ++i) {
    const auto& type = is_condition(options, i) ? arrow::boolean() : options.type;
    ARROW_ASSIGN_OR_RAISE(auto bound,
                          BindAs(options.expressions[i], schema, type, ctx->exec_context()));
    state->bound.push_back(std::move(bound));
  }
  state->has_else = options.has_else;
  state->type = options.type;
  return state;
}

Result<std::unique_ptr<cp::KernelState>> InitCaseWhen(cp::KernelContext* ctx,
                                                      const cp::KernelInitArgs& args) {
  return InitLazy(ctx, args, [](const LazyOptions& options, size_t i) {
    bool is_else = options.has_else && i + 1 == options.expressions.size();
    return i % 2 == 0 && !is_else;
  });
}

Result<std::unique_ptr<cp::KernelState>> InitCoalesce(cp::KernelContext* ctx,
                                                      const cp::KernelInitArgs& args) {
  return InitLazy(ctx, args, [](const LazyOptions&, size_t) { return false; });
}

Result<arrow::TypeHolder> LazyType(cp::KernelContext* ctx, const std::vector<arrow::TypeHolder>&) {
  return static_cast<LazyState*>(ctx->state())->type;
}

// The rows of a batch that reach a sub-expression, in row order.
struct RowSet {
  std::shared_ptr<arrow::Int64Array> positions;  // null: every row of the batch
  int64_t size = 0;

  int64_t At(int64_t k) const { return positions ? positions->Value(k) : k; }
};

RowSet RowsAt(std::vector<int64_t> positions) {
  auto size = static_cast<int64_t>(positions.size());
  auto buffer = arrow::Buffer::FromVector(std::move(positions));
  return {std::make_shared<arrow::Int64Array>(size, std::move(buffer)), size};
}

// `rows` split in two: those whose k-th entry `keep(k)` holds (`kept` of them), then the others.
template <typename Keep>
std::pair<RowSet, RowSet> Split(const RowSet& rows, int64_t kept, Keep keep) {
  if (kept == rows.size) return {rows, RowSet{}};
  if (kept == 0) return {RowSet{}, rows};
  std::vector<int64_t> first;
  std::vector<int64_t> second;
  first.reserve(kept);
  second.reserve(rows.size - kept);
  for (int64_t k = 0; k < rows.size; ++k) (keep(k) ? first : second).push_back(rows.At(k));
  return {RowsAt(std::move(first)), RowsAt(std::move(second))};
}

// `bound` evaluated on the `rows` of `batch`: one value per row of `rows`.
Result<std::shared_ptr<arrow::Array>> EvaluateOn(const cp::Expression& bound,
                                                 const cp::ExecBatch& batch, const RowSet& rows,
                                                 cp::KernelContext* ctx) {
  cp::ExecBatch input = batch;
  if (rows.positions) {
    input.length = rows.size;
    for (auto& value : input.values) {
      if (!value.is_array()) continue;
      ARROW_ASSIGN_OR_RAISE(value, cp::Take(value, rows.positions, cp::TakeOptions::NoBoundsCheck(),
                                            ctx->exec_context()));
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto result,
                        cp::ExecuteScalarExpression(bound, input, ctx->exec_context()));
  if (result.is_scalar()) {
    return arrow::MakeArrayFromScalar(*result.scalar(), rows.size, ctx->memory_pool());
  }
  return result.make_array();
}

// The result of a batch, gathered from the values that each group of rows was given.
class Assembly {
 public:
  explicit Assembly(int64_t length) : source_(length, kNone) {}

  // `values` has one value per row of `rows`; row rows.At(k) takes value k (only where it is
  // valid, when `only_valid`).
  void Add(std::shared_ptr<arrow::Array> values, const RowSet& rows, bool only_valid) {
    only_valid = only_valid && values->null_count() > 0;
    for (int64_t k = 0; k < rows.size; ++k) {
      if (only_valid && values->IsNull(k)) continue;
      source_[rows.At(k)] = offset_ + k;
      ++assigned_;
    }
    whole_ = pieces_.empty() && assigned_ == static_cast<int64_t>(source_.size()) &&
             rows.positions == nullptr;
    offset_ += values->length();
    pieces_.push_back(std::move(values));
  }

  // The batch's values, NULL where no group gave one.
  Result<std::shared_ptr<arrow::Array>> Finish(const std::shared_ptr<arrow::DataType>& type,
                                               cp::KernelContext* ctx) {
    auto length = static_cast<int64_t>(source_.size());
    if (whole_) return pieces_[0];
    if (assigned_ == 0) return arrow::MakeArrayOfNull(type, length, ctx->memory_pool());
    if (assigned_ < length) {
      ARROW_ASSIGN_OR_RAISE(auto null, arrow::MakeArrayOfNull(type, 1, ctx->memory_pool()));
      pieces_.push_back(std::move(null));
      for (auto& source : source_) {
        if (source == kNone) source = offset_;
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto values, arrow::Concatenate(pieces_, ctx->memory_pool()));
    auto indices =
        std::make_shared<arrow::Int64Array>(length, arrow::Buffer::FromVector(std::move(source_)));
    ARROW_ASSIGN_OR_RAISE(auto taken, cp::Take(values, indices, cp::TakeOptions::NoBoundsCheck(),
                                               ctx->exec_context()));
    return taken.make_array();
  }

 private:
  static constexpr int64_t kNone = -1;
  std::vector<int64_t> source_;  // per row, its value's index in the pieces' concatenation
  arrow::ArrayVector pieces_;
  int64_t offset_ = 0;
  int64_t assigned_ = 0;
  bool whole_ = false;  // the first piece alone gives every row its value, in row order
};

Status CaseWhenExec(cp::KernelContext* ctx, const cp::ExecSpan& span, cp::ExecResult* out) {
  const auto* state = static_cast<const LazyState*>(ctx->state());
  const cp::ExecBatch batch = span.ToExecBatch();
  Assembly result(span.length);
  RowSet undecided{nullptr, span.length};
  const size_t branches = (state->bound.size() - (state->has_else ? 1 : 0)) / 2;
  for (size_t i = 0; i < branches && undecided.size > 0; ++i) {
    ARROW_ASSIGN_OR_RAISE(auto condition, EvaluateOn(state->bound[2 * i], batch, undecided, ctx));
    const auto& mask = static_cast<const arrow::BooleanArray&>(*condition);
    auto [selected, rest] = Split(undecided, mask.true_count(),
                                  [&](int64_t k) { return mask.IsValid(k) && mask.Value(k); });
    if (selected.size > 0) {
      ARROW_ASSIGN_OR_RAISE(auto values, EvaluateOn(state->bound[2 * i + 1], batch, selected, ctx));
      result.Add(std::move(values), selected, /*only_valid=*/false);
    }
    undecided = std::move(rest);
  }
  if (state->has_else && undecided.size > 0) {
    ARROW_ASSIGN_OR_RAISE(auto values, EvaluateOn(state->bound.back(), batch, undecided, ctx));
    result.Add(std::move(values), undecided, /*only_valid=*/false);
  }
  ARROW_ASSIGN_OR_RAISE(auto array, result.Finish(state->type, ctx));
  out->value = array->data();
  return Status::OK();
}

Status CoalesceExec(cp::KernelContext* ctx, const cp::ExecSpan& span, cp::ExecResult* out) {
  const auto* state = static_cast<const LazyState*>(ctx->state());
  const cp::ExecBatch batch = span.ToExecBatch();
  Assembly result(span.length);
  RowSet undecided{nullptr, span.length};
  for (size_t i = 0; i < state->bound.size() && undecided.size > 0; ++i) {
    ARROW_ASSIGN_OR_RAISE(auto values, EvaluateOn(state->bound[i], batch, undecided, ctx));
    if (i + 1 == state->bound.size()) {
      result.Add(std::move(values), undecided, /*only_valid=*/false);
      break;
    }
    auto [valid, rest] = Split(undecided, values->length() - values->null_count(),
                               [&](int64_t k) { return values->IsValid(k); });
    if (valid.size > 0) result.Add(std::move(values), undecided, /*only_valid=*/true);
    undecided = std::move(rest);
  }
  ARROW_ASSIGN_OR_RAISE(auto array, result.Finish(state->type, ctx));
  out->value = array->data();
  return Status::OK();
}

Status AddLazy(cp::FunctionRegistry* registry, const std::string& name, cp::ArrayKernelExec exec,
               cp::KernelInit init) {
  auto function = std::make_shared<cp::ScalarFunction>(
      name, cp::Arity::VarArgs(0), cp::FunctionDoc("Evaluates a conditional lazily", "", {}));
  cp::ScalarKernel kernel({cp::InputType::Any()}, cp::OutputType(LazyType), exec, std::move(init));
  kernel.signature = cp::KernelSignature::Make({cp::InputType::Any()}, cp::OutputType(LazyType),
                                               /*is_varargs=*/true);
  kernel.null_handling = cp::NullHandling::COMPUTED_NO_PREALLOCATE;
  kernel.mem_allocation = cp::MemAllocation::NO_PREALLOCATE;
  ARROW_RETURN_NOT_OK(function->AddKernel(std::move(kernel)));
  return registry->AddFunction(std::move(function), /*allow_overwrite=*/true);
}

// A call of `name` evaluating `expressions`, with the fields they read as its arguments.
Result<cp::Expression> LazyCall(const std::string& name, std::vector<cp::Expression> expressions,
                                bool has_else, std::shared_ptr<arrow::DataType> type) {
  std::vector<std::string> fields;
  std::set<std::string> seen;
  for (const auto& expression : expressions) {
    for (const arrow::FieldRef& ref : cp::FieldsInExpression(expression)) {
      if (ref.name() == nullptr) {
        return Status::Invalid("a lazy conditional reads fields by name, not ", ref.ToString());
      }
      if (seen.insert(*ref.name()).second) fields.push_back(*ref.name());
    }
  }
  std::vector<cp::Expression> args;
  for (const auto& field : fields) args.push_back(cp::field_ref(field));
  if (fields.empty()) {
    // Arrow runs a call without arguments as a constant it cannot be; a constant argument,
    // under a name no expression reads, makes the call one Arrow can fold.
    args.push_back(cp::literal(true));
    fields.emplace_back();
  }
  return cp::call(name, std::move(args),
                  std::make_shared<LazyOptions>(std::move(expressions), has_else, std::move(fields),
                                                std::move(type)));
}

}  // namespace

Result<cp::Expression> LazyCaseWhenCall(std::vector<cp::Expression> conditions,
                                        std::vector<cp::Expression> values,
                                        std::optional<cp::Expression> otherwise,
                                        std::shared_ptr<arrow::DataType> type) {
  std::vector<cp::Expression> expressions;
  for (size_t i = 0; i < conditions.size(); ++i) {
    expressions.push_back(std::move(conditions[i]));
    expressions.push_back(std::move(values[i]));
  }
  bool has_else = otherwise.has_value();
  if (has_else) expressions.push_back(std::move(*otherwise));
  return LazyCall(kCaseWhen, std::move(expressions), has_else, std::move(type));
}

Result<cp::Expression> LazyCoalesceCall(std::vector<cp::Expression> args,
                                        std::shared_ptr<arrow::DataType> type) {
  return LazyCall(kCoalesce, std::move(args), /*has_else=*/false, std::move(type));
}

Status RegisterConditionalKernels() {
  auto* registry = cp::GetFunctionRegistry();
  ARROW_RETURN_NOT_OK(AddLazy(registry, kCaseWhen, CaseWhenExec, InitCaseWhen));
  return AddLazy(registry, kCoalesce, CoalesceExec, InitCoalesce);
}

}  // namespace parley
