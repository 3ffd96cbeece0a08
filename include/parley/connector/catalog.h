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

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "parley/connector/changelog.h"
#include "parley/connector/status.h"
#include "parley/connector/table.h"
#include "parley/connector/types.h"

namespace parley {

/// Reserved table properties, as Spark's TableCatalog.PROP_*: CREATE TABLE puts USING, LOCATION,
/// COMMENT and EXTERNAL into TableInfo::properties under these keys.
inline constexpr const char* kPropProvider = "provider";
inline constexpr const char* kPropLocation = "location";
inline constexpr const char* kPropComment = "comment";
inline constexpr const char* kPropOwner = "owner";
inline constexpr const char* kPropExternal = "external";
/// Prefix under which CREATE TABLE ... OPTIONS (k=v) arrive in TableInfo::properties.
inline constexpr const char* kOptionPrefix = "option.";

/// \brief Where ALTER TABLE puts a column: first, or after a named column.
struct ColumnPosition {
  bool first = false;
  /// The column to follow, when not first.
  std::string after;
};

/// \brief One change of ALTER TABLE (Spark's TableChange classes), as a tagged value. Column
/// changes name their column by `field_names` (one part for a top-level column). Which fields
/// are meaningful depends on kind.
struct TableChange {
  enum class Kind {
    kSetProperty,               // property_key, property_value
    kRemoveProperty,            // property_key
    kAddColumn,                 // field_names, type, nullable, comment, position, default_value,
                                // char_varchar
    kRenameColumn,              // field_names, new_name
    kUpdateColumnType,          // field_names, type
    kUpdateColumnNullability,   // field_names, nullable
    kUpdateColumnComment,       // field_names, comment
    kUpdateColumnPosition,      // field_names, position
    kUpdateColumnDefaultValue,  // field_names, default_value (empty: drop the default)
    kDeleteColumn,              // field_names, if_exists
  };
  Kind kind = Kind::kSetProperty;
  std::string property_key;
  std::string property_value;
  std::vector<std::string> field_names;
  std::string new_name;
  std::shared_ptr<arrow::DataType> type;
  bool nullable = true;
  std::optional<std::string> comment;
  std::optional<ColumnPosition> position;
  std::optional<std::string> default_value;
  /// kAddColumn of a STRING column declared CHAR(n) / VARCHAR(n): Column::char_varchar.
  std::string char_varchar;
  bool if_exists = false;

