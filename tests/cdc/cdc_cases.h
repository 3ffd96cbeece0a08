// The runner of change-data scenarios written as JSON (the format of specs/cdc-cases.json): each
// case's raw change rows feed a changelog of the memory catalog with the case's flags, row
// identity and row version; the read runs through SQL (a CHANGES clause) or, for cases that give
// reader options, through the embedding API's change reader; the output is compared with the
// expected rows as a multiset, or the error with the expected condition and parameters.
//
// Conventions the format leaves open, fixed here:
//   - the changelog belongs to table `default.events` of catalog `cdc_test_catalog`, so its
//     default name is `cdc_test_catalog.events_changelog`; a case may name it with
//     `changelog_name`, and a case expecting an error with a `changelogName` parameter names it
//     that way;
//   - `options` are passed as the read's deduplicationMode and computeUpdates (reader options
//     given in the case win);
//   - a case with neither `range` nor `reader_options` is read with an unbounded range.
#pragma once

#include <string>
#include <vector>

#include "parley/connector/status.h"

namespace parley::testing {

/// \brief The outcome of one case.
struct CdcCaseOutcome {
  std::string name;
  bool passed = false;
  /// Why it failed (or what was skipped); empty when it passed.
  std::string detail;
};

/// \brief Run every case of the JSON file at `path`. Errors only for an unreadable file or
/// malformed JSON; a case that cannot run is a failed outcome.
Result<std::vector<CdcCaseOutcome>> RunCdcCaseFile(const std::string& path);

/// \brief Run the cases of a JSON array given as text.
Result<std::vector<CdcCaseOutcome>> RunCdcCases(const std::string& json_text);

}  // namespace parley::testing
