// MemoryCatalog: the namespace tree and the table map of the `memory` catalog, guarded by one
// mutex. Namespaces and tables are keyed by their lower-cased names so that lookups ignore case
// while listings return names as they were created. Error messages follow Spark's
// error-conditions wording for the same situations.
#include "memory_catalog.h"

#include <algorithm>
#include <utility>

#include "arrow/table.h"
#include "memory_alter_internal.h"
#include "names_internal.h"
#include "parley/connector/status.h"

namespace parley::memory {
namespace {

constexpr const char* kDefaultNamespaceOption = "default-namespace";

bool StartsWith(const std::vector<std::string>& path, const std::vector<std::string>& prefix) {
  return path.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), path.begin());
}

}  // namespace

Status MemoryCatalog::Initialize(const std::string& name, const Options& options) {
  std::vector<std::string> default_namespace = {"default"};
  if (auto it = options.find(kDefaultNamespaceOption); it != options.end()) {
    default_namespace.clear();
    const std::string& value = it->second;
    for (size_t start = 0; !value.empty() && start <= value.size();) {
      size_t end = std::min(value.find('.', start), value.size());
      default_namespace.push_back(value.substr(start, end - start));
      start = end + 1;
    }
    ARROW_RETURN_NOT_OK(CheckNames(default_namespace));
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    name_ = name;
    default_namespace_ = default_namespace;
  }
  if (default_namespace.empty()) return Status::OK();
  ARROW_ASSIGN_OR_RAISE(bool exists, NamespaceExists(default_namespace));
  return exists ? Status::OK() : CreateNamespace(default_namespace, {});
}

std::string MemoryCatalog::name() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return name_;
}

std::vector<std::string> MemoryCatalog::DefaultNamespace() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return default_namespace_;
}

// ---- Tables

std::string MemoryCatalog::DisplayNameLocked(const Identifier& ident) const {
  return QuoteIdentifier(name_) + "." + ident.ToString();
}

Result<std::shared_ptr<MemoryTable>> MemoryCatalog::FindTableLocked(const Identifier& ident) const {
  auto it = tables_.find({PathKey(ident.namespace_path), ToLowerAscii(ident.name)});
  if (it == tables_.end()) return TableNotFound(ident);
  return it->second.table;
}

Result<std::vector<Identifier>> MemoryCatalog::ListTables(
    const std::vector<std::string>& namespace_path) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto key = PathKey(namespace_path);
  if (namespaces_.count(key) == 0) return SchemaNotFound(namespace_path);
  std::vector<Identifier> out;
  for (auto it = tables_.lower_bound({key, ""}); it != tables_.end() && it->first.first == key;
       ++it) {
    out.push_back(it->second.ident);
  }
  return out;
}

Result<std::shared_ptr<Table>> MemoryCatalog::LoadTable(const Identifier& ident) {
  std::lock_guard<std::mutex> lock(mutex_);
  ARROW_ASSIGN_OR_RAISE(auto table, FindTableLocked(ident));
  return table;
}

Result<bool> MemoryCatalog::TableExists(const Identifier& ident) {
  std::lock_guard<std::mutex> lock(mutex_);
  return tables_.count({PathKey(ident.namespace_path), ToLowerAscii(ident.name)}) > 0;
}

Status MemoryCatalog::CheckTableInfoLocked(const Identifier& ident, const TableInfo& info) const {
  ARROW_RETURN_NOT_OK(CheckNames(ident.namespace_path));
  ARROW_RETURN_NOT_OK(CheckNames({ident.name}));
  std::vector<std::string> seen;
  for (const auto& column : info.columns) {
    std::string key = ToLowerAscii(column.name);
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      return InvalidError("COLUMN_ALREADY_EXISTS",
                          "The column " + QuoteIdentifier(column.name) +
                              " already exists. Choose another name or rename the existing "
                              "column.");
    }
    seen.push_back(std::move(key));
  }
  if (namespaces_.count(PathKey(ident.namespace_path)) == 0) {
    return SchemaNotFound(ident.namespace_path);
  }
  return Status::OK();
}

Result<std::shared_ptr<Table>> MemoryCatalog::CreateTable(const Identifier& ident,
                                                          const TableInfo& info) {
  std::lock_guard<std::mutex> lock(mutex_);
  ARROW_RETURN_NOT_OK(CheckTableInfoLocked(ident, info));
  auto ns = namespaces_.find(PathKey(ident.namespace_path));
  TableKey key{ns->first, ToLowerAscii(ident.name)};
  if (tables_.count(key) > 0 || views_.count(key) > 0) return TableAlreadyExists(ident);
  Identifier stored{ns->second.path, ident.name};
  auto table = std::make_shared<MemoryTable>(DisplayNameLocked(stored), info);
  tables_.emplace(std::move(key), TableEntry{std::move(stored), table});
  return table;
}

