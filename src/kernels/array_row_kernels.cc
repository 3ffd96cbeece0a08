// Spark's array functions that work on each row's elements: array_contains, array_position,
// array_remove, array_append / array_prepend, array_distinct, array_compact, reverse of an
// array, sort_array / array_sort, array_max / array_min, array_join, array_union /
// array_intersect / array_except / arrays_overlap, flatten, slice and array_repeat. Elements
// compare as Spark's do: NaN equals NaN, -0.0 equals 0.0, and NULL is unknown (array_contains of
// an absent value in an array with a NULL is NULL). Sets keep the order of first occurrence.
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <optional>
#include <unordered_set>

#include "arrow/array/array_nested.h"
#include "arrow/array/builder_base.h"
#include "arrow/array/builder_nested.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/array/util.h"
#include "arrow/compute/api.h"
#include "arrow/scalar.h"
#include "kernels/kernel_support.h"
#include "kernels/kernels.h"
#include "kernels/scalar_keys.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using ScalarPtr = std::shared_ptr<arrow::Scalar>;

enum class ArrayOp {
  kContains,
  kPosition,
  kRemove,
  kAppend,
  kPrepend,
  kDistinct,
  kCompact,
  kReverse,
  kSortAscNullsFirst,
  kSortDescNullsLast,
  kSortAscNullsLast,
  kMax,
  kMin,
  kJoin,
  kUnion,
  kIntersect,
  kExcept,
  kOverlap,
  kFlatten,
  kSlice,
};

using kernels::Normalized;
using KeySet = kernels::ScalarKeySet;

// A row's elements as scalars (a null element as a null scalar).
Result<std::vector<ScalarPtr>> Elements(const arrow::ListArray& lists, int64_t row) {
  auto slice = lists.value_slice(row);
  std::vector<ScalarPtr> elements;
  elements.reserve(slice->length());
  for (int64_t i = 0; i < slice->length(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto element, slice->GetScalar(i));
    elements.push_back(Normalized(std::move(element)));
  }
  return elements;
}

bool Same(const ScalarPtr& a, const ScalarPtr& b) { return kernels::ScalarKeyEqual()(a, b); }

Result<std::shared_ptr<arrow::Array>> AsArray(const cp::ExecValue& value, int64_t length) {
  if (value.is_scalar()) return arrow::MakeArrayFromScalar(*value.scalar, length);
  return value.array.ToArray();
}

bool IsNaN(const ScalarPtr& scalar) {
  if (!scalar->is_valid) return false;
  if (scalar->type->id() == arrow::Type::DOUBLE) {
    return std::isnan(static_cast<const arrow::DoubleScalar&>(*scalar).value);
  }
  if (scalar->type->id() == arrow::Type::FLOAT) {
    return std::isnan(static_cast<const arrow::FloatScalar&>(*scalar).value);
  }
  return false;
}

// One list of `elements` (a null scalar as a NULL element).
Status AppendList(arrow::ListBuilder* builder, const std::vector<ScalarPtr>& elements) {
  ARROW_RETURN_NOT_OK(builder->Append());
  for (const auto& element : elements) {
    if (element->is_valid) {
      ARROW_RETURN_NOT_OK(builder->value_builder()->AppendScalar(*element));
    } else {
      ARROW_RETURN_NOT_OK(builder->value_builder()->AppendNull());
    }
  }
  return Status::OK();
}

// Every argument as an array of the batch's length.
Result<std::vector<std::shared_ptr<arrow::Array>>> AsArrays(const cp::ExecSpan& batch) {
  std::vector<std::shared_ptr<arrow::Array>> arrays;
  for (int i = 0; i < batch.num_values(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto array, AsArray(batch[i], batch.length));
    arrays.push_back(std::move(array));
  }
  return arrays;
}

// The elements in their order under `order`, NaN above every number as in Spark (Arrow places
// NaN with the NULLs), the NULLs where `nulls` says.
Result<std::vector<ScalarPtr>> Sorted(const arrow::ListArray& lists, int64_t row,
                                      cp::SortOrder order, cp::NullPlacement nulls) {
  auto slice = lists.value_slice(row);
  cp::ArraySortOptions options(order, nulls);
  ARROW_ASSIGN_OR_RAISE(auto indices, cp::CallFunction("array_sort_indices", {slice}, &options));
  ARROW_ASSIGN_OR_RAISE(auto taken, cp::Take(slice, indices));
  std::vector<ScalarPtr> values, nans, null_values;
  auto sorted = taken.make_array();
  for (int64_t i = 0; i < sorted->length(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto element, sorted->GetScalar(i));
    auto& into = !element->is_valid ? null_values : IsNaN(element) ? nans : values;
    into.push_back(std::move(element));
  }
  if (order == cp::SortOrder::Ascending) {
    values.insert(values.end(), nans.begin(), nans.end());
  } else {
    values.insert(values.begin(), nans.begin(), nans.end());
  }
  auto at = nulls == cp::NullPlacement::AtStart ? values.begin() : values.end();
  values.insert(at, null_values.begin(), null_values.end());
  return values;
}

