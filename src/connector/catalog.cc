// Default behaviour of the optional catalog methods: report the operation as unsupported,
// naming the catalog, so a catalog that implements only reads stays correct.
#include "parley/connector/catalog.h"

#include <fmt/format.h>

namespace parley {
namespace {

Status Unsupported(const CatalogPlugin& catalog, std::string_view operation) {
  return MakeError(
      arrow::StatusCode::NotImplemented, "UNSUPPORTED_FEATURE.CATALOG_OPERATION",
      fmt::format("Catalog {} does not support {}.", QuoteIdentifier(catalog.name()), operation));
}

}  // namespace

Result<bool> TableCatalog::TableExists(const Identifier& ident) {
  auto table = LoadTable(ident);
  if (table.ok()) return true;
  if (ErrorCondition(table.status()) == "TABLE_OR_VIEW_NOT_FOUND") return false;
  return table.status();
}

Result<std::shared_ptr<Table>> TableCatalog::LoadTableAtVersion(const Identifier& ident,
                                                                const std::string&) {
  return MakeError(arrow::StatusCode::NotImplemented, "UNSUPPORTED_FEATURE.TIME_TRAVEL",
                   fmt::format("Time travel on the relation {}: catalog {} keeps no versions.",
                               ident.ToString(), QuoteIdentifier(name())));
}

Result<std::shared_ptr<Table>> TableCatalog::LoadTableAtTimestamp(const Identifier& ident,
                                                                  int64_t) {
  return LoadTableAtVersion(ident, "");
}

Result<std::shared_ptr<Table>> TableCatalog::CreateTable(const Identifier&, const TableInfo&) {
  return Unsupported(*this, "CREATE TABLE");
}

Result<std::shared_ptr<Table>> TableCatalog::AlterTable(const Identifier&,
                                                        const std::vector<TableChange>&) {
  return Unsupported(*this, "ALTER TABLE");
}

Result<bool> TableCatalog::DropTable(const Identifier&) { return Unsupported(*this, "DROP TABLE"); }

Result<bool> TableCatalog::PurgeTable(const Identifier&) {
  return Unsupported(*this, "DROP TABLE ... PURGE");
}

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

namespace parley {

Result<std::map<std::string, std::string>> SupportsNamespaces::LoadNamespaceMetadata(
    const std::vector<std::string>& namespace_path) {
  ARROW_ASSIGN_OR_RAISE(bool exists, NamespaceExists(namespace_path));
  if (!exists) {
    std::string quoted;
    for (const auto& part : namespace_path) {
      if (!quoted.empty()) quoted += '.';
      quoted += QuoteIdentifier(part);
    }
    return MakeError(arrow::StatusCode::Invalid, "SCHEMA_NOT_FOUND",
                     fmt::format("The schema {} cannot be found.", quoted));
  }
  return std::map<std::string, std::string>{};
}

Status SupportsNamespaces::AlterNamespace(const std::vector<std::string>&,
                                          const std::vector<NamespaceChange>&) {
  return Unsupported(*this, "ALTER NAMESPACE");
}

std::string TableChange::ToString() const {
  std::string column;
  for (const auto& part : field_names) {
    if (!column.empty()) column += '.';
    column += QuoteIdentifier(part);
  }
  switch (kind) {
    case Kind::kSetProperty: return "SET TBLPROPERTIES " + property_key;
    case Kind::kRemoveProperty: return "UNSET TBLPROPERTIES " + property_key;
    case Kind::kAddColumn: return "ADD COLUMN " + column;
    case Kind::kRenameColumn: return "RENAME COLUMN " + column;
    case Kind::kUpdateColumnType: return "ALTER COLUMN " + column + " TYPE";
    case Kind::kUpdateColumnNullability: return "ALTER COLUMN " + column + " NULLABILITY";
    case Kind::kUpdateColumnComment: return "ALTER COLUMN " + column + " COMMENT";
    case Kind::kUpdateColumnPosition: return "ALTER COLUMN " + column + " POSITION";
    case Kind::kUpdateColumnDefaultValue: return "ALTER COLUMN " + column + " DEFAULT";
    case Kind::kDeleteColumn: return "DROP COLUMN " + column;
  }
  return "ALTER TABLE";
}

}  // namespace parley
