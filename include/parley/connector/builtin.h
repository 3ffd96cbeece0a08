// Built-in connectors: connectors linked into the program register their catalog plugins by
// name and their providers of path-based tables by format, and every Session finds them here,
// as it finds a shared-library plugin by its path. The engine names no connector.
//
// A connector registers from a registration file of its own, at static initialization:
//
//   namespace {
//   [[maybe_unused]] const bool kRegistered =
//       parley::RegisterBuiltinCatalog("mine", [] { return MakeMyCatalog(); });
//   }  // namespace
//
// and the program links the connector's library whole (CMake's WHOLE_ARCHIVE), so that the
// linker keeps that file although nothing refers to it.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "parley/connector/catalog.h"

namespace parley {

using CatalogPluginFactory = std::function<std::shared_ptr<CatalogPlugin>()>;
using TableProviderFactory = std::function<std::shared_ptr<TableProvider>()>;

/// \brief What the built-in connectors registered: catalog plugins by name (the value of
/// `spark.sql.catalog.<catalog>`) and table providers by format (`parquet` in
/// parquet.`/path`).
struct BuiltinConnectors {
  std::map<std::string, CatalogPluginFactory> catalogs;
  std::map<std::string, TableProviderFactory> providers;
};

/// \brief Register the catalog plugin `name`; a later registration of the same name replaces
/// it. Thread-safe; callable during static initialization. Returns true, for use as an
/// initializer.
bool RegisterBuiltinCatalog(const std::string& name, CatalogPluginFactory factory);

/// \brief Register the provider of path-based tables of `format`, as RegisterBuiltinCatalog.
bool RegisterBuiltinProvider(const std::string& format, TableProviderFactory factory);

/// \brief A copy of everything registered so far. Thread-safe.
BuiltinConnectors RegisteredBuiltinConnectors();

}  // namespace parley
