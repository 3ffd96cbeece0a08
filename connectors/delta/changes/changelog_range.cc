// Resolving and checking the range of a changelog read (see changelog_range.h).
#include "connectors/delta/changes/changelog_range.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <string>

#include "arrow/type.h"
#include "connectors/delta/log/delta_schema.h"
#include "connectors/delta/log/row_tracking.h"

namespace parley::delta {
namespace {

Result<int64_t> ParseVersion(const std::string& text, const std::string& table) {
  bool digits =
      !text.empty() && std::all_of(text.begin(), text.end(), ::isdigit) && text.size() < 19;
  if (!digits) {
    return InvalidError("DELTA_INVALID_CDC_RANGE", "The changelog range of " + table +
                                                       " names the version '" + text +
                                                       "', which is not a non-negative integer.");
  }
  return std::stoll(text);
}

// The commit timestamp of every version up to the latest: the in-commit timestamp from the
// version that enabled them, else the monotonized file time.
Result<std::map<int64_t, int64_t>> CommitTimestamps(const TableState& table) {
  std::map<int64_t, int64_t> timestamps = table.snapshot->commit_timestamps;
  const auto& configuration = table.snapshot->metadata.configuration;
  if (!ConfigurationIsTrue(configuration, "delta.enableInCommitTimestamps")) return timestamps;
  int64_t from = 0;
  auto enabled = configuration.find("delta.inCommitTimestampEnablementVersion");
  if (enabled != configuration.end()) {
    ARROW_ASSIGN_OR_RAISE(from, ParseVersion(enabled->second, table.name));
  }
  for (auto& [version, ms] : timestamps) {
    if (version < from) continue;
    ARROW_ASSIGN_OR_RAISE(auto commit, ReadCommit(*table.filesystem, table.root, version));
    if (commit.in_commit_timestamp) ms = *commit.in_commit_timestamp;
  }
  return timestamps;
}

// The latest version committed at or before `ms`. Fails before the first commit, and after the
// latest unless `latest_if_after`.
Result<int64_t> ActiveVersionAt(const TableState& table, const std::map<int64_t, int64_t>& times,
                                int64_t ms, bool latest_if_after) {
  if (times.empty() || ms < times.begin()->second) {
    return InvalidError(
        "DELTA_TIMESTAMP_EARLIER_THAN_COMMIT_RETENTION",
        "The provided timestamp (" + std::to_string(ms) +
            " ms) is before the earliest version "
            "available to " +
            table.name + "" +
            (times.empty() ? "." : " (" + std::to_string(times.begin()->second) + " ms)."));
  }
  if (ms > times.rbegin()->second && !latest_if_after) {
    return InvalidError("DELTA_TIMESTAMP_GREATER_THAN_COMMIT",
                        "The provided timestamp (" + std::to_string(ms) +
                            " ms) is after the latest version available to " + table.name +
                            ". Please use a timestamp before or at " +
                            std::to_string(times.rbegin()->second) + " ms.");
  }
  int64_t found = times.begin()->first;
  for (const auto& [version, time] : times) {
    if (time <= ms) found = version;
  }
  return found;
}

// Whether data written under `existing` reads as `read`: each existing column is there (by name,
// ignoring case) with the same type, and not made non-nullable.
bool ReadCompatible(const arrow::Schema& existing, const arrow::Schema& read) {
  auto lower = [](std::string text) {
    for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
  };
  for (const auto& field : existing.fields()) {
    const arrow::Field* match = nullptr;
    for (const auto& candidate : read.fields()) {
      if (lower(candidate->name()) == lower(field->name())) match = candidate.get();
    }
    if (match == nullptr || !match->type()->Equals(*field->type(), /*check_metadata=*/false) ||
        (field->nullable() && !match->nullable())) {
      return false;
    }
  }
  return true;
}

Status SchemaChangeInRange(int64_t version) {
  return MakeErrorWithParameters(
      arrow::StatusCode::Invalid, "DELTA_CHANGELOG_SCHEMA_CHANGE_IN_RANGE",
      {{"version", std::to_string(version)}},
      "Delta CDC does not support reading a changelog range that includes a schema change. "
      "Commit at version " +
          std::to_string(version) +
          " changes the table schema. Pick a "
          "starting/ending version that brackets a single schema.");
}

Status RowTrackingDisabledInRange(int64_t version) {
  return MakeErrorWithParameters(
      arrow::StatusCode::Invalid, "DELTA_CHANGELOG_ROW_TRACKING_DISABLED_IN_RANGE",
      {{"version", std::to_string(version)}},
      "Delta CDC requires row tracking to remain enabled across the requested range. Commit at "
      "version " +
          std::to_string(version) +
          " disabled row tracking. Pick a starting/ending "
          "version that brackets a row-tracking-enabled state.");
}

Result<std::shared_ptr<arrow::Schema>> PlainSchemaOf(const Metadata& metadata) {
  ARROW_ASSIGN_OR_RAISE(auto schema, SchemaFromDeltaJson(metadata.schema_string));
  return PlainSchema(*schema);
}

}  // namespace

Result<std::pair<int64_t, int64_t>> ResolveChangelogRange(const TableState& table,
                                                          const ChangelogRange& range) {
  const int64_t latest = table.snapshot->version;
  int64_t start = 0, end = latest;
  switch (range.kind) {
    case ChangelogRange::Kind::kUnbounded:
      return InvalidError("DELTA_CHANGELOG_UNBOUNDED_RANGE",
                          "Delta CDC does not support unbounded ranges in batch reads of " +
                              table.name +
                              ". Specify a starting and ending version or "
                              "timestamp.");
    case ChangelogRange::Kind::kVersion: {
      ARROW_ASSIGN_OR_RAISE(start, ParseVersion(range.starting_version, table.name));
      if (range.ending_version) {
        ARROW_ASSIGN_OR_RAISE(end, ParseVersion(*range.ending_version, table.name));
      }
      break;
    }
    case ChangelogRange::Kind::kTimestamp: {
      ARROW_ASSIGN_OR_RAISE(auto times, CommitTimestamps(table));
      ARROW_ASSIGN_OR_RAISE(start, ActiveVersionAt(table, times, range.starting_timestamp / 1000,
                                                   /*latest_if_after=*/false));
      if (range.ending_timestamp) {
        ARROW_ASSIGN_OR_RAISE(end, ActiveVersionAt(table, times, *range.ending_timestamp / 1000,
                                                   /*latest_if_after=*/true));
      }
      break;
    }
  }
  if (!range.starting_bound_inclusive) ++start;
  if (!range.ending_bound_inclusive) --end;
  if (start > end) {
    return MakeErrorWithParameters(arrow::StatusCode::Invalid, "DELTA_INVALID_CDC_RANGE",
                                   {{"start", std::to_string(start)}, {"end", std::to_string(end)}},
                                   "CDC range from start " + std::to_string(start) + " to end " +
                                       std::to_string(end) +
                                       " was invalid. End cannot be before start.");
  }
  if (start > latest) {
    return MakeErrorWithParameters(
        arrow::StatusCode::Invalid, "DELTA_CDC_START_VERSION_AFTER_LATEST",
        {{"start", std::to_string(start)}, {"latest", std::to_string(latest)}},
        "Provided start version (" + std::to_string(start) + ") for reading the changelog of " +
            table.name +
            " is invalid. Start version cannot be greater than the latest version "
            "of the table (" +
            std::to_string(latest) + ").");
  }
  if (end > latest) {
    return InvalidError("DELTA_VERSION_NOT_FOUND",
                        "Cannot read the changelog of " + table.name + " up to version " +
                            std::to_string(end) + ": it does not exist. The latest version is " +
                            std::to_string(latest) + ".");
  }
  return std::make_pair(start, end);
}

Status CheckChangelogEnd(const TableState& table) {
  if (RowTrackingEnabled(table.snapshot->metadata)) return Status::OK();
  return MakeErrorWithParameters(
      arrow::StatusCode::Invalid, "DELTA_CHANGELOG_REQUIRES_ROW_TRACKING",
      {{"tableName", table.name}},
      "Change data capture via CHANGES on " + table.name +
          " requires row tracking. Enable "
          "it by setting TBLPROPERTIES ('delta.enableRowTracking' = 'true').");
}

Status CheckChangelogMetadata(const Metadata& metadata, const TableState& end, int64_t version) {
  ARROW_ASSIGN_OR_RAISE(auto schema, PlainSchemaOf(metadata));
  if (!ReadCompatible(*schema, *end.schema)) return SchemaChangeInRange(version);
  if (!RowTrackingEnabled(metadata)) return RowTrackingDisabledInRange(version);
  return Status::OK();
}

}  // namespace parley::delta
