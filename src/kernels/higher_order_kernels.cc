#include "kernels/higher_order_kernels.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "arrow/array.h"
#include "arrow/array/array_nested.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/array/concatenate.h"
#include "arrow/array/util.h"
#include "arrow/compute/api.h"
#include "arrow/compute/exec.h"
#include "arrow/compute/kernel.h"
#include "arrow/compute/util.h"
#include "kernels/kernel_support.h"
#include "kernels/scalar_keys.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using ArrayPtr = std::shared_ptr<arrow::Array>;

class HigherOrderOptionsType;

class HigherOrderOptions : public cp::FunctionOptions {
 public:
  HigherOrderOptions(HigherOrder kind, std::vector<LambdaBody> lambdas,
                     std::vector<std::string> captured, int containers);

  HigherOrder kind;
  std::vector<LambdaBody> lambdas;
  std::vector<std::string> captured;  // the names of the arguments after the containers
  int containers;
};

class HigherOrderOptionsType : public cp::FunctionOptionsType {
 public:
  static const HigherOrderOptionsType* Get() {
    static const HigherOrderOptionsType instance;
    return &instance;
  }
  const char* type_name() const override { return "ParleyHigherOrderOptions"; }
  std::string Stringify(const cp::FunctionOptions& options) const override {
    std::string text;
    for (const auto& lambda : static_cast<const HigherOrderOptions&>(options).lambdas) {
      text += fmt::format("({}) -> {}; ", fmt::join(lambda.params, ", "), lambda.body.ToString());
    }
    return text;
  }
  bool Compare(const cp::FunctionOptions& a, const cp::FunctionOptions& b) const override {
    const auto& left = static_cast<const HigherOrderOptions&>(a);
    const auto& right = static_cast<const HigherOrderOptions&>(b);
    if (left.kind != right.kind || left.captured != right.captured ||
        left.lambdas.size() != right.lambdas.size()) {
      return false;
    }
    for (size_t i = 0; i < left.lambdas.size(); ++i) {
      if (!left.lambdas[i].body.Equals(right.lambdas[i].body) ||
          left.lambdas[i].params != right.lambdas[i].params) {
        return false;
      }
    }
    return true;
  }
  std::unique_ptr<cp::FunctionOptions> Copy(const cp::FunctionOptions& options) const override {
    return std::make_unique<HigherOrderOptions>(static_cast<const HigherOrderOptions&>(options));
  }
};

HigherOrderOptions::HigherOrderOptions(HigherOrder kind, std::vector<LambdaBody> lambdas,
                                       std::vector<std::string> captured, int containers)
    : cp::FunctionOptions(HigherOrderOptionsType::Get()),
      kind(kind),
      lambdas(std::move(lambdas)),
      captured(std::move(captured)),
      containers(containers) {}

struct HigherOrderState : public cp::KernelState {
  HigherOrder kind;
  std::vector<cp::Expression> bound;  // one per lambda, bound to its parameters and captures
  std::vector<size_t> arity;          // how many parameters each lambda takes
  int containers = 1;
  std::shared_ptr<arrow::DataType> output;
};

std::shared_ptr<arrow::DataType> ElementType(const arrow::DataType& type) {
  return static_cast<const arrow::BaseListType&>(type).value_type();
}

// The types a lambda's parameters take, in order, for `kind` over inputs of `types`; `which`
// picks aggregate's merge (0) or finish (1).
std::vector<std::shared_ptr<arrow::DataType>> ParameterTypes(
    HigherOrder kind, const std::vector<std::shared_ptr<arrow::DataType>>& types, size_t which) {
  switch (kind) {
    case HigherOrder::kTransform:
    case HigherOrder::kFilter: return {ElementType(*types[0]), arrow::int32()};
    case HigherOrder::kExists:
    case HigherOrder::kForall: return {ElementType(*types[0])};
    case HigherOrder::kAggregate:
      if (which == 0) return {types[1], ElementType(*types[0])};
      return {types[1]};
    case HigherOrder::kZipWith: return {ElementType(*types[0]), ElementType(*types[1])};
    case HigherOrder::kArraySort: return {ElementType(*types[0]), ElementType(*types[0])};
    case HigherOrder::kMapFilter:
    case HigherOrder::kTransformKeys:
    case HigherOrder::kTransformValues: {
      const auto& map = static_cast<const arrow::MapType&>(*types[0]);
      return {map.key_type(), map.item_type()};
    }
    case HigherOrder::kMapZipWith: {
      const auto& left = static_cast<const arrow::MapType&>(*types[0]);
      const auto& right = static_cast<const arrow::MapType&>(*types[1]);
      return {left.key_type(), left.item_type(), right.item_type()};
    }
  }
  return {};
}

