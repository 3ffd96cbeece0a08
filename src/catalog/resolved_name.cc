// ResolvedName's printed form, as messages and EXPLAIN show a table.
#include "catalog/resolved_name.h"

#include "parley/connector/status.h"

namespace parley {

std::string ResolvedName::ToString() const {
  if (catalog == nullptr) return JoinPathName();
  return QuoteIdentifier(catalog->name()) + "." + ident.ToString();
}

std::string ResolvedName::JoinPathName() const {
  std::string format = ident.namespace_path.empty() ? "" : ident.namespace_path[0];
  return format + "." + QuoteIdentifier(ident.name);
}

}  // namespace parley