Status InvalidSlice(const char* parameter, std::string message) {
  return MakeError(arrow::StatusCode::Invalid, fmt::format("INVALID_PARAMETER_VALUE.{}", parameter),
                   fmt::format("The value of parameter(s) `{}` in `slice` is invalid: {}",
                               std::string(parameter) == "START" ? "start" : "length", message));
}

// One row of `kOp`: the result's value, or nullopt for NULL. `other` holds the row's second
// and third arguments (null scalars where NULL).
template <ArrayOp kOp>
Result<std::optional<std::vector<ScalarPtr>>> ListResult(const arrow::ListArray& lists, int64_t row,
                                                         const std::vector<ScalarPtr>& other) {
  using Out = std::optional<std::vector<ScalarPtr>>;
  ARROW_ASSIGN_OR_RAISE(auto elements, Elements(lists, row));
  std::vector<ScalarPtr> out;
  switch (kOp) {
    case ArrayOp::kRemove:
      if (!other[0]->is_valid) return Out();
      for (auto& e : elements) {
        if (!e->is_valid || !Same(e, Normalized(other[0]))) out.push_back(e);
      }
      return Out(out);
    case ArrayOp::kAppend: elements.push_back(other[0]); return Out(elements);
    case ArrayOp::kPrepend: elements.insert(elements.begin(), other[0]); return Out(elements);
    case ArrayOp::kDistinct: {
      KeySet seen;
      bool null_seen = false;
      for (auto& e : elements) {
        if (!e->is_valid) {
          if (!null_seen) out.push_back(e);
          null_seen = true;
        } else if (seen.insert(e).second) {
          out.push_back(e);
        }
      }
      return Out(out);
    }
    case ArrayOp::kCompact:
      for (auto& e : elements) {
        if (e->is_valid) out.push_back(e);
      }
      return Out(out);
    case ArrayOp::kReverse: return Out(std::vector<ScalarPtr>(elements.rbegin(), elements.rend()));
    case ArrayOp::kSortAscNullsFirst:
      return Sorted(lists, row, cp::SortOrder::Ascending, cp::NullPlacement::AtStart);
    case ArrayOp::kSortDescNullsLast:
      return Sorted(lists, row, cp::SortOrder::Descending, cp::NullPlacement::AtEnd);
    case ArrayOp::kSortAscNullsLast:
      return Sorted(lists, row, cp::SortOrder::Ascending, cp::NullPlacement::AtEnd);
    case ArrayOp::kSlice: {
      if (!other[0]->is_valid || !other[1]->is_valid) return Out();
      int64_t start = static_cast<const arrow::Int32Scalar&>(*other[0]).value;
      int64_t length = static_cast<const arrow::Int32Scalar&>(*other[1]).value;
      auto size = static_cast<int64_t>(elements.size());
      if (start == 0) {
        return InvalidSlice("START",
                            "Expects a positive or a negative value for `start`, but "
                            "got 0.");
      }
      if (length < 0) {
        return InvalidSlice("LENGTH", fmt::format("Expects `length` greater than or equal to 0, "
                                                  "but got {}.",
                                                  length));
      }
      int64_t from = start > 0 ? start - 1 : size + start;
      if (from < 0 || from >= size) return Out(out);
      int64_t to = std::min(size, from + length);
      return Out(std::vector<ScalarPtr>(elements.begin() + from, elements.begin() + to));
    }
    default: return Status::Invalid("not a list operation");
  }
}