Result<std::unique_ptr<cp::KernelState>> InitHigherOrder(cp::KernelContext* ctx,
                                                         const cp::KernelInitArgs& args) {
  if (args.options == nullptr) return Status::Invalid("a higher-order call needs its options");
  const auto& options = static_cast<const HigherOrderOptions&>(*args.options);
  std::vector<std::shared_ptr<arrow::DataType>> types;
  for (const auto& input : args.inputs) types.push_back(input.GetSharedPtr());
  auto state = std::make_unique<HigherOrderState>();
  state->kind = options.kind;
  state->containers = options.containers;
  for (size_t l = 0; l < options.lambdas.size(); ++l) {
    const auto& lambda = options.lambdas[l];
    auto param_types = ParameterTypes(options.kind, types, l);
    arrow::FieldVector fields;
    for (size_t p = 0; p < lambda.params.size() && p < param_types.size(); ++p) {
      fields.push_back(arrow::field(lambda.params[p], param_types[p]));
    }
    for (size_t c = 0; c < options.captured.size(); ++c) {
      fields.push_back(arrow::field(options.captured[c], types[options.containers + c]));
    }
    ARROW_ASSIGN_OR_RAISE(auto bound, lambda.body.Bind(arrow::Schema(fields), ctx->exec_context()));
    state->bound.push_back(std::move(bound));
    state->arity.push_back(lambda.params.size());
  }
  auto body_type = [&](size_t l) { return state->bound[l].type()->GetSharedPtr(); };
  switch (options.kind) {
    case HigherOrder::kTransform:
    case HigherOrder::kZipWith: state->output = arrow::list(body_type(0)); break;
    case HigherOrder::kExists:
    case HigherOrder::kForall: state->output = arrow::boolean(); break;
    case HigherOrder::kAggregate:
      state->output = state->bound.size() > 1 ? body_type(1) : types[1];
      break;
    case HigherOrder::kFilter:
    case HigherOrder::kArraySort:
    case HigherOrder::kMapFilter: state->output = types[0]; break;
    case HigherOrder::kTransformKeys:
      state->output =
          arrow::map(body_type(0), static_cast<const arrow::MapType&>(*types[0]).item_type());
      break;
    case HigherOrder::kTransformValues:
    case HigherOrder::kMapZipWith:
      state->output =
          arrow::map(static_cast<const arrow::MapType&>(*types[0]).key_type(), body_type(0));
      break;
  }
  return state;
}

Result<arrow::TypeHolder> HigherOrderType(cp::KernelContext* ctx,
                                          const std::vector<arrow::TypeHolder>&) {
  return static_cast<HigherOrderState*>(ctx->state())->output;
}

Result<ArrayPtr> Int32s(const std::vector<int32_t>& values) {
  arrow::Int32Builder builder;
  ARROW_RETURN_NOT_OK(builder.AppendValues(values));
  return builder.Finish();
}

// The evaluation of one bound lambda over `params` (one array per parameter it takes) and the
// captured columns taken at `rows`.
class Evaluator {
 public:
  Evaluator(cp::KernelContext* ctx, const HigherOrderState& state, std::vector<ArrayPtr> captured)
      : ctx_(ctx), state_(state), captured_(std::move(captured)) {}

  Result<ArrayPtr> Run(size_t lambda, std::vector<ArrayPtr> params,
                       const std::vector<int64_t>& rows) const {
    auto length = static_cast<int64_t>(rows.size());
    params.resize(std::min(params.size(), state_.arity[lambda]));
    std::vector<arrow::Datum> columns(params.begin(), params.end());
    for (const auto& column : captured_) {
      ARROW_ASSIGN_OR_RAISE(auto taken, kernels::TakeRows(column, rows));
      columns.emplace_back(std::move(taken));
    }
    cp::ExecBatch batch(std::move(columns), length);
    ARROW_ASSIGN_OR_RAISE(auto result, cp::ExecuteScalarExpression(state_.bound[lambda], batch,
                                                                   ctx_->exec_context()));
    if (result.is_scalar()) return arrow::MakeArrayFromScalar(*result.scalar(), length);
    return result.make_array();
  }

