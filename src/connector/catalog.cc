// Default behaviour of the optional catalog methods: report the operation as unsupported,
// naming the catalog, so a catalog that implements only reads stays correct.
#include "parley/connector/catalog.h"

#include <fmt/format.h>

namespace parley {
namespace {

Status Unsupported(const CatalogPlugin& catalog, std::string_view operation) {
  return MakeError(arrow::StatusCode::NotImplemented, "UNSUPPORTED_FEATURE.CATALOG_OPERATION",
                   fmt::format("Catalog {} does not support {}.", QuoteIdentifier(catalog.name()),
                               operation));
}

}  // namespace

Result<bool> TableCatalog::TableExists(const Identifier& ident) {
  auto table = LoadTable(ident);
  if (table.ok()) return true;
  if (ErrorCondition(table.status()) == "TABLE_OR_VIEW_NOT_FOUND") return false;
  return table.status();
}

Result<std::shared_ptr<Table>> TableCatalog::CreateTable(const Identifier&, const TableInfo&) {
  return Unsupported(*this, "CREATE TABLE");
}

Result<bool> TableCatalog::DropTable(const Identifier&) { return Unsupported(*this, "DROP TABLE"); }

Status TableCatalog::RenameTable(const Identifier&, const Identifier&) {
  return Unsupported(*this, "RENAME TABLE");
}

Status SupportsNamespaces::CreateNamespace(const std::vector<std::string>&,
                                           const std::map<std::string, std::string>&) {
  return Unsupported(*this, "CREATE NAMESPACE");
}

Result<bool> SupportsNamespaces::DropNamespace(const std::vector<std::string>&, bool) {
  return Unsupported(*this, "DROP NAMESPACE");
}

}  // namespace parley
