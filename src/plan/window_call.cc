// WindowCall rendering.
#include "plan/window_call.h"

#include <fmt/format.h>

namespace parley {
namespace {

std::string BoundText(const WindowBound& bound) {
  switch (bound.type) {
    case WindowBound::Type::kUnboundedPreceding: return "UNBOUNDED PRECEDING";
    case WindowBound::Type::kPreceding: return fmt::format("{} PRECEDING", bound.offset);
    case WindowBound::Type::kCurrentRow: return "CURRENT ROW";
    case WindowBound::Type::kFollowing: return fmt::format("{} FOLLOWING", bound.offset);
    case WindowBound::Type::kUnboundedFollowing: return "UNBOUNDED FOLLOWING";
  }
  return "";
}

}  // namespace

std::string WindowFrame::ToString() const {
  return fmt::format("{} BETWEEN {} AND {}", rows ? "ROWS" : "RANGE", BoundText(start),
                     BoundText(end));
}

std::string WindowCall::WindowText() const {
  std::vector<std::string> parts;
  if (!partition_by.empty()) {
    std::vector<std::string> keys;
    for (const auto& key : partition_by) keys.push_back(key->ToString());
    parts.push_back(fmt::format("PARTITION BY {}", fmt::join(keys, ", ")));
  }
  if (!order_by.empty()) {
    std::vector<std::string> keys;
    for (const auto& key : order_by) {
      keys.push_back(fmt::format("{} {} {}", key.expr->ToString(), key.ascending ? "ASC" : "DESC",
                                 key.nulls_first ? "NULLS FIRST" : "NULLS LAST"));
    }
    parts.push_back(fmt::format("ORDER BY {}", fmt::join(keys, ", ")));
  }
  parts.push_back(frame.ToString());
  return fmt::format("{}", fmt::join(parts, " "));
}

std::string WindowCall::ToString() const {
  std::vector<std::string> texts;
  if (star) texts.push_back("1");
  for (const auto& arg : args) texts.push_back(arg->ToString());
  if (function == "lag" || function == "lead" || function == "ntile") {
    texts.insert(texts.begin() + (function == "ntile" ? 0 : 1), std::to_string(offset));
  }
  return fmt::format("{}({}){} OVER ({})", function, fmt::join(texts, ", "),
                     ignore_nulls ? " IGNORE NULLS" : "", WindowText());
}

}  // namespace parley
