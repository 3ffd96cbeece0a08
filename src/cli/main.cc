// The parley command-line program. It parses the flags with CLI11, builds a Session from
// them, and runs SQL from one source: an inline script (-c), a script file (-f), the
// interactive REPL when stdin is a terminal, or else a script piped on stdin. Exit codes: 0
// when every statement succeeded, 1 at the first failing statement (printed as
// `Error: [CONDITION] ...` on stderr), 2 for a bad command line.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "cli/repl.h"
#include "cli/script.h"

namespace parley::cli {
namespace {

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

struct Flags {
  std::optional<std::string> command;
  std::optional<std::string> file;
  std::vector<std::string> conf;
  std::string output = "table";
  std::string warehouse = "./warehouse";
};

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) return Status::IOError("Cannot open '", path, "'");
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) return Status::IOError("Cannot read '", path, "'");
  return text;
}

Result<std::string> ReadStdin() {
  std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
  if (std::cin.bad()) return Status::IOError("Cannot read standard input");
  return text;
}

Status Run(const Flags& flags) {
  ARROW_ASSIGN_OR_RAISE(ResultFormat format, ParseResultFormat(flags.output));
  SessionOptions options;
  options.warehouse = flags.warehouse;
  for (const auto& entry : flags.conf) {
    size_t eq = entry.find('=');
    options.conf[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  ARROW_ASSIGN_OR_RAISE(auto session, Session::Make(std::move(options)));

  if (flags.command) return RunScript(*session, *flags.command, format, std::cout);
  if (flags.file) {
    ARROW_ASSIGN_OR_RAISE(auto script, ReadFile(*flags.file));
    return RunScript(*session, script, format, std::cout);
  }
  if (isatty(STDIN_FILENO)) {
    RunRepl(*session, format);
    return Status::OK();
  }
  ARROW_ASSIGN_OR_RAISE(auto script, ReadStdin());
  return RunScript(*session, script, format, std::cout);
}

int Main(int argc, char** argv) {
  CLI::App app{"parley: an embedded Spark SQL engine on Apache Arrow", "parley"};
  Flags flags;
  std::string command_text;
  std::string file_path;
  auto* command = app.add_option("-c,--command", command_text,
                                 "Run the statements of this script (separated by ';')");
  auto* file = app.add_option("-f,--file", file_path, "Run the statements of this script file")
                   ->check(CLI::ExistingFile)
                   ->excludes(command);
  app.add_option("--conf", flags.conf, "Set a configuration key before the first statement")
      ->type_name("KEY=VALUE")
      ->check([](const std::string& entry) -> std::string {
        size_t eq = entry.find('=');
        return eq == std::string::npos || eq == 0 ? "expected KEY=VALUE, got '" + entry + "'"
                                                  : std::string();
      });
  app.add_option("--output", flags.output, "Result format")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
  app.add_option("--warehouse", flags.warehouse, "Root directory of the default catalog")
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);  // prints the help text or the usage error
    return code == static_cast<int>(CLI::ExitCodes::Success) ? 0 : kExitUsage;
  }
  if (command->count() > 0) flags.command = command_text;
  if (file->count() > 0) flags.file = file_path;

  Status status = Run(flags);
  if (!status.ok()) {
    PrintError(status);
    return kExitFailure;
  }
  return 0;
}

}  // namespace
}  // namespace parley::cli

int main(int argc, char** argv) { return parley::cli::Main(argc, argv); }
