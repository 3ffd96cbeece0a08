// Runs a fuzz target over files: `parley_fuzz_replay <target> <file or directory>...`. Every
// test run replays the committed corpus (seeds and every past finding) this way, so a fixed
// crash stays fixed; under `make test-sanitize` the replay runs with ASan and UBSan.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_targets.h"

namespace {

int ReplayFile(const parley::fuzz::FuzzTarget& target, const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    return 1;
  }
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  target.run(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <target> <file or directory>...\n", argv[0]);
    return 2;
  }
  const parley::fuzz::FuzzTarget* target = parley::fuzz::FindFuzzTarget(argv[1]);
  if (target == nullptr) {
    std::fprintf(stderr, "no fuzz target named %s\n", argv[1]);
    return 2;
  }
  int failures = 0;
  int replayed = 0;
  for (int i = 2; i < argc; ++i) {
    std::filesystem::path root(argv[i]);
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(root)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
    } else {
      files.push_back(root);
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      failures += ReplayFile(*target, file);
      ++replayed;
    }
  }
  if (replayed == 0) {
    std::fprintf(stderr, "no inputs for %s\n", argv[1]);
    return 1;
  }
  std::printf("%s: %d inputs replayed\n", argv[1], replayed);
  return failures == 0 ? 0 : 1;
}
