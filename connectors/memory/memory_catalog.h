// The built-in `memory` catalog: namespaces and tables held in this process as Arrow data.
//
// MemoryCatalog is a CatalogPlugin with the TableCatalog, SupportsNamespaces, RelationCatalog
// (views) and SqlFunctionCatalog (SQL functions, memory_functions.cc) mix-ins. It is
// the plugin behind `spark.sql.catalog.<name>=memory` and, until a persistent session catalog
// exists, the default `spark_catalog`. Nothing is persisted: the data goes away with the
// catalog object.
//
// Model:
//   - Namespaces are multi-part paths (`a`.`b`). Creating one also creates its missing
//     ancestors, so every prefix of an existing namespace exists.
//   - Tables live in an existing namespace and are named by an Identifier; a table is a
//     MemoryTable (memory_table.h) whose rows are Arrow record batches.
//   - Names match ignoring ASCII case (like Spark's session catalog with the default
//     spark.sql.caseSensitive=false) and are kept in the case they were created with.
//   - Option `default-namespace` (dot-separated path, e.g. `sales.eu`) names the namespace
//     created at Initialize() and returned by DefaultNamespace(); when the option is absent it
//     is `default`, like Spark's session catalog; an empty value means no default namespace.
//     The default namespace cannot be dropped.
//   - Data is put in with AppendData() (or MemoryTable::AppendData/ReplaceData) until SQL DDL
//     and INSERT reach the catalog through the same methods.
//   - Reads snapshot the table when the scan is built; partitions and the reader factory
//     serialize a reference to that snapshot, valid within this process only (see
//     memory_scan_internal.h for the encoding and lifetime).
//
// Errors (Spark's conditions): TABLE_OR_VIEW_NOT_FOUND, TABLE_OR_VIEW_ALREADY_EXISTS,
// SCHEMA_NOT_FOUND, SCHEMA_ALREADY_EXISTS, SCHEMA_NOT_EMPTY, COLUMN_ALREADY_EXISTS,
// INVALID_SCHEMA_OR_RELATION_NAME (empty names), UNSUPPORTED_FEATURE.DROP_DATABASE, and
// INCOMPATIBLE_DATA_FOR_TABLE.* from AppendData; each message names the object at fault.
//
// Thread-safety: every method may be called from several threads at once (one mutex guards
// the namespace and table maps; each table guards its own data).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "arrow/type_fwd.h"
#include "memory_changelog.h"
#include "memory_table.h"
#include "parley/connector/catalog.h"
#include "parley/connector/function.h"
#include "parley/connector/view.h"