 private:
  cp::KernelContext* ctx_;
  const HigherOrderState& state_;
  std::vector<ArrayPtr> captured_;
};

// Every element of the valid rows of a list or map array: where it is in the values, its row
// and its position in the row.
struct Elements {
  std::vector<int64_t> at;
  std::vector<int64_t> rows;
  std::vector<int32_t> positions;
};

Elements ElementsOf(const arrow::BaseListArray<arrow::ListType>* lists, const arrow::MapArray* maps,
                    int64_t length) {
  Elements elements;
  for (int64_t row = 0; row < length; ++row) {
    bool valid = lists != nullptr ? lists->IsValid(row) : maps->IsValid(row);
    if (!valid) continue;
    int64_t begin = lists != nullptr ? lists->value_offset(row) : maps->value_offset(row);
    int64_t end = lists != nullptr ? lists->value_offset(row + 1) : maps->value_offset(row + 1);
    for (int64_t i = begin; i < end; ++i) {
      elements.at.push_back(i);
      elements.rows.push_back(row);
      elements.positions.push_back(static_cast<int32_t>(i - begin));
    }
  }
  return elements;
}

// Offsets of lists holding, per row, the elements `keep` says (all when null), and the kept
// element indices.
struct Regrouped {
  std::shared_ptr<arrow::Buffer> offsets;
  std::vector<int64_t> kept;
};

Result<Regrouped> Regroup(const Elements& elements, int64_t length, const std::vector<bool>* keep) {
  arrow::Int32Builder offsets;
  ARROW_RETURN_NOT_OK(offsets.Reserve(length + 1));
  Regrouped out;
  size_t e = 0;
  offsets.UnsafeAppend(0);
  for (int64_t row = 0; row < length; ++row) {
    for (; e < elements.rows.size() && elements.rows[e] == row; ++e) {
      if (keep == nullptr || (*keep)[e]) out.kept.push_back(static_cast<int64_t>(e));
    }
    offsets.UnsafeAppend(static_cast<int32_t>(out.kept.size()));
  }
  std::shared_ptr<arrow::Array> array;
  ARROW_RETURN_NOT_OK(offsets.Finish(&array));
  out.offsets = array->data()->buffers[1];
  return out;
}

// The validity of `source`'s rows as a bitmap from its first row.
Result<std::shared_ptr<arrow::Buffer>> ValidityOf(const arrow::Array& source) {
  arrow::TypedBufferBuilder<bool> validity;
  for (int64_t row = 0; row < source.length(); ++row) {
    ARROW_RETURN_NOT_OK(validity.Append(source.IsValid(row)));
  }
  return validity.Finish();
}

Result<ArrayPtr> ListOf(const ArrayPtr& source, const Regrouped& grouped, const ArrayPtr& values,
                        const std::shared_ptr<arrow::DataType>& type) {
  ARROW_ASSIGN_OR_RAISE(auto taken, kernels::TakeRows(values, grouped.kept));
  ARROW_ASSIGN_OR_RAISE(auto validity, ValidityOf(*source));
  return std::make_shared<arrow::ListArray>(type, source->length(), grouped.offsets, taken,
                                            validity);
}

Result<ArrayPtr> MapOf(const ArrayPtr& source, const Regrouped& grouped, const ArrayPtr& keys,
                       const ArrayPtr& items, const std::shared_ptr<arrow::DataType>& type) {
  ARROW_ASSIGN_OR_RAISE(auto taken_keys, kernels::TakeRows(keys, grouped.kept));
  ARROW_ASSIGN_OR_RAISE(auto taken_items, kernels::TakeRows(items, grouped.kept));
  ARROW_ASSIGN_OR_RAISE(auto validity, ValidityOf(*source));
  return std::make_shared<arrow::MapArray>(type, source->length(), grouped.offsets, taken_keys,
                                           taken_items, validity);
}

