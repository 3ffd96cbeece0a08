// Default behaviour of the change data API: a changelog without row identity or row version, and
// a catalog that serves no changelogs, say so with an error naming the object.
#include "parley/connector/changelog.h"

#include <fmt/format.h>

#include "parley/connector/catalog.h"

namespace parley {

std::string ChangelogRange::ToString() const {
  auto bracket = [](bool inclusive, bool start) {
    return inclusive ? (start ? "[" : "]") : (start ? "(" : ")");
  };
  switch (kind) {
    case Kind::kVersion:
      return fmt::format("versions {}{}, {}{}", bracket(starting_bound_inclusive, true),
                         starting_version, ending_version.value_or("latest"),
                         bracket(ending_bound_inclusive, false));
    case Kind::kTimestamp:
      return fmt::format("timestamps {}{}, {}{} (microseconds)",
                         bracket(starting_bound_inclusive, true), starting_timestamp,
                         ending_timestamp ? std::to_string(*ending_timestamp) : "latest",
                         bracket(ending_bound_inclusive, false));
    case Kind::kUnbounded: return "unbounded";
  }
  return "unbounded";
}

const char* DeduplicationModeName(DeduplicationMode mode) {
  switch (mode) {
    case DeduplicationMode::kNone: return "none";
    case DeduplicationMode::kDropCarryovers: return "dropCarryovers";
    case DeduplicationMode::kNetChanges: return "netChanges";
  }
  return "dropCarryovers";
}

Result<std::vector<std::shared_ptr<NamedReference>>> Changelog::RowId() const {
  return MakeError(arrow::StatusCode::NotImplemented, "UNSUPPORTED_FEATURE.CHANGELOG_ROW_ID",
                   fmt::format("The feature is not supported: changelog {} does not define "
                               "rowId().",
                               QuoteIdentifier(name())));
}

Result<std::shared_ptr<NamedReference>> Changelog::RowVersion() const {
  return MakeError(arrow::StatusCode::NotImplemented, "UNSUPPORTED_FEATURE.CHANGELOG_ROW_VERSION",
                   fmt::format("The feature is not supported: changelog {} does not define "
                               "rowVersion().",
                               QuoteIdentifier(name())));
}

Result<std::shared_ptr<Changelog>> TableCatalog::LoadChangelog(const Identifier&,
                                                               const ChangelogInfo&) {
  return MakeErrorWithParameters(
      arrow::StatusCode::NotImplemented, "UNSUPPORTED_FEATURE.CHANGE_DATA_CAPTURE",
      {{"catalogName", name()}},
      fmt::format("The feature is not supported: change data capture in catalog {}.",
                  QuoteIdentifier(name())));
}

}  // namespace parley
