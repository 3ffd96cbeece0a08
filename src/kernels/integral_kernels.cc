// Functions of integers and their bits, as Spark computes them: factorial (NULL outside 0 to
// 20), bin and hex of a BIGINT's two's complement, hex and unhex of bytes, conv between bases
// (Spark's NumberConverter: unsigned 64-bit, a negative target base prints signed), the shifts
// with Java's masking of the distance, bit_count of the sign-extended value and bit_get.
#include <fmt/format.h>

#include <array>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>

#include "arrow/array/builder_binary.h"
#include "arrow/array/builder_primitive.h"
#include "kernels/kernel_support.h"
#include "kernels/kernels.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using kernels::Column;
using kernels::StringColumn;

constexpr char kDigits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

// The digits of `value` read as unsigned in base `radix` (2 to 36), most significant first.
std::string UnsignedDigits(uint64_t value, uint64_t radix) {
  std::string digits;
  do {
    digits.insert(digits.begin(), kDigits[value % radix]);
    value /= radix;
  } while (value != 0);
  return digits;
}

Status FactorialExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  arrow::Int64Builder builder(ctx->memory_pool());
  return kernels::MapEach<int32_t>(batch, &builder, out, [](int32_t n) -> std::optional<int64_t> {
    if (n < 0 || n > 20) return std::nullopt;
    int64_t product = 1;
    for (int32_t i = 2; i <= n; ++i) product *= i;
    return product;
  });
}

template <uint64_t kRadix>
Status DigitsExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  return kernels::WriteTextOfEach<int64_t>(batch, ctx, out, [](int64_t value) {
    return UnsignedDigits(static_cast<uint64_t>(value), kRadix);
  });
}

Status HexOfBytesExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  StringColumn values(batch[0]);
  arrow::StringBuilder builder(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  std::string text;
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!values.IsValid(row)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    text.clear();
    for (unsigned char byte : values.Value(row)) {
      text.push_back(kDigits[byte >> 4]);
      text.push_back(kDigits[byte & 0xF]);
    }
    ARROW_RETURN_NOT_OK(builder.Append(text));
  }
  return kernels::FinishInto(&builder, out);
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// unhex: NULL for a character that is not a hex digit; an odd count reads as if led by '0'.
Status UnhexExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  StringColumn values(batch[0]);
  arrow::BinaryBuilder builder(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  std::string bytes;
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!values.IsValid(row)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    std::string_view text = values.Value(row);
    bytes.clear();
    bool valid = true;
    size_t i = 0;
    if (text.size() % 2 == 1) {
      int low = HexValue(text[0]);
      valid = low >= 0;
      bytes.push_back(static_cast<char>(low));
      i = 1;
    }
    for (; valid && i < text.size(); i += 2) {
      int high = HexValue(text[i]);
      int low = HexValue(text[i + 1]);
      valid = high >= 0 && low >= 0;
      bytes.push_back(static_cast<char>(high * 16 + low));
    }
    if (valid) {
      ARROW_RETURN_NOT_OK(builder.Append(bytes));
    } else {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
    }
  }
  return kernels::FinishInto(&builder, out);
}

Status ConvOverflow() {
  return MakeError(arrow::StatusCode::Invalid, "ARITHMETIC_OVERFLOW",
                   "Overflow in function conv(). If necessary set \"spark.sql.ansi.enabled\" to "
                   "\"false\" to bypass this error.");
}

// conv(text, from, to) as Spark's NumberConverter: the digits after an optional '-' are read
// in base `from` up to the first that is not one, as an unsigned 64-bit value (ARITHMETIC_OVERFLOW
// past it); a '-' negates it for a positive `to`; a negative `to` prints the value signed.
Result<std::optional<std::string>> Convert(std::string_view text, int32_t from, int32_t to) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  int32_t to_radix = to < 0 ? -to : to;
  if (from < 2 || from > 36 || to_radix < 2 || to_radix > 36 || text.empty()) {
    return std::nullopt;
  }
  bool negative = text.front() == '-';
  if (negative) text.remove_prefix(1);
  const uint64_t radix = static_cast<uint64_t>(from);
  uint64_t value = 0;
  for (char c : text) {
    int digit = std::isdigit(static_cast<unsigned char>(c))   ? c - '0'
                : std::isalpha(static_cast<unsigned char>(c)) ? std::toupper(c) - 'A' + 10
                                                              : -1;
    if (digit < 0 || digit >= from) break;
    if (value > (UINT64_MAX - static_cast<uint64_t>(digit)) / radix) return ConvOverflow();
    value = value * radix + static_cast<uint64_t>(digit);
  }
  // Negation as Java's, two's complement without overflow.
  auto negate = [](int64_t v) { return static_cast<int64_t>(0 - static_cast<uint64_t>(v)); };
  auto signed_value = static_cast<int64_t>(value);
  if (negative && to > 0) signed_value = signed_value < 0 ? -1 : negate(signed_value);
  if (to < 0 && signed_value < 0) {
    signed_value = negate(signed_value);
    negative = true;
  }
  std::string digits = UnsignedDigits(static_cast<uint64_t>(signed_value), to_radix);
  return (negative && to < 0 ? "-" : "") + digits;
}

