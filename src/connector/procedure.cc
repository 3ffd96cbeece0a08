// Multi-part names as procedures receive them: a STRING argument naming a table.
#include "parley/connector/procedure.h"

#include <fmt/format.h>

namespace parley {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

Status SyntaxError(std::string_view text, std::string_view why) {
  return InvalidError("PARSE_SYNTAX_ERROR",
                      fmt::format("Syntax error in the name '{}': {}.", text, why));
}

}  // namespace

Result<std::vector<std::string>> ParseMultipartIdentifier(std::string_view text) {
  std::vector<std::string> parts;
  size_t i = 0;
  while (true) {
    while (i < text.size() && IsSpace(text[i])) ++i;
    std::string part;
    if (i < text.size() && text[i] == '`') {
      ++i;
      bool closed = false;
      while (i < text.size()) {
        if (text[i] == '`') {
          if (i + 1 < text.size() && text[i + 1] == '`') {
            part += '`';
            i += 2;
            continue;
          }
          ++i;
          closed = true;
          break;
        }
        part += text[i++];
      }
      if (!closed) return SyntaxError(text, "a quoted part is not closed");
    } else {
      while (i < text.size() && text[i] != '.' && text[i] != '`' && !IsSpace(text[i])) {
        part += text[i++];
      }
      if (part.empty()) return SyntaxError(text, "a part is empty");
    }
    parts.push_back(std::move(part));
    while (i < text.size() && IsSpace(text[i])) ++i;
    if (i == text.size()) return parts;
    if (text[i] != '.') return SyntaxError(text, "parts must be separated by '.'");
    ++i;
  }
}

std::string QuoteMultipartIdentifier(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& part : parts) {
    if (!out.empty()) out += '.';
    out += QuoteIdentifier(part);
  }
  return out;
}

}  // namespace parley
