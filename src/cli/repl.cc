// The parley REPL. libedit's readline interface supplies line editing and the history file;
// this file decides when the accumulated input is a complete statement (it ends with `;`),
// recognises the exit commands, and hands complete input to RunScript, so the REPL and the
// batch modes run statements identically.
#include "cli/repl.h"

#include <editline/readline.h>

#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include "cli/script.h"

namespace parley::cli {
namespace {

constexpr const char* kPrompt = "parley> ";
constexpr const char* kContinuationPrompt = "      > ";
constexpr int kHistorySize = 1000;

std::string_view Trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  size_t end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

bool IsExitCommand(std::string_view command) {
  if (!command.empty() && command.back() == ';') command.remove_suffix(1);
  command = Trim(command);
  return command == ".quit" || command == ".exit" || command == "exit" || command == "quit";
}

// Line input with history kept in a file (none when HOME is unset).
class LineReader {
 public:
  LineReader() {
    if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
      history_path_ = std::string(home) + "/.parley_history";
    }
    rl_readline_name = "parley";
    using_history();
    stifle_history(kHistorySize);
    if (!history_path_.empty()) read_history(history_path_.c_str());
  }

  /// Returns std::nullopt at end of input.
  std::optional<std::string> ReadLine(const char* prompt) {
    char* line = readline(prompt);
    if (line == nullptr) return std::nullopt;
    std::string text(line);
    std::free(line);
    return text;
  }

  void Remember(const std::string& entry) {
    add_history(entry.c_str());
    if (!history_path_.empty()) write_history(history_path_.c_str());
  }

 private:
  std::string history_path_;
};

}  // namespace

void RunRepl(Session& session, ResultFormat format) {
  LineReader reader;
  std::string buffer;
  while (true) {
    std::optional<std::string> line =
        reader.ReadLine(buffer.empty() ? kPrompt : kContinuationPrompt);
    if (!line) {
      std::cout << std::endl;
      return;
    }
    if (buffer.empty()) {
      std::string_view command = Trim(*line);
      if (command.empty()) continue;
      if (IsExitCommand(command)) return;
      if (command.front() == '.') {
        std::cerr << "Error: unknown command '" << command << "' (.quit exits)" << std::endl;
        continue;
      }
    } else {
      buffer.push_back('\n');
    }
    buffer += *line;
    std::string_view statement = Trim(buffer);
    if (statement.back() != ';') continue;
    reader.Remember(std::string(statement));
    Status status = RunScript(session, buffer, format, std::cout);
    if (!status.ok()) PrintError(status);
    buffer.clear();
  }
}

}  // namespace parley::cli
