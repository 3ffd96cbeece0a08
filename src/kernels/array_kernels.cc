// Array element access and construction with Spark's semantics:
//   parley_array_element(list, int32 index, int32 mode) -> the list's element type. `mode` is
//     an ElementAccess value: how the index counts and what an index outside the array does.
//   parley_map_value(map, key) -> the map's item type: the value at the key, NULL when absent.
//   parley_make_array(v0, v1, ...) -> list of the arguments' (common) type, one array per row.
//   parley_make_map(k0, v0, k1, v1, ...) -> map of the keys' and the values' types.
#include "kernels/array_kernels.h"

#include <fmt/format.h>

#include <optional>

#include "arrow/array/array_nested.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/array/concatenate.h"
#include "arrow/array/util.h"
#include "arrow/compute/api_vector.h"
#include "arrow/compute/registry.h"
#include "kernels/kernel_support.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

// The argument as an array of `length` rows (a scalar repeated).
Result<std::shared_ptr<arrow::Array>> AsArray(const cp::ExecValue& value, int64_t length) {
  if (value.is_scalar()) return arrow::MakeArrayFromScalar(*value.scalar, length);
  return value.array.ToArray();
}

Status IndexOutOfBounds(int64_t index, int64_t size, ElementAccess access) {
  bool one_based = access == ElementAccess::kElementAt;
  return MakeError(
      arrow::StatusCode::Invalid,
      one_based ? "INVALID_ARRAY_INDEX_IN_ELEMENT_AT" : "INVALID_ARRAY_INDEX",
      fmt::format("The index {} is out of bounds. The array has {} elements. {} If necessary set "
                  "\"spark.sql.ansi.enabled\" to \"false\" to bypass this error.",
                  index, size,
                  one_based ? "Use `try_element_at` to tolerate accessing element at invalid "
                              "index and return NULL instead."
                            : "Use the SQL function `get()` to tolerate accessing element at "
                              "invalid index and return NULL instead."));
}

Status IndexOfZero() {
  return MakeError(arrow::StatusCode::Invalid, "INVALID_INDEX_OF_ZERO",
                   "The index 0 is invalid. An index shall be either < 0 or > 0 (the first "
                   "element has index 1).");
}

// The position in the list's values of element `index` of the list at `row`, or nullopt when
// the element is NULL because the index is outside the array and `access` tolerates that.
Result<std::optional<int64_t>> ElementPosition(const arrow::ListArray& lists, int64_t row,
                                               int64_t index, ElementAccess access) {
  int64_t size = lists.value_length(row);
  int64_t at = index;
  bool one_based = access == ElementAccess::kElementAt || access == ElementAccess::kTryElementAt;
  if (one_based) {
    if (index == 0) return IndexOfZero();
    at = index > 0 ? index - 1 : size + index;
  }
  if (access == ElementAccess::kElt) at = index - 1;
  if (at < 0 || at >= size) {
    if (access == ElementAccess::kSubscript || access == ElementAccess::kElementAt ||
        access == ElementAccess::kElt) {
      return IndexOutOfBounds(index, size, access);
    }
    return std::nullopt;
  }
  return lists.value_offset(row) + at;
}

