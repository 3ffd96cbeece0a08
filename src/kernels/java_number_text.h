// Floating-point numbers as Spark writes them as text (Java's Double.toString and
// Float.toString), for query results and for CAST(... AS STRING).
#pragma once

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>

namespace parley {

/// \brief `value` as Java's Double.toString (or Float.toString for a float) writes it: the
/// shortest digits that read back as the value, plain when 1e-3 <= |value| < 1e7 (`0.001`,
/// `1234567.0`), else in scientific notation (`1.0E7`, `1.0E-4`); `NaN`, `Infinity`,
/// `-Infinity`, `0.0`, `-0.0`.
template <typename T>
std::string JavaFloatingPointText(T value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";

  // to_chars in scientific form yields `[-]d[.ddd]e(+|-)xx` with the shortest digits.
  char buffer[64];
  char* end =
      std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific).ptr;
  std::string_view text(buffer, end - buffer);
  std::string out;
  if (text.front() == '-') {
    out.push_back('-');
    text.remove_prefix(1);
  }
  size_t e_pos = text.find('e');
  std::string digits;
  for (char c : text.substr(0, e_pos)) {
    if (c != '.') digits.push_back(c);
  }
  std::string_view exponent_text = text.substr(e_pos + 1);
  bool negative_exponent = exponent_text.front() == '-';
  exponent_text.remove_prefix(1);  // to_chars always writes the exponent's sign
  int exponent = 0;
  std::from_chars(exponent_text.data(), exponent_text.data() + exponent_text.size(), exponent);
  if (negative_exponent) exponent = -exponent;

  // With shortest digits, 1e-3 <= |value| < 1e7 holds exactly when the exponent is in [-3, 6].
  if (exponent >= 0 && exponent < 7) {
    size_t integer_digits = static_cast<size_t>(exponent) + 1;
    if (digits.size() <= integer_digits) {
      out += digits;
      out.append(integer_digits - digits.size(), '0');
      out += ".0";
    } else {
      out.append(digits, 0, integer_digits);
      out.push_back('.');
      out.append(digits, integer_digits);
    }
  } else if (exponent < 0 && exponent >= -3) {
    out += "0.";
    out.append(static_cast<size_t>(-exponent - 1), '0');
    out += digits;
  } else {
    out.push_back(digits[0]);
    out.push_back('.');
    out += digits.size() > 1 ? digits.substr(1) : "0";
    out += fmt::format("E{}", exponent);
  }
  return out;
}

}  // namespace parley
