// CatalogManager: creates, initializes and caches the session's catalogs, tracks the current
// catalog and namespace, and resolves multi-part names to (catalog, identifier) as Spark does.
//
// Catalogs come from configuration: `spark.sql.catalog.<name>` names a plugin, either a
// built-in registered in the PluginRegistry or the path of a shared library exporting
// PARLEY_CATALOG_FACTORY_SYMBOL (see parley/connector/plugin.h). A catalog is created on first
// use and re-created when its settings change. Not thread-safe: a Session owns one.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/resolved_name.h"
#include "catalog/sql_conf.h"
#include "parley/connector/catalog.h"
#include "parley/connector/function.h"
#include "parley/connector/view.h"

namespace parley {

/// \brief Built-in catalog plugins by name ("memory", later "delta", "jdbc"), and the table
/// providers that serve path-based names such as parquet.`/data/x`.
class PluginRegistry {
 public:
  using Factory = std::function<std::shared_ptr<CatalogPlugin>()>;
  /// \brief Register a built-in plugin under `name` (replacing an earlier one).
  void Register(const std::string& name, Factory factory);
  /// \brief The factory of a built-in plugin, or nullptr when none has that name.
  const Factory* Find(const std::string& name) const;
  /// \brief Register the provider of path-based tables of a format ("parquet", "csv"...).
  void RegisterProvider(const std::string& format, std::shared_ptr<TableProvider> provider);
  /// \brief The provider of a format, or nullptr.
  std::shared_ptr<TableProvider> FindProvider(const std::string& format) const;

 private:
  std::map<std::string, Factory> factories_;
  std::map<std::string, std::shared_ptr<TableProvider>> providers_;
};

/// \brief Load a catalog plugin from a shared library path (kept loaded for the process).
Result<std::shared_ptr<CatalogPlugin>> LoadPluginLibrary(const std::string& catalog_name,
                                                         const std::string& path);

/// \brief A temporary view: the session's, gone with it. Kept as a catalog keeps a view (its
/// query as written, bound again each time it is read, in the catalog and namespace current
/// when it was created).
using TempView = ViewInfo;

class CatalogManager {
 public:
  CatalogManager(SqlConf* conf, PluginRegistry registry);

  /// \brief The catalog called `name`, created from configuration on first use.
  /// CATALOG_NOT_FOUND when no `spark.sql.catalog.<name>` is set.
  Result<std::shared_ptr<CatalogPlugin>> Catalog(const std::string& name);
  /// \brief Register an already-built catalog; it is initialized with its configured options.
  Status Register(const std::string& name, std::shared_ptr<CatalogPlugin> catalog);
  /// \brief Whether `name` is a registered or configured catalog.
  bool IsCatalog(const std::string& name) const;
  /// \brief Names of every registered or configured catalog, sorted.
  std::vector<std::string> CatalogNames() const;
  /// \brief Forget a cached catalog so it is created again (after its settings changed).
  void Invalidate(const std::string& name);

  /// \brief The current catalog's name (USE, else spark.sql.defaultCatalog).
  std::string current_catalog() const;
  /// \brief The current namespace (USE, else the catalog's default namespace).
  Result<std::vector<std::string>> CurrentNamespace();
  /// \brief Apply `USE parts`: a catalog name, a catalog plus namespace, or a namespace of the
  /// current catalog. SCHEMA_NOT_FOUND when the namespace does not exist.
  Status Use(const std::vector<std::string>& parts);

  /// \brief Resolve a table name of 1..n parts to a catalog and identifier, as Spark does.
  Result<ResolvedName> ResolveTableName(const std::vector<std::string>& parts);
  /// \brief The provider for a path-based name `format`.`path`, or nullptr when the name is
  /// not one (its first part is a catalog, or no provider has that format).
  std::shared_ptr<TableProvider> PathProvider(const std::vector<std::string>& parts) const;
  /// \brief The catalog that serves the commands on path tables of `format` (VACUUM
  /// delta.`/p` calls its procedures): the built-in plugin registered under the format's name,
  /// created on first use with the settings `spark.sql.catalog.<format>.*`; nullptr when no
  /// built-in plugin has that name.
  Result<std::shared_ptr<CatalogPlugin>> FormatCatalog(const std::string& format);

