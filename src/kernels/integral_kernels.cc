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

#include "kernels/kernels.h"
#include "kernels/row_kernel.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using kernels::Bytes;
using kernels::BytesView;

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

std::optional<int64_t> Factorial(int32_t n) {
  if (n < 0 || n > 20) return std::nullopt;
  int64_t product = 1;
  for (int32_t i = 2; i <= n; ++i) product *= i;
  return product;
}

std::string HexOfBytes(std::string_view bytes) {
  std::string text;
  for (unsigned char byte : bytes) {
    text.push_back(kDigits[byte >> 4]);
    text.push_back(kDigits[byte & 0xF]);
  }
  return text;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// unhex: NULL for a character that is not a hex digit; an odd count reads as if led by '0'.
std::optional<kernels::Bytes> Unhex(std::string_view text) {
  std::string bytes;
  size_t i = 0;
  if (text.size() % 2 == 1) {
    int low = HexValue(text[0]);
    if (low < 0) return std::nullopt;
    bytes.push_back(static_cast<char>(low));
    i = 1;
  }
  for (; i < text.size(); i += 2) {
    int high = HexValue(text[i]);
    int low = HexValue(text[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    bytes.push_back(static_cast<char>(high * 16 + low));
  }
  return kernels::Bytes{std::move(bytes)};
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

enum class Shift { kLeft, kRight, kRightUnsigned };

// A shift of a 32- or 64-bit integer by a distance Java masks to the width (x << 33 is x << 1
// for an INT).
template <typename T, Shift kShift>
T Shifted(T value, int32_t distance) {
  using Unsigned = std::make_unsigned_t<T>;
  const int by = distance & static_cast<int>(sizeof(T) * 8 - 1);
  switch (kShift) {
    case Shift::kLeft: return static_cast<T>(static_cast<Unsigned>(value) << by);
    case Shift::kRight: return static_cast<T>(value >> by);
    case Shift::kRightUnsigned: return static_cast<T>(static_cast<Unsigned>(value) >> by);
  }
  return value;
}

// bit_get(value, position, width): the bit at `position` of a `width`-bit value;
// INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE for a position outside [0, width).
Result<std::optional<int8_t>> BitGet(int64_t value, int32_t position, int32_t width) {
  if (position < 0 || position >= width) {
    return MakeError(arrow::StatusCode::Invalid, "INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE",
                     fmt::format("The value of parameter(s) `pos` in `bit_get` is invalid: "
                                 "expects an integer value in [0, {}), but got {}.",
                                 width, position));
  }
  return std::optional<int8_t>((static_cast<uint64_t>(value) >> position) & 1);
}

// A shift function with its INT and BIGINT kernels.
template <Shift kShift>
Status AddShift(cp::FunctionRegistry* registry, const std::string& name) {
  auto of_int = &kernels::RowExec<decltype([](int32_t v, int32_t d) {
                                    return std::optional(Shifted<int32_t, kShift>(v, d));
                                  }),
                                  int32_t, int32_t, int32_t>;
  auto of_bigint = &kernels::RowExec<decltype([](int64_t v, int32_t d) {
                                       return std::optional(Shifted<int64_t, kShift>(v, d));
                                     }),
                                     int64_t, int64_t, int32_t>;
  return kernels::AddFunctionKernels(
      registry, name, "Java's shift of an integer",
      {{{arrow::int32(), arrow::int32()}, arrow::int32(), of_int},
       {{arrow::int64(), arrow::int32()}, arrow::int64(), of_bigint}});
}

}  // namespace

namespace kernels {

Status RegisterIntegralKernels(cp::FunctionRegistry* registry) {
  using SV = std::string_view;
  // Template arguments have commas, which a macro argument cannot: register, then check.
  const Status registered[] = {
      RegisterRowFunction<int64_t, int32_t>(
          registry, "parley_factorial", [](int32_t n) { return Factorial(n); },
          "Spark's factorial"),
      RegisterRowFunction<std::string, int64_t>(
          registry, "parley_bin",
          [](int64_t v) { return std::optional(UnsignedDigits(static_cast<uint64_t>(v), 2)); },
          "Binary digits of a BIGINT"),
      RegisterRowFunction<std::string, int64_t>(
          registry, "parley_hex_integer",
          [](int64_t v) { return std::optional(UnsignedDigits(static_cast<uint64_t>(v), 16)); },
          "Hex digits of a BIGINT"),
      RegisterRowFunction<std::string, BytesView>(
          registry, "parley_hex_bytes",
          [](BytesView value) { return std::optional(HexOfBytes(value.bytes)); },
          "Hex digits of bytes"),
      RegisterRowFunction<Bytes, SV>(
          registry, "parley_unhex", [](SV text) { return Unhex(text); }, "Bytes of hex digits"),
      RegisterRowFunction<std::string, SV, int32_t, int32_t>(
          registry, "parley_conv",
          [](SV text, int32_t from, int32_t to) { return Convert(text, from, to); },
          "Spark's conv"),
      RegisterRowFunction<int32_t, int64_t>(
          registry, "parley_bit_count",
          [](int64_t v) {
            return std::optional<int32_t>(__builtin_popcountll(static_cast<uint64_t>(v)));
          },
          "Set bits of a BIGINT"),
      RegisterRowFunction<int8_t, int64_t, int32_t, int32_t>(
          registry, "parley_bit_get",
          [](int64_t v, int32_t position, int32_t width) { return BitGet(v, position, width); },
          "A bit of an integer"),
      AddShift<Shift::kLeft>(registry, "parley_shift_left"),
      AddShift<Shift::kRight>(registry, "parley_shift_right"),
      AddShift<Shift::kRightUnsigned>(registry, "parley_shift_right_unsigned"),
  };
  for (const auto& status : registered) ARROW_RETURN_NOT_OK(status);
  return Status::OK();
}

}  // namespace kernels
}  // namespace parley
