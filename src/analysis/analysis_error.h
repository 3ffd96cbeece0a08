// Analysis errors: a condition, a message naming the object at fault, and where it was written.
#pragma once

#include <string_view>

#include "parley/connector/status.h"
#include "parley/session.h"
#include "plan/bound_expression.h"

namespace parley {

/// \brief An analysis error whose message ends with the statement position, as
/// `... (line 1, column 8)`.
Status AnalysisError(std::string_view condition, std::string_view message, SourcePosition pos);

}  // namespace parley
