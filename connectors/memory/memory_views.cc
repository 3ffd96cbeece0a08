// MemoryCatalog's views: ViewInfo kept in a map beside the tables, keyed the same way, so that
// one name is a table or a view, never both.
#include "memory_catalog.h"
#include "names_internal.h"

namespace parley::memory {

Result<std::vector<Identifier>> MemoryCatalog::ListViews(
    const std::vector<std::string>& namespace_path) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto key = PathKey(namespace_path);
  if (namespaces_.count(key) == 0) return SchemaNotFound(namespace_path);
  std::vector<Identifier> out;
  for (auto it = views_.lower_bound({key, ""}); it != views_.end() && it->first.first == key;
       ++it) {
    out.push_back(it->second.ident);
  }
  return out;
}

Result<ViewInfo> MemoryCatalog::LoadView(const Identifier& ident) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = views_.find({PathKey(ident.namespace_path), ToLowerAscii(ident.name)});
  if (it == views_.end()) return TableNotFound(ident);
  return it->second.info;
}

Status MemoryCatalog::CreateView(const Identifier& ident, const ViewInfo& info) {
  ARROW_RETURN_NOT_OK(CheckNames({ident.name}));
  std::lock_guard<std::mutex> lock(mutex_);
  auto ns = namespaces_.find(PathKey(ident.namespace_path));
  if (ns == namespaces_.end()) return SchemaNotFound(ident.namespace_path);
  TableKey key{ns->first, ToLowerAscii(ident.name)};
  if (tables_.count(key) > 0 || views_.count(key) > 0) return TableAlreadyExists(ident);
  views_.emplace(std::move(key), ViewEntry{Identifier{ns->second.path, ident.name}, info});
  return Status::OK();
}

Status MemoryCatalog::ReplaceView(const Identifier& ident, const ViewInfo& info) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = views_.find({PathKey(ident.namespace_path), ToLowerAscii(ident.name)});
  if (it == views_.end()) return TableNotFound(ident);
  it->second.info = info;
  return Status::OK();
}

Result<bool> MemoryCatalog::DropView(const Identifier& ident) {
  std::lock_guard<std::mutex> lock(mutex_);
  return views_.erase({PathKey(ident.namespace_path), ToLowerAscii(ident.name)}) > 0;
}

Status MemoryCatalog::RenameView(const Identifier& from, const Identifier& to) {
  ARROW_RETURN_NOT_OK(CheckNames({to.name}));
  std::lock_guard<std::mutex> lock(mutex_);
  TableKey from_key{PathKey(from.namespace_path), ToLowerAscii(from.name)};
  auto source = views_.find(from_key);
  if (source == views_.end()) return TableNotFound(from);
  auto ns = namespaces_.find(PathKey(to.namespace_path));
  if (ns == namespaces_.end()) return SchemaNotFound(to.namespace_path);
  TableKey to_key{ns->first, ToLowerAscii(to.name)};
  if (to_key != from_key && (tables_.count(to_key) > 0 || views_.count(to_key) > 0)) {
    return TableAlreadyExists(to);
  }
  ViewEntry entry = std::move(source->second);
  views_.erase(source);
  entry.ident = Identifier{ns->second.path, to.name};
  views_.emplace(std::move(to_key), std::move(entry));
  return Status::OK();
}

Result<Relation> MemoryCatalog::LoadRelation(const Identifier& ident) {
  std::lock_guard<std::mutex> lock(mutex_);
  TableKey key{PathKey(ident.namespace_path), ToLowerAscii(ident.name)};
  if (auto view = views_.find(key); view != views_.end())
    return Relation{nullptr, view->second.info};
  ARROW_ASSIGN_OR_RAISE(auto table, FindTableLocked(ident));
  return Relation{std::move(table), std::nullopt};
}

Result<std::vector<RelationSummary>> MemoryCatalog::ListRelationSummaries(
    const std::vector<std::string>& namespace_path) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto key = PathKey(namespace_path);
  if (namespaces_.count(key) == 0) return SchemaNotFound(namespace_path);
  std::map<std::string, RelationSummary> by_name;
  for (auto it = tables_.lower_bound({key, ""}); it != tables_.end() && it->first.first == key;
       ++it) {
    by_name[it->first.second] = {it->second.ident, RelationSummary::Kind::kTable};
  }
  for (auto it = views_.lower_bound({key, ""}); it != views_.end() && it->first.first == key;
       ++it) {
    by_name[it->first.second] = {it->second.ident, RelationSummary::Kind::kView};
  }
  std::vector<RelationSummary> out;
  for (auto& [name, summary] : by_name) out.push_back(std::move(summary));
  return out;
}

}  // namespace parley::memory
