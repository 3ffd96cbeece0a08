// The options of a change read (spark.read.option(...).changes(t), and the CHANGES clause once
// turned into the same options): the range, the deduplication mode and computeUpdates.
//
//   startingVersion / endingVersion      a version range, bounds passed through as written
//   startingTimestamp / endingTimestamp  a timestamp range; text read as a TIMESTAMP in the
//                                        session time zone (UTC)
//   startingBoundInclusive / endingBoundInclusive   true | false (default true)
//   deduplicationMode                    none | dropCarryovers | netChanges (default
//                                        dropCarryovers), matched ignoring case
//   computeUpdates                       true | false (default false)
// Keys match ignoring case. No range option at all is an unbounded range. Every option, these
// included, is also handed to the connector's scan builder (keys lower-cased).
#pragma once

#include "parley/connector/changelog.h"

namespace parley {

/// \brief A change read as the user asked for it.
struct ChangeRequest {
  ChangelogInfo info;
  /// Every option, keys lower-cased, for Changelog::NewScanBuilder.
  Options scan_options;
};

/// \brief Parse the options of a change read. Errors (in this order):
/// INVALID_CDC_OPTION.INVALID_DEDUPLICATION_MODE, .CONFLICTING_RANGE_TYPES,
/// .MISSING_STARTING_VERSION, .MISSING_STARTING_TIMESTAMP, .INVALID_TIMESTAMP, and
/// INVALID_OPTION_VALUE for a boolean option that is neither true nor false.
Result<ChangeRequest> ParseChangeOptions(const Options& options);

}  // namespace parley
