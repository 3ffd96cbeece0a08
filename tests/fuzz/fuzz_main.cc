// libFuzzer's entry points for `make fuzz`: PARLEY_FUZZ_TARGET names the target this process
// fuzzes (one of fuzz_targets.h).
#include <cstdio>
#include <cstdlib>

#include "fuzz_targets.h"

namespace {
const parley::fuzz::FuzzTarget* chosen = nullptr;
}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  const char* name = std::getenv("PARLEY_FUZZ_TARGET");
  chosen = name == nullptr ? nullptr : parley::fuzz::FindFuzzTarget(name);
  if (chosen == nullptr) {
    std::fprintf(stderr, "set PARLEY_FUZZ_TARGET to a fuzz target's name\n");
    std::exit(2);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  chosen->run(data, size);
  return 0;
}
