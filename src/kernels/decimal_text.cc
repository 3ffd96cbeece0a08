// Digit-string arithmetic for Spark's decimal conversions: rounding a number given as digits
// and a power of ten, reading Java BigDecimal's text form, and plain decimal text.
#include "kernels/decimal_text.h"

#include <algorithm>

namespace parley {

std::optional<arrow::Decimal128> RoundDigitsToDecimal(std::string_view digits, int64_t exponent,
                                                      bool negative, int32_t precision,
                                                      int32_t scale) {
  size_t first = digits.find_first_not_of('0');
  if (first == std::string_view::npos) return arrow::Decimal128(0);
  digits.remove_prefix(first);
  // The unscaled value is digits x 10^shift, rounded half up to a whole number.
  const int64_t shift = exponent + scale;
  const auto count = static_cast<int64_t>(digits.size());
  std::string unscaled;
  if (shift >= 0) {
    if (count + shift > precision) return std::nullopt;
    unscaled = std::string(digits) + std::string(static_cast<size_t>(shift), '0');
  } else {
    const int64_t kept = count + shift;         // digits left of the rounding point
    if (kept < 0) return arrow::Decimal128(0);  // below half of the last digit kept
    unscaled = std::string(digits.substr(0, static_cast<size_t>(kept)));
    if (digits[static_cast<size_t>(kept)] >= '5') {
      int i = static_cast<int>(unscaled.size()) - 1;
      while (i >= 0 && unscaled[i] == '9') unscaled[i--] = '0';
      if (i >= 0) {
        ++unscaled[i];
      } else {
        unscaled.insert(unscaled.begin(), '1');
      }
    }
    size_t nonzero = unscaled.find_first_not_of('0');
    if (nonzero == std::string::npos) return arrow::Decimal128(0);
    unscaled = unscaled.substr(nonzero);
    if (static_cast<int64_t>(unscaled.size()) > precision) return std::nullopt;
  }
  auto value = arrow::Decimal128::FromString(unscaled);
  if (!value.ok()) return std::nullopt;
  return negative ? -*value : *value;
}

std::string_view TrimSparkWhitespace(std::string_view text) {
  auto blank = [](char c) { return static_cast<unsigned char>(c) <= 0x20; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}

std::optional<DecimalLiteral> ParseDecimalText(std::string_view text) {
  text = TrimSparkWhitespace(text);
  DecimalLiteral out;
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) out.negative = text[i++] == '-';
  bool any_digit = false;
  int64_t fraction_digits = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    out.digits.push_back(text[i]);
    any_digit = true;
  }
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      out.digits.push_back(text[i]);
      ++fraction_digits;
      any_digit = true;
    }
  }
  if (!any_digit) return std::nullopt;
  int64_t exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative_exponent = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative_exponent = text[i++] == '-';
    if (i == text.size()) return std::nullopt;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      // Far past any decimal's range; the value is then 0 or out of range either way.
      exponent = std::min<int64_t>(exponent * 10 + (text[i] - '0'), 1'000'000'000);
    }
    if (negative_exponent) exponent = -exponent;
  }
  if (i != text.size()) return std::nullopt;
  out.exponent = exponent - fraction_digits;
  return out;
}

std::string PlainDecimalText(const arrow::Decimal128& value, int32_t scale) {
  std::string digits = value.ToIntegerString();
  bool negative = !digits.empty() && digits[0] == '-';
  if (negative) digits.erase(0, 1);
  if (scale <= 0) {
    if (digits != "0") digits.append(static_cast<size_t>(-scale), '0');
    return negative ? "-" + digits : digits;
  }
  if (digits.size() <= static_cast<size_t>(scale)) {
    digits.insert(0, static_cast<size_t>(scale) + 1 - digits.size(), '0');
  }
  digits.insert(digits.size() - static_cast<size_t>(scale), ".");
  return negative ? "-" + digits : digits;
}

}  // namespace parley
