// Helpers for writing Parley's Arrow kernels (kernels.h): reading inputs by row whether they
// are arrays or scalars, taking rows, handing a built array back to Arrow, and registering a
// function.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "arrow/array/builder_base.h"
#include "arrow/array/builder_binary.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/array/util.h"
#include "arrow/compute/api_vector.h"
#include "arrow/compute/exec.h"
#include "arrow/compute/function.h"
#include "arrow/compute/kernel.h"
#include "arrow/compute/registry.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "parley/connector/status.h"

namespace parley::kernels {

/// \brief A fixed-width input (int32, date32, timestamp, decimal...) read by row: an array's
/// value at the row, or a scalar's at every row. Where to read is settled once, not per row.
template <typename T>
class Column {
 public:
  explicit Column(const arrow::compute::ExecValue& value) : value_(value) {
    if (value.is_scalar()) {
      const auto& scalar = static_cast<const arrow::internal::PrimitiveScalarBase&>(*value.scalar);
      scalar_ = static_cast<const T*>(scalar.data());
    } else {
      values_ = value.array.GetValues<T>(1);
    }
  }

  bool IsValid(int64_t row) const {
    return values_ == nullptr ? value_.scalar->is_valid : value_.array.IsValid(row);
  }
  const T& Value(int64_t row) const { return values_ != nullptr ? values_[row] : *scalar_; }

 private:
  const arrow::compute::ExecValue& value_;
  const T* values_ = nullptr;  // an array's values, offset applied
  const T* scalar_ = nullptr;  // a scalar's value
};

/// \brief A utf8 input read by row.
class StringColumn {
 public:
  explicit StringColumn(const arrow::compute::ExecValue& value) : value_(value) {}

  bool IsValid(int64_t row) const {
    return value_.is_scalar() ? value_.scalar->is_valid : value_.array.IsValid(row);
  }
  std::string_view Value(int64_t row) const {
    if (value_.is_scalar()) {
      return static_cast<const arrow::BaseBinaryScalar&>(*value_.scalar).view();
    }
    const int32_t* offsets = value_.array.GetValues<int32_t>(1);
    const char* data = reinterpret_cast<const char*>(value_.array.buffers[2].data);
    return std::string_view(data + offsets[row], offsets[row + 1] - offsets[row]);
  }

 private:
  const arrow::compute::ExecValue& value_;
};

/// \brief An output type resolver: the type of input `kIndex` (a marker argument whose type is
/// the result's, or the input a kernel keeps the type of).
template <size_t kIndex>
arrow::Result<arrow::TypeHolder> InputTypeAt(arrow::compute::KernelContext*,
                                             const std::vector<arrow::TypeHolder>& types) {
  return types[kIndex];
}

/// \brief Hand the builder's array to Arrow as the kernel's output.
inline Status FinishInto(arrow::ArrayBuilder* builder, arrow::compute::ExecResult* out) {
  std::shared_ptr<arrow::ArrayData> data;
  ARROW_RETURN_NOT_OK(builder->FinishInternal(&data));
  out->value = std::move(data);
  return Status::OK();
}

/// \brief A utf8 output of `text(value)` for each value of the fixed-width input 0 (null where
/// it is null).
template <typename T, typename Text>
Status WriteTextOfEach(const arrow::compute::ExecSpan& batch, arrow::compute::KernelContext* ctx,
                       arrow::compute::ExecResult* out, Text text) {
  Column<T> values(batch[0]);
  arrow::StringBuilder builder(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!values.IsValid(row)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
    } else {
      ARROW_RETURN_NOT_OK(builder.Append(text(values.Value(row))));
    }
  }
  return FinishInto(&builder, out);
}

/// \brief Register a scalar function `name` with one kernel that allocates its own output.
inline Status AddFunction(arrow::compute::FunctionRegistry* registry, const std::string& name,
                          std::vector<arrow::compute::InputType> inputs,
                          arrow::compute::OutputType output, arrow::compute::ArrayKernelExec exec,
                          const std::string& summary) {
  namespace cp = arrow::compute;
  int arity = static_cast<int>(inputs.size());
  auto function = std::make_shared<cp::ScalarFunction>(name, cp::Arity(arity),
                                                       cp::FunctionDoc(summary, "", {}));
  cp::ScalarKernel kernel(std::move(inputs), std::move(output), exec);
  kernel.null_handling = cp::NullHandling::COMPUTED_NO_PREALLOCATE;
  kernel.mem_allocation = cp::MemAllocation::NO_PREALLOCATE;
  ARROW_RETURN_NOT_OK(function->AddKernel(std::move(kernel)));
  return registry->AddFunction(std::move(function), /*allow_overwrite=*/true);
}

