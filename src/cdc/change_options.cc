// Parsing the options of a change read into a ChangelogInfo.
#include "cdc/change_options.h"

#include <fmt/format.h>

#include "arrow/scalar.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"

namespace parley {
namespace {

constexpr const char* kStartingVersion = "startingversion";
constexpr const char* kEndingVersion = "endingversion";
constexpr const char* kStartingTimestamp = "startingtimestamp";
constexpr const char* kEndingTimestamp = "endingtimestamp";
constexpr const char* kStartingBoundInclusive = "startingboundinclusive";
constexpr const char* kEndingBoundInclusive = "endingboundinclusive";
constexpr const char* kDeduplicationMode = "deduplicationmode";
constexpr const char* kComputeUpdates = "computeupdates";

Status CdcOptionError(std::string_view subclass, std::map<std::string, std::string> parameters,
                      std::string_view message) {
  return MakeErrorWithParameters(arrow::StatusCode::Invalid,
                                 fmt::format("INVALID_CDC_OPTION.{}", subclass),
                                 std::move(parameters), message);
}

std::optional<std::string> Find(const Options& options, const char* key) {
  auto it = options.find(key);
  if (it == options.end()) return std::nullopt;
  return it->second;
}

Result<bool> BooleanOption(const Options& options, const char* key, bool fallback) {
  auto value = Find(options, key);
  if (!value) return fallback;
  std::string lower = ToLowerAscii(*value);
  if (lower == "true") return true;
  if (lower == "false") return false;
  return MakeErrorWithParameters(
      arrow::StatusCode::Invalid, "INVALID_OPTION_VALUE", {{"option", key}, {"value", *value}},
      fmt::format("The value '{}' of the change read option {} is not a boolean (true or "
                  "false).",
                  *value, key));
}

Result<DeduplicationMode> ModeOption(const Options& options) {
  auto value = Find(options, kDeduplicationMode);
  if (!value) return DeduplicationMode::kDropCarryovers;
  std::string mode = ToLowerAscii(*value);
  if (mode == "none") return DeduplicationMode::kNone;
  if (mode == "dropcarryovers") return DeduplicationMode::kDropCarryovers;
  if (mode == "netchanges") return DeduplicationMode::kNetChanges;
  return CdcOptionError("INVALID_DEDUPLICATION_MODE", {{"mode", mode}},
                        fmt::format("Invalid deduplicationMode '{}'. Expected one of: none, "
                                    "dropCarryovers, netChanges.",
                                    mode));
}

// A timestamp option in microseconds since the epoch: text with an offset is absolute, text
// without one is a wall-clock time in the session time zone (UTC).
Result<int64_t> TimestampOption(const std::string& text) {
  auto type = arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
  auto parsed = arrow::Scalar::Parse(type, text);
  if (!parsed.ok()) {
    auto local = arrow::Scalar::Parse(arrow::timestamp(arrow::TimeUnit::MICRO), text);
    if (local.ok()) parsed = (*local)->CastTo(type);
  }
  if (!parsed.ok()) {
    return CdcOptionError("INVALID_TIMESTAMP", {{"timestamp", text}},
                          fmt::format("The timestamp '{}' of a change read cannot be parsed as "
                                      "a TIMESTAMP.",
                                      text));
  }
  return static_cast<const arrow::TimestampScalar&>(**parsed).value;
}

Result<ChangelogRange> RangeOptions(const Options& options) {
  auto starting_version = Find(options, kStartingVersion);
  auto ending_version = Find(options, kEndingVersion);
  auto starting_timestamp = Find(options, kStartingTimestamp);
  auto ending_timestamp = Find(options, kEndingTimestamp);
  ChangelogRange range;
  ARROW_ASSIGN_OR_RAISE(range.starting_bound_inclusive,
                        BooleanOption(options, kStartingBoundInclusive, true));
  ARROW_ASSIGN_OR_RAISE(range.ending_bound_inclusive,
                        BooleanOption(options, kEndingBoundInclusive, true));
  bool by_version = starting_version || ending_version;
  bool by_timestamp = starting_timestamp || ending_timestamp;
  if (by_version && by_timestamp) {
    return CdcOptionError("CONFLICTING_RANGE_TYPES", {},
                          "A change read cannot combine version options (startingVersion, "
                          "endingVersion) with timestamp options (startingTimestamp, "
                          "endingTimestamp).");
  }
  if (by_version) {
    if (!starting_version) {
      return CdcOptionError("MISSING_STARTING_VERSION", {},
                            "endingVersion is set but startingVersion is not.");
    }
    range.kind = ChangelogRange::Kind::kVersion;
    range.starting_version = *starting_version;
    range.ending_version = ending_version;
    return range;
  }
  if (by_timestamp) {
    if (!starting_timestamp) {
      return CdcOptionError("MISSING_STARTING_TIMESTAMP", {},
                            "endingTimestamp is set but startingTimestamp is not.");
    }
    range.kind = ChangelogRange::Kind::kTimestamp;
    ARROW_ASSIGN_OR_RAISE(range.starting_timestamp, TimestampOption(*starting_timestamp));
    if (ending_timestamp) {
      ARROW_ASSIGN_OR_RAISE(range.ending_timestamp, TimestampOption(*ending_timestamp));
    }
    return range;
  }
  range.kind = ChangelogRange::Kind::kUnbounded;
  return range;
}

}  // namespace

Result<ChangeRequest> ParseChangeOptions(const Options& options) {
  ChangeRequest request;
  for (const auto& [key, value] : options) request.scan_options[ToLowerAscii(key)] = value;
  const Options& lowered = request.scan_options;
  ARROW_ASSIGN_OR_RAISE(request.info.deduplication_mode, ModeOption(lowered));
  ARROW_ASSIGN_OR_RAISE(request.info.compute_updates,
                        BooleanOption(lowered, kComputeUpdates, false));
  ARROW_ASSIGN_OR_RAISE(request.info.range, RangeOptions(lowered));
  return request;
}

}  // namespace parley
