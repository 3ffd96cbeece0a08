// Change data capture: a connector exposes the raw change rows of a table through a Changelog,
// and the engine does the post-processing (carry-over removal, update detection, net changes)
// once for every connector.
//
// A catalog that can serve changelogs declares TableCatalogCapability::kSupportChangelog and
// overrides TableCatalog::LoadChangelog (catalog.h). The engine then:
//   1. checks the changelog's columns: the data columns plus `_change_type` (STRING),
//      `_commit_version` (BIGINT or STRING, whose natural order is commit order) and
//      `_commit_timestamp` (TIMESTAMP, one value per commit);
//   2. reads the three flags below, and calls RowId() (when any flag is true) and RowVersion()
//      (when carry-overs or delete+insert updates are possible);
//   3. reads the raw rows through NewScanBuilder() (the usual pushdown negotiation, restricted
//      while post-processing runs: only predicates that cannot split a change group are offered);
//   4. applies the passes the flags and the user's options call for.
// Range filtering is the connector's job: the rows a scan returns are exactly the changes in
// ChangelogInfo::range. A Changelog is used from one thread at a time; its scans follow read.h.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parley/connector/expressions.h"
#include "parley/connector/read.h"
#include "parley/connector/status.h"
#include "parley/connector/types.h"

namespace parley {

/// Names of the metadata columns every changelog has.
inline constexpr const char* kChangeTypeColumn = "_change_type";
inline constexpr const char* kCommitVersionColumn = "_commit_version";
inline constexpr const char* kCommitTimestampColumn = "_commit_timestamp";

/// The `_change_type` values (exact, lower-case).
inline constexpr const char* kChangeInsert = "insert";
inline constexpr const char* kChangeDelete = "delete";
inline constexpr const char* kChangeUpdatePreimage = "update_preimage";
inline constexpr const char* kChangeUpdatePostimage = "update_postimage";

/// \brief Which commits a read covers. Bounds are inclusive unless said otherwise; a missing
/// end means "up to the latest commit". kUnbounded leaves the choice to the connector.
struct ChangelogRange {
  enum class Kind { kVersion, kTimestamp, kUnbounded };
  Kind kind = Kind::kUnbounded;
  /// kVersion: the bounds as the user wrote them (a connector parses them its own way).
  std::string starting_version;
  std::optional<std::string> ending_version;
  /// kTimestamp: microseconds since the epoch (UTC).
  int64_t starting_timestamp = 0;
  std::optional<int64_t> ending_timestamp;
  bool starting_bound_inclusive = true;
  bool ending_bound_inclusive = true;

  /// \brief A readable form for messages and EXPLAIN, e.g. "versions [1, 5]".
  std::string ToString() const;
};

/// \brief How duplicates are removed: not at all, carry-over pairs only (the default), or down to
/// the net change per row identity over the whole range.
enum class DeduplicationMode { kNone, kDropCarryovers, kNetChanges };

/// \brief The option value of a mode: "none", "dropCarryovers", "netChanges".
const char* DeduplicationModeName(DeduplicationMode mode);

/// \brief What the user asked of one changelog read. A connector may read it (for instance to
/// refuse a combination it cannot serve); the engine post-processes according to the flags.
struct ChangelogInfo {
  ChangelogRange range;
  DeduplicationMode deduplication_mode = DeduplicationMode::kDropCarryovers;
  bool compute_updates = false;
  /// True for `table_changes(...)`: the rows are returned as read, never post-processed (and
  /// the row identity is never asked for). A connector with a native change feed of its own
  /// may serve that instead (Delta: the Change Data Feed, with its update images).
  bool table_changes = false;
};

/// \brief The raw change rows of a table over a range of commits.
class Changelog {
 public:
  virtual ~Changelog() = default;
  /// \brief The changelog's name, used in messages (e.g. "cat.events_changelog").
  virtual std::string name() const = 0;
  /// \brief The data columns plus the three metadata columns, in the order users see them.
  virtual std::vector<Column> columns() const = 0;
  /// \brief Whether the rows may hold copy-on-write carry-overs: a delete and an insert of the
  /// same unchanged row in one commit. false guarantees there are none.
  virtual bool ContainsCarryoverRows() const = 0;
  /// \brief Whether one row identity may change more than once within the requested range.
  /// false guarantees at most one change per identity.
  virtual bool ContainsIntermediateChanges() const = 0;
  /// \brief Whether updates appear as a delete and an insert; false means they already appear
  /// as update_preimage / update_postimage rows.
  virtual bool RepresentsUpdateAsDeleteAndInsert() const = 0;
  /// \brief A fresh builder reading the raw rows of the range. `options` are the read options
  /// (keys lower-cased), CDC options included.
  virtual Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options& options) = 0;
  /// \brief The columns (possibly nested paths) identifying a row across commits; never null in
  /// the data. Must be overridden when any flag is true; the default fails with
  /// UNSUPPORTED_FEATURE.CHANGELOG_ROW_ID.
  virtual Result<std::vector<std::shared_ptr<NamedReference>>> RowId() const;
  /// \brief The column holding the version that last changed a row's content: set on insert,
  /// bumped on update, kept across copy-on-write rewrites. Must be overridden when
  /// ContainsCarryoverRows() or RepresentsUpdateAsDeleteAndInsert() is true; the default fails
  /// with UNSUPPORTED_FEATURE.CHANGELOG_ROW_VERSION.
  virtual Result<std::shared_ptr<NamedReference>> RowVersion() const;
};

}  // namespace parley