/// \brief Register a scalar function `name` of `arity` arguments of any type (for varargs, at
/// least arity.num_args), with one kernel that allocates its own output; `init` makes the
/// kernel's state from the call's options when given.
inline Status AddAnyInputFunction(arrow::compute::FunctionRegistry* registry,
                                  const std::string& name, arrow::compute::Arity arity,
                                  arrow::compute::OutputType output,
                                  arrow::compute::ArrayKernelExec exec, const std::string& summary,
                                  arrow::compute::NullHandling::type nulls =
                                      arrow::compute::NullHandling::COMPUTED_NO_PREALLOCATE,
                                  arrow::compute::KernelInit init = nullptr) {
  namespace cp = arrow::compute;
  auto function =
      std::make_shared<cp::ScalarFunction>(name, arity, cp::FunctionDoc(summary, "", {}));
  std::vector<cp::InputType> inputs(std::max(arity.num_args, 1), cp::InputType::Any());
  cp::ScalarKernel kernel(inputs, std::move(output), exec, std::move(init));
  if (arity.is_varargs) {
    kernel.signature =
        cp::KernelSignature::Make(inputs, kernel.signature->out_type(), /*is_varargs=*/true);
  }
  kernel.null_handling = nulls;
  kernel.mem_allocation = cp::MemAllocation::NO_PREALLOCATE;
  ARROW_RETURN_NOT_OK(function->AddKernel(std::move(kernel)));
  return registry->AddFunction(std::move(function), /*allow_overwrite=*/true);
}

/// \brief Argument `index` of a batch as an array of the batch's length (a scalar repeated).
inline Result<std::shared_ptr<arrow::Array>> ArgumentArray(const arrow::compute::ExecSpan& batch,
                                                           int index) {
  if (batch[index].is_scalar()) {
    return arrow::MakeArrayFromScalar(*batch[index].scalar, batch.length);
  }
  return batch[index].array.ToArray();
}

