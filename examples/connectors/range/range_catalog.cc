// RangeCatalog: name resolution for the example's one namespace and two tables, and the C
// factory symbol (parley_create_catalog_plugin) through which the engine instantiates the
// catalog after dlopen-ing this library.
#include "range_catalog.h"

#include <string_view>

#include "parley/connector/plugin.h"
#include "parley/connector/status.h"
#include "range_functions.h"
#include "range_tables.h"

namespace parley::example {
namespace {

constexpr std::string_view kNamespace = "default";

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k) {
    auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; };
    if (lower(a[k]) != lower(b[k])) return false;
  }
  return true;
}

bool IsDefaultNamespace(const std::vector<std::string>& path) {
  return path.size() == 1 && EqualsIgnoreCase(path[0], kNamespace);
}

Status SchemaNotFound(const std::vector<std::string>& path) {
  std::string quoted;
  for (const auto& part : path) quoted += (quoted.empty() ? "" : ".") + QuoteIdentifier(part);
  return InvalidError("SCHEMA_NOT_FOUND", "The schema " + quoted +
                                              " cannot be found. Verify the spelling and "
                                              "correctness of the schema and catalog.");
}

}  // namespace

Status RangeCatalog::Initialize(const std::string& name, const Options&) {
  name_ = name;
  return Status::OK();
}

std::string RangeCatalog::name() const { return name_; }

std::vector<std::string> RangeCatalog::DefaultNamespace() const {
  return {std::string(kNamespace)};
}

Result<std::vector<Identifier>> RangeCatalog::ListTables(
    const std::vector<std::string>& namespace_path) {
  if (!IsDefaultNamespace(namespace_path)) return SchemaNotFound(namespace_path);
  std::vector<std::string> ns = {std::string(kNamespace)};
  return std::vector<Identifier>{{ns, "filtered"}, {ns, "simple"}};
}

Result<std::shared_ptr<Table>> RangeCatalog::LoadTable(const Identifier& ident) {
  if (IsDefaultNamespace(ident.namespace_path)) {
    std::string display = name_ + "." + std::string(kNamespace) + ".";
    if (EqualsIgnoreCase(ident.name, "simple")) {
      return std::make_shared<SimpleTable>(display + "simple");
    }
    if (EqualsIgnoreCase(ident.name, "filtered")) {
      return std::make_shared<FilteredTable>(display + "filtered");
    }
  }
  return InvalidError("TABLE_OR_VIEW_NOT_FOUND",
                      "The table or view " + ident.ToString() +
                          " cannot be found. Verify the spelling and correctness of the schema "
                          "and catalog.");
}

Result<std::vector<std::vector<std::string>>> RangeCatalog::ListNamespaces(
    const std::vector<std::string>& parent) {
  if (parent.empty()) return std::vector<std::vector<std::string>>{{std::string(kNamespace)}};
  if (IsDefaultNamespace(parent)) return std::vector<std::vector<std::string>>{};
  return SchemaNotFound(parent);
}

Result<bool> RangeCatalog::NamespaceExists(const std::vector<std::string>& namespace_path) {
  return IsDefaultNamespace(namespace_path);
}

Result<std::vector<Identifier>> RangeCatalog::ListFunctions(
    const std::vector<std::string>& namespace_path) {
  if (!IsDefaultNamespace(namespace_path)) return SchemaNotFound(namespace_path);
  return std::vector<Identifier>{Identifier{{std::string(kNamespace)}, "scale"},
                                 Identifier{{std::string(kNamespace)}, "sum_of_squares"}};
}

Result<std::shared_ptr<UnboundFunction>> RangeCatalog::LoadFunction(const Identifier& ident) {
  if (IsDefaultNamespace(ident.namespace_path) && EqualsIgnoreCase(ident.name, "scale")) {
    return MakeScaleFunction();
  }
  if (IsDefaultNamespace(ident.namespace_path) && EqualsIgnoreCase(ident.name, "sum_of_squares")) {
    return MakeSumOfSquaresFunction();
  }
  return Status::KeyError("The function ", ident.ToString(), " does not exist.");
}

}  // namespace parley::example

// The one symbol the engine looks up after dlopen: it checks the API version and returns a new,
// uninitialized RangeCatalog.
PARLEY_DEFINE_CATALOG_PLUGIN(parley::example::RangeCatalog)