// The rows of a list-valued operation.
template <ArrayOp kOp>
Status ListExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  ARROW_ASSIGN_OR_RAISE(auto arrays, AsArrays(batch));
  const auto& lists = static_cast<const arrow::ListArray&>(*arrays[0]);
  const std::vector<std::shared_ptr<arrow::Array>> others(arrays.begin() + 1, arrays.end());
  std::unique_ptr<arrow::ArrayBuilder> builder;
  ARROW_RETURN_NOT_OK(
      arrow::MakeBuilder(ctx->memory_pool(), out->type()->GetSharedPtr(), &builder));
  auto* list_builder = static_cast<arrow::ListBuilder*>(builder.get());
  for (int64_t row = 0; row < batch.length; ++row) {
    if (lists.IsNull(row)) {
      ARROW_RETURN_NOT_OK(list_builder->AppendNull());
      continue;
    }
    std::vector<ScalarPtr> other;
    for (const auto& array : others) {
      ARROW_ASSIGN_OR_RAISE(auto scalar, array->GetScalar(row));
      other.push_back(std::move(scalar));
    }
    ARROW_ASSIGN_OR_RAISE(auto result, ListResult<kOp>(lists, row, other));
    if (!result.has_value()) {
      ARROW_RETURN_NOT_OK(list_builder->AppendNull());
      continue;
    }
    ARROW_RETURN_NOT_OK(AppendList(list_builder, *result));
  }
  return kernels::FinishInto(list_builder, out);
}

// Two lists as sets: union, intersect, except (kept in first-occurrence order), or whether they
// overlap (NULL when they do not but either holds a NULL and neither is empty).
template <ArrayOp kOp>
Status SetExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  ARROW_ASSIGN_OR_RAISE(auto left_array, AsArray(batch[0], batch.length));
  ARROW_ASSIGN_OR_RAISE(auto right_array, AsArray(batch[1], batch.length));
  const auto& lefts = static_cast<const arrow::ListArray&>(*left_array);
  const auto& rights = static_cast<const arrow::ListArray&>(*right_array);
  std::unique_ptr<arrow::ArrayBuilder> builder;
  ARROW_RETURN_NOT_OK(
      arrow::MakeBuilder(ctx->memory_pool(), out->type()->GetSharedPtr(), &builder));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (lefts.IsNull(row) || rights.IsNull(row)) {
      ARROW_RETURN_NOT_OK(builder->AppendNull());
      continue;
    }
    ARROW_ASSIGN_OR_RAISE(auto left, Elements(lefts, row));
    ARROW_ASSIGN_OR_RAISE(auto right, Elements(rights, row));
    KeySet right_set;
    bool right_null = false;
    for (auto& e : right) {
      if (e->is_valid) {
        right_set.insert(e);
      } else {
        right_null = true;
      }
    }
    if constexpr (kOp == ArrayOp::kOverlap) {
      bool found = false, left_null = false;
      for (auto& e : left) {
        if (!e->is_valid) {
          left_null = true;
        } else if (right_set.count(e)) {
          found = true;
        }
      }
      auto* booleans = static_cast<arrow::BooleanBuilder*>(builder.get());
      if (found) {
        ARROW_RETURN_NOT_OK(booleans->Append(true));
      } else if ((left_null || right_null) && !left.empty() && !right.empty()) {
        ARROW_RETURN_NOT_OK(booleans->AppendNull());
      } else {
        ARROW_RETURN_NOT_OK(booleans->Append(false));
      }
      continue;
    } else {
      std::vector<ScalarPtr> result;
      KeySet seen;
      bool null_out = false;
      auto add = [&](const ScalarPtr& e) {
        if (!e->is_valid) {
          if (!null_out) result.push_back(e);
          null_out = true;
        } else if (seen.insert(e).second) {
          result.push_back(e);
        }
      };
      for (auto& e : left) {
        bool in_right = e->is_valid ? right_set.count(e) > 0 : right_null;
        if (kOp == ArrayOp::kUnion || (kOp == ArrayOp::kIntersect && in_right) ||
            (kOp == ArrayOp::kExcept && !in_right)) {
          add(e);
        }
      }
      if (kOp == ArrayOp::kUnion) {
        for (auto& e : right) add(e);
      }
      auto* list_builder = static_cast<arrow::ListBuilder*>(builder.get());
      ARROW_RETURN_NOT_OK(AppendList(list_builder, result));
    }
  }
  return kernels::FinishInto(builder.get(), out);
}

