// Registers the Delta catalog as the built-in plugin "delta" and Delta as the provider of
// delta.`/path` tables (parley/connector/builtin.h).
#include "connectors/delta/delta_catalog.h"
#include "connectors/delta/delta_table.h"
#include "parley/connector/builtin.h"

namespace parley::delta {
namespace {

[[maybe_unused]] const bool kCatalogRegistered =
    RegisterBuiltinCatalog("delta", [] { return MakeDeltaCatalog(); });
[[maybe_unused]] const bool kProviderRegistered =
    RegisterBuiltinProvider("delta", [] { return MakeDeltaTableProvider(); });

}  // namespace
}  // namespace parley::delta