Status ArrayElementExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  ARROW_ASSIGN_OR_RAISE(auto list_array, AsArray(batch[0], batch.length));
  const auto& lists = static_cast<const arrow::ListArray&>(*list_array);
  kernels::Column<int32_t> indexes(batch[1]);
  auto access = static_cast<ElementAccess>(kernels::Column<int32_t>(batch[2]).Value(0));
  arrow::Int64Builder positions(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(positions.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (lists.IsNull(row) || !indexes.IsValid(row)) {
      positions.UnsafeAppendNull();
      continue;
    }
    ARROW_ASSIGN_OR_RAISE(auto position, ElementPosition(lists, row, indexes.Value(row), access));
    if (position) {
      positions.UnsafeAppend(*position);
    } else {
      positions.UnsafeAppendNull();
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto taken_positions, positions.Finish());
  ARROW_ASSIGN_OR_RAISE(auto elements, cp::Take(*lists.values(), *taken_positions,
                                                cp::TakeOptions::Defaults(), ctx->exec_context()));
  out->value = elements->data();
  return Status::OK();
}

// The value of the first entry of row r's map whose key equals row r's key; NULL when none
// does (Spark returns NULL for a missing key, in ANSI mode too).
Status MapValueExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  ARROW_ASSIGN_OR_RAISE(auto map_array, AsArray(batch[0], batch.length));
  ARROW_ASSIGN_OR_RAISE(auto key_array, AsArray(batch[1], batch.length));
  const auto& maps = static_cast<const arrow::MapArray&>(*map_array);
  arrow::Int64Builder positions(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(positions.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    std::optional<int64_t> found;
    if (maps.IsValid(row) && key_array->IsValid(row)) {
      ARROW_ASSIGN_OR_RAISE(auto key, key_array->GetScalar(row));
      for (int64_t i = maps.value_offset(row); i < maps.value_offset(row + 1) && !found; ++i) {
        ARROW_ASSIGN_OR_RAISE(auto candidate, maps.keys()->GetScalar(i));
        if (candidate->Equals(*key)) found = i;
      }
    }
    if (found) {
      positions.UnsafeAppend(*found);
    } else {
      positions.UnsafeAppendNull();
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto taken_positions, positions.Finish());
  ARROW_ASSIGN_OR_RAISE(auto values, cp::Take(*maps.items(), *taken_positions,
                                              cp::TakeOptions::Defaults(), ctx->exec_context()));
  out->value = values->data();
  return Status::OK();
}

Result<arrow::TypeHolder> MapItemType(cp::KernelContext*,
                                      const std::vector<arrow::TypeHolder>& in) {
  return static_cast<const arrow::MapType&>(*in[0].type).item_type();
}

Result<arrow::TypeHolder> ElementType(cp::KernelContext*,
                                      const std::vector<arrow::TypeHolder>& in) {
  return static_cast<const arrow::ListType&>(*in[0].type).value_type();
}

// The arguments first, first + step, first + 2 step, ... of `batch` laid out row after row:
// row r's values are those arguments' values at r, in argument order.
Result<std::shared_ptr<arrow::Array>> Interleave(cp::KernelContext* ctx, const cp::ExecSpan& batch,
                                                 int first, int step) {
  int64_t rows = batch.length;
  arrow::ArrayVector columns;
  for (int k = first; k < batch.num_values(); k += step) {
    ARROW_ASSIGN_OR_RAISE(auto column, AsArray(batch[k], rows));
    columns.push_back(std::move(column));
  }
  int64_t width = static_cast<int64_t>(columns.size());
  ARROW_ASSIGN_OR_RAISE(auto stacked, arrow::Concatenate(columns, ctx->memory_pool()));
  arrow::Int64Builder order(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(order.Reserve(rows * width));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t k = 0; k < width; ++k) order.UnsafeAppend(k * rows + r);
  }
  ARROW_ASSIGN_OR_RAISE(auto taken_order, order.Finish());
  return cp::Take(*stacked, *taken_order, cp::TakeOptions::Defaults(), ctx->exec_context());
}

// Offsets 0, width, 2 width, ... for `rows` nested values of `width` elements each.
Result<std::shared_ptr<arrow::Array>> EvenOffsets(cp::KernelContext* ctx, int64_t rows,
                                                  int64_t width) {
  arrow::Int32Builder offsets(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(offsets.Reserve(rows + 1));
  for (int64_t r = 0; r <= rows; ++r) offsets.UnsafeAppend(static_cast<int32_t>(r * width));
  return offsets.Finish();
}

Status MakeArrayExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  ARROW_ASSIGN_OR_RAISE(auto values, Interleave(ctx, batch, 0, 1));
  ARROW_ASSIGN_OR_RAISE(auto offsets, EvenOffsets(ctx, batch.length, batch.num_values()));
  ARROW_ASSIGN_OR_RAISE(auto lists,
                        arrow::ListArray::FromArrays(*offsets, *values, ctx->memory_pool()));
  out->value = lists->data();
  return Status::OK();
}

Result<arrow::TypeHolder> ArrayOfFirstType(cp::KernelContext*,
                                           const std::vector<arrow::TypeHolder>& in) {
  return arrow::list(in[0].GetSharedPtr());
}

// A map per row from the arguments read as key, value, key, value...; a NULL key fails with
// NULL_MAP_KEY and a key given twice in one row with DUPLICATED_MAP_KEY, as Spark's default
// (spark.sql.mapKeyDedupPolicy=EXCEPTION).
Status MakeMapExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  int64_t width = batch.num_values() / 2;
  ARROW_ASSIGN_OR_RAISE(auto keys, Interleave(ctx, batch, 0, 2));
  ARROW_ASSIGN_OR_RAISE(auto items, Interleave(ctx, batch, 1, 2));
  for (int64_t r = 0; r < batch.length; ++r) {
    for (int64_t k = 0; k < width; ++k) {
      if (keys->IsNull(r * width + k)) {
        return MakeError(arrow::StatusCode::Invalid, "NULL_MAP_KEY", "Cannot use null as map key.");
      }
      ARROW_ASSIGN_OR_RAISE(auto key, keys->GetScalar(r * width + k));
      for (int64_t earlier = 0; earlier < k; ++earlier) {
        ARROW_ASSIGN_OR_RAISE(auto other, keys->GetScalar(r * width + earlier));
        if (other->Equals(*key)) {
          return MakeError(arrow::StatusCode::Invalid, "DUPLICATED_MAP_KEY",
                           fmt::format("Duplicate map key {} was found, please check the input "
                                       "data. If you want to remove the duplicated keys, you can "
                                       "set \"spark.sql.mapKeyDedupPolicy\" to \"LAST_WIN\" so "
                                       "that the key inserted at last takes precedence.",
                                       key->ToString()));
        }
      }
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto offsets, EvenOffsets(ctx, batch.length, width));
  ARROW_ASSIGN_OR_RAISE(auto maps,
                        arrow::MapArray::FromArrays(offsets, keys, items, ctx->memory_pool()));
  out->value = maps->data();
  return Status::OK();
}

Result<arrow::TypeHolder> MapOfFirstTypes(cp::KernelContext*,
                                          const std::vector<arrow::TypeHolder>& in) {
  return arrow::map(in[0].GetSharedPtr(), in[1].GetSharedPtr());
}

Status AddKernel(cp::FunctionRegistry* registry, const std::string& name, cp::Arity arity,
                 std::vector<cp::InputType> inputs, cp::OutputType output, cp::ArrayKernelExec exec,
                 const std::string& summary) {
  auto function =
      std::make_shared<cp::ScalarFunction>(name, arity, cp::FunctionDoc(summary, "", {}));
  cp::ScalarKernel kernel(std::move(inputs), std::move(output), exec);
  if (arity.is_varargs) {
    std::vector<cp::InputType> least(arity.num_args, cp::InputType::Any());
    kernel.signature = cp::KernelSignature::Make(std::move(least), kernel.signature->out_type(),
                                                 /*is_varargs=*/true);
  }
  kernel.null_handling = cp::NullHandling::COMPUTED_NO_PREALLOCATE;
  kernel.mem_allocation = cp::MemAllocation::NO_PREALLOCATE;
  ARROW_RETURN_NOT_OK(function->AddKernel(std::move(kernel)));
  return registry->AddFunction(std::move(function), /*allow_overwrite=*/true);
}

}  // namespace

