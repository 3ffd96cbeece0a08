// Registers the memory catalog as the built-in plugin "memory" (parley/connector/builtin.h).
#include "memory_catalog.h"
#include "parley/connector/builtin.h"

namespace parley::memory {
namespace {

[[maybe_unused]] const bool kRegistered =
    RegisterBuiltinCatalog("memory", [] { return MakeMemoryCatalog(); });

}  // namespace
}  // namespace parley::memory
