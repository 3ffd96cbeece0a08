// The registry of built-in connectors: one process-wide table behind a mutex, created on first
// use so that registrations from any static initializer find it constructed.
#include "parley/connector/builtin.h"

#include <mutex>
#include <utility>

namespace parley {
namespace {

struct Registry {
  std::mutex mutex;
  BuiltinConnectors connectors;
};

Registry& TheRegistry() {
  static Registry* registry = new Registry();  // never destroyed: used until exit
  return *registry;
}

}  // namespace

bool RegisterBuiltinCatalog(const std::string& name, CatalogPluginFactory factory) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.connectors.catalogs[name] = std::move(factory);
  return true;
}

bool RegisterBuiltinProvider(const std::string& format, TableProviderFactory factory) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.connectors.providers[format] = std::move(factory);
  return true;
}

BuiltinConnectors RegisteredBuiltinConnectors() {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  return registry.connectors;
}

}  // namespace parley
