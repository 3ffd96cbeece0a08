// AnalysisError: the message with the position appended.
#include "sql/positioned_error.h"

#include <fmt/format.h>

namespace parley {

Status AnalysisError(std::string_view condition, std::string_view message, SourcePosition pos) {
  return InvalidError(condition,
                      fmt::format("{} (line {}, column {})", message, pos.line, pos.column));
}

}  // namespace parley
