// Analysis error construction and SQL type names for messages and DESCRIBE.
#include "analysis/analysis_error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace parley {

Status TableNotFound(const sql::QualifiedName& name) {
  std::vector<std::string> parts;
  for (const auto& part : name.parts) parts.push_back(QuoteIdentifier(part));
  return AnalysisError("TABLE_OR_VIEW_NOT_FOUND",
                       fmt::format("The table or view {} cannot be found. Verify the spelling "
                                   "and correctness of the schema and catalog.",
                                   fmt::join(parts, ".")),
                       name.pos);
}

Result<TableCatalog*> AsTableCatalog(CatalogPlugin* catalog, SourcePosition pos) {
  auto* tables = dynamic_cast<TableCatalog*>(catalog);
  if (tables != nullptr) return tables;
  return AnalysisError(
      "MISSING_CATALOG_ABILITY.TABLES",
      fmt::format("Catalog {} does not support tables.", QuoteIdentifier(catalog->name())), pos);
}

}  // namespace parley
