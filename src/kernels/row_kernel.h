// Kernels written as a function of one row's values: RegisterRowFunction turns a stateless
// lambda `(In... values) -> std::optional<Out>` (or Result<std::optional<Out>> when it can fail)
// into an Arrow scalar function whose row is NULL where an input is NULL or the lambda returns
// nullopt. For the many built-in functions whose meaning is per row (string, hash and encoding
// functions); a function that must see NULL inputs writes its own kernel.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "arrow/array/builder_binary.h"
#include "arrow/array/builder_primitive.h"
#include "kernels/kernel_support.h"

namespace parley::kernels {

/// \brief The bytes of a BINARY value, as an input (a view) or an output (owned).
struct BytesView {
  std::string_view bytes;
};
struct Bytes {
  std::string bytes;
};

template <typename T>
struct RowValue;

template <>
struct RowValue<std::string_view> {
  using Reader = StringColumn;
  using Builder = arrow::StringBuilder;
  static std::shared_ptr<arrow::DataType> Type() { return arrow::utf8(); }
  static std::string_view Read(const Reader& reader, int64_t row) { return reader.Value(row); }
};
template <>
struct RowValue<BytesView> {
  using Reader = StringColumn;
  static std::shared_ptr<arrow::DataType> Type() { return arrow::binary(); }
  static BytesView Read(const Reader& reader, int64_t row) { return {reader.Value(row)}; }
};
template <>
struct RowValue<std::string> {
  using Builder = arrow::StringBuilder;
  static std::shared_ptr<arrow::DataType> Type() { return arrow::utf8(); }
  static Status Append(Builder* builder, const std::string& value) {
    return builder->Append(value);
  }
};
template <>
struct RowValue<Bytes> {
  using Builder = arrow::BinaryBuilder;
  static std::shared_ptr<arrow::DataType> Type() { return arrow::binary(); }
  static Status Append(Builder* builder, const Bytes& value) {
    return builder->Append(value.bytes);
  }
};
template <>
struct RowValue<bool> {
  using Builder = arrow::BooleanBuilder;
  static std::shared_ptr<arrow::DataType> Type() { return arrow::boolean(); }
  static Status Append(Builder* builder, bool value) { return builder->Append(value); }
};

/// Fixed-width numbers: int32_t, int64_t, double.
template <typename T>
struct RowValue {
  static_assert(std::is_arithmetic_v<T>, "a row value is a string, bytes, bool or number");
  using Reader = Column<T>;
  using Builder = typename arrow::CTypeTraits<T>::BuilderType;
  static std::shared_ptr<arrow::DataType> Type() { return arrow::CTypeTraits<T>::type_singleton(); }
  static T Read(const Reader& reader, int64_t row) { return reader.Value(row); }
  static Status Append(Builder* builder, T value) { return builder->Append(value); }
};

template <typename T>
struct IsResult : std::false_type {};
template <typename T>
struct IsResult<arrow::Result<T>> : std::true_type {};

template <typename Function, typename Out, typename... In, size_t... kIndex>
Status RowExecImpl(arrow::compute::KernelContext* ctx, const arrow::compute::ExecSpan& batch,
                   arrow::compute::ExecResult* out, std::index_sequence<kIndex...>) {
  Function function{};
  std::tuple<typename RowValue<In>::Reader...> readers{
      typename RowValue<In>::Reader(batch[kIndex])...};
  typename RowValue<Out>::Builder builder(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!(std::get<kIndex>(readers).IsValid(row) && ...)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    std::optional<Out> value;
    using Returned = decltype(function(RowValue<In>::Read(std::get<kIndex>(readers), row)...));
    if constexpr (IsResult<Returned>::value) {
      ARROW_ASSIGN_OR_RAISE(value, function(RowValue<In>::Read(std::get<kIndex>(readers), row)...));
    } else {
      value = function(RowValue<In>::Read(std::get<kIndex>(readers), row)...);
    }
    if (value.has_value()) {
      ARROW_RETURN_NOT_OK(RowValue<Out>::Append(&builder, *value));
    } else {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
    }
  }
  return FinishInto(&builder, out);
}

template <typename Function, typename Out, typename... In>
Status RowExec(arrow::compute::KernelContext* ctx, const arrow::compute::ExecSpan& batch,
               arrow::compute::ExecResult* out) {
  return RowExecImpl<Function, Out, In...>(ctx, batch, out, std::index_sequence_for<In...>{});
}

/// \brief Register `name` as the row function `Function` (a stateless lambda type) of inputs
/// `In...` (std::string_view for STRING, BytesView for BINARY, int32_t, int64_t, double) with
/// output `Out` (std::string, Bytes, bool or a number).
template <typename Out, typename... In, typename Function>
Status RegisterRowFunction(arrow::compute::FunctionRegistry* registry, const std::string& name,
                           Function, const std::string& summary) {
  static_assert(std::is_class_v<Function> && std::is_empty_v<Function>,
                "a row function is a lambda without captures (its kernel makes its own)");
  return AddFunction(registry, name, {arrow::compute::InputType(RowValue<In>::Type())...},
                     arrow::compute::OutputType(RowValue<Out>::Type()),
                     RowExec<Function, Out, In...>, summary);
}

}  // namespace parley::kernels
