// Fuzz target: the connector plugin loader offered a file that is not a Parley plugin (not a
// shared library, a truncated one, one without the factory symbol). Each input is written to a
// file of its own, loaded, and removed.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "catalog/catalog_manager.h"
#include "fuzz_targets.h"

namespace parley::fuzz {

void FuzzPluginLoader(const uint8_t* data, size_t size) {
  static int attempt = 0;
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() /
      ("parley-fuzz-plugin-" + std::to_string(getpid()) + "-" + std::to_string(attempt++) + ".so");
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  (void)LoadPluginLibrary("fuzz", file.string());
  std::filesystem::remove(file);
}

}  // namespace parley::fuzz
