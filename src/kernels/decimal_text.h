// Decimal values from and to text, as Spark converts them: a number's digits rounded half up to
// a decimal type, and a decimal written plainly (never in scientific notation).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "arrow/util/decimal.h"

namespace parley {

/// \brief The unscaled value of `digits` x 10^`exponent` (negated when `negative`) at `scale`
/// digits of fraction, rounded half away from zero; nothing when it needs more than `precision`
/// digits. `digits` holds decimal digits only (leading zeros allowed).
std::optional<arrow::Decimal128> RoundDigitsToDecimal(std::string_view digits, int64_t exponent,
                                                      bool negative, int32_t precision,
                                                      int32_t scale);

/// \brief A number's text as Java's BigDecimal reads it, trimmed of spaces and control
/// characters: [+-] digits [. digits] [(e|E) [+-] digits], with a digit before or after the
/// point. Nothing for any other text.
struct DecimalLiteral {
  std::string digits;    // without the point, leading zeros kept
  int64_t exponent = 0;  // the value is digits x 10^exponent
  bool negative = false;
};
std::optional<DecimalLiteral> ParseDecimalText(std::string_view text);

/// \brief `value` at `scale` written plainly, as Spark casts a decimal to a string: `0.00`,
/// `-12.50`, `100` (Arrow writes small values in scientific notation, `0E-37`).
std::string PlainDecimalText(const arrow::Decimal128& value, int32_t scale);

/// \brief `text` without the leading and trailing characters Spark trims before it converts a
/// string (spaces and control characters, code points up to U+0020).
std::string_view TrimSparkWhitespace(std::string_view text);

}  // namespace parley