Result<std::shared_ptr<Table>> MemoryCatalog::AlterTable(const Identifier& ident,
                                                         const std::vector<TableChange>& changes) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = tables_.find({PathKey(ident.namespace_path), ToLowerAscii(ident.name)});
  if (it == tables_.end()) return TableNotFound(ident);
  ARROW_ASSIGN_OR_RAISE(auto altered, AlterMemoryTable(*it->second.table, changes));
  auto table = std::make_shared<MemoryTable>(it->second.table->name(), std::move(altered.info));
  ARROW_RETURN_NOT_OK(table->ReplaceData(altered.data));
  it->second.table = table;
  return table;
}

Result<bool> MemoryCatalog::PurgeTable(const Identifier& ident) { return DropTable(ident); }

// ---- Staged tables (atomic CTAS / RTAS)

/// A table staged by MemoryCatalog::Stage*: reads and writes go to a MemoryTable outside the
/// catalog until CommitStagedChanges puts it in place.
class MemoryStagedTable : public StagedTable, public SupportsRead, public SupportsWrite {
 public:
  MemoryStagedTable(MemoryCatalog* catalog, Identifier ident, TableInfo info,
                    std::shared_ptr<MemoryTable> table, MemoryCatalog::StageKind kind)
      : catalog_(catalog),
        ident_(std::move(ident)),
        info_(std::move(info)),
        table_(std::move(table)),
        kind_(kind) {}

  std::string name() const override { return table_->name(); }
  std::vector<Column> columns() const override { return table_->columns(); }
  std::vector<std::shared_ptr<Transform>> partitioning() const override {
    return table_->partitioning();
  }
  std::map<std::string, std::string> properties() const override { return table_->properties(); }
  std::set<TableCapability> capabilities() const override { return table_->capabilities(); }

  Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options& options) override {
    return table_->NewScanBuilder(options);
  }
  Result<std::unique_ptr<WriteBuilder>> NewWriteBuilder(const LogicalWriteInfo& info) override {
    return table_->NewWriteBuilder(info);
  }

  Status CommitStagedChanges() override {
    return catalog_->PublishStaged(ident_, info_, table_, kind_);
  }
  Status AbortStagedChanges() override { return Status::OK(); }

 private:
  MemoryCatalog* catalog_;
  Identifier ident_;
  TableInfo info_;
  std::shared_ptr<MemoryTable> table_;
  MemoryCatalog::StageKind kind_;
};

Result<std::shared_ptr<StagedTable>> MemoryCatalog::Stage(const Identifier& ident,
                                                          const TableInfo& info, StageKind kind) {
  std::lock_guard<std::mutex> lock(mutex_);
  ARROW_RETURN_NOT_OK(CheckTableInfoLocked(ident, info));
  auto ns = namespaces_.find(PathKey(ident.namespace_path));
  bool exists = tables_.count({ns->first, ToLowerAscii(ident.name)}) > 0;
  if (views_.count({ns->first, ToLowerAscii(ident.name)}) > 0) return TableAlreadyExists(ident);
  if (kind == StageKind::kCreate && exists) return TableAlreadyExists(ident);
  if (kind == StageKind::kReplace && !exists) return TableNotFound(ident);
  Identifier stored{ns->second.path, ident.name};
  auto table = std::make_shared<MemoryTable>(DisplayNameLocked(stored), info);
  return std::make_shared<MemoryStagedTable>(this, std::move(stored), info, std::move(table), kind);
}

Result<std::shared_ptr<StagedTable>> MemoryCatalog::StageCreate(const Identifier& ident,
                                                                const TableInfo& info) {
  return Stage(ident, info, StageKind::kCreate);
}

Result<std::shared_ptr<StagedTable>> MemoryCatalog::StageReplace(const Identifier& ident,
                                                                 const TableInfo& info) {
  return Stage(ident, info, StageKind::kReplace);
}

Result<std::shared_ptr<StagedTable>> MemoryCatalog::StageCreateOrReplace(const Identifier& ident,
                                                                         const TableInfo& info) {
  return Stage(ident, info, StageKind::kCreateOrReplace);
}

