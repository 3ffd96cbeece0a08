// RangeCatalog: the example catalog plugin of the connector author guide (README.md here).
//
// Built as its own shared library (libparley_example_range.so) that links only the public
// connector API, and loaded with `spark.sql.catalog.<name>=<path to the .so>`. It serves one
// namespace, `default`, holding two read-only tables that reproduce Steps 1 and 2 of Spark's
// "Building a Connector" guide (range_tables.h): `simple` and `filtered`, and one function,
// `scale` (range_functions.h). Names match ignoring ASCII case. It creates, drops and renames
// nothing: those TableCatalog and SupportsNamespaces methods keep their UNSUPPORTED_FEATURE
// defaults.
//
// Thread-safety: after Initialize() the catalog is immutable, so any method may be called from
// several threads at once.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "parley/connector/catalog.h"
#include "parley/connector/function.h"

namespace parley::example {

/// \brief The example catalog: namespace `default` with tables `simple` and `filtered`.
class RangeCatalog : public TableCatalog, public SupportsNamespaces, public FunctionCatalog {
 public:
  /// \brief Record the name; the example has no options and ignores any it is given.
  Status Initialize(const std::string& name, const Options& options) override;
  std::string name() const override;
  /// \brief {"default"}, so `USE <catalog>` lands in the namespace that has the tables.
  std::vector<std::string> DefaultNamespace() const override;

  /// \brief [default.filtered, default.simple] for {"default"}; SCHEMA_NOT_FOUND otherwise.
  Result<std::vector<Identifier>> ListTables(
      const std::vector<std::string>& namespace_path) override;
  /// \brief A new SimpleTable or FilteredTable; TABLE_OR_VIEW_NOT_FOUND naming any other
  /// identifier (including one in an unknown namespace, as Spark reports it).
  Result<std::shared_ptr<Table>> LoadTable(const Identifier& ident) override;

  /// \brief {{"default"}} at the top level, nothing under `default`, SCHEMA_NOT_FOUND for any
  /// other parent.
  Result<std::vector<std::vector<std::string>>> ListNamespaces(
      const std::vector<std::string>& parent) override;
  /// \brief True for {"default"} only.
  Result<bool> NamespaceExists(const std::vector<std::string>& namespace_path) override;

  /// \brief [default.scale] for {"default"}; SCHEMA_NOT_FOUND otherwise.
  Result<std::vector<Identifier>> ListFunctions(
      const std::vector<std::string>& namespace_path) override;
  /// \brief `scale`; a KeyError for any other name.
  Result<std::shared_ptr<UnboundFunction>> LoadFunction(const Identifier& ident) override;

 private:
  std::string name_;
};

}  // namespace parley::example
