// Script execution for the parley program. Each statement runs through Session::Sql with its
// position in the script, so a syntax error on the third line of a file is reported on line 3;
// results are rendered by main/result_format and written as soon as each statement finishes.
// While a statement runs, Ctrl-C cancels it rather than ending the program.
#include "cli/script.h"

#include <csignal>
#include <iostream>

#include "arrow/table.h"
#include "arrow/util/cancel.h"

namespace parley::cli {
namespace {

// For its lifetime, SIGINT stops token() instead of ending the process (Arrow's signal stop
// source); afterwards SIGINT has its earlier effect again.
class InterruptScope {
 public:
  InterruptScope() {
    auto source = arrow::SetSignalStopSource();
    if (!source.ok()) return;
    if (!arrow::RegisterCancellingSignalHandler({SIGINT}).ok()) {
      arrow::ResetSignalStopSource();
      return;
    }
    token_ = (*source)->token();
    active_ = true;
  }
  ~InterruptScope() {
    if (!active_) return;
    arrow::UnregisterCancellingSignalHandler();
    arrow::ResetSignalStopSource();
  }
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  const arrow::StopToken& token() const { return token_; }

 private:
  arrow::StopToken token_ = arrow::StopToken::Unstoppable();
  bool active_ = false;
};

}  // namespace

Status RunStatement(Session& session, const StatementText& statement, ResultFormat format,
                    std::ostream& out) {
  std::shared_ptr<arrow::Table> table;
  {
    InterruptScope interrupt;
    StatementOptions options;
    options.origin = statement.start;
    options.stop_token = interrupt.token();
    ARROW_ASSIGN_OR_RAISE(table, session.Sql(statement.text, options));
  }
  ARROW_ASSIGN_OR_RAISE(auto text, FormatResult(*table, format));
  out << text;
  out.flush();
  return Status::OK();
}

Status RunScript(Session& session, std::string_view script, ResultFormat format,
                 std::ostream& out) {
  ARROW_ASSIGN_OR_RAISE(auto statements, Session::SplitStatements(script));
  for (const auto& statement : statements) {
    RETURN_NOT_OK(RunStatement(session, statement, format, out));
  }
  return Status::OK();
}

void PrintError(const Status& status) {
  std::cout.flush();
  std::cerr << "Error: " << status.message() << std::endl;
}

}  // namespace parley::cli
