// Binding a change read: `t CHANGES FROM ...` in FROM, or the embedding API's change reader.
//
// The read's options are parsed first (cdc/change_options.h), then the table's catalog must
// declare SUPPORT_CHANGELOG, the changelog is loaded and checked (cdc/changelog_table.h), and the
// plan is the changelog's scan under the post-processing stages the read needs:
//   Scan -> [ChangelogRowLevel] -> [ChangelogNetChanges]
// Its columns are the changelog's columns, qualified by the table's name.
#pragma once

#include "analysis/from_binder.h"
#include "catalog/catalog_manager.h"
#include "sql/ast.h"

namespace parley {

/// \brief The options of a change read equal to a CHANGES clause: its bounds as
/// startingVersion / endingVersion (or the timestamp forms) and the bound flags, over the
/// clause's WITH options.
Options ChangesClauseOptions(const sql::ChangesClause& clause);

/// \brief Bind a change read of `name` with `options`. Errors: the option errors of
/// ParseChangeOptions, TABLE_OR_VIEW_NOT_FOUND, UNSUPPORTED_FEATURE.CHANGE_DATA_CAPTURE (the
/// catalog serves no changelogs), UNSUPPORTED_FEATURE.CHANGE_DATA_CAPTURE_ON_RELATION (a
/// path-based name), and the schema and option checks of ChangelogTable::Make; each error carries
/// `pos`.
Result<BoundRelation> BindChanges(const sql::QualifiedName& name, const Options& options,
                                  SourcePosition pos, CatalogManager* catalogs);

/// \brief Bind `table_changes('name', start[, end])`: the raw change rows of the named table
/// (ChangelogTable::MakeRaw, no post-processing), start and end being versions (integers) or
/// timestamps (strings), both inclusive. Errors: as BindChanges, and
/// INVALID_SQL_ARGUMENT (Spark's TVF argument errors) for arguments that are not such literals.
Result<BoundRelation> BindTableChanges(const std::vector<std::unique_ptr<sql::Expr>>& arguments,
                                       SourcePosition pos, CatalogManager* catalogs);

}  // namespace parley