// A value of each row: array_contains, array_position, array_max, array_min, array_join.
template <ArrayOp kOp>
Result<ScalarPtr> ValueResult(const arrow::ListArray& lists, int64_t row,
                              const std::vector<ScalarPtr>& other,
                              const std::shared_ptr<arrow::DataType>& type) {
  ARROW_ASSIGN_OR_RAISE(auto elements, Elements(lists, row));
  auto null = arrow::MakeNullScalar(type);
  switch (kOp) {
    case ArrayOp::kContains: {
      if (!other[0]->is_valid) return null;
      bool saw_null = false;
      for (auto& e : elements) {
        if (!e->is_valid) {
          saw_null = true;
        } else if (Same(e, Normalized(other[0]))) {
          return arrow::MakeScalar(true);
        }
      }
      return saw_null ? null : arrow::MakeScalar(false);
    }
    case ArrayOp::kPosition: {
      if (!other[0]->is_valid) return null;
      for (size_t i = 0; i < elements.size(); ++i) {
        if (elements[i]->is_valid && Same(elements[i], Normalized(other[0]))) {
          return arrow::MakeScalar(static_cast<int64_t>(i + 1));
        }
      }
      return arrow::MakeScalar(static_cast<int64_t>(0));
    }
    case ArrayOp::kMax:
    case ArrayOp::kMin: {
      auto order = kOp == ArrayOp::kMax ? cp::SortOrder::Descending : cp::SortOrder::Ascending;
      ARROW_ASSIGN_OR_RAISE(auto sorted, Sorted(lists, row, order, cp::NullPlacement::AtEnd));
      if (sorted.empty() || !sorted[0]->is_valid) return null;
      return sorted[0];
    }
    case ArrayOp::kJoin: {
      if (!other[0]->is_valid) return null;
      std::string delimiter = other[0]->ToString();
      std::optional<std::string> replacement;
      if (other.size() > 1) {
        if (!other[1]->is_valid) return null;
        replacement = other[1]->ToString();
      }
      std::string text;
      bool first = true;
      for (auto& e : elements) {
        if (!e->is_valid && !replacement.has_value()) continue;
        if (!first) text += delimiter;
        text += e->is_valid ? static_cast<const arrow::StringScalar&>(*e).ToString() : *replacement;
        first = false;
      }
      return arrow::MakeScalar(text);
    }
    default: return Status::Invalid("not a value operation");
  }
}

template <ArrayOp kOp>
Status ValueExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  ARROW_ASSIGN_OR_RAISE(auto arrays, AsArrays(batch));
  const auto& lists = static_cast<const arrow::ListArray&>(*arrays[0]);
  const std::vector<std::shared_ptr<arrow::Array>> others(arrays.begin() + 1, arrays.end());
  auto type = out->type()->GetSharedPtr();
  std::unique_ptr<arrow::ArrayBuilder> builder;
  ARROW_RETURN_NOT_OK(arrow::MakeBuilder(ctx->memory_pool(), type, &builder));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (lists.IsNull(row)) {
      ARROW_RETURN_NOT_OK(builder->AppendNull());
      continue;
    }
    std::vector<ScalarPtr> other;
    for (const auto& array : others) {
      ARROW_ASSIGN_OR_RAISE(auto scalar, array->GetScalar(row));
      other.push_back(std::move(scalar));
    }
    ARROW_ASSIGN_OR_RAISE(auto value, ValueResult<kOp>(lists, row, other, type));
    if (value->is_valid) {
      ARROW_RETURN_NOT_OK(builder->AppendScalar(*value));
    } else {
      ARROW_RETURN_NOT_OK(builder->AppendNull());
    }
  }
  return kernels::FinishInto(builder.get(), out);
}

// flatten(array of arrays): NULL when an inner array is.
Status FlattenExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  ARROW_ASSIGN_OR_RAISE(auto input, AsArray(batch[0], batch.length));
  const auto& lists = static_cast<const arrow::ListArray&>(*input);
  std::unique_ptr<arrow::ArrayBuilder> builder;
  ARROW_RETURN_NOT_OK(
      arrow::MakeBuilder(ctx->memory_pool(), out->type()->GetSharedPtr(), &builder));
  auto* list_builder = static_cast<arrow::ListBuilder*>(builder.get());
  for (int64_t row = 0; row < batch.length; ++row) {
    auto inner = std::static_pointer_cast<arrow::ListArray>(
        lists.IsNull(row) ? nullptr : lists.value_slice(row));
    if (inner == nullptr || inner->null_count() > 0) {
      ARROW_RETURN_NOT_OK(list_builder->AppendNull());
      continue;
    }
    ARROW_RETURN_NOT_OK(list_builder->Append());
    for (int64_t i = 0; i < inner->length(); ++i) {
      auto values = inner->value_slice(i);
      ARROW_RETURN_NOT_OK(
          list_builder->value_builder()->AppendArraySlice(*values->data(), 0, values->length()));
    }
  }
  return kernels::FinishInto(list_builder, out);
}

