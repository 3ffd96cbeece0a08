// The defaults of FunctionCatalog.
#include "parley/connector/function.h"

namespace parley {

Result<bool> FunctionCatalog::FunctionExists(const Identifier& ident) {
  auto function = LoadFunction(ident);
  if (function.ok()) return true;
  if (function.status().IsKeyError()) return false;
  return function.status();
}

}  // namespace parley
