// Script execution for the parley program. Each statement runs through Session::Sql with its
// position in the script, so a syntax error on the third line of a file is reported on line 3;
// results are rendered by main/result_format and written as soon as each statement finishes.
#include "cli/script.h"

#include <iostream>

#include "arrow/table.h"

namespace parley::cli {

Status RunStatement(Session& session, const StatementText& statement, ResultFormat format,
                    std::ostream& out) {
  ARROW_ASSIGN_OR_RAISE(auto table, session.Sql(statement.text, statement.start));
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
