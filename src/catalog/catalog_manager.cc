// CatalogManager: catalogs from configuration, the current catalog/namespace, and Spark's rules
// for resolving multi-part names.
#include "catalog/catalog_manager.h"

#include <fmt/format.h>

#include <algorithm>
#include <mutex>

#include "catalog/identifiers.h"

namespace parley {
namespace {

bool LooksLikeLibraryPath(const std::string& plugin) {
  return plugin.find('/') != std::string::npos ||
         (plugin.size() > 3 && plugin.compare(plugin.size() - 3, 3, ".so") == 0);
}

Status SchemaNotFound(const std::string& catalog, const std::vector<std::string>& ns) {
  return MakeError(arrow::StatusCode::KeyError, "SCHEMA_NOT_FOUND",
                   fmt::format("The schema {}.{} cannot be found. Verify the spelling and "
                               "correctness of the schema and catalog.",
                               QuoteIdentifier(catalog), NamespaceToString(ns)));
}

}  // namespace

std::string NamespaceToString(const std::vector<std::string>& namespace_path) {
  std::string out;
  for (size_t i = 0; i < namespace_path.size(); ++i) {
    if (i > 0) out += '.';
    out += QuoteIdentifier(namespace_path[i]);
  }
  return out;
}

void PluginRegistry::Register(const std::string& name, Factory factory) {
  factories_[ToLowerAscii(name)] = std::move(factory);
}

const PluginRegistry::Factory* PluginRegistry::Find(const std::string& name) const {
  auto it = factories_.find(ToLowerAscii(name));
  return it == factories_.end() ? nullptr : &it->second;
}

void PluginRegistry::RegisterProvider(const std::string& format,
                                      std::shared_ptr<TableProvider> provider) {
  providers_[ToLowerAscii(format)] = std::move(provider);
}

std::shared_ptr<TableProvider> PluginRegistry::FindProvider(const std::string& format) const {
  auto it = providers_.find(ToLowerAscii(format));
  return it == providers_.end() ? nullptr : it->second;
}

std::shared_ptr<TableProvider> CatalogManager::PathProvider(
    const std::vector<std::string>& parts) const {
  if (parts.size() != 2 || IsCatalog(parts[0])) return nullptr;
  return registry_.FindProvider(parts[0]);
}

Result<std::shared_ptr<CatalogPlugin>> CatalogManager::FormatCatalog(const std::string& format) {
  const std::string name = ToLowerAscii(format);
  if (auto it = format_catalogs_.find(name); it != format_catalogs_.end()) return it->second;
  const auto* factory = registry_.Find(name);
  if (factory == nullptr) return nullptr;
  std::shared_ptr<CatalogPlugin> catalog = (*factory)();
  ARROW_RETURN_NOT_OK(CheckRelationCatalogRule(*catalog, name));
  ARROW_RETURN_NOT_OK(catalog->Initialize(name, CatalogOptions(name)));
  format_catalogs_[name] = catalog;
  return catalog;
}

const TempView* CatalogManager::FindTempView(const std::string& name) const {
  auto it = temp_views_.find(ToLowerAscii(name));
  return it == temp_views_.end() ? nullptr : &it->second;
}

std::optional<TempView> CatalogManager::PutTempView(const std::string& name, TempView view) {
  std::optional<TempView> previous;
  auto [it, inserted] = temp_views_.try_emplace(ToLowerAscii(name));
  if (!inserted) previous = std::move(it->second);
  it->second = std::move(view);
  return previous;
}

bool CatalogManager::DropTempView(const std::string& name) {
  return temp_views_.erase(ToLowerAscii(name)) > 0;
}

std::vector<std::string> CatalogManager::TempViewNames() const {
  std::vector<std::string> names;
  for (const auto& [name, view] : temp_views_) names.push_back(name);
  return names;
}

namespace {

// The process's global temporary views by lower-cased name, shared by every session.
struct GlobalTempViews {
  std::mutex mutex;
  std::map<std::string, TempView> views;
};

GlobalTempViews& GlobalViews() {
  static GlobalTempViews views;
  return views;
}

}  // namespace

std::string CatalogManager::GlobalTempDatabase() const {
  return ToLowerAscii(conf_->Get("spark.sql.globalTempDatabase").value_or("global_temp"));
}

std::optional<TempView> CatalogManager::FindGlobalTempView(const std::string& name) const {
  auto& global = GlobalViews();
  std::lock_guard<std::mutex> lock(global.mutex);
  auto it = global.views.find(ToLowerAscii(name));
  if (it == global.views.end()) return std::nullopt;
  return it->second;
}

bool CatalogManager::PutGlobalTempView(const std::string& name, TempView view) {
  auto& global = GlobalViews();
  std::lock_guard<std::mutex> lock(global.mutex);
  auto [it, inserted] = global.views.insert_or_assign(ToLowerAscii(name), std::move(view));
  return !inserted;
}

bool CatalogManager::DropGlobalTempView(const std::string& name) {
  auto& global = GlobalViews();
  std::lock_guard<std::mutex> lock(global.mutex);
  return global.views.erase(ToLowerAscii(name)) > 0;
}

std::vector<std::string> CatalogManager::GlobalTempViewNames() const {
  auto& global = GlobalViews();
  std::lock_guard<std::mutex> lock(global.mutex);
  std::vector<std::string> names;
  for (const auto& [name, view] : global.views) names.push_back(name);
  return names;
}

std::shared_ptr<UnboundFunction> CatalogManager::FindTempFunction(const std::string& name) const {
  auto it = temp_functions_.find(ToLowerAscii(name));
  return it == temp_functions_.end() ? nullptr : it->second;
}

std::vector<std::string> CatalogManager::TempFunctionNames() const {
  std::vector<std::string> names;
  for (const auto& [name, function] : temp_functions_) names.push_back(name);
  return names;
}

void CatalogManager::PutTempFunction(const std::string& name,
                                     std::shared_ptr<UnboundFunction> function) {
  temp_functions_[ToLowerAscii(name)] = std::move(function);
}

bool CatalogManager::DropTempFunction(const std::string& name) {
  return temp_functions_.erase(ToLowerAscii(name)) > 0;
}

CatalogManager::CurrentOverride::CurrentOverride(CatalogManager* manager, std::string catalog,
                                                 std::vector<std::string> namespace_path,
                                                 const std::map<std::string, std::string>& conf)
    : manager_(manager),
      catalog_(manager->current_catalog_),
      namespace_(manager->current_namespace_) {
  manager_->current_catalog_ = std::move(catalog);
  manager_->current_namespace_ = std::move(namespace_path);
  SetConf(conf);
}

CatalogManager::CurrentOverride::CurrentOverride(CatalogManager* manager,
                                                 const std::map<std::string, std::string>& conf)
    : manager_(manager),
      catalog_(manager->current_catalog_),
      namespace_(manager->current_namespace_) {
  SetConf(conf);
}

void CatalogManager::CurrentOverride::SetConf(const std::map<std::string, std::string>& conf) {
  for (const auto& [key, value] : conf) {
    const auto& set = manager_->conf_->explicit_values();
    auto before = set.find(key);
    replaced_conf_.emplace_back(
        key, before == set.end() ? std::nullopt : std::optional<std::string>(before->second));
    manager_->conf_->Set(key, value);
  }
}

CatalogManager::CurrentOverride::~CurrentOverride() {
  manager_->current_catalog_ = std::move(catalog_);
  manager_->current_namespace_ = std::move(namespace_);
  for (auto it = replaced_conf_.rbegin(); it != replaced_conf_.rend(); ++it) {
    if (it->second) {
      manager_->conf_->Set(it->first, *it->second);
    } else {
      manager_->conf_->Unset(it->first);
    }
  }
}

Options CatalogManager::CatalogOptions(const std::string& name) const {
  Options options;
  for (const auto& [key, value] : conf_->WithPrefix(kCatalogKeyPrefix + name + ".")) {
    options[ToLowerAscii(key)] = value;
  }
  return options;
}

CatalogManager::CatalogManager(SqlConf* conf, PluginRegistry registry)
    : conf_(conf), registry_(std::move(registry)) {}

Result<std::shared_ptr<CatalogPlugin>> CatalogManager::Catalog(const std::string& name) {
  if (auto it = registered_.find(name); it != registered_.end()) return it->second;
  if (auto it = catalogs_.find(name); it != catalogs_.end()) return it->second;
  auto plugin = conf_->Get(kCatalogKeyPrefix + name);
  if (!plugin) {
    return MakeError(arrow::StatusCode::KeyError, "CATALOG_NOT_FOUND",
                     fmt::format("The catalog {} not found. Consider to set the SQL config "
                                 "{}{} to a catalog plugin.",
                                 QuoteIdentifier(name), kCatalogKeyPrefix, name));
  }
  std::shared_ptr<CatalogPlugin> catalog;
  if (const auto* factory = registry_.Find(*plugin)) {
    catalog = (*factory)();
  } else if (LooksLikeLibraryPath(*plugin)) {
    ARROW_ASSIGN_OR_RAISE(catalog, LoadPluginLibrary(name, *plugin));
  } else {
    return InvalidError("CATALOG_PLUGIN_NOT_FOUND",
                        fmt::format("The plugin '{}' of catalog {} is neither a built-in "
                                    "connector nor a shared library path.",
                                    *plugin, QuoteIdentifier(name)));
  }
  ARROW_RETURN_NOT_OK(CheckRelationCatalogRule(*catalog, name));
  ARROW_RETURN_NOT_OK(catalog->Initialize(name, CatalogOptions(name)));
  catalogs_[name] = catalog;
  return catalog;
}

Status CatalogManager::Register(const std::string& name, std::shared_ptr<CatalogPlugin> catalog) {
  ARROW_RETURN_NOT_OK(CheckRelationCatalogRule(*catalog, name));
  ARROW_RETURN_NOT_OK(catalog->Initialize(name, CatalogOptions(name)));
  registered_[name] = std::move(catalog);
  return Status::OK();
}

bool CatalogManager::IsCatalog(const std::string& name) const {
  return registered_.count(name) > 0 || conf_->Get(kCatalogKeyPrefix + name).has_value();
}

std::vector<std::string> CatalogManager::CatalogNames() const {
  std::vector<std::string> names;
  for (const auto& [name, catalog] : registered_) names.push_back(name);
  for (const auto& [key, value] : conf_->WithPrefix(kCatalogKeyPrefix)) {
    if (key.find('.') == std::string::npos) names.push_back(key);
  }
  names.push_back(kSessionCatalogName);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

void CatalogManager::Invalidate(const std::string& name) {
  catalogs_.erase(name);
  if (current_catalog_ == name) current_namespace_.reset();
}

std::string CatalogManager::current_catalog() const {
  if (current_catalog_) return *current_catalog_;
  return conf_->Get(kDefaultCatalogKey).value_or(kSessionCatalogName);
}

Result<std::vector<std::string>> CatalogManager::CurrentNamespace() {
  if (current_namespace_) return *current_namespace_;
  ARROW_ASSIGN_OR_RAISE(auto catalog, Catalog(current_catalog()));
  return catalog->DefaultNamespace();
}

Status CatalogManager::CheckSessionNamespace(const std::string& catalog,
                                             const std::vector<std::string>& ns) const {
  if (catalog == kSessionCatalogName && ns.size() != 1) {
    return InvalidError("REQUIRES_SINGLE_PART_NAMESPACE",
                        fmt::format("{} requires a single-part namespace, but got {}.",
                                    kSessionCatalogName, NamespaceToString(ns)));
  }
  return Status::OK();
}

Status CatalogManager::Use(const std::vector<std::string>& parts) {
  std::string catalog_name = current_catalog();
  std::vector<std::string> ns = parts;
  if (!parts.empty() && IsCatalog(parts[0])) {
    catalog_name = parts[0];
    ns.assign(parts.begin() + 1, parts.end());
  }
  ARROW_ASSIGN_OR_RAISE(auto catalog, Catalog(catalog_name));
  if (ns.empty()) ns = catalog->DefaultNamespace();
  if (!ns.empty()) {
    ARROW_RETURN_NOT_OK(CheckSessionNamespace(catalog_name, ns));
    if (auto* namespaces = dynamic_cast<SupportsNamespaces*>(catalog.get())) {
      ARROW_ASSIGN_OR_RAISE(bool exists, namespaces->NamespaceExists(ns));
      if (!exists) return SchemaNotFound(catalog_name, ns);
    }
  }
  current_catalog_ = catalog_name;
  current_namespace_ = ns;
  return Status::OK();
}

Result<ResolvedName> CatalogManager::ResolveTableName(const std::vector<std::string>& parts) {
  if (parts.empty()) return Status::Invalid("empty table name");
  std::string catalog_name = current_catalog();
  std::vector<std::string> ns;
  if (parts.size() == 1) {
    ARROW_ASSIGN_OR_RAISE(ns, CurrentNamespace());
  } else if (IsCatalog(parts[0])) {
    catalog_name = parts[0];
    ns.assign(parts.begin() + 1, parts.end() - 1);
    if (ns.empty() && catalog_name == kSessionCatalogName) ns = {"default"};
  } else {
    ns.assign(parts.begin(), parts.end() - 1);
  }
  ARROW_RETURN_NOT_OK(CheckSessionNamespace(catalog_name, ns));
  ARROW_ASSIGN_OR_RAISE(auto catalog, Catalog(catalog_name));
  return ResolvedName{std::move(catalog), Identifier{std::move(ns), parts.back()}};
}

Result<std::pair<std::shared_ptr<CatalogPlugin>, std::vector<std::string>>>
CatalogManager::ResolveNamespace(const std::vector<std::string>& parts, bool must_exist) {
  std::string catalog_name = current_catalog();
  std::vector<std::string> ns = parts;
  if (!parts.empty() && IsCatalog(parts[0])) {
    catalog_name = parts[0];
    ns.assign(parts.begin() + 1, parts.end());
  }
  ARROW_ASSIGN_OR_RAISE(auto catalog, Catalog(catalog_name));
  if (!ns.empty()) {
    ARROW_RETURN_NOT_OK(CheckSessionNamespace(catalog_name, ns));
    auto* namespaces = dynamic_cast<SupportsNamespaces*>(catalog.get());
    if (must_exist && namespaces != nullptr) {
      ARROW_ASSIGN_OR_RAISE(bool exists, namespaces->NamespaceExists(ns));
      if (!exists) return SchemaNotFound(catalog_name, ns);
    }
  }
  return std::make_pair(std::move(catalog), std::move(ns));
}

}  // namespace parley
