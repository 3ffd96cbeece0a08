// Fuzz target: the files connector's CSV and JSON readers with their options.
//
// The input's first byte picks the format (even: csv, odd: json); the rest of its first line
// holds options as `key=value` pairs separated by ';' (header=true;sep=|;multiLine=true); the
// remaining bytes are the file. The file is read the way the engine reads a path table: schema
// inference, the table, a scan built with no pushdown, every partition drained.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "connectors/files/files_provider.h"
#include "fuzz_targets.h"
#include "parley/connector/read.h"
#include "testing/scan_harness.h"

namespace parley::fuzz {
namespace {

// `key=value;...` as options (keys lower-cased, as the engine hands them to a connector).
Options ParseOptionLine(std::string_view line) {
  Options options;
  while (!line.empty()) {
    size_t end = line.find(';');
    std::string_view pair = line.substr(0, end);
    size_t equals = pair.find('=');
    if (equals != std::string_view::npos) {
      std::string key(pair.substr(0, equals));
      for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (key != "path") options[key] = std::string(pair.substr(equals + 1));
    }
    if (end == std::string_view::npos) break;
    line.remove_prefix(end + 1);
  }
  return options;
}

Status ReadFile(const std::string& format, Options options) {
  auto provider = files::MakeFilesTableProvider(format);
  ARROW_ASSIGN_OR_RAISE(auto schema, provider->InferSchema(options));
  ARROW_ASSIGN_OR_RAISE(auto table, provider->GetTable(schema, options));
  auto* readable = dynamic_cast<SupportsRead*>(table.get());
  if (readable == nullptr) return Status::Invalid("not readable");
  ARROW_ASSIGN_OR_RAISE(auto builder, readable->NewScanBuilder(options));
  ARROW_ASSIGN_OR_RAISE(auto scan, builder->Build());
  return testing::RunScan(*scan).status();
}

}  // namespace

void FuzzTextReader(const uint8_t* data, size_t size) {
  if (size == 0) return;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::string format = (static_cast<uint8_t>(input[0]) % 2 == 0) ? "csv" : "json";
  input.remove_prefix(1);
  size_t newline = input.find('\n');
  Options options = ParseOptionLine(input.substr(0, newline));
  std::string_view contents =
      newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);

  static const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("parley-fuzz-text-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / ("data." + format);
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  }
  options["path"] = file.string();
  (void)ReadFile(format, options);
}

}  // namespace parley::fuzz
