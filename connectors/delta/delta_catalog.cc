// The Delta catalog over a warehouse directory (see delta_catalog.h).
#include "connectors/delta/delta_catalog.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <utility>

#include "arrow/filesystem/localfs.h"
#include "arrow/type.h"
#include "connectors/delta/commands/delta_procedures.h"

#include "connectors/delta/changes/changelog.h"
#include "connectors/delta/function_files.h"
#include "connectors/delta/log/protocol.h"
#include "connectors/delta/log/row_tracking.h"
#include "connectors/delta/log/transaction.h"
#include "connectors/delta/log/values.h"
#include "connectors/delta/table_state.h"
#include "connectors/delta/util.h"
#include "connectors/delta/view_files.h"
#include "connectors/delta/write/alter.h"
#include "connectors/delta/write/create.h"
#include "connectors/delta/write/write.h"
#include "parley/connector/filesystem.h"

namespace parley::delta {
namespace {

using nlohmann::json;

constexpr char kNamespaceMetadataFile[] = ".namespace.json";

std::string QuotePath(const std::vector<std::string>& path) {
  std::string out;
  for (const auto& part : path) out += (out.empty() ? "" : ".") + QuoteIdentifier(part);
  return out;
}

Status CheckName(const std::string& name) {
  bool bad = name.empty() || name == "." || name == ".." || name[0] == '.' ||
             name.find('/') != std::string::npos || name.find('\\') != std::string::npos ||
             name.find('\0') != std::string::npos;
  if (!bad) return Status::OK();
  return InvalidError("INVALID_SCHEMA_OR_RELATION_NAME",
                      QuoteIdentifier(name) +
                          " is not a valid name for tables/schemas: in the Delta warehouse a name "
                          "must not be empty, start with '.', or contain '/', '\\' or NUL.");
}

Status TableNotFound(const std::string& display) {
  return InvalidError("TABLE_OR_VIEW_NOT_FOUND",
                      "The table or view " + display +
                          " cannot be found. Verify the spelling and correctness of the schema "
                          "and catalog.");
}

Status TableAlreadyExists(const std::string& display) {
  return InvalidError("TABLE_OR_VIEW_ALREADY_EXISTS",
                      "Cannot create table or view " + display +
                          " because it already exists. Choose a different name, drop or replace "
                          "the existing object, or add the IF NOT EXISTS clause to tolerate "
                          "pre-existing objects.");
}

Status SchemaNotFound(const std::vector<std::string>& path) {
  return InvalidError("SCHEMA_NOT_FOUND",
                      "The schema " + QuotePath(path) +
                          " cannot be found. Verify the spelling and correctness of the schema "
                          "and catalog.");
}

// Where an identifier's table lives.
struct Located {
  std::string location;
  std::string display;
  bool path_table = false;
  // The registration file of an external table (empty for managed and path tables).
  std::string pointer;
  bool external = false;
};

bool PathExists(arrow::fs::FileSystem& filesystem, const std::string& path) {
  if (path.empty()) return false;
  auto info = filesystem.GetFileInfo(path);
  return info.ok() && info->type() != arrow::fs::FileType::NotFound;
}

// Whether `dir` holds a `_delta_log` directory, committed to or not (so it is no namespace).
bool HasLogDirectory(arrow::fs::FileSystem& filesystem, const std::string& dir) {
  auto info = filesystem.GetFileInfo(LogDirectory(dir));
  return info.ok() && info->type() == arrow::fs::FileType::Directory;
}

// Whether `dir` is a table: its `_delta_log` holds a commit or a checkpoint. A create that
// failed (or died) before its first commit leaves no table, and creating it again succeeds.
bool IsTableDirectory(arrow::fs::FileSystem& filesystem, const std::string& dir) {
  if (!HasLogDirectory(filesystem, dir)) return false;
  auto listing = ListLog(filesystem, dir);
  return listing.ok() && (!listing->commits.empty() || !listing->checkpoints.empty());
}

// The root path of a location (a local path or a file: URI).
std::string RootOf(const std::string& location) {
  auto opened = OpenLocation(location);
  return opened.ok() ? opened->second : location;
}

// Register an external table: its registration file holds the location.
Status WritePointerFile(arrow::fs::FileSystem& filesystem, const Located& located) {
  if (located.pointer.empty()) return Status::OK();
  ARROW_ASSIGN_OR_RAISE(auto sink, filesystem.OpenOutputStream(located.pointer + ".tmp"));
  ARROW_RETURN_NOT_OK(
      sink->Write(located.location.data(), static_cast<int64_t>(located.location.size())));
  ARROW_RETURN_NOT_OK(sink->Close());
  return filesystem.Move(located.pointer + ".tmp", located.pointer);
}

std::string PartitionByJson(const Metadata& metadata) {
  return json(metadata.partition_columns).dump();
}

enum class StageKind { kCreate, kReplace, kCreateOrReplace };

bool IsPathIdentifier(const Identifier& ident) {
  return ident.namespace_path.size() == 1 && Lower(ident.namespace_path[0]) == "delta" &&
         (ident.name.starts_with("/") || ident.name.find(":/") != std::string::npos);
}

class DeltaCatalog : public StagingTableCatalog,
                     public RelationCatalog,
                     public SupportsNamespaces,
                     public SupportsPathIdentifiers,
                     public ProcedureCatalog,
                     public SqlFunctionCatalog {
 public:
  bool IsPathIdentifier(const Identifier& ident) const override {
    return delta::IsPathIdentifier(ident);
  }

  Status Initialize(const std::string& name, const Options& options) override {
    name_ = name;
    auto warehouse = options.find("warehouse");
    std::string root = warehouse == options.end() ? "./warehouse" : warehouse->second;
    std::error_code error;
    auto absolute = std::filesystem::absolute(root, error);
    if (error) return Status::IOError("Cannot resolve the warehouse ", root, ": ", error.message());
    warehouse_ = absolute.lexically_normal().string();
    while (warehouse_.size() > 1 && warehouse_.back() == '/') warehouse_.pop_back();
    filesystem_ = WrapFileSystem(std::make_shared<arrow::fs::LocalFileSystem>());
    return Status::OK();
  }
  std::string name() const override { return name_; }
  std::vector<std::string> DefaultNamespace() const override { return {"default"}; }

  // ---- Procedures (delta_procedures.h)

  Result<std::shared_ptr<UnboundProcedure>> LoadProcedure(const Identifier& ident) override {
    return LoadDeltaProcedure(ident, [this](const std::string& name) { return LoadNamed(name); });
  }
  Result<std::vector<Identifier>> ListProcedures(const std::vector<std::string>& ns) override {
    return DeltaProcedureNames(ns);
  }

  // ---- SQL functions (function_files.h): a file per function in the namespace directory

  Result<std::vector<Identifier>> ListFunctions(const std::vector<std::string>& ns) override {
    return ListCatalogFiles(ns, IsFunctionFileName);
  }

  Result<std::shared_ptr<UnboundFunction>> LoadFunction(const Identifier& ident) override {
    if (IsPathIdentifier(ident)) return Status::KeyError("no function ", ident.name);
    ARROW_ASSIGN_OR_RAISE(std::string file, FunctionFile(ident));
    if (!PathExists(*filesystem_, file)) return Status::KeyError("no function ", ident.name);
    ARROW_ASSIGN_OR_RAISE(auto info, ReadFunctionFile(*filesystem_, file, Display(ident)));
    return std::make_shared<SqlFunction>(Lower(ident.name), std::move(info));
  }

  Status CreateSqlFunction(const Identifier& ident, const SqlFunctionInfo& info,
                           bool replace) override {
    ARROW_ASSIGN_OR_RAISE(std::string file, FunctionFile(ident));
    ARROW_RETURN_NOT_OK(EnsureNamespaceFor(ident));
    if (!replace && PathExists(*filesystem_, file)) {
      return InvalidError("ROUTINE_ALREADY_EXISTS",
                          "Cannot create the routine " + Display(ident) +
                              " because a routine of that name already exists.");
    }
    return WriteFunctionFile(*filesystem_, file, info);
  }

  Result<bool> DropSqlFunction(const Identifier& ident) override {
    ARROW_ASSIGN_OR_RAISE(std::string file, FunctionFile(ident));
    ARROW_ASSIGN_OR_RAISE(bool exists, NamespaceExists(ident.namespace_path));
    if (!exists || !PathExists(*filesystem_, file)) return false;
    ARROW_RETURN_NOT_OK(filesystem_->DeleteFile(file));
    return true;
  }

  // ---- Views (view_files.h): a file per view in the namespace directory

  Result<std::vector<Identifier>> ListViews(const std::vector<std::string>& ns) override {
    return ListCatalogFiles(ns, IsViewFileName);
  }

  Result<ViewInfo> LoadView(const Identifier& ident) override {
    if (IsPathIdentifier(ident)) return TableNotFound("delta." + QuoteIdentifier(ident.name));
    ARROW_ASSIGN_OR_RAISE(std::string file, ViewFile(ident));
    if (!PathExists(*filesystem_, file)) return TableNotFound(Display(ident));
    return ReadViewFile(*filesystem_, file, Display(ident));
  }

  Status CreateView(const Identifier& ident, const ViewInfo& info) override {
    ARROW_ASSIGN_OR_RAISE(std::string file, ViewFile(ident));
    ARROW_ASSIGN_OR_RAISE(Located located, Locate(ident, nullptr));
    ARROW_RETURN_NOT_OK(EnsureNamespaceFor(ident));
    if (PathExists(*filesystem_, file) || TableExistsAt(located)) {
      return TableAlreadyExists(Display(ident));
    }
    return WriteViewFile(*filesystem_, file, info);
  }

  Status ReplaceView(const Identifier& ident, const ViewInfo& info) override {
    ARROW_ASSIGN_OR_RAISE(std::string file, ViewFile(ident));
    if (!PathExists(*filesystem_, file)) return TableNotFound(Display(ident));
    return WriteViewFile(*filesystem_, file, info);
  }

  Result<bool> DropView(const Identifier& ident) override {
    if (IsPathIdentifier(ident)) return false;
    ARROW_ASSIGN_OR_RAISE(std::string file, ViewFile(ident));
    if (!PathExists(*filesystem_, file)) return false;
    ARROW_RETURN_NOT_OK(filesystem_->DeleteFile(file));
    return true;
  }

  Status RenameView(const Identifier& from, const Identifier& to) override {
    ARROW_ASSIGN_OR_RAISE(std::string source, ViewFile(from));
    ARROW_ASSIGN_OR_RAISE(std::string target, ViewFile(to));
    if (!PathExists(*filesystem_, source)) return TableNotFound(Display(from));
    ARROW_ASSIGN_OR_RAISE(Located located, Locate(to, nullptr));
    if (source != target && (PathExists(*filesystem_, target) || TableExistsAt(located))) {
      return TableAlreadyExists(Display(to));
    }
    ARROW_RETURN_NOT_OK(EnsureNamespaceFor(to));
    return filesystem_->Move(source, target);
  }

  Result<Relation> LoadRelation(const Identifier& ident) override {
    if (!IsPathIdentifier(ident)) {
      ARROW_ASSIGN_OR_RAISE(std::string file, ViewFile(ident));
      if (PathExists(*filesystem_, file)) {
        ARROW_ASSIGN_OR_RAISE(ViewInfo view, ReadViewFile(*filesystem_, file, Display(ident)));
        return Relation{nullptr, std::move(view)};
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto table, LoadTable(ident));
    return Relation{std::move(table), std::nullopt};
  }

  Result<std::vector<RelationSummary>> ListRelationSummaries(
      const std::vector<std::string>& ns) override {
    ARROW_ASSIGN_OR_RAISE(auto tables, ListTables(ns));
    ARROW_ASSIGN_OR_RAISE(auto views, ListViews(ns));
    std::vector<RelationSummary> out;
    for (auto& ident : tables) out.push_back({std::move(ident), RelationSummary::Kind::kTable});
    for (auto& ident : views) out.push_back({std::move(ident), RelationSummary::Kind::kView});
    std::sort(out.begin(), out.end(), [](const RelationSummary& a, const RelationSummary& b) {
      return Lower(a.ident.name) < Lower(b.ident.name);
    });
    return out;
  }

  // ---- Tables

  Result<std::vector<Identifier>> ListTables(const std::vector<std::string>& ns) override {
    ARROW_ASSIGN_OR_RAISE(bool exists, NamespaceExists(ns));
    if (!exists) return SchemaNotFound(ns);
    std::vector<Identifier> out;
    ARROW_ASSIGN_OR_RAISE(auto entries, ListDirectory(NamespaceDir(ns)));
    for (const auto& entry : entries) {
      const std::string base = entry.base_name();
      if (entry.type() == arrow::fs::FileType::Directory &&
          IsTableDirectory(*filesystem_, entry.path())) {
        out.push_back({ns, base});
      } else if (entry.type() == arrow::fs::FileType::File && base.size() > 10 && base[0] == '.' &&
                 base.ends_with(".location")) {
        out.push_back({ns, base.substr(1, base.size() - 10)});
      }
    }
    return out;
  }

  Result<std::shared_ptr<Table>> LoadTable(const Identifier& ident) override {
    return Load(ident, std::nullopt, std::nullopt);
  }
  std::set<TableCatalogCapability> capabilities() const override {
    return {TableCatalogCapability::kSupportChangelog};
  }
  // `table_changes` reads the table's change data feed (delta_change_feed.cc); CHANGES its
  // row-tracking changelog (delta_changelog.cc).
  Result<std::shared_ptr<Changelog>> LoadChangelog(const Identifier& ident,
                                                   const ChangelogInfo& info) override {
    ARROW_ASSIGN_OR_RAISE(Located located, Locate(ident, nullptr));
    if (!located.external && !IsTableDirectory(*filesystem_, RootOf(located.location))) {
      return TableNotFound(located.display);
    }
    ARROW_ASSIGN_OR_RAISE(auto state, LoadState(located, std::nullopt, std::nullopt));
    if (info.table_changes) return MakeDeltaChangeFeed(std::move(state), info);
    return MakeDeltaChangelog(std::move(state), info);
  }
  Result<std::shared_ptr<Table>> LoadTableAtVersion(const Identifier& ident,
                                                    const std::string& version) override {
    std::optional<int64_t> number = ParseInt64(version);
    if (!number || *number < 0 || version.front() == '-') {
      return InvalidError("INVALID_TIME_TRAVEL_SPEC", "The version '" + version + "' of " +
                                                          ident.ToString() +
                                                          " is not a non-negative BIGINT.");
    }
    return Load(ident, *number, std::nullopt);
  }
  Result<std::shared_ptr<Table>> LoadTableAtTimestamp(const Identifier& ident,
                                                      int64_t timestamp_micros) override {
    // Commit timestamps have millisecond precision; a later microsecond still sees the commit.
    int64_t millis = timestamp_micros / 1000 - (timestamp_micros % 1000 < 0 ? 1 : 0);
    return Load(ident, std::nullopt, millis);
  }

  Result<std::shared_ptr<Table>> CreateTable(const Identifier& ident,
                                             const TableInfo& info) override {
    ARROW_ASSIGN_OR_RAISE(Located located, Locate(ident, &info));
    ARROW_RETURN_NOT_OK(EnsureNamespaceFor(ident));
    ARROW_RETURN_NOT_OK(CheckNoViewNamed(ident));
    if (!located.pointer.empty() && PathExists(*filesystem_, located.pointer)) {
      return TableAlreadyExists(located.display);
    }
    if (IsTableDirectory(*filesystem_, RootOf(located.location))) {
      if (!located.external) return TableAlreadyExists(located.display);
      // An external location that already holds a Delta table is registered as it is.
      ARROW_ASSIGN_OR_RAISE(auto state, LoadState(located, std::nullopt, std::nullopt));
      if (!info.columns.empty() && !SameColumns(*state->schema, info.columns)) {
        return InvalidError("DELTA_CREATE_TABLE_SCHEMA_MISMATCH",
                            "The specified schema does not match the existing schema at " +
                                DisplayPath(located.location) + ".");
      }
      ARROW_RETURN_NOT_OK(WritePointerFile(*filesystem_, located));
      return MakeDeltaTable(std::move(state));
    }
    ARROW_ASSIGN_OR_RAISE(NewTableMetadata created, MetadataForCreate(info, std::nullopt));
    Transaction transaction;
    transaction.protocol = created.protocol;
    transaction.metadata = created.metadata;
    transaction.operation = "CREATE TABLE";
    transaction.operation_parameters = {
        {"isManaged", located.external ? "false" : "true"},
        {"description", created.metadata.description.value_or("")},
        {"partitionBy", PartitionByJson(created.metadata)},
        {"properties", json(created.metadata.configuration).dump()}};
    auto table_exists = CommitTransaction(filesystem_, RootOf(located.location), located.display,
                                          -1, std::move(transaction));
    if (!table_exists.ok()) {
      if (ErrorCondition(table_exists.status()) == "DELTA_TABLE_ALREADY_EXISTS") {
        return TableAlreadyExists(located.display);
      }
      return table_exists.status();
    }
    ARROW_RETURN_NOT_OK(WritePointerFile(*filesystem_, located));
    return LoadTable(ident);
  }

  Result<std::shared_ptr<Table>> AlterTable(const Identifier& ident,
                                            const std::vector<TableChange>& changes) override {
    ARROW_ASSIGN_OR_RAISE(Located located, Locate(ident, nullptr));
    ARROW_ASSIGN_OR_RAISE(auto state, LoadState(located, std::nullopt, std::nullopt));
    ARROW_RETURN_NOT_OK(AlterDeltaTable(*state, changes));
    // Committed: failing to read the table back must not report the change as failed.
    auto altered = LoadTable(ident);
    return altered.ok() ? *altered : nullptr;
  }

  Result<bool> DropTable(const Identifier& ident) override { return Drop(ident); }
  Result<bool> PurgeTable(const Identifier& ident) override { return Drop(ident); }

  Status RenameTable(const Identifier& from, const Identifier& to) override {
    ARROW_ASSIGN_OR_RAISE(Located source, Locate(from, nullptr));
    ARROW_ASSIGN_OR_RAISE(Located target, Locate(to, nullptr));
    if (source.path_table || target.path_table) {
      return InvalidError("UNSUPPORTED_FEATURE.TABLE_OPERATION",
                          "Renaming a path table is not supported: " + source.display + ".");
    }
    if (!IsTableDirectory(*filesystem_, RootOf(source.location)))
      return TableNotFound(source.display);
    if (IsTableDirectory(*filesystem_, RootOf(target.location)) ||
        PathExists(*filesystem_, target.pointer)) {
      return TableAlreadyExists(target.display);
    }
    ARROW_RETURN_NOT_OK(CheckNoViewNamed(to));
    ARROW_RETURN_NOT_OK(EnsureNamespaceFor(to));
    if (source.external) {
      ARROW_RETURN_NOT_OK(filesystem_->Move(source.pointer, target.pointer + ".tmp"));
      return filesystem_->Move(target.pointer + ".tmp", target.pointer);
    }
    return filesystem_->Move(RootOf(source.location), RootOf(target.location));
  }

  // ---- Staging

  Result<std::shared_ptr<StagedTable>> StageCreate(const Identifier& ident,
                                                   const TableInfo& info) override {
    return Stage(ident, info, StageKind::kCreate);
  }
  Result<std::shared_ptr<StagedTable>> StageReplace(const Identifier& ident,
                                                    const TableInfo& info) override {
    return Stage(ident, info, StageKind::kReplace);
  }
  Result<std::shared_ptr<StagedTable>> StageCreateOrReplace(const Identifier& ident,
                                                            const TableInfo& info) override {
    return Stage(ident, info, StageKind::kCreateOrReplace);
  }

  // ---- Namespaces

  Result<std::vector<std::vector<std::string>>> ListNamespaces(
      const std::vector<std::string>& parent) override {
    std::vector<std::vector<std::string>> out;
    if (!parent.empty()) {
      ARROW_ASSIGN_OR_RAISE(bool exists, NamespaceExists(parent));
      if (!exists) return SchemaNotFound(parent);
    }
    bool saw_default = false;
    ARROW_ASSIGN_OR_RAISE(auto entries, ListDirectory(NamespaceDir(parent)));
    for (const auto& entry : entries) {
      const std::string base = entry.base_name();
      if (entry.type() != arrow::fs::FileType::Directory || base.empty() || base[0] == '.' ||
          base[0] == '_' || HasLogDirectory(*filesystem_, entry.path())) {
        continue;
      }
      auto path = parent;
      path.push_back(base);
      saw_default = saw_default || (parent.empty() && base == "default");
      out.push_back(std::move(path));
    }
    if (parent.empty() && !saw_default) out.push_back({"default"});
    std::sort(out.begin(), out.end());
    return out;
  }

  Result<bool> NamespaceExists(const std::vector<std::string>& ns) override {
    if (ns.empty()) return true;
    for (const auto& part : ns) ARROW_RETURN_NOT_OK(CheckName(part));
    if (ns.size() == 1 && Lower(ns[0]) == "default") return true;
    std::string dir = NamespaceDir(ns);
    ARROW_ASSIGN_OR_RAISE(auto info, filesystem_->GetFileInfo(dir));
    return info.type() == arrow::fs::FileType::Directory && !HasLogDirectory(*filesystem_, dir);
  }

  Status CreateNamespace(const std::vector<std::string>& ns,
                         const std::map<std::string, std::string>& metadata) override {
    if (ns.empty()) return CheckName("");
    ARROW_ASSIGN_OR_RAISE(bool exists, NamespaceExists(ns));
    if (exists && !(ns.size() == 1 && Lower(ns[0]) == "default" &&
                    !PathExists(*filesystem_, NamespaceDir(ns)))) {
      return InvalidError("SCHEMA_ALREADY_EXISTS",
                          "Cannot create schema " + QuotePath(ns) +
                              " because it already exists. Choose a different name, drop the "
                              "existing schema, or add the IF NOT EXISTS clause to tolerate "
                              "pre-existing schema.");
    }
    ARROW_RETURN_NOT_OK(filesystem_->CreateDir(NamespaceDir(ns), /*recursive=*/true));
    return WriteNamespaceMetadata(ns, metadata);
  }

  Result<bool> DropNamespace(const std::vector<std::string>& ns, bool cascade) override {
    ARROW_ASSIGN_OR_RAISE(bool exists, NamespaceExists(ns));
    if (!exists) return false;
    if (ns.size() == 1 && Lower(ns[0]) == "default") {
      return InvalidError("UNSUPPORTED_FEATURE.DROP_DATABASE",
                          "The feature is not supported: Drop the default database `default`.");
    }
    ARROW_ASSIGN_OR_RAISE(auto tables, ListTables(ns));
    ARROW_ASSIGN_OR_RAISE(auto views, ListViews(ns));
    ARROW_ASSIGN_OR_RAISE(auto functions, ListFunctions(ns));
    ARROW_ASSIGN_OR_RAISE(auto children, ListNamespaces(ns));
    if (!cascade &&
        (!tables.empty() || !views.empty() || !functions.empty() || !children.empty())) {
      return InvalidError("SCHEMA_NOT_EMPTY",
                          "Cannot drop a schema " + QuotePath(ns) +
                              " because it contains objects. Use DROP SCHEMA ... CASCADE to drop "
                              "the schema and all its objects.");
    }
    ARROW_RETURN_NOT_OK(filesystem_->DeleteDir(NamespaceDir(ns)));
    return true;
  }

  Result<std::map<std::string, std::string>> LoadNamespaceMetadata(
      const std::vector<std::string>& ns) override {
    ARROW_ASSIGN_OR_RAISE(bool exists, NamespaceExists(ns));
    if (!exists) return SchemaNotFound(ns);
    std::map<std::string, std::string> metadata;
    std::string file = NamespaceDir(ns) + "/" + kNamespaceMetadataFile;
    if (PathExists(*filesystem_, file)) {
      ARROW_ASSIGN_OR_RAISE(std::string body, ReadTextFile(*filesystem_, file));
      json parsed = json::parse(body, nullptr, /*allow_exceptions=*/false);
      if (parsed.is_object()) {
        for (const auto& [key, value] : parsed.items()) {
          if (value.is_string()) metadata[key] = value.get<std::string>();
        }
      }
    }
    metadata["location"] = NamespaceDir(ns);
    return metadata;
  }

  Status AlterNamespace(const std::vector<std::string>& ns,
                        const std::vector<NamespaceChange>& changes) override {
    ARROW_ASSIGN_OR_RAISE(auto metadata, LoadNamespaceMetadata(ns));
    metadata.erase("location");
    for (const auto& change : changes) {
      if (change.remove) {
        metadata.erase(change.key);
      } else {
        metadata[change.key] = change.value;
      }
    }
    ARROW_RETURN_NOT_OK(filesystem_->CreateDir(NamespaceDir(ns), /*recursive=*/true));
    return WriteNamespaceMetadata(ns, metadata);
  }

 private:
  static bool SameColumns(const arrow::Schema& schema, const std::vector<Column>& columns) {
    if (schema.num_fields() != static_cast<int>(columns.size())) return false;
    for (size_t i = 0; i < columns.size(); ++i) {
      const auto& field = *schema.field(static_cast<int>(i));
      if (Lower(field.name()) != Lower(columns[i].name) ||
          !PlainType(field.type())->Equals(*PlainType(columns[i].type))) {
        return false;
      }
    }
    return true;
  }

  std::string NamespaceDir(const std::vector<std::string>& ns) const {
    std::string dir = warehouse_;
    for (const auto& part : ns) dir += "/" + Lower(part);
    return dir;
  }

  Result<std::vector<arrow::fs::FileInfo>> ListDirectory(const std::string& dir) const {
    arrow::fs::FileSelector selector;
    selector.base_dir = dir;
    selector.allow_not_found = true;
    return filesystem_->GetFileInfo(selector);
  }

  std::string Display(const Identifier& ident) const {
    return QuoteIdentifier(name_) + "." + ident.ToString();
  }

  // Where `ident` lives; `info` (CREATE) may give an external LOCATION.
  Result<Located> Locate(const Identifier& ident, const TableInfo* info) const {
    Located located;
    if (IsPathIdentifier(ident)) {
      located.location = ident.name;
      located.display = "delta." + QuoteIdentifier(ident.name);
      located.path_table = true;
      return located;
    }
    for (const auto& part : ident.namespace_path) ARROW_RETURN_NOT_OK(CheckName(part));
    ARROW_RETURN_NOT_OK(CheckName(ident.name));
    located.display = Display(ident);
    std::string dir = NamespaceDir(ident.namespace_path);
    located.pointer = dir + "/." + Lower(ident.name) + ".location";
    std::optional<std::string> location;
    if (info != nullptr) {
      auto given = info->properties.find(kPropLocation);
      if (given != info->properties.end() && !given->second.empty()) location = given->second;
    }
    if (!location && PathExists(*filesystem_, located.pointer)) {
      ARROW_ASSIGN_OR_RAISE(std::string body, ReadTextFile(*filesystem_, located.pointer));
      while (!body.empty() && (body.back() == '\n' || body.back() == '\r')) body.pop_back();
      location = body;
    }
    if (location) {
      located.location = *location;
      located.external = true;
    } else {
      located.location = dir + "/" + Lower(ident.name);
      located.pointer.clear();
    }
    return located;
  }

  // The view file of `ident` (a catalog name, not a path).
  Result<std::string> ViewFile(const Identifier& ident) const {
    if (IsPathIdentifier(ident)) {
      return InvalidError(
          "UNSUPPORTED_FEATURE.TABLE_OPERATION",
          "A view cannot be named by a path: delta." + QuoteIdentifier(ident.name) + ".");
    }
    for (const auto& part : ident.namespace_path) ARROW_RETURN_NOT_OK(CheckName(part));
    ARROW_RETURN_NOT_OK(CheckName(ident.name));
    return ViewFilePath(NamespaceDir(ident.namespace_path), Lower(ident.name));
  }

  // The objects of `ns` whose files `is_file_name` recognizes (view_files.h, function_files.h),
  // sorted by name.
  Result<std::vector<Identifier>> ListCatalogFiles(const std::vector<std::string>& ns,
                                                   bool (*is_file_name)(const std::string&,
                                                                        std::string*)) {
    ARROW_ASSIGN_OR_RAISE(bool exists, NamespaceExists(ns));
    if (!exists) return SchemaNotFound(ns);
    std::vector<Identifier> out;
    ARROW_ASSIGN_OR_RAISE(auto entries, ListDirectory(NamespaceDir(ns)));
    for (const auto& entry : entries) {
      std::string name;
      if (entry.type() == arrow::fs::FileType::File && is_file_name(entry.base_name(), &name)) {
        out.push_back({ns, name});
      }
    }
    std::sort(out.begin(), out.end(),
              [](const Identifier& a, const Identifier& b) { return a.name < b.name; });
    return out;
  }

  // The function file of `ident` (a catalog name, not a path).
  Result<std::string> FunctionFile(const Identifier& ident) const {
    for (const auto& part : ident.namespace_path) ARROW_RETURN_NOT_OK(CheckName(part));
    ARROW_RETURN_NOT_OK(CheckName(ident.name));
    return FunctionFilePath(NamespaceDir(ident.namespace_path), Lower(ident.name));
  }

  // A table and a view never share a name: TABLE_OR_VIEW_ALREADY_EXISTS when a view has it.
  Status CheckNoViewNamed(const Identifier& ident) const {
    if (IsPathIdentifier(ident)) return Status::OK();
    ARROW_ASSIGN_OR_RAISE(std::string file, ViewFile(ident));
    return PathExists(*filesystem_, file) ? TableAlreadyExists(Display(ident)) : Status::OK();
  }

  // Whether a table (managed, or registered external) is at `located`.
  bool TableExistsAt(const Located& located) const {
    if (!located.pointer.empty() && PathExists(*filesystem_, located.pointer)) return true;
    return !located.external && IsTableDirectory(*filesystem_, RootOf(located.location));
  }

  Status EnsureNamespaceFor(const Identifier& ident) {
    if (IsPathIdentifier(ident)) return Status::OK();
    ARROW_ASSIGN_OR_RAISE(bool exists, NamespaceExists(ident.namespace_path));
    if (!exists) return SchemaNotFound(ident.namespace_path);
    return filesystem_->CreateDir(NamespaceDir(ident.namespace_path), /*recursive=*/true);
  }

  Status WriteNamespaceMetadata(const std::vector<std::string>& ns,
                                const std::map<std::string, std::string>& metadata) {
    std::string file = NamespaceDir(ns) + "/" + kNamespaceMetadataFile;
    std::map<std::string, std::string> kept = metadata;
    kept.erase("location");
    if (kept.empty()) {
      if (PathExists(*filesystem_, file)) return filesystem_->DeleteFile(file);
      return Status::OK();
    }
    std::string body = json(kept).dump();
    ARROW_ASSIGN_OR_RAISE(auto sink, filesystem_->OpenOutputStream(file + ".tmp"));
    ARROW_RETURN_NOT_OK(sink->Write(body.data(), static_cast<int64_t>(body.size())));
    ARROW_RETURN_NOT_OK(sink->Close());
    return filesystem_->Move(file + ".tmp", file);
  }

  Result<std::shared_ptr<const TableState>> LoadState(const Located& located,
                                                      std::optional<int64_t> version,
                                                      std::optional<int64_t> timestamp_ms) const {
    std::string name = located.display;
    if (version) name += "@v" + std::to_string(*version);
    auto state = LoadTableState(located.location, name, version, timestamp_ms);
    if (!state.ok() && ErrorCondition(state.status()) == "DELTA_MISSING_DELTA_TABLE" &&
        !located.path_table) {
      return TableNotFound(located.display);
    }
    return state;
  }

  Result<std::shared_ptr<Table>> Load(const Identifier& ident, std::optional<int64_t> version,
                                      std::optional<int64_t> timestamp_ms) {
    ARROW_ASSIGN_OR_RAISE(Located located, Locate(ident, nullptr));
    if (!located.external && !IsTableDirectory(*filesystem_, RootOf(located.location))) {
      return TableNotFound(located.display);
    }
    ARROW_ASSIGN_OR_RAISE(auto state, LoadState(located, version, timestamp_ms));
    return MakeDeltaTable(std::move(state));
  }

  // The table a procedure's `table` argument names: delta.`/path`, or [catalog.]ns.t or t (in
  // the default namespace).
  Result<std::shared_ptr<Table>> LoadNamed(const std::string& name) {
    ARROW_ASSIGN_OR_RAISE(std::vector<std::string> parts, ParseMultipartIdentifier(name));
    if (parts.size() == 3 && Lower(parts[0]) == Lower(name_)) parts.erase(parts.begin());
    Identifier ident;
    ident.name = parts.back();
    parts.pop_back();
    ident.namespace_path = parts.empty() ? DefaultNamespace() : parts;
    return LoadTable(ident);
  }

  Result<bool> Drop(const Identifier& ident) {
    ARROW_ASSIGN_OR_RAISE(Located located, Locate(ident, nullptr));
    if (located.external) {
      ARROW_RETURN_NOT_OK(filesystem_->DeleteFile(located.pointer));
      return true;
    }
    if (!IsTableDirectory(*filesystem_, RootOf(located.location))) return false;
    if (located.path_table) {
      return InvalidError("UNSUPPORTED_FEATURE.TABLE_OPERATION",
                          "Dropping a path table is not supported: " + located.display +
                              "; delete its directory instead.");
    }
    ARROW_RETURN_NOT_OK(filesystem_->DeleteDir(RootOf(located.location)));
    return true;
  }

  Result<std::shared_ptr<StagedTable>> Stage(const Identifier& ident, const TableInfo& info,
                                             StageKind kind);

  std::string name_;
  std::string warehouse_;
  std::shared_ptr<arrow::fs::FileSystem> filesystem_;
};

// A table created or replaced by CTAS/RTAS (or REPLACE TABLE): its data files are written into
// the table directory; CommitStagedChanges writes one commit with the metadata, the protocol,
// the removal of the old files (replace) and the new files.
class DeltaStagedTable : public StagedTable, public SupportsWrite {
 public:
  DeltaStagedTable(Located located, StageKind kind, NewTableMetadata created,
                   std::shared_ptr<const TableState> state)
      : located_(std::move(located)),
        kind_(kind),
        created_(std::move(created)),
        state_(std::move(state)),
        staged_(std::make_shared<StagedData>()) {}

  std::string name() const override { return state_->name; }
  std::vector<Column> columns() const override { return SchemaToColumns(*state_->schema); }
  std::vector<std::shared_ptr<Transform>> partitioning() const override {
    return IdentityPartitioning(state_->partition_columns);
  }
  std::map<std::string, std::string> properties() const override {
    auto out = created_.metadata.configuration;
    out[kPropProvider] = "delta";
    out[kPropLocation] = located_.location;
    return out;
  }
  std::set<TableCapability> capabilities() const override { return {TableCapability::kBatchWrite}; }
  Result<std::unique_ptr<WriteBuilder>> NewWriteBuilder(const LogicalWriteInfo& info) override {
    return MakeDeltaWriteBuilder(state_, info, staged_);
  }

  Status CommitStagedChanges() override {
    const std::string root = RootOf(located_.location);
    bool exists = IsTableDirectory(*state_->filesystem, root);
    Transaction transaction;
    int64_t read_version = -1;
    std::string verb = "CREATE";
    std::shared_ptr<const Snapshot> current;
    if (exists && kind_ != StageKind::kCreate) {
      ARROW_ASSIGN_OR_RAISE(current, LoadSnapshot(state_->filesystem, root, std::nullopt));
      ARROW_RETURN_NOT_OK(CheckWriteSupported(current->protocol, current->metadata, name()));
      read_version = current->version;
      transaction.removes = current->files;
      created_.protocol = RequiredProtocol(created_.metadata.configuration,
                                           *state_->annotated_schema, current->protocol);
      verb = kind_ == StageKind::kReplace ? "REPLACE" : "CREATE OR REPLACE";
    } else if (exists) {
      return TableAlreadyExists(located_.display);
    } else if (kind_ == StageKind::kReplace) {
      return InvalidError("TABLE_OR_VIEW_NOT_FOUND", "The table " + located_.display +
                                                         " cannot be found: REPLACE TABLE "
                                                         "needs an existing table.");
    }
    std::lock_guard<std::mutex> lock(staged_->mutex);
    transaction.protocol = created_.protocol;
    transaction.metadata = created_.metadata;
    transaction.adds = staged_->adds;
    transaction.operation = verb + " TABLE" + (staged_->written ? " AS SELECT" : "");
    transaction.operation_parameters = {
        {"isManaged", located_.external || located_.path_table ? "false" : "true"},
        {"partitionBy", PartitionByJson(created_.metadata)}};
    int64_t rows = 0, bytes = 0;
    for (const auto& add : transaction.adds) {
      bytes += add.size;
      rows += ParseStatistics(add.stats, {}).num_records.value_or(0);
    }
    transaction.operation_metrics = {{"numFiles", std::to_string(transaction.adds.size())},
                                     {"numOutputRows", std::to_string(rows)},
                                     {"numOutputBytes", std::to_string(bytes)}};
    transaction.checkpoint_interval = CheckpointInterval(created_.protocol, created_.metadata);
    ARROW_ASSIGN_OR_RAISE(
        transaction.row_id_high_water_mark,
        ReadHighWaterMarkFor(created_.protocol, created_.metadata, current.get()));
    auto committed = CommitTransaction(state_->filesystem, root, located_.display, read_version,
                                       std::move(transaction));
    if (!committed.ok()) {
      if (ErrorCondition(committed.status()) == "DELTA_TABLE_ALREADY_EXISTS") {
        return TableAlreadyExists(located_.display);
      }
      return committed.status();
    }
    return WritePointerFile(*state_->filesystem, located_);
  }

  Status AbortStagedChanges() override {
    std::lock_guard<std::mutex> lock(staged_->mutex);
    Status status;
    for (const auto& add : staged_->adds) {
      status &= state_->filesystem->DeleteFile(ResolveDataPath(state_->root, add.path));
    }
    staged_->adds.clear();
    return status;
  }

 private:
  Located located_;
  StageKind kind_;
  NewTableMetadata created_;
  std::shared_ptr<const TableState> state_;
  std::shared_ptr<StagedData> staged_;
};

Result<std::shared_ptr<StagedTable>> DeltaCatalog::Stage(const Identifier& ident,
                                                         const TableInfo& info, StageKind kind) {
  ARROW_ASSIGN_OR_RAISE(Located located, Locate(ident, &info));
  ARROW_RETURN_NOT_OK(EnsureNamespaceFor(ident));
  ARROW_RETURN_NOT_OK(CheckNoViewNamed(ident));
  const std::string root = RootOf(located.location);
  bool exists =
      IsTableDirectory(*filesystem_, root) &&
      (!located.external || PathExists(*filesystem_, located.pointer) || located.path_table);
  if (kind == StageKind::kCreate && exists) return TableAlreadyExists(located.display);
  if (kind == StageKind::kReplace && !exists) return TableNotFound(located.display);
  std::optional<Protocol> current;
  if (exists) {
    ARROW_ASSIGN_OR_RAISE(auto snapshot, LoadSnapshot(filesystem_, root, std::nullopt));
    current = snapshot->protocol;
  }
  ARROW_ASSIGN_OR_RAISE(NewTableMetadata created, MetadataForCreate(info, current));
  ARROW_RETURN_NOT_OK(filesystem_->CreateDir(root, /*recursive=*/true));
  auto snapshot = std::make_shared<Snapshot>();
  snapshot->table_root = root;
  snapshot->protocol = created.protocol;
  snapshot->metadata = created.metadata;
  auto state = std::make_shared<TableState>();
  state->name = located.display;
  state->location = located.location;
  state->filesystem = filesystem_;
  state->root = root;
  state->snapshot = std::move(snapshot);
  ARROW_ASSIGN_OR_RAISE(auto completed, CompleteTableState(std::move(state)));
  return std::make_shared<DeltaStagedTable>(std::move(located), kind, std::move(created),
                                            std::move(completed));
}

}  // namespace

std::shared_ptr<CatalogPlugin> MakeDeltaCatalog() { return std::make_shared<DeltaCatalog>(); }

}  // namespace parley::delta
