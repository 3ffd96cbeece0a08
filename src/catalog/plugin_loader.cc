// Loading catalog plugins from shared libraries with dlopen. Libraries stay loaded for the life
// of the process: objects they created may outlive any one session.
#include <dlfcn.h>
#include <fmt/format.h>

#include "catalog/catalog_manager.h"
#include "parley/connector/plugin.h"

namespace parley {

Result<std::shared_ptr<CatalogPlugin>> LoadPluginLibrary(const std::string& catalog_name,
                                                         const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    return InvalidError("CATALOG_PLUGIN_NOT_LOADABLE",
                        fmt::format("Cannot load the plugin library '{}' of catalog {}: {}", path,
                                    QuoteIdentifier(catalog_name), dlerror()));
  }
  auto factory =
      reinterpret_cast<ParleyCatalogFactory>(dlsym(handle, PARLEY_CATALOG_FACTORY_SYMBOL));
  if (factory == nullptr) {
    return InvalidError(
        "CATALOG_PLUGIN_NOT_LOADABLE",
        fmt::format("The plugin library '{}' of catalog {} does not export {}.", path,
                    QuoteIdentifier(catalog_name), PARLEY_CATALOG_FACTORY_SYMBOL));
  }
  CatalogPlugin* plugin = factory(PARLEY_CONNECTOR_API_VERSION);
  if (plugin == nullptr) {
    return InvalidError(
        "CATALOG_PLUGIN_NOT_LOADABLE",
        fmt::format("The plugin library '{}' of catalog {} does not support "
                    "connector API version {}.",
                    path, QuoteIdentifier(catalog_name), PARLEY_CONNECTOR_API_VERSION));
  }
  return std::shared_ptr<CatalogPlugin>(plugin);
}

}  // namespace parley