namespace parley::memory {

/// \brief The `memory` catalog plugin. Construct, then call Initialize() before anything else.
class MemoryCatalog : public StagingTableCatalog,
                      public RelationCatalog,
                      public SupportsNamespaces,
                      public SqlFunctionCatalog {
 public:
  /// \brief Record the catalog name and create the default namespace (see file comment for
  /// `default-namespace`). Other options are ignored.
  Status Initialize(const std::string& name, const Options& options) override;
  std::string name() const override;
  /// \brief {"default"} unless the `default-namespace` option said otherwise.
  std::vector<std::string> DefaultNamespace() const override;

  /// \brief List the tables directly in a namespace, sorted by name.
  /// Errors: SCHEMA_NOT_FOUND.
  Result<std::vector<Identifier>> ListTables(
      const std::vector<std::string>& namespace_path) override;
  /// \brief Return the MemoryTable. Errors: TABLE_OR_VIEW_NOT_FOUND (also when the namespace
  /// does not exist, as Spark reports it).
  Result<std::shared_ptr<Table>> LoadTable(const Identifier& ident) override;
  Result<bool> TableExists(const Identifier& ident) override;
  /// \brief Create an empty MemoryTable with the given columns, partition transforms and
  /// properties; return it. Errors: SCHEMA_NOT_FOUND, TABLE_OR_VIEW_ALREADY_EXISTS,
  /// COLUMN_ALREADY_EXISTS (names equal ignoring case), INVALID_SCHEMA_OR_RELATION_NAME.
  /// REQUIRES: every column has a non-null type.
  Result<std::shared_ptr<Table>> CreateTable(const Identifier& ident,
                                             const TableInfo& info) override;
  /// \brief Drop a table and its data; false when it did not exist. Scans already built keep
  /// reading their snapshot.
  Result<bool> DropTable(const Identifier& ident) override;
  /// \brief The same as DropTable: the memory catalog keeps no trash.
  Result<bool> PurgeTable(const Identifier& ident) override;
  /// \brief Apply the changes to a copy of the table (see memory_alter_internal.h) and swap it
  /// in when all applied. Scans already built keep reading the old data. Errors:
  /// TABLE_OR_VIEW_NOT_FOUND and those of AlterMemoryTable.
  Result<std::shared_ptr<Table>> AlterTable(const Identifier& ident,
                                            const std::vector<TableChange>& changes) override;

  /// \brief Staged CREATE/REPLACE: the staged table is a fresh MemoryTable outside the catalog
  /// (it refers to the catalog, which must outlive it);
  /// writes go into it and CommitStagedChanges() puts it in place in one step, checking again
  /// that the name is free (create) or taken (replace). Errors as CreateTable, plus
  /// TABLE_OR_VIEW_NOT_FOUND for StageReplace.
  Result<std::shared_ptr<StagedTable>> StageCreate(const Identifier& ident,
                                                   const TableInfo& info) override;
  Result<std::shared_ptr<StagedTable>> StageReplace(const Identifier& ident,
                                                    const TableInfo& info) override;
  Result<std::shared_ptr<StagedTable>> StageCreateOrReplace(const Identifier& ident,
                                                            const TableInfo& info) override;
  /// \brief Move a table (with its data) to another name, possibly in another namespace.
  /// Errors: TABLE_OR_VIEW_NOT_FOUND for `from`, SCHEMA_NOT_FOUND for the target namespace,
  /// TABLE_OR_VIEW_ALREADY_EXISTS for `to`.
  Status RenameTable(const Identifier& from, const Identifier& to) override;

  /// \brief List the namespaces directly under `parent` (top level when empty), sorted.
  /// Errors: SCHEMA_NOT_FOUND for a non-empty parent that does not exist.
  Result<std::vector<std::vector<std::string>>> ListNamespaces(
      const std::vector<std::string>& parent) override;
  /// \brief Whether the namespace exists; the empty path is not a namespace.
  Result<bool> NamespaceExists(const std::vector<std::string>& namespace_path) override;
  /// \brief Create a namespace (and its missing ancestors) with metadata such as "comment" or
  /// "location". Errors: SCHEMA_ALREADY_EXISTS, INVALID_SCHEMA_OR_RELATION_NAME (empty path or
  /// part).
  Status CreateNamespace(const std::vector<std::string>& namespace_path,
                         const std::map<std::string, std::string>& metadata) override;
  /// \brief Drop a namespace; false when it did not exist. Without `cascade` a namespace that
  /// holds tables or namespaces fails with SCHEMA_NOT_EMPTY; with it, everything below goes.
  /// Dropping the default namespace (or an ancestor of it) fails with
  /// UNSUPPORTED_FEATURE.DROP_DATABASE.
  Result<bool> DropNamespace(const std::vector<std::string>& namespace_path, bool cascade) override;

  /// \brief The metadata given when the namespace was created (empty for ancestors created
  /// implicitly). Errors: SCHEMA_NOT_FOUND.
  Result<std::map<std::string, std::string>> LoadNamespaceMetadata(
      const std::vector<std::string>& namespace_path) override;
  /// \brief Set or remove metadata properties. Errors: SCHEMA_NOT_FOUND.
  Status AlterNamespace(const std::vector<std::string>& namespace_path,
                        const std::vector<NamespaceChange>& changes) override;

  /// \brief Views (memory_views.cc): kept as ViewInfo beside the tables, in the same name
  /// space, until the catalog goes. Errors as ViewCatalog says, plus SCHEMA_NOT_FOUND and
  /// INVALID_SCHEMA_OR_RELATION_NAME.
  Result<std::vector<Identifier>> ListViews(
      const std::vector<std::string>& namespace_path) override;
  Result<ViewInfo> LoadView(const Identifier& ident) override;
  Status CreateView(const Identifier& ident, const ViewInfo& info) override;
  Status ReplaceView(const Identifier& ident, const ViewInfo& info) override;
  Result<bool> DropView(const Identifier& ident) override;
  Status RenameView(const Identifier& from, const Identifier& to) override;

  /// \brief SQL functions (memory_functions.cc): kept as SqlFunctionInfo until the catalog
  /// goes, in a name space of their own. Errors: SCHEMA_NOT_FOUND, ROUTINE_ALREADY_EXISTS.
  Result<std::vector<Identifier>> ListFunctions(
      const std::vector<std::string>& namespace_path) override;
  Result<std::shared_ptr<UnboundFunction>> LoadFunction(const Identifier& ident) override;
  Status CreateSqlFunction(const Identifier& ident, const SqlFunctionInfo& info,
                           bool replace) override;
  Result<bool> DropSqlFunction(const Identifier& ident) override;
  Result<Relation> LoadRelation(const Identifier& ident) override;
  Result<std::vector<RelationSummary>> ListRelationSummaries(
      const std::vector<std::string>& namespace_path) override;

  /// \brief Append rows to a table; see MemoryTable::AppendData for the checks.
  /// Errors: TABLE_OR_VIEW_NOT_FOUND, INCOMPATIBLE_DATA_FOR_TABLE.*.
  /// REQUIRES: data != nullptr.
  Status AppendData(const Identifier& ident, const std::shared_ptr<arrow::Table>& data);

  /// \brief SUPPORT_CHANGELOG.
  std::set<TableCatalogCapability> capabilities() const override;
  /// \brief Serve the change data set for `ident` with SetChangelog, else the change rows a table
  /// of that name holds (see memory_changelog.h). Errors: TABLE_OR_VIEW_NOT_FOUND,
  /// UNSUPPORTED_FEATURE.CHANGE_DATA_CAPTURE for a table without change data, and those of
  /// MakeMemoryChangelog.
  Result<std::shared_ptr<Changelog>> LoadChangelog(const Identifier& ident,
                                                   const ChangelogInfo& info) override;
  /// \brief Set (or replace) the change data of the table name `ident`; the table itself need
  /// not exist. REQUIRES: data.rows != nullptr.
  void SetChangelog(const Identifier& ident, MemoryChangelogData data);

 private:
  friend class MemoryStagedTable;
  enum class StageKind { kCreate, kReplace, kCreateOrReplace };

  Result<std::shared_ptr<StagedTable>> Stage(const Identifier& ident, const TableInfo& info,
                                             StageKind kind);
  // Put a staged table in place under `ident`, re-checking the rule of `kind`.
  Status PublishStaged(const Identifier& ident, const TableInfo& info,
                       const std::shared_ptr<MemoryTable>& staged, StageKind kind);
  // Check a table definition and the target namespace. REQUIRES: mutex_ held.
  Status CheckTableInfoLocked(const Identifier& ident, const TableInfo& info) const;

  struct NamespaceEntry {
    std::vector<std::string> path;  // as created
    std::map<std::string, std::string> metadata;
  };
  struct TableEntry {
    Identifier ident;  // as created (namespace part in the namespace's own case)
    std::shared_ptr<MemoryTable> table;
  };
  // Lower-cased namespace path, lower-cased table name.
  using TableKey = std::pair<std::vector<std::string>, std::string>;

  // REQUIRES: mutex_ held.
  Result<std::shared_ptr<MemoryTable>> FindTableLocked(const Identifier& ident) const;
  std::string DisplayNameLocked(const Identifier& ident) const;

  mutable std::mutex mutex_;
  std::string name_;                                               // guarded by mutex_
  std::vector<std::string> default_namespace_;                     // guarded by mutex_
  std::map<std::vector<std::string>, NamespaceEntry> namespaces_;  // guarded; lower-cased key
  std::map<TableKey, TableEntry> tables_;                          // guarded by mutex_
  struct ViewEntry {
    Identifier ident;  // as created
    ViewInfo info;
  };
  std::map<TableKey, ViewEntry> views_;  // guarded by mutex_
  struct FunctionEntry {
    Identifier ident;
    SqlFunctionInfo info;
  };
  std::map<TableKey, FunctionEntry> functions_;         // guarded by mutex_
  std::map<TableKey, MemoryChangelogData> changelogs_;  // guarded by mutex_
};

/// \brief Create an uninitialized `memory` catalog; the engine registers this factory under
/// the plugin name "memory" and calls Initialize().
std::shared_ptr<CatalogPlugin> MakeMemoryCatalog();

}  // namespace parley::memory