  /// \brief The temporary view `name` (matched ignoring case), or nullptr.
  const TempView* FindTempView(const std::string& name) const;
  /// \brief Add or replace the temporary view `name`; the view it replaces, if any, is
  /// returned so that a failed check can put it back.
  std::optional<TempView> PutTempView(const std::string& name, TempView view);
  /// \brief Remove the temporary view `name`; whether there was one.
  bool DropTempView(const std::string& name);
  /// \brief Names of the temporary views, sorted.
  std::vector<std::string> TempViewNames() const;
  /// \brief The database of global temporary views (spark.sql.globalTempDatabase, by default
  /// `global_temp`), lower case.
  std::string GlobalTempDatabase() const;
  /// \brief The global temporary view `name` (matched ignoring case), if any. Global temporary
  /// views are the process's: every session sees the same ones.
  std::optional<TempView> FindGlobalTempView(const std::string& name) const;
  /// \brief Add or replace the global temporary view `name`; whether one was replaced.
  bool PutGlobalTempView(const std::string& name, TempView view);
  /// \brief Remove the global temporary view `name`; whether there was one.
  bool DropGlobalTempView(const std::string& name);
  /// \brief Names of the global temporary views, sorted.
  std::vector<std::string> GlobalTempViewNames() const;

  /// \brief The temporary function `name` (matched ignoring case), or nullptr.
  std::shared_ptr<UnboundFunction> FindTempFunction(const std::string& name) const;
  /// \brief Names of the temporary functions (lower case), sorted.
  std::vector<std::string> TempFunctionNames() const;
  /// \brief Add or replace the temporary function `name`.
  void PutTempFunction(const std::string& name, std::shared_ptr<UnboundFunction> function);
  /// \brief Remove the temporary function `name`; whether there was one.
  bool DropTempFunction(const std::string& name);

  /// \brief Make `catalog` and `namespace_path` current, and the settings `conf` set, until the
  /// guard is destroyed, which restores what was current and set (binding a view as it was
  /// created).
  class CurrentOverride {
   public:
    CurrentOverride(CatalogManager* manager, std::string catalog,
                    std::vector<std::string> namespace_path,
                    const std::map<std::string, std::string>& conf = {});
    /// \brief Only the settings `conf`; the current catalog and namespace stay (binding a SQL
    /// function's body, whose names resolve where it is called).
    CurrentOverride(CatalogManager* manager, const std::map<std::string, std::string>& conf);
    ~CurrentOverride();
    CurrentOverride(const CurrentOverride&) = delete;
    CurrentOverride& operator=(const CurrentOverride&) = delete;

   private:
    CatalogManager* manager_;
    std::optional<std::string> catalog_;
    std::optional<std::vector<std::string>> namespace_;
    void SetConf(const std::map<std::string, std::string>& conf);

    // The settings overridden, with the value each had before (nullopt: unset).
    std::vector<std::pair<std::string, std::optional<std::string>>> replaced_conf_;
  };

  /// \brief Resolve a namespace name (SHOW TABLES IN x): catalog plus namespace path.
  /// SCHEMA_NOT_FOUND when it does not exist, unless `must_exist` is false (CREATE/DROP).
  Result<std::pair<std::shared_ptr<CatalogPlugin>, std::vector<std::string>>> ResolveNamespace(
      const std::vector<std::string>& parts, bool must_exist = true);

 private:
  /// The `spark.sql.catalog.<name>.*` settings, prefix removed and keys lower-cased.
  Options CatalogOptions(const std::string& name) const;
  Status CheckSessionNamespace(const std::string& catalog,
                               const std::vector<std::string>& namespace_path) const;

  SqlConf* conf_;
  PluginRegistry registry_;
  std::map<std::string, std::shared_ptr<CatalogPlugin>> catalogs_;
  std::map<std::string, std::shared_ptr<CatalogPlugin>> registered_;
  std::map<std::string, std::shared_ptr<CatalogPlugin>> format_catalogs_;
  // Temporary views and functions by lower-cased name.
  std::map<std::string, TempView> temp_views_;
  std::map<std::string, std::shared_ptr<UnboundFunction>> temp_functions_;
  std::optional<std::string> current_catalog_;
  std::optional<std::vector<std::string>> current_namespace_;
};

/// \brief Render a namespace path with Spark's quoting: `a`.`b`.
std::string NamespaceToString(const std::vector<std::string>& namespace_path);

}  // namespace parley
