// The interactive loop of the parley program: line editing and history through libedit,
// multi-line statements, errors reported without leaving the loop.
#pragma once

#include "main/result_format.h"
#include "parley/session.h"

namespace parley::cli {

/// \brief Read statements from the terminal until `.quit`, `.exit`, `exit`, `quit` or end of
/// input (Ctrl-D). Input accumulates under the continuation prompt until it ends with `;`,
/// then runs as a script; a failing statement prints `Error: ...` and the loop goes on.
/// Entries are kept in ~/.parley_history across sessions.
void RunRepl(Session& session, ResultFormat format);

}  // namespace parley::cli
