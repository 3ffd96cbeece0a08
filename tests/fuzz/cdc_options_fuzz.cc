// Fuzz target: the options of a change read (CHANGES ... WITH (...), DataReader::Changes), one
// `key=value` per line.
#include <string>
#include <string_view>

#include "cdc/change_options.h"
#include "fuzz_targets.h"

namespace parley::fuzz {

void FuzzCdcOptions(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  Options options;
  while (!input.empty()) {
    size_t end = input.find('\n');
    std::string_view line = input.substr(0, end);
    size_t equals = line.find('=');
    if (equals != std::string_view::npos) {
      options[std::string(line.substr(0, equals))] = std::string(line.substr(equals + 1));
    }
    if (end == std::string_view::npos) break;
    input.remove_prefix(end + 1);
  }
  (void)ParseChangeOptions(options);
}

}  // namespace parley::fuzz
