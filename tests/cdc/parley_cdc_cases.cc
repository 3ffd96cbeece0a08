// parley_cdc_cases FILE.json: runs every change-data scenario of a file in the cdc-cases format
// (see tests/cdc/cdc_cases.h), prints one line per case, then `N passed, M failed`. The exit
// status is non-zero when any case failed or the file could not be read.
#include <cstdio>

#include "tests/cdc/cdc_cases.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s FILE.json\n", argv[0]);
    return 2;
  }
  auto outcomes = parley::testing::RunCdcCaseFile(argv[1]);
  if (!outcomes.ok()) {
    std::fprintf(stderr, "%s\n", outcomes.status().ToString().c_str());
    return 2;
  }
  int passed = 0;
  int failed = 0;
  for (const auto& outcome : *outcomes) {
    if (outcome.passed) {
      ++passed;
      std::printf("PASS %s\n", outcome.name.c_str());
    } else {
      ++failed;
      std::printf("FAIL %s: %s\n", outcome.name.c_str(), outcome.detail.c_str());
    }
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed > 0 ? 1 : 0;
}
