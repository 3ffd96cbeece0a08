// JSON text as Spark's JSON functions read it: a document tree that keeps what a re-written
// value needs (the order and repeats of an object's keys, an integer's digits however long),
// parsed leniently as Spark's reader is (text after the first value is ignored), and written
// back compactly as Spark writes it (floating-point numbers as Java prints a double).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parley::kernels {

/// \brief One JSON value.
struct JsonValue {
  enum class Kind { kNull, kBoolean, kInteger, kFloat, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  std::string text;               // a number's text as written; kString: the string
  double number = 0;              // kFloat, and kInteger as a double
  std::vector<std::string> keys;  // kObject: the keys, in order, repeats kept
  std::vector<JsonValue> items;   // kArray: the elements; kObject: the values of `keys`

  /// \brief The value of the first `key` of an object; nullptr when there is none.
  const JsonValue* Field(std::string_view key) const;
};

/// \brief The first JSON value of `text`; nullopt when it does not start with one.
std::optional<JsonValue> ParseJson(std::string_view text);

/// \brief `value` as compact JSON text.
std::string WriteJson(const JsonValue& value);

/// \brief Append `text` as a JSON string literal (quoted and escaped) to `out`.
void AppendJsonString(std::string_view text, std::string* out);

}  // namespace parley::kernels
