// Views kept by a catalog, as Spark's ViewCatalog, ViewInfo and RelationCatalog describe them.
//
// A view is a query kept as text with what it needs to mean the same thing later: the catalog
// and namespace current when it was created (names in the text resolve against them), the SQL
// settings set then, the columns it returned (names, types, comments) and the names the query
// gave them. The engine parses and binds the text each time the view is read; a catalog only
// stores and returns ViewInfo.
//
// A catalog that serves tables and views (TableCatalog and ViewCatalog) must implement
// RelationCatalog: one identifier space, so a table and a view never share a name, and one
// round trip (LoadRelation) to learn which one a name is. The engine refuses a catalog that
// has both without it when it first creates the catalog (INVALID_CATALOG_IMPLEMENTATION).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parley/connector/catalog.h"

namespace parley {

/// \brief Everything a catalog keeps about one view (Spark's ViewInfo).
struct ViewInfo {
  /// The view's query, as written after AS.
  std::string query_text;
  /// The catalog and namespace current when the view was created: its query's names resolve
  /// against them, whatever is current when it is read.
  std::string current_catalog;
  std::vector<std::string> current_namespace;
  /// The SQL settings (SET key=value) in effect when it was created, applied while its query is
  /// bound.
  std::map<std::string, std::string> sql_configs;
  /// The view's columns, in order: their names (the column list's, else the query's), types,
  /// and comments. A read casts the query's columns to these types.
  std::vector<Column> columns;
  /// The names of the query's columns when it was created: a read takes these by name from
  /// what the query returns then.
  std::vector<std::string> query_column_names;
  /// TBLPROPERTIES, with the view's COMMENT under "comment".
  std::map<std::string, std::string> properties;
};

/// \brief A catalog's views (Spark's ViewCatalog). Names follow the catalog's table rules
/// (matched ignoring case in the built-in catalogs).
///
/// Errors, with Spark's conditions: TABLE_OR_VIEW_NOT_FOUND for a view that does not exist
/// (also when a table has the name), TABLE_OR_VIEW_ALREADY_EXISTS when a table or view has it,
/// SCHEMA_NOT_FOUND for a namespace that does not exist.
class ViewCatalog : public virtual CatalogPlugin {
 public:
  /// \brief The views directly in a namespace.
  virtual Result<std::vector<Identifier>> ListViews(
      const std::vector<std::string>& namespace_path) = 0;
  /// \brief The view's definition.
  virtual Result<ViewInfo> LoadView(const Identifier& ident) = 0;
  /// \brief Whether a view has this name (by default: whether LoadView finds it).
  virtual Result<bool> ViewExists(const Identifier& ident);
  /// \brief Forget anything cached about the view (the next LoadView reads it again).
  virtual void InvalidateView(const Identifier& ident) {}
  /// \brief Create a view. The engine has checked that its query binds.
  virtual Status CreateView(const Identifier& ident, const ViewInfo& info) = 0;
  /// \brief Replace an existing view's definition in one step (ALTER VIEW ... AS, CREATE OR
  /// REPLACE VIEW, and the property changes of ALTER VIEW): a reader sees the old definition or
  /// the new one, never a mixture.
  virtual Status ReplaceView(const Identifier& ident, const ViewInfo& info) = 0;
  /// \brief Drop a view; false when no view had the name (a table of that name stays).
  virtual Result<bool> DropView(const Identifier& ident) = 0;
  /// \brief Give a view another name (ALTER VIEW ... RENAME TO), possibly in another namespace
  /// when the catalog allows it.
  virtual Status RenameView(const Identifier& from, const Identifier& to) = 0;
};

/// \brief What a name in a RelationCatalog is: a table or a view.
struct Relation {
  std::shared_ptr<Table> table;  // set for a table
  std::optional<ViewInfo> view;  // set for a view
};

/// \brief One entry of RelationCatalog::ListRelationSummaries.
struct RelationSummary {
  enum class Kind { kTable, kView };
  Identifier ident;
  Kind kind = Kind::kTable;
};

/// \brief A catalog of tables and views in one identifier space (Spark's RelationCatalog).
class RelationCatalog : public virtual TableCatalog, public virtual ViewCatalog {
 public:
  /// \brief The table or view of this name, in one call. TABLE_OR_VIEW_NOT_FOUND when neither.
  virtual Result<Relation> LoadRelation(const Identifier& ident) = 0;
  /// \brief The tables and views directly in a namespace, sorted by name.
  virtual Result<std::vector<RelationSummary>> ListRelationSummaries(
      const std::vector<std::string>& namespace_path) = 0;
};

/// \brief Whether `catalog`, to be initialized as `name`, is one the engine accepts: OK, or
/// INVALID_CATALOG_IMPLEMENTATION naming it when it serves tables and views without being a
/// RelationCatalog.
Status CheckRelationCatalogRule(const CatalogPlugin& catalog, const std::string& name);

}  // namespace parley
