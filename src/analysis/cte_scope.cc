// CteScope: name lookup along the chain of visible common table expressions.
#include "analysis/cte_scope.h"

#include "catalog/identifiers.h"

namespace parley {

const CteScope* CteScope::Find(std::string_view name) const {
  for (const CteScope* scope = this; scope != nullptr; scope = scope->parent) {
    if (EqualsIgnoreCase(scope->cte->name, name)) return scope;
  }
  return nullptr;
}

}  // namespace parley