std::vector<bool> TrueRows(const arrow::Array& predicate) {
  const auto& booleans = static_cast<const arrow::BooleanArray&>(predicate);
  std::vector<bool> keep(booleans.length());
  for (int64_t i = 0; i < booleans.length(); ++i)
    keep[i] = booleans.IsValid(i) && booleans.Value(i);
  return keep;
}

// exists / forall of each row: three-valued, NULL where no element decides and one is NULL.
Result<ArrayPtr> Quantified(const ArrayPtr& source, const Elements& elements,
                            const arrow::Array& predicate, bool exists) {
  const auto& booleans = static_cast<const arrow::BooleanArray&>(predicate);
  arrow::BooleanBuilder builder;
  size_t e = 0;
  for (int64_t row = 0; row < source->length(); ++row) {
    bool decided = false;
    bool unknown = false;
    for (; e < elements.rows.size() && elements.rows[e] == row; ++e) {
      if (booleans.IsNull(e)) {
        unknown = true;
      } else if (booleans.Value(e) == exists) {
        decided = true;
      }
    }
    if (source->IsNull(row) || (!decided && unknown)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
    } else {
      ARROW_RETURN_NOT_OK(builder.Append(exists ? decided : !decided));
    }
  }
  return builder.Finish();
}

// transform_keys' keys, one map per row of `elements`, checked as a map's keys are.
Status CheckTransformedKeys(const arrow::Array& keys, const Elements& elements) {
  size_t begin = 0;
  for (size_t e = 1; e <= elements.rows.size(); ++e) {
    if (e == elements.rows.size() || elements.rows[e] != elements.rows[begin]) {
      ARROW_RETURN_NOT_OK(
          kernels::CheckMapKeys(keys, static_cast<int64_t>(begin), static_cast<int64_t>(e)));
      begin = e;
    }
  }
  return Status::OK();
}

