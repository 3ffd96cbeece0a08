// Catalogs: the entry points through which the engine resolves `catalog.namespace.table`.
//
// A catalog is configured with Spark's settings: `spark.sql.catalog.<name>=<plugin>` names the
// plugin (a built-in name or the path of a shared library, see plugin.h), and every
// `spark.sql.catalog.<name>.<key>=<value>` arrives in Initialize() as options[key]. The engine
// creates one instance per configured catalog name and calls Initialize() once, before anything
// else. Catalog methods may be called from several threads at once; implementations must be
// thread-safe.
//
// A catalog adds abilities by implementing mix-ins (TableCatalog, SupportsNamespaces); the engine
// discovers them with dynamic_cast. Methods a catalog does not support return an error with the
// condition UNSUPPORTED_FEATURE.* naming the operation and the catalog.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "parley/connector/status.h"
#include "parley/connector/table.h"
#include "parley/connector/types.h"

namespace parley {

/// \brief Base of every catalog.
class CatalogPlugin {
 public:
  virtual ~CatalogPlugin() = default;
  /// \brief Called once after construction with the catalog's name and its options.
  virtual Status Initialize(const std::string& name, const Options& options) = 0;
  /// \brief The name given at Initialize().
  virtual std::string name() const = 0;
  /// \brief The namespace USE falls back to when the catalog becomes current; Spark's default
  /// is none (empty), the session catalog uses {"default"}.
  virtual std::vector<std::string> DefaultNamespace() const { return {}; }
};

/// \brief Catalog mix-in for tables. Errors: TABLE_OR_VIEW_NOT_FOUND when a table is missing,
/// TABLE_OR_VIEW_ALREADY_EXISTS on create over an existing name, SCHEMA_NOT_FOUND for a missing
/// namespace.
class TableCatalog : public virtual CatalogPlugin {
 public:
  /// \brief List the tables of a namespace.
  virtual Result<std::vector<Identifier>> ListTables(
      const std::vector<std::string>& namespace_path) = 0;
  /// \brief Load a table's metadata and return the Table used to read it.
  virtual Result<std::shared_ptr<Table>> LoadTable(const Identifier& ident) = 0;
  /// \brief Whether the table exists. The default tries LoadTable.
  virtual Result<bool> TableExists(const Identifier& ident);
  /// \brief Create a table. The default reports that the catalog does not create tables.
  virtual Result<std::shared_ptr<Table>> CreateTable(const Identifier& ident,
                                                     const TableInfo& info);
  /// \brief Drop a table; return false when it did not exist. The default is unsupported.
  virtual Result<bool> DropTable(const Identifier& ident);
  /// \brief Rename a table. The default is unsupported.
  virtual Status RenameTable(const Identifier& from, const Identifier& to);
};

/// \brief Catalog mix-in for namespaces (databases).
class SupportsNamespaces : public virtual CatalogPlugin {
 public:
  /// \brief List the namespaces directly under `parent` (the top level when empty).
  virtual Result<std::vector<std::vector<std::string>>> ListNamespaces(
      const std::vector<std::string>& parent) = 0;
  /// \brief Whether the namespace exists.
  virtual Result<bool> NamespaceExists(const std::vector<std::string>& namespace_path) = 0;
  /// \brief Create a namespace. The default is unsupported.
  virtual Status CreateNamespace(const std::vector<std::string>& namespace_path,
                                 const std::map<std::string, std::string>& metadata);
  /// \brief Drop a namespace; `cascade` drops its tables too. The default is unsupported.
  virtual Result<bool> DropNamespace(const std::vector<std::string>& namespace_path, bool cascade);
};

/// \brief Resolves path-based tables such as parquet.`/data/x`; options carry "path".
class TableProvider {
 public:
  virtual ~TableProvider() = default;
  /// \brief Infer the schema of the data the options point at.
  virtual Result<std::shared_ptr<arrow::Schema>> InferSchema(const Options& options) = 0;
  /// \brief Return the table for the options, with the given (inferred or user) schema.
  virtual Result<std::shared_ptr<Table>> GetTable(const std::shared_ptr<arrow::Schema>& schema,
                                                  const Options& options) = 0;
};

}  // namespace parley
