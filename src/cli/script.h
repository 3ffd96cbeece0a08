// Running SQL scripts for the parley program: split a script into statements, run each in
// the session and print each result in the chosen form. Used by both the batch modes (-c, -f,
// piped stdin) and the interactive REPL.
#pragma once

#include <ostream>
#include <string_view>

#include "main/result_format.h"
#include "parley/session.h"

namespace parley::cli {

/// \brief Run one statement and print its result to `out` in `format`. A result with no
/// columns (most commands) prints nothing. Returns the statement's error, if any. While the
/// statement runs, SIGINT (Ctrl-C) cancels it with OPERATION_CANCELED instead of ending the
/// process.
Status RunStatement(Session& session, const StatementText& statement, ResultFormat format,
                    std::ostream& out);

/// \brief Split `script` into statements and run them in order, printing each result. Stops
/// at the first failing statement and returns its error; error positions are relative to the
/// start of `script`.
Status RunScript(Session& session, std::string_view script, ResultFormat format, std::ostream& out);

/// \brief Print a failed status to stderr as `Error: <message>` (the message already starts
/// with the `[CONDITION]`), after flushing stdout so the two streams stay in order.
void PrintError(const Status& status);

}  // namespace parley::cli