namespace kernels {

Status RegisterArrayKernels(cp::FunctionRegistry* registry) {
  ARROW_RETURN_NOT_OK(AddKernel(registry, "parley_array_element", cp::Arity::Ternary(),
                                {cp::InputType(arrow::Type::LIST), arrow::int32(), arrow::int32()},
                                cp::OutputType(ElementType), ArrayElementExec,
                                "An element of an array, as Spark indexes"));
  ARROW_RETURN_NOT_OK(AddKernel(registry, "parley_map_value", cp::Arity::Binary(),
                                {cp::InputType(arrow::Type::MAP), cp::InputType::Any()},
                                cp::OutputType(MapItemType), MapValueExec,
                                "The value of a map at a key"));
  ARROW_RETURN_NOT_OK(AddKernel(registry, "parley_make_map", cp::Arity::VarArgs(2),
                                {cp::InputType::Any()}, cp::OutputType(MapOfFirstTypes),
                                MakeMapExec, "A map of the arguments, per row"));
  return AddKernel(registry, "parley_make_array", cp::Arity::VarArgs(1), {cp::InputType::Any()},
                   cp::OutputType(ArrayOfFirstType), MakeArrayExec,
                   "An array of the arguments, per row");
}

}  // namespace kernels
}  // namespace parley
