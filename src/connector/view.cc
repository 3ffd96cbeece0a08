// The defaults of ViewCatalog and the rule that a catalog of tables and views is a
// RelationCatalog.
#include "parley/connector/view.h"

#include <fmt/format.h>

namespace parley {

Result<bool> ViewCatalog::ViewExists(const Identifier& ident) {
  auto view = LoadView(ident);
  if (view.ok()) return true;
  if (ErrorCondition(view.status()) == "TABLE_OR_VIEW_NOT_FOUND") return false;
  return view.status();
}

Status CheckRelationCatalogRule(const CatalogPlugin& catalog, const std::string& name) {
  const bool tables = dynamic_cast<const TableCatalog*>(&catalog) != nullptr;
  const bool views = dynamic_cast<const ViewCatalog*>(&catalog) != nullptr;
  if (!tables || !views || dynamic_cast<const RelationCatalog*>(&catalog) != nullptr) {
    return Status::OK();
  }
  return InvalidError("INVALID_CATALOG_IMPLEMENTATION",
                      fmt::format("The catalog {} implements TableCatalog and ViewCatalog but not "
                                  "RelationCatalog: a catalog of tables and views must implement "
                                  "RelationCatalog, so that one identifier space holds both.",
                                  QuoteIdentifier(name)));
}

}  // namespace parley