Status ConvExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  StringColumn values(batch[0]);
  Column<int32_t> froms(batch[1]);
  Column<int32_t> tos(batch[2]);
  arrow::StringBuilder builder(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!values.IsValid(row) || !froms.IsValid(row) || !tos.IsValid(row)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    ARROW_ASSIGN_OR_RAISE(auto text, Convert(values.Value(row), froms.Value(row), tos.Value(row)));
    if (text.has_value()) {
      ARROW_RETURN_NOT_OK(builder.Append(*text));
    } else {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
    }
  }
  return kernels::FinishInto(&builder, out);
}

enum class Shift { kLeft, kRight, kRightUnsigned };

// A shift of a 32- or 64-bit integer by a distance Java masks to the width (x << 33 is x << 1
// for an INT).
template <typename T, Shift kShift>
Status ShiftExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  using Unsigned = std::make_unsigned_t<T>;
  typename arrow::CTypeTraits<T>::BuilderType builder(ctx->memory_pool());
  return kernels::MapEachPair<T, int32_t>(
      batch, &builder, out, [](T value, int32_t distance) -> std::optional<T> {
        const int bits = static_cast<int>(sizeof(T) * 8);
        const int by = distance & (bits - 1);
        switch (kShift) {
          case Shift::kLeft: return static_cast<T>(static_cast<Unsigned>(value) << by);
          case Shift::kRight: return static_cast<T>(value >> by);
          case Shift::kRightUnsigned: return static_cast<T>(static_cast<Unsigned>(value) >> by);
        }
        return std::nullopt;
      });
}

Status BitCountExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  arrow::Int32Builder builder(ctx->memory_pool());
  return kernels::MapEach<int64_t>(batch, &builder, out, [](int64_t value) {
    return std::optional<int32_t>(__builtin_popcountll(static_cast<uint64_t>(value)));
  });
}

// bit_get(value, position, width): the bit at `position` of a `width`-bit value;
// INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE for a position outside [0, width).
Status BitGetExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  Column<int64_t> values(batch[0]);
  Column<int32_t> positions(batch[1]);
  Column<int32_t> widths(batch[2]);
  arrow::Int8Builder builder(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    if (!values.IsValid(row) || !positions.IsValid(row)) {
      builder.UnsafeAppendNull();
      continue;
    }
    int32_t position = positions.Value(row);
    int32_t width = widths.Value(row);
    if (position < 0 || position >= width) {
      return MakeError(arrow::StatusCode::Invalid, "INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE",
                       fmt::format("The value of parameter(s) `pos` in `bit_get` is invalid: "
                                   "expects an integer value in [0, {}), but got {}.",
                                   width, position));
    }
    builder.UnsafeAppend(
        static_cast<int8_t>((static_cast<uint64_t>(values.Value(row)) >> position) & 1));
  }
  return kernels::FinishInto(&builder, out);
}

}  // namespace

namespace kernels {

Status RegisterIntegralKernels(cp::FunctionRegistry* registry) {
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_factorial", {arrow::int32()}, arrow::int64(),
                                  FactorialExec, "Spark's factorial"));
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_bin", {arrow::int64()}, arrow::utf8(),
                                  DigitsExec<2>, "Binary digits of a BIGINT"));
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_hex_integer", {arrow::int64()}, arrow::utf8(),
                                  DigitsExec<16>, "Hex digits of a BIGINT"));
  ARROW_RETURN_NOT_OK(AddFunctionKernels(registry, "parley_hex_bytes", "Hex digits of bytes",
                                         {{{arrow::utf8()}, arrow::utf8(), HexOfBytesExec},
                                          {{arrow::binary()}, arrow::utf8(), HexOfBytesExec}}));
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_unhex", {arrow::utf8()}, arrow::binary(),
                                  UnhexExec, "Bytes of hex digits"));
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_conv",
                                  {arrow::utf8(), arrow::int32(), arrow::int32()}, arrow::utf8(),
                                  ConvExec, "Spark's conv"));
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_bit_count", {arrow::int64()}, arrow::int32(),
                                  BitCountExec, "Set bits of a BIGINT"));
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_bit_get",
                                  {arrow::int64(), arrow::int32(), arrow::int32()}, arrow::int8(),
                                  BitGetExec, "A bit of an integer"));
  struct ShiftKernels {
    const char* name;
    cp::ArrayKernelExec of_int;
    cp::ArrayKernelExec of_bigint;
  };
  const ShiftKernels shifts[] = {
      {"parley_shift_left", ShiftExec<int32_t, Shift::kLeft>, ShiftExec<int64_t, Shift::kLeft>},
      {"parley_shift_right", ShiftExec<int32_t, Shift::kRight>, ShiftExec<int64_t, Shift::kRight>},
      {"parley_shift_right_unsigned", ShiftExec<int32_t, Shift::kRightUnsigned>,
       ShiftExec<int64_t, Shift::kRightUnsigned>}};
  for (const auto& shift : shifts) {
    ARROW_RETURN_NOT_OK(
        AddFunctionKernels(registry, shift.name, "Java's shift of an integer",
                           {{{arrow::int32(), arrow::int32()}, arrow::int32(), shift.of_int},
                            {{arrow::int64(), arrow::int32()}, arrow::int64(), shift.of_bigint}}));
  }
  return Status::OK();
}

}  // namespace kernels
}  // namespace parley