Status HigherOrderExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  const auto& state = *static_cast<HigherOrderState*>(ctx->state());
  std::vector<ArrayPtr> inputs;
  for (int i = 0; i < batch.num_values(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto array, kernels::ArgumentArray(batch, i));
    inputs.push_back(std::move(array));
  }
  Evaluator evaluate(ctx, state, {inputs.begin() + state.containers, inputs.end()});
  const ArrayPtr& source = inputs[0];
  const int64_t length = batch.length;
  ArrayPtr result;
  switch (state.kind) {
    case HigherOrder::kTransform:
    case HigherOrder::kFilter:
    case HigherOrder::kExists:
    case HigherOrder::kForall: {
      const auto& lists = static_cast<const arrow::ListArray&>(*source);
      Elements elements = ElementsOf(&lists, nullptr, length);
      ARROW_ASSIGN_OR_RAISE(auto values, kernels::TakeRows(lists.values(), elements.at));
      ARROW_ASSIGN_OR_RAISE(auto positions, Int32s(elements.positions));
      ARROW_ASSIGN_OR_RAISE(auto evaluated, evaluate.Run(0, {values, positions}, elements.rows));
      if (state.kind == HigherOrder::kTransform) {
        ARROW_ASSIGN_OR_RAISE(auto grouped, Regroup(elements, length, nullptr));
        ARROW_ASSIGN_OR_RAISE(result, ListOf(source, grouped, evaluated, state.output));
      } else if (state.kind == HigherOrder::kFilter) {
        auto keep = TrueRows(*evaluated);
        ARROW_ASSIGN_OR_RAISE(auto grouped, Regroup(elements, length, &keep));
        ARROW_ASSIGN_OR_RAISE(result, ListOf(source, grouped, values, state.output));
      } else {
        ARROW_ASSIGN_OR_RAISE(
            result, Quantified(source, elements, *evaluated, state.kind == HigherOrder::kExists));
      }
      break;
    }
    case HigherOrder::kZipWith: {
      const auto& left = static_cast<const arrow::ListArray&>(*inputs[0]);
      const auto& right = static_cast<const arrow::ListArray&>(*inputs[1]);
      Elements elements;
      std::vector<int64_t> left_at, right_at;
      arrow::TypedBufferBuilder<bool> validity;
      for (int64_t row = 0; row < length; ++row) {
        bool valid = left.IsValid(row) && right.IsValid(row);
        ARROW_RETURN_NOT_OK(validity.Append(valid));
        if (!valid) continue;
        int64_t n = std::max(left.value_length(row), right.value_length(row));
        for (int64_t i = 0; i < n; ++i) {
          left_at.push_back(i < left.value_length(row) ? left.value_offset(row) + i : -1);
          right_at.push_back(i < right.value_length(row) ? right.value_offset(row) + i : -1);
          elements.rows.push_back(row);
        }
      }
      ARROW_ASSIGN_OR_RAISE(auto xs, kernels::TakeRows(left.values(), left_at));
      ARROW_ASSIGN_OR_RAISE(auto ys, kernels::TakeRows(right.values(), right_at));
      ARROW_ASSIGN_OR_RAISE(auto evaluated, evaluate.Run(0, {xs, ys}, elements.rows));
      ARROW_ASSIGN_OR_RAISE(auto grouped, Regroup(elements, length, nullptr));
      ARROW_ASSIGN_OR_RAISE(auto bitmap, validity.Finish());
      ARROW_ASSIGN_OR_RAISE(auto taken, kernels::TakeRows(evaluated, grouped.kept));
      result =
          std::make_shared<arrow::ListArray>(state.output, length, grouped.offsets, taken, bitmap);
      break;
    }
    case HigherOrder::kAggregate: {
      const auto& lists = static_cast<const arrow::ListArray&>(*source);
      ArrayPtr acc = inputs[1];
      std::vector<int64_t> all_rows(length);
      for (int64_t row = 0; row < length; ++row) all_rows[row] = row;
      for (int64_t step = 0;; ++step) {
        std::vector<int64_t> rows, at;
        for (int64_t row = 0; row < length; ++row) {
          if (lists.IsValid(row) && lists.value_length(row) > step) {
            rows.push_back(row);
            at.push_back(lists.value_offset(row) + step);
          }
        }
        if (rows.empty()) break;
        ARROW_ASSIGN_OR_RAISE(auto accs, kernels::TakeRows(acc, rows));
        ARROW_ASSIGN_OR_RAISE(auto xs, kernels::TakeRows(lists.values(), at));
        ARROW_ASSIGN_OR_RAISE(auto merged, evaluate.Run(0, {accs, xs}, rows));
        if (!merged->type()->Equals(*acc->type())) {
          ARROW_ASSIGN_OR_RAISE(auto cast, cp::Cast(*merged, acc->type()));
          merged = cast;
        }
        // The new accumulator: the merged value for the rows that stepped, the old one else.
        std::vector<int64_t> pick(length);
        for (int64_t row = 0; row < length; ++row) pick[row] = row;
        for (size_t i = 0; i < rows.size(); ++i) pick[rows[i]] = length + static_cast<int64_t>(i);
        ARROW_ASSIGN_OR_RAISE(auto both, arrow::Concatenate({acc, merged}));
        ARROW_ASSIGN_OR_RAISE(acc, kernels::TakeRows(both, pick));
      }
      if (state.bound.size() > 1) {
        ARROW_ASSIGN_OR_RAISE(acc, evaluate.Run(1, {acc}, all_rows));
      }
      // A NULL array aggregates to NULL.
      std::vector<int64_t> valid_rows(length);
      for (int64_t row = 0; row < length; ++row) valid_rows[row] = lists.IsValid(row) ? row : -1;
      ARROW_ASSIGN_OR_RAISE(result, kernels::TakeRows(acc, valid_rows));
      break;
    }
    case HigherOrder::kArraySort: {
      const auto& lists = static_cast<const arrow::ListArray&>(*source);
      Elements elements = ElementsOf(&lists, nullptr, length);
      // Every ordered pair of a row's elements, compared at once.
      std::vector<int64_t> left_at, right_at, pair_rows;
      for (int64_t row = 0; row < length; ++row) {
        if (lists.IsNull(row)) continue;
        for (int64_t i = 0; i < lists.value_length(row); ++i) {
          for (int64_t j = 0; j < lists.value_length(row); ++j) {
            left_at.push_back(lists.value_offset(row) + i);
            right_at.push_back(lists.value_offset(row) + j);
            pair_rows.push_back(row);
          }
        }
      }
      ARROW_ASSIGN_OR_RAISE(auto ls, kernels::TakeRows(lists.values(), left_at));
      ARROW_ASSIGN_OR_RAISE(auto rs, kernels::TakeRows(lists.values(), right_at));
      ARROW_ASSIGN_OR_RAISE(auto compared, evaluate.Run(0, {ls, rs}, pair_rows));
      ARROW_ASSIGN_OR_RAISE(auto as_int, cp::Cast(*compared, arrow::int64()));
      const auto& order = static_cast<const arrow::Int64Array&>(*as_int);
      std::vector<int64_t> sorted;
      size_t pair_base = 0;
      for (int64_t row = 0; row < length; ++row) {
        if (lists.IsNull(row)) continue;
        int64_t n = lists.value_length(row);
        std::vector<int64_t> indices(n);
        for (int64_t i = 0; i < n; ++i) indices[i] = i;
        bool null_result = false;
        std::stable_sort(indices.begin(), indices.end(), [&](int64_t a, int64_t b) {
          size_t at = pair_base + static_cast<size_t>(a * n + b);
          if (order.IsNull(at)) {
            null_result = true;
            return false;
          }
          return order.Value(at) < 0;
        });
        if (null_result) {
          return MakeError(arrow::StatusCode::Invalid, "COMPARATOR_RETURNS_NULL",
                           "The comparator has returned a NULL for a comparison between two "
                           "elements. It should return a positive integer for \"greater than\", 0 "
                           "for \"equal\" and a negative integer for \"less than\".");
        }
        for (int64_t i : indices) sorted.push_back(lists.value_offset(row) + i);
        pair_base += static_cast<size_t>(n * n);
      }
      ARROW_ASSIGN_OR_RAISE(auto grouped, Regroup(elements, length, nullptr));
      ARROW_ASSIGN_OR_RAISE(auto values, kernels::TakeRows(lists.values(), sorted));
      ARROW_ASSIGN_OR_RAISE(result, ListOf(source, grouped, values, state.output));
      break;
    }
    case HigherOrder::kMapFilter:
    case HigherOrder::kTransformKeys:
    case HigherOrder::kTransformValues: {
      const auto& maps = static_cast<const arrow::MapArray&>(*source);
      Elements elements = ElementsOf(nullptr, &maps, length);
      ARROW_ASSIGN_OR_RAISE(auto keys, kernels::TakeRows(maps.keys(), elements.at));
      ARROW_ASSIGN_OR_RAISE(auto items, kernels::TakeRows(maps.items(), elements.at));
      ARROW_ASSIGN_OR_RAISE(auto evaluated, evaluate.Run(0, {keys, items}, elements.rows));
      if (state.kind == HigherOrder::kMapFilter) {
        auto keep = TrueRows(*evaluated);
        ARROW_ASSIGN_OR_RAISE(auto grouped, Regroup(elements, length, &keep));
        ARROW_ASSIGN_OR_RAISE(result, MapOf(source, grouped, keys, items, state.output));
      } else {
        ARROW_ASSIGN_OR_RAISE(auto grouped, Regroup(elements, length, nullptr));
        if (state.kind == HigherOrder::kTransformKeys) {
          ARROW_RETURN_NOT_OK(CheckTransformedKeys(*evaluated, elements));
          ARROW_ASSIGN_OR_RAISE(result, MapOf(source, grouped, evaluated, items, state.output));
        } else {
          ARROW_ASSIGN_OR_RAISE(result, MapOf(source, grouped, keys, evaluated, state.output));
        }
      }
      break;
    }
    case HigherOrder::kMapZipWith: {
      const auto& left = static_cast<const arrow::MapArray&>(*inputs[0]);
      const auto& right = static_cast<const arrow::MapArray&>(*inputs[1]);
      Elements elements;
      std::vector<int64_t> key_at, left_at, right_at;  // key_at: into left keys, or -2 - right
      arrow::TypedBufferBuilder<bool> validity;
      for (int64_t row = 0; row < length; ++row) {
        bool valid = left.IsValid(row) && right.IsValid(row);
        ARROW_RETURN_NOT_OK(validity.Append(valid));
        if (!valid) continue;
        std::vector<std::pair<std::shared_ptr<arrow::Scalar>, int64_t>> right_keys;
        for (int64_t j = right.value_offset(row); j < right.value_offset(row + 1); ++j) {
          ARROW_ASSIGN_OR_RAISE(auto key, right.keys()->GetScalar(j));
          right_keys.emplace_back(kernels::Normalized(key), j);
        }
        std::vector<bool> matched(right_keys.size(), false);
        for (int64_t i = left.value_offset(row); i < left.value_offset(row + 1); ++i) {
          ARROW_ASSIGN_OR_RAISE(auto key, left.keys()->GetScalar(i));
          auto normalized = kernels::Normalized(key);
          int64_t found = -1;
          for (size_t r = 0; r < right_keys.size(); ++r) {
            if (!matched[r] && kernels::ScalarKeyEqual()(normalized, right_keys[r].first)) {
              matched[r] = true;
              found = right_keys[r].second;
              break;
            }
          }
          key_at.push_back(i);
          left_at.push_back(i);
          right_at.push_back(found);
          elements.rows.push_back(row);
        }
        for (size_t r = 0; r < right_keys.size(); ++r) {
          if (matched[r]) continue;
          key_at.push_back(-2 - right_keys[r].second);
          left_at.push_back(-1);
          right_at.push_back(right_keys[r].second);
          elements.rows.push_back(row);
        }
      }
      // The keys: the left map's, then the right map's that the left lacks.
      std::vector<int64_t> from_left, from_right;
      for (int64_t at : key_at) {
        from_left.push_back(at >= 0 ? at : -1);
        from_right.push_back(at >= 0 ? -1 : -2 - at);
      }
      ARROW_ASSIGN_OR_RAISE(auto left_keys, kernels::TakeRows(left.keys(), from_left));
      ARROW_ASSIGN_OR_RAISE(auto right_keys, kernels::TakeRows(right.keys(), from_right));
      ARROW_ASSIGN_OR_RAISE(auto keys, cp::CallFunction("coalesce", {left_keys, right_keys}));
      ARROW_ASSIGN_OR_RAISE(auto v1, kernels::TakeRows(left.items(), left_at));
      ARROW_ASSIGN_OR_RAISE(auto v2, kernels::TakeRows(right.items(), right_at));
      ARROW_ASSIGN_OR_RAISE(auto evaluated,
                            evaluate.Run(0, {keys.make_array(), v1, v2}, elements.rows));
      ARROW_ASSIGN_OR_RAISE(auto grouped, Regroup(elements, length, nullptr));
      ARROW_ASSIGN_OR_RAISE(auto bitmap, validity.Finish());
      ARROW_ASSIGN_OR_RAISE(auto taken_keys, kernels::TakeRows(keys.make_array(), grouped.kept));
      ARROW_ASSIGN_OR_RAISE(auto taken_items, kernels::TakeRows(evaluated, grouped.kept));
      result = std::make_shared<arrow::MapArray>(state.output, length, grouped.offsets, taken_keys,
                                                 taken_items, bitmap);
      break;
    }
  }
  out->value = result->data();
  return Status::OK();
}

}  // namespace