Status MemoryCatalog::PublishStaged(const Identifier& ident, const TableInfo& info,
                                    const std::shared_ptr<MemoryTable>& staged, StageKind kind) {
  std::lock_guard<std::mutex> lock(mutex_);
  ARROW_RETURN_NOT_OK(CheckTableInfoLocked(ident, info));
  auto ns = namespaces_.find(PathKey(ident.namespace_path));
  TableKey key{ns->first, ToLowerAscii(ident.name)};
  bool exists = tables_.count(key) > 0;
  if (views_.count(key) > 0) return TableAlreadyExists(ident);
  if (kind == StageKind::kCreate && exists) return TableAlreadyExists(ident);
  if (kind == StageKind::kReplace && !exists) return TableNotFound(ident);
  tables_.insert_or_assign(std::move(key), TableEntry{ident, staged});
  return Status::OK();
}

Result<bool> MemoryCatalog::DropTable(const Identifier& ident) {
  std::lock_guard<std::mutex> lock(mutex_);
  return tables_.erase({PathKey(ident.namespace_path), ToLowerAscii(ident.name)}) > 0;
}

Status MemoryCatalog::RenameTable(const Identifier& from, const Identifier& to) {
  ARROW_RETURN_NOT_OK(CheckNames({to.name}));
  std::lock_guard<std::mutex> lock(mutex_);
  TableKey from_key{PathKey(from.namespace_path), ToLowerAscii(from.name)};
  auto source = tables_.find(from_key);
  if (source == tables_.end()) return TableNotFound(from);
  auto ns = namespaces_.find(PathKey(to.namespace_path));
  if (ns == namespaces_.end()) return SchemaNotFound(to.namespace_path);
  TableKey to_key{ns->first, ToLowerAscii(to.name)};
  // A rename that only changes the case of the name targets the table itself.
  if (to_key != from_key && (tables_.count(to_key) > 0 || views_.count(to_key) > 0)) {
    return TableAlreadyExists(to);
  }

  TableEntry entry = std::move(source->second);
  tables_.erase(source);
  entry.ident = Identifier{ns->second.path, to.name};
  entry.table->set_name(DisplayNameLocked(entry.ident));
  tables_.emplace(std::move(to_key), std::move(entry));
  return Status::OK();
}

Status MemoryCatalog::AppendData(const Identifier& ident,
                                 const std::shared_ptr<arrow::Table>& data) {
  std::shared_ptr<MemoryTable> table;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ARROW_ASSIGN_OR_RAISE(table, FindTableLocked(ident));
  }
  return table->AppendData(data);
}

// ---- Namespaces

Result<std::vector<std::vector<std::string>>> MemoryCatalog::ListNamespaces(
    const std::vector<std::string>& parent) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto key = PathKey(parent);
  if (!parent.empty() && namespaces_.count(key) == 0) return SchemaNotFound(parent);
  std::vector<std::vector<std::string>> out;
  for (const auto& [ns_key, entry] : namespaces_) {
    if (ns_key.size() == key.size() + 1 && StartsWith(ns_key, key)) out.push_back(entry.path);
  }
  return out;
}

Result<bool> MemoryCatalog::NamespaceExists(const std::vector<std::string>& namespace_path) {
  std::lock_guard<std::mutex> lock(mutex_);
  return namespaces_.count(PathKey(namespace_path)) > 0;
}

Status MemoryCatalog::CreateNamespace(const std::vector<std::string>& namespace_path,
                                      const std::map<std::string, std::string>& metadata) {
  if (namespace_path.empty()) return InvalidName("");
  ARROW_RETURN_NOT_OK(CheckNames(namespace_path));
  std::lock_guard<std::mutex> lock(mutex_);
  if (namespaces_.count(PathKey(namespace_path)) > 0) {
    return InvalidError("SCHEMA_ALREADY_EXISTS",
                        "Cannot create schema " + QuotePath(namespace_path) +
                            " because it already exists. Choose a different name, drop the "
                            "existing schema, or add the IF NOT EXISTS clause to tolerate "
                            "pre-existing schema.");
  }
  std::vector<std::string> path;
  for (const auto& part : namespace_path) {
    path.push_back(part);
    // Ancestors that exist keep their own case and metadata; missing ones get none.
    namespaces_.try_emplace(PathKey(path), NamespaceEntry{path, {}});
  }
  namespaces_[PathKey(namespace_path)].metadata = metadata;
  return Status::OK();
}

