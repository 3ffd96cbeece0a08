// Errors found in a statement after it parsed (a name that resolves to nothing, operand types
// that do not fit): a condition, a message naming the thing at fault, and where it was written.
// Lives beside the syntax tree so that every layer that judges a statement (analysis, the
// functions' type rules) reports positions the same way.
#pragma once

#include <string_view>

#include "parley/connector/status.h"
#include "parley/source_text.h"

namespace parley {

/// \brief An analysis error whose message ends with the statement position, as
/// `... (line 1, column 8)`.
Status AnalysisError(std::string_view condition, std::string_view message, SourcePosition pos);

}  // namespace parley