cp::Expression HigherOrderCall(HigherOrder kind, std::vector<cp::Expression> containers,
                               std::vector<LambdaBody> lambdas) {
  std::set<std::string> params;
  for (const auto& lambda : lambdas) params.insert(lambda.params.begin(), lambda.params.end());
  std::vector<std::string> captured;
  for (const auto& lambda : lambdas) {
    for (const auto& ref : cp::FieldsInExpression(lambda.body)) {
      const std::string* name = ref.name();
      if (name == nullptr || params.count(*name) > 0) continue;
      if (std::find(captured.begin(), captured.end(), *name) == captured.end()) {
        captured.push_back(*name);
      }
    }
  }
  int count = static_cast<int>(containers.size());
  std::vector<cp::Expression> args = std::move(containers);
  for (const auto& name : captured) args.push_back(cp::field_ref(name));
  return cp::call(
      "parley_higher_order", std::move(args),
      std::make_shared<HigherOrderOptions>(kind, std::move(lambdas), std::move(captured), count));
}

namespace kernels {

Status RegisterHigherOrderKernels(cp::FunctionRegistry* registry) {
  return AddAnyInputFunction(registry, "parley_higher_order", cp::Arity::VarArgs(1),
                             cp::OutputType(HigherOrderType), HigherOrderExec,
                             "A higher-order function's lambda over each row's elements",
                             cp::NullHandling::COMPUTED_NO_PREALLOCATE, InitHigherOrder);
}

}  // namespace kernels
}  // namespace parley