Result<bool> MemoryCatalog::DropNamespace(const std::vector<std::string>& namespace_path,
                                          bool cascade) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto key = PathKey(namespace_path);
  if (namespace_path.empty() || namespaces_.count(key) == 0) return false;
  if (!default_namespace_.empty() && StartsWith(PathKey(default_namespace_), key)) {
    return InvalidError("UNSUPPORTED_FEATURE.DROP_DATABASE",
                        "The feature is not supported: Drop the default database " +
                            QuotePath(default_namespace_) + ".");
  }
  auto in_subtree = [&key](const std::vector<std::string>& path) { return StartsWith(path, key); };
  bool has_children = std::any_of(namespaces_.begin(), namespaces_.end(), [&](const auto& ns) {
    return ns.first.size() > key.size() && in_subtree(ns.first);
  });
  bool has_tables = std::any_of(tables_.begin(), tables_.end(),
                                [&](const auto& table) { return in_subtree(table.first.first); }) ||
                    std::any_of(views_.begin(), views_.end(),
                                [&](const auto& view) { return in_subtree(view.first.first); }) ||
                    std::any_of(functions_.begin(), functions_.end(), [&](const auto& function) {
                      return in_subtree(function.first.first);
                    });
  if (!cascade && (has_children || has_tables)) {
    return InvalidError("SCHEMA_NOT_EMPTY",
                        "Cannot drop a schema " + QuotePath(namespace_path) +
                            " because it contains objects. Use DROP SCHEMA ... CASCADE to drop "
                            "the schema and all its objects.");
  }
  std::erase_if(tables_, [&](const auto& table) { return in_subtree(table.first.first); });
  std::erase_if(views_, [&](const auto& view) { return in_subtree(view.first.first); });
  std::erase_if(functions_, [&](const auto& function) { return in_subtree(function.first.first); });
  std::erase_if(namespaces_, [&](const auto& ns) { return in_subtree(ns.first); });
  return true;
}

Result<std::map<std::string, std::string>> MemoryCatalog::LoadNamespaceMetadata(
    const std::vector<std::string>& namespace_path) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = namespaces_.find(PathKey(namespace_path));
  if (it == namespaces_.end()) return SchemaNotFound(namespace_path);
  return it->second.metadata;
}

Status MemoryCatalog::AlterNamespace(const std::vector<std::string>& namespace_path,
                                     const std::vector<NamespaceChange>& changes) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = namespaces_.find(PathKey(namespace_path));
  if (it == namespaces_.end()) return SchemaNotFound(namespace_path);
  for (const auto& change : changes) {
    if (change.remove) {
      it->second.metadata.erase(change.key);
    } else {
      it->second.metadata[change.key] = change.value;
    }
  }
  return Status::OK();
}

std::shared_ptr<CatalogPlugin> MakeMemoryCatalog() { return std::make_shared<MemoryCatalog>(); }

std::set<TableCatalogCapability> MemoryCatalog::capabilities() const {
  return {TableCatalogCapability::kSupportChangelog};
}

Result<std::shared_ptr<Changelog>> MemoryCatalog::LoadChangelog(const Identifier& ident,
                                                                const ChangelogInfo& info) {
  MemoryChangelogData data;
  std::string default_name;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    TableKey key{PathKey(ident.namespace_path), ToLowerAscii(ident.name)};
    auto it = changelogs_.find(key);
    if (it != changelogs_.end()) {
      data = it->second;
    } else {
      ARROW_ASSIGN_OR_RAISE(auto table, FindTableLocked(ident));
      ARROW_ASSIGN_OR_RAISE(auto rows,
                            arrow::Table::FromRecordBatches(table->schema(), table->batches()));
      auto declared = ChangelogFromProperties(table->properties(), std::move(rows));
      if (!declared) {
        return MakeErrorWithParameters(
            arrow::StatusCode::Invalid, "UNSUPPORTED_FEATURE.CHANGE_DATA_CAPTURE",
            {{"catalogName", name_}},
            "The feature is not supported: the table " + DisplayNameLocked(ident) +
                " keeps no change data (see the 'parley.changelog' table property).");
      }
      data = std::move(*declared);
    }
    default_name = name_ + "." + ident.name + "_changelog";
  }
  std::string name = data.name.empty() ? default_name : data.name;
  return MakeMemoryChangelog(std::move(name), data, info);
}

void MemoryCatalog::SetChangelog(const Identifier& ident, MemoryChangelogData data) {
  std::lock_guard<std::mutex> lock(mutex_);
  changelogs_[{PathKey(ident.namespace_path), ToLowerAscii(ident.name)}] = std::move(data);
}

}  // namespace parley::memory
