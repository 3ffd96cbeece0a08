// The defaults of FunctionCatalog; SqlFunction.
#include "parley/connector/function.h"

namespace parley {

Result<bool> FunctionCatalog::FunctionExists(const Identifier& ident) {
  auto function = LoadFunction(ident);
  if (function.ok()) return true;
  if (function.status().IsKeyError()) return false;
  return function.status();
}

SqlFunction::SqlFunction(std::string name, SqlFunctionInfo info)
    : name_(std::move(name)), info_(std::move(info)) {}

Result<std::shared_ptr<BoundFunction>> SqlFunction::Bind(const arrow::Schema&) {
  return Status::Invalid("The SQL function ", name_,
                         " is expanded by the engine at each call and is not bound.");
}

}  // namespace parley
