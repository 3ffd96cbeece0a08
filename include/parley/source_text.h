// Positions in SQL text: what the parser reports errors against and what a script's statements
// carry. The lowest header of the SQL layers: the lexer, the parser, analysis and the session
// all speak of positions, and none of them needs more than this to do so.
#pragma once

#include <string>

namespace parley {

/// \brief A position in SQL text, 1-based.
struct SourcePosition {
  int line = 1;
  int column = 1;
};

/// \brief One statement of a script with where it starts in the script.
struct StatementText {
  std::string text;
  SourcePosition start;
};

}  // namespace parley
