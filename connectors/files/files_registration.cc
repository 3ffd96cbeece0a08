// Registers the files connector as the provider of parquet.`/path`, csv.`/path`, json.`/path`
// and orc.`/path` tables (parley/connector/builtin.h).
#include "files_provider.h"
#include "parley/connector/builtin.h"

namespace parley::files {
namespace {

bool RegisterFormats() {
  for (const char* format : {"parquet", "csv", "json", "orc"}) {
    const std::string name = format;
    RegisterBuiltinProvider(name, [name] { return MakeFilesTableProvider(name); });
  }
  return true;
}

[[maybe_unused]] const bool kRegistered = RegisterFormats();

}  // namespace
}  // namespace parley::files