  /// \brief A short description for messages, e.g. "ADD COLUMN c".
  std::string ToString() const;
};

/// \brief One change of ALTER NAMESPACE: set or remove a metadata property.
struct NamespaceChange {
  bool remove = false;
  std::string key;
  std::string value;
};

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

/// \brief What a table catalog can do beyond tables, with Spark's names (TableCatalogCapability).
enum class TableCatalogCapability {
  /// LoadChangelog serves change data (CHANGES queries and change reads).
  kSupportChangelog,
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
  /// \brief Load the table as it was at `version` (VERSION AS OF, Spark's
  /// loadTable(ident, version)). The default fails with UNSUPPORTED_FEATURE.TIME_TRAVEL.
  virtual Result<std::shared_ptr<Table>> LoadTableAtVersion(const Identifier& ident,
                                                            const std::string& version);
  /// \brief Load the table as it was at `timestamp_micros` since the epoch, UTC (TIMESTAMP AS
  /// OF). The default fails with UNSUPPORTED_FEATURE.TIME_TRAVEL.
  virtual Result<std::shared_ptr<Table>> LoadTableAtTimestamp(const Identifier& ident,
                                                              int64_t timestamp_micros);
  /// \brief Whether the table exists. The default tries LoadTable.
  virtual Result<bool> TableExists(const Identifier& ident);
  /// \brief Create a table. The default reports that the catalog does not create tables.
  virtual Result<std::shared_ptr<Table>> CreateTable(const Identifier& ident,
                                                     const TableInfo& info);
  /// \brief Apply ALTER TABLE changes in order, all or none, and return the altered table (or
  /// null when the changes are committed but the table could not be read back: an error means
  /// nothing changed). An unsupported change fails with UNSUPPORTED_FEATURE.TABLE_OPERATION
  /// naming it. The default is unsupported.
  virtual Result<std::shared_ptr<Table>> AlterTable(const Identifier& ident,
                                                    const std::vector<TableChange>& changes);
  /// \brief Drop a table; return false when it did not exist. The default is unsupported.
  virtual Result<bool> DropTable(const Identifier& ident);
  /// \brief Drop a table and its data at once, skipping any trash. The default is unsupported.
  virtual Result<bool> PurgeTable(const Identifier& ident);
  /// \brief Rename a table; TABLE_OR_VIEW_ALREADY_EXISTS when `to` exists. The default is
  /// unsupported.
  virtual Status RenameTable(const Identifier& from, const Identifier& to);
  /// \brief The catalog's capabilities; the engine refuses operations whose capability is
  /// missing before calling the catalog. The default is none.
  virtual std::set<TableCatalogCapability> capabilities() const { return {}; }
  /// \brief The raw changes of a table over info.range (see changelog.h). Called only when
  /// capabilities() has kSupportChangelog. TABLE_OR_VIEW_NOT_FOUND for a missing table. The
  /// default fails with UNSUPPORTED_FEATURE.CHANGE_DATA_CAPTURE naming the catalog.
  virtual Result<std::shared_ptr<Changelog>> LoadChangelog(const Identifier& ident,
                                                           const ChangelogInfo& info);
};

/// \brief A table created or replaced by a staging catalog but not yet visible: CTAS and RTAS
/// write its data, then commit metadata and data together. Exactly one of the two methods is
/// called, once. A staged table implements SupportsWrite.
class StagedTable : public Table {
 public:
  /// \brief Make the table (and the data written into it) visible in one step.
  virtual Status CommitStagedChanges() = 0;
  /// \brief Discard the staged table; the catalog is left as before staging.
  virtual Status AbortStagedChanges() = 0;
};

/// \brief Catalog mix-in for atomic CREATE TABLE AS SELECT and REPLACE TABLE [AS SELECT]: the
/// engine stages the table, writes the query's rows into it, then commits (or aborts on any
/// failure, leaving no new table, or the old one).
class StagingTableCatalog : public virtual TableCatalog {
 public:
  /// \brief Stage a new table; TABLE_OR_VIEW_ALREADY_EXISTS when the name is taken.
  virtual Result<std::shared_ptr<StagedTable>> StageCreate(const Identifier& ident,
                                                           const TableInfo& info) = 0;
  /// \brief Stage the replacement of an existing table; TABLE_OR_VIEW_NOT_FOUND when missing
  /// (checked again at commit).
  virtual Result<std::shared_ptr<StagedTable>> StageReplace(const Identifier& ident,
                                                            const TableInfo& info) = 0;
  /// \brief Stage a table that replaces the existing one, if any, at commit.
  virtual Result<std::shared_ptr<StagedTable>> StageCreateOrReplace(const Identifier& ident,
                                                                    const TableInfo& info) = 0;
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
  /// \brief Drop a namespace; `cascade` drops its tables too, otherwise a non-empty namespace
  /// fails with SCHEMA_NOT_EMPTY. The default is unsupported.
  virtual Result<bool> DropNamespace(const std::vector<std::string>& namespace_path, bool cascade);
  /// \brief The namespace's metadata ("comment", "location", "owner" and user properties);
  /// SCHEMA_NOT_FOUND when missing. The default returns none for an existing namespace.
  virtual Result<std::map<std::string, std::string>> LoadNamespaceMetadata(
      const std::vector<std::string>& namespace_path);
  /// \brief Apply metadata changes in order, all or none. The default is unsupported.
  virtual Status AlterNamespace(const std::vector<std::string>& namespace_path,
                                const std::vector<NamespaceChange>& changes);
};

/// \brief Catalog mix-in: the catalog also serves tables named by path, such as
/// delta.`/data/t` (an identifier whose namespace is the format), as delta-spark's session
/// catalog does. DDL on such a name (CREATE, REPLACE, ALTER, DROP) reaches the session catalog
/// when it accepts the identifier; reads and writes go through the format's TableProvider.
class SupportsPathIdentifiers {
 public:
  virtual ~SupportsPathIdentifiers() = default;
  /// \brief Whether `ident` names a table by path that this catalog manages.
  virtual bool IsPathIdentifier(const Identifier& ident) const = 0;
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
  /// \brief Whether the provider accepts a schema it did not infer (a write to an empty path,
  /// or a user-given schema). When false, the engine always infers.
  virtual bool SupportsExternalMetadata() const { return false; }
};

/// \brief TableProvider mix-in: options that name a catalog table instead of a path, so that a
/// path-style write becomes a write to that table.
class SupportsCatalogOptions {
 public:
  virtual ~SupportsCatalogOptions() = default;
  /// \brief The table the options name.
  virtual Result<Identifier> ExtractIdentifier(const Options& options) = 0;
  /// \brief The catalog the options name; empty for the session's current catalog.
  virtual std::string ExtractCatalog(const Options& options) { return ""; }
};

}  // namespace parley