/// \brief The values at `rows` of `values`, a negative row a NULL.
inline Result<std::shared_ptr<arrow::Array>> TakeRows(const std::shared_ptr<arrow::Array>& values,
                                                      const std::vector<int64_t>& rows) {
  arrow::Int64Builder builder;
  ARROW_RETURN_NOT_OK(builder.Reserve(static_cast<int64_t>(rows.size())));
  for (int64_t row : rows) {
    if (row < 0) {
      builder.UnsafeAppendNull();
    } else {
      builder.UnsafeAppend(row);
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto indices, builder.Finish());
  ARROW_ASSIGN_OR_RAISE(auto taken, arrow::compute::Take(values, indices));
  return taken.make_array();
}

/// \brief One kernel of a function with several: its input types, output and exec.
struct KernelSpec {
  std::vector<arrow::compute::InputType> inputs;
  arrow::compute::OutputType output;
  arrow::compute::ArrayKernelExec exec;
};

/// \brief Register a scalar function `name` with a kernel per input signature in `kernels`
/// (all of one arity), each allocating its own output.
inline Status AddFunctionKernels(arrow::compute::FunctionRegistry* registry,
                                 const std::string& name, const std::string& summary,
                                 std::vector<KernelSpec> kernels) {
  namespace cp = arrow::compute;
  int arity = static_cast<int>(kernels.front().inputs.size());
  auto function = std::make_shared<cp::ScalarFunction>(name, cp::Arity(arity),
                                                       cp::FunctionDoc(summary, "", {}));
  for (auto& spec : kernels) {
    cp::ScalarKernel kernel(std::move(spec.inputs), std::move(spec.output), spec.exec);
    kernel.null_handling = cp::NullHandling::COMPUTED_NO_PREALLOCATE;
    kernel.mem_allocation = cp::MemAllocation::NO_PREALLOCATE;
    ARROW_RETURN_NOT_OK(function->AddKernel(std::move(kernel)));
  }
  return registry->AddFunction(std::move(function), /*allow_overwrite=*/true);
}

/// \brief Register a scalar function `name` with one fixed-width kernel whose output Arrow
/// allocates, with a row null exactly where an input is null: the kernel writes the values of
/// the valid rows into the output span.
inline Status AddPreallocatedFunction(arrow::compute::FunctionRegistry* registry,
                                      const std::string& name,
                                      std::vector<arrow::compute::InputType> inputs,
                                      arrow::compute::OutputType output,
                                      arrow::compute::ArrayKernelExec exec,
                                      const std::string& summary) {
  namespace cp = arrow::compute;
  int arity = static_cast<int>(inputs.size());
  auto function = std::make_shared<cp::ScalarFunction>(name, cp::Arity(arity),
                                                       cp::FunctionDoc(summary, "", {}));
  cp::ScalarKernel kernel(std::move(inputs), std::move(output), exec);
  kernel.null_handling = cp::NullHandling::INTERSECTION;
  kernel.mem_allocation = cp::MemAllocation::PREALLOCATE;
  ARROW_RETURN_NOT_OK(function->AddKernel(std::move(kernel)));
  return registry->AddFunction(std::move(function), /*allow_overwrite=*/true);
}

/// \brief Registration of each family's kernels (datetime_kernels.cc, string_kernels.cc,
/// decimal_kernels.cc, math_kernels.cc, array_kernels.cc).
Status RegisterDatetimeKernels(arrow::compute::FunctionRegistry* registry);
Status RegisterStringKernels(arrow::compute::FunctionRegistry* registry);
Status RegisterDecimalKernels(arrow::compute::FunctionRegistry* registry);
/// \brief hash_parley_decimal_sum and parley_decimal_sum (decimal_sum_kernel.cc): the grouped
/// and ungrouped SUM of a decimal.
Status RegisterDecimalSumKernel(arrow::compute::FunctionRegistry* registry);
/// \brief Spark's error for a decimal SUM that leaves its type: ARITHMETIC_OVERFLOW.
Status DecimalSumOverflow();
/// \brief hash_parley_checked_sum and parley_checked_sum (checked_sum_kernel.cc): the grouped
/// and ungrouped SUM of an integral column as BIGINT, failing with ARITHMETIC_OVERFLOW.
Status RegisterCheckedSumKernels(arrow::compute::FunctionRegistry* registry);
/// \brief parley_float_to_integral, parley_float_to_decimal and parley_decimal_text
/// (numeric_cast_kernels.cc).
Status RegisterNumericCastKernels(arrow::compute::FunctionRegistry* registry);
/// \brief parley_remainder and parley_pmod (remainder_kernels.cc): Spark's % and pmod of two
/// integers or floating-point values of one type.
Status RegisterRemainderKernels(arrow::compute::FunctionRegistry* registry);
/// \brief Spark's error for a remainder by zero: REMAINDER_BY_ZERO.
Status RemainderByZeroError();
/// \brief parley_string_to_{integral,floating,decimal,boolean,date} (string_cast_kernels.cc).
Status RegisterStringCastKernels(arrow::compute::FunctionRegistry* registry);
/// Casts between timestamps and text or numbers (timestamp_cast_kernels.cc).
Status RegisterTimestampCastKernels(arrow::compute::FunctionRegistry* registry);
Status RegisterMathKernels(arrow::compute::FunctionRegistry* registry);
/// \brief parley_cbrt, parley_rint, parley_cot, parley_sec, parley_csc, parley_degrees,
/// parley_radians, parley_hypot (math_double_kernels.cc): Java's Math on doubles.
Status RegisterMathDoubleKernels(arrow::compute::FunctionRegistry* registry);
/// \brief parley_factorial, parley_bin, parley_hex_*, parley_unhex, parley_conv, the shifts,
/// parley_bit_count and parley_bit_get (integral_kernels.cc).
Status RegisterIntegralKernels(arrow::compute::FunctionRegistry* registry);
/// \brief The per-row string, encoding and digest functions of text_kernels.cc.
Status RegisterTextKernels(arrow::compute::FunctionRegistry* registry);
Status RegisterArrayKernels(arrow::compute::FunctionRegistry* registry);
/// \brief parley_encode and parley_decode (charset_kernels.cc).
Status RegisterCharsetKernels(arrow::compute::FunctionRegistry* registry);
/// \brief parley_map_from_arrays, parley_map_from_entries, parley_map_concat and
/// parley_str_to_map (map_kernels.cc).
Status RegisterMapKernels(arrow::compute::FunctionRegistry* registry);
/// \brief parley_format_datetime, parley_parse_datetime and parley_next_day
/// (datetime_pattern_kernels.cc).
Status RegisterDatetimePatternKernels(arrow::compute::FunctionRegistry* registry);
/// \brief parley_get_json_object, parley_json_field, parley_json_array_length and
/// parley_json_object_keys (json_kernels.cc).
Status RegisterJsonKernels(arrow::compute::FunctionRegistry* registry);
/// \brief parley_from_json and parley_to_json (json_convert_kernels.cc).
Status RegisterJsonConvertKernels(arrow::compute::FunctionRegistry* registry);
/// \brief The vector functions of vector_kernels.cc (parley_vector_inner_product, ...).
Status RegisterVectorKernels(arrow::compute::FunctionRegistry* registry);
/// \brief parley_regexp_extract_all and parley_char_position (regexp_kernels.cc).
Status RegisterRegexpKernels(arrow::compute::FunctionRegistry* registry);
/// \brief parley_arrays_zip (arrays_zip_kernel.cc).
Status RegisterArraysZipKernel(arrow::compute::FunctionRegistry* registry);
/// \brief parley_sequence (sequence_kernel.cc).
Status RegisterSequenceKernel(arrow::compute::FunctionRegistry* registry);
/// \brief parley_hash and parley_xxhash64 (hash_kernels.cc).
Status RegisterHashKernels(arrow::compute::FunctionRegistry* registry);
/// \brief The per-row array functions of array_row_kernels.cc (parley_array_contains, ...).
Status RegisterArrayRowKernels(arrow::compute::FunctionRegistry* registry);

}  // namespace parley::kernels
