// ResolvedName: what a multi-part table name resolves to. Plans hold one for each table they
// read or write; this header is all they need of the catalog layer.
#pragma once

#include <memory>
#include <string>

#include "parley/connector/catalog.h"

namespace parley {

/// \brief A name resolved to its catalog and the identifier inside it. A path-based table has
/// no catalog; its identifier is {format} . path.
struct ResolvedName {
  std::shared_ptr<CatalogPlugin> catalog;
  Identifier ident;
  /// Catalog name, namespace and table: what messages and EXPLAIN print.
  std::string ToString() const;

 private:
  std::string JoinPathName() const;
};

}  // namespace parley