// array_repeat(value, count): `count` copies of the value (a NULL value too); none below 1.
Status RepeatExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  ARROW_ASSIGN_OR_RAISE(auto values, AsArray(batch[0], batch.length));
  kernels::Column<int32_t> counts(batch[1]);
  std::unique_ptr<arrow::ArrayBuilder> builder;
  ARROW_RETURN_NOT_OK(
      arrow::MakeBuilder(ctx->memory_pool(), out->type()->GetSharedPtr(), &builder));
  auto* list_builder = static_cast<arrow::ListBuilder*>(builder.get());
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!counts.IsValid(row)) {
      ARROW_RETURN_NOT_OK(list_builder->AppendNull());
      continue;
    }
    ARROW_RETURN_NOT_OK(list_builder->Append());
    for (int32_t i = 0; i < counts.Value(row); ++i) {
      ARROW_RETURN_NOT_OK(list_builder->value_builder()->AppendArraySlice(*values->data(), row, 1));
    }
  }
  return kernels::FinishInto(list_builder, out);
}

arrow::Result<arrow::TypeHolder> ElementType(cp::KernelContext*,
                                             const std::vector<arrow::TypeHolder>& types) {
  return static_cast<const arrow::ListType&>(*types[0].type).value_type();
}
arrow::Result<arrow::TypeHolder> InnerListType(cp::KernelContext*,
                                               const std::vector<arrow::TypeHolder>& types) {
  return static_cast<const arrow::ListType&>(*types[0].type).value_type();
}
arrow::Result<arrow::TypeHolder> ListOfInput(cp::KernelContext*,
                                             const std::vector<arrow::TypeHolder>& types) {
  return arrow::list(types[0].GetSharedPtr());
}

}  // namespace

namespace kernels {

Status RegisterArrayRowKernels(cp::FunctionRegistry* registry) {
  cp::InputType list(arrow::Type::LIST);
  cp::InputType any = cp::InputType::Any();
  cp::OutputType same(InputTypeAt<0>);
  struct Spec {
    const char* name;
    std::vector<cp::InputType> inputs;
    cp::OutputType output;
    cp::ArrayKernelExec exec;
  };
  const Spec specs[] = {
      {"parley_array_contains", {list, any}, arrow::boolean(), ValueExec<ArrayOp::kContains>},
      {"parley_array_position", {list, any}, arrow::int64(), ValueExec<ArrayOp::kPosition>},
      {"parley_array_max", {list}, cp::OutputType(ElementType), ValueExec<ArrayOp::kMax>},
      {"parley_array_min", {list}, cp::OutputType(ElementType), ValueExec<ArrayOp::kMin>},
      {"parley_array_remove", {list, any}, same, ListExec<ArrayOp::kRemove>},
      {"parley_array_append", {list, any}, same, ListExec<ArrayOp::kAppend>},
      {"parley_array_prepend", {list, any}, same, ListExec<ArrayOp::kPrepend>},
      {"parley_array_distinct", {list}, same, ListExec<ArrayOp::kDistinct>},
      {"parley_array_compact", {list}, same, ListExec<ArrayOp::kCompact>},
      {"parley_array_reverse", {list}, same, ListExec<ArrayOp::kReverse>},
      {"parley_sort_array_asc", {list}, same, ListExec<ArrayOp::kSortAscNullsFirst>},
      {"parley_sort_array_desc", {list}, same, ListExec<ArrayOp::kSortDescNullsLast>},
      {"parley_array_sort", {list}, same, ListExec<ArrayOp::kSortAscNullsLast>},
      {"parley_slice", {list, arrow::int32(), arrow::int32()}, same, ListExec<ArrayOp::kSlice>},
      {"parley_array_union", {list, list}, same, SetExec<ArrayOp::kUnion>},
      {"parley_array_intersect", {list, list}, same, SetExec<ArrayOp::kIntersect>},
      {"parley_array_except", {list, list}, same, SetExec<ArrayOp::kExcept>},
      {"parley_arrays_overlap", {list, list}, arrow::boolean(), SetExec<ArrayOp::kOverlap>},
      {"parley_flatten", {list}, cp::OutputType(InnerListType), FlattenExec},
      {"parley_array_repeat", {any, arrow::int32()}, cp::OutputType(ListOfInput), RepeatExec},
  };
  for (const auto& spec : specs) {
    ARROW_RETURN_NOT_OK(AddFunction(registry, spec.name, spec.inputs, spec.output, spec.exec,
                                    "Spark's array function"));
  }
  ARROW_RETURN_NOT_OK(
      AddFunctionKernels(registry, "parley_array_join", "Spark's array_join",
                         {{{list, arrow::utf8()}, arrow::utf8(), ValueExec<ArrayOp::kJoin>}}));
  return AddFunction(registry, "parley_array_join_replacing", {list, arrow::utf8(), arrow::utf8()},
                     arrow::utf8(), ValueExec<ArrayOp::kJoin>,
                     "Spark's array_join with a NULL replacement");
}

}  // namespace kernels
}  // namespace parley
