// Loading a catalog plugin from a shared library.
//
// `spark.sql.catalog.<name>=<path/to/libfoo.so>` makes the engine dlopen the library and call
// the one C symbol it exports, `parley_create_catalog_plugin`, passing the connector API version
// the engine was built with. The function returns a new CatalogPlugin (owned by the caller) or
// nullptr when it cannot serve that API version. A connector defines it with:
//
//   PARLEY_DEFINE_CATALOG_PLUGIN(MyCatalog)
//
// The library links only the public connector API (libparley_connector), never engine code.
#pragma once

#include "parley/connector/catalog.h"

/// Bumped whenever a connector API class changes its layout or virtual methods.
#define PARLEY_CONNECTOR_API_VERSION 1

/// The exported factory's name, as a string for dlsym.
#define PARLEY_CATALOG_FACTORY_SYMBOL "parley_create_catalog_plugin"

extern "C" {
/// The signature of the exported factory.
typedef parley::CatalogPlugin* (*ParleyCatalogFactory)(int api_version);
}

/// Define the exported factory for a default-constructible CatalogPlugin subclass.
#define PARLEY_DEFINE_CATALOG_PLUGIN(CatalogClass)                         \
  extern "C" __attribute__((visibility("default"))) parley::CatalogPlugin* \
  parley_create_catalog_plugin(int api_version) {                          \
    if (api_version != PARLEY_CONNECTOR_API_VERSION) return nullptr;       \
    return new CatalogClass();                                             \
  }
