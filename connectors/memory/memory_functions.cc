// MemoryCatalog's SQL functions: SqlFunctionInfo kept in a map keyed as tables are, in a name
// space of their own (a function may share a table's name, as in Spark).
#include "memory_catalog.h"
#include "names_internal.h"

namespace parley::memory {

Result<std::vector<Identifier>> MemoryCatalog::ListFunctions(
    const std::vector<std::string>& namespace_path) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto key = PathKey(namespace_path);
  if (namespaces_.count(key) == 0) return SchemaNotFound(namespace_path);
  std::vector<Identifier> out;
  for (auto it = functions_.lower_bound({key, ""});
       it != functions_.end() && it->first.first == key; ++it) {
    out.push_back(it->second.ident);
  }
  return out;
}

Result<std::shared_ptr<UnboundFunction>> MemoryCatalog::LoadFunction(const Identifier& ident) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = functions_.find({PathKey(ident.namespace_path), ToLowerAscii(ident.name)});
  if (it == functions_.end()) return Status::KeyError("no function ", ident.ToString());
  return std::make_shared<SqlFunction>(ToLowerAscii(ident.name), it->second.info);
}

Status MemoryCatalog::CreateSqlFunction(const Identifier& ident, const SqlFunctionInfo& info,
                                        bool replace) {
  ARROW_RETURN_NOT_OK(CheckNames({ident.name}));
  std::lock_guard<std::mutex> lock(mutex_);
  auto ns = namespaces_.find(PathKey(ident.namespace_path));
  if (ns == namespaces_.end()) return SchemaNotFound(ident.namespace_path);
  TableKey key{ns->first, ToLowerAscii(ident.name)};
  auto [it, inserted] = functions_.emplace(
      std::move(key), FunctionEntry{Identifier{ns->second.path, ident.name}, info});
  if (inserted) return Status::OK();
  if (!replace) {
    return InvalidError("ROUTINE_ALREADY_EXISTS",
                        "Cannot create the routine " + QuoteIdentifier(ident.name) +
                            " because a routine of that name already exists.");
  }
  it->second.info = info;
  return Status::OK();
}

Result<bool> MemoryCatalog::DropSqlFunction(const Identifier& ident) {
  std::lock_guard<std::mutex> lock(mutex_);
  return functions_.erase({PathKey(ident.namespace_path), ToLowerAscii(ident.name)}) > 0;
}

}  // namespace parley::memory
