// The memory catalog's changelogs: raw change rows a test (or an embedding program) supplies for
// a table name, served through the Changelog API with configurable flags, row identity and row
// version, so that every post-processing rule can be exercised without a real table format.
//
// Range filtering follows the reference behaviour: a version range keeps rows whose
// `_commit_version` v has v >= start (> when exclusive) and v <= end (< when exclusive; no check
// without an end), comparing numbers for a BIGINT column and text for a STRING column; a
// timestamp range does the same on `_commit_timestamp`; an unbounded range keeps every row.
// A table of the catalog can also hold its own raw change rows, so that SQL alone can set up a
// changelog: with TBLPROPERTIES ('parley.changelog' = 'true') its rows are the change rows of
// a CHANGES read of it, and 'parley.changelog.<flag>' = 'true' (containsCarryoverRows,
// containsIntermediateChanges, representsUpdateAsDeleteAndInsert), 'parley.changelog.rowId' =
// 'id, payload.id' and 'parley.changelog.rowVersion' = 'rv' describe them.
// Scans accept comparisons (=, <>, <, <=, >, >=, <=>) of a top-level column with a literal,
// IS_NULL and IS_NOT_NULL, applied exactly, and column pruning.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/changelog.h"

namespace parley::memory {

/// \brief The change data of one table: rows with the changelog's columns (data columns, then
/// `_change_type`, `_commit_version`, `_commit_timestamp`, or any order the test wants), the
/// three flags, and the row identity and row version columns as paths.
struct MemoryChangelogData {
  std::shared_ptr<arrow::Table> rows;
  bool contains_carryover_rows = false;
  bool contains_intermediate_changes = false;
  bool represents_update_as_delete_and_insert = false;
  /// Row identity paths (`payload.id` is {"payload", "id"}). Left empty with a flag set, the
  /// changelog answers rowId() with no column.
  std::vector<std::vector<std::string>> row_id;
  /// Row version path; absent: rowVersion() is not defined.
  std::optional<std::vector<std::string>> row_version;
  /// The changelog's name; empty: "<catalog>.<table>_changelog".
  std::string name;
};

/// \brief The change data a table declares through its 'parley.changelog*' properties, or
/// nullopt when it declares none.
std::optional<MemoryChangelogData> ChangelogFromProperties(
    const std::map<std::string, std::string>& properties, std::shared_ptr<arrow::Table> rows);

/// \brief A changelog over `data` whose scans keep the rows of info.range. A scan's Build()
/// fails with INVALID_OPTION_VALUE when a version bound is not a whole number for a BIGINT
/// `_commit_version`.
Result<std::shared_ptr<Changelog>> MakeMemoryChangelog(std::string name,
                                                       const MemoryChangelogData& data,
                                                       const ChangelogInfo& info);

}  // namespace parley::memory
