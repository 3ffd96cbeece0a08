// Spark's datetime patterns (the letters of date_format, to_timestamp, from_unixtime and the
// JSON and CSV options): a pattern compiled once, then used to write an instant as text or to
// read text as an instant. Instants are microseconds since the epoch, written and read as UTC
// wall-clock time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parley/connector/status.h"

namespace parley::kernels {

/// \brief One part of a pattern: a run of one letter, literal text, or an optional section.
struct PatternToken {
  enum class Kind { kField, kLiteral, kOptional };
  Kind kind = Kind::kLiteral;
  char letter = 0;                    // kField
  int count = 0;                      // kField: how many times the letter repeats
  std::string literal;                // kLiteral
  std::vector<PatternToken> section;  // kOptional
};

/// \brief A compiled datetime pattern.
class DatetimePattern {
 public:
  /// What the pattern is for: some letters (day-of-week names, F) only write.
  enum class Use { kFormat, kParse };

  /// \brief `pattern` compiled, or Spark's error for it: INVALID_DATETIME_PATTERN (a letter
  /// Spark does not know, reserved characters, an unclosed quote) or
  /// INCONSISTENT_BEHAVIOR_CROSS_VERSION (week-based letters, a letter repeated more often
  /// than it allows, a letter the use does not allow).
  static Result<DatetimePattern> Compile(std::string_view pattern, Use use);

  /// \brief The instant `micros` (since the epoch) written by the pattern.
  std::string Format(int64_t micros) const;

  /// \brief The instant `text` names, with Spark's defaults for the fields the pattern lacks
  /// (1970-01-01 00:00:00). Text that does not match fails with the detail of
  /// CANNOT_PARSE_TIMESTAMP ("Text '...' could not be parsed at index 3") as an Invalid status
  /// without a condition: the caller names the condition and the try_ function.
  Result<int64_t> Parse(std::string_view text) const;

  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::vector<PatternToken> tokens_;
};

/// \brief Spark's CANNOT_PARSE_TIMESTAMP for a parse failure `detail` (from Parse), naming
/// `try_function` (try_to_timestamp, try_to_date...) as the way to get NULL instead.
Status CannotParseTimestamp(const Status& detail, std::string_view try_function);

}  // namespace parley::kernels
