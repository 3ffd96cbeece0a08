// Results of commands as Arrow tables: what SHOW, DESCRIBE and the DDL statements return.
#pragma once

#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/status.h"

namespace parley {

using StringRows = std::vector<std::vector<std::string>>;

/// \brief A table of non-null string columns named `columns`, one row per entry of `rows`.
/// REQUIRES: every row has one value per column.
Result<std::shared_ptr<arrow::Table>> StringTable(const std::vector<std::string>& columns,
                                                  const StringRows& rows);

/// \brief An identifier as Spark prints it in DDL: backquoted only when it is not a plain word.
std::string QuoteIfNeeded(const std::string& name);

/// \brief A string literal as Spark prints it in DDL: in single quotes, `'` and `\` escaped.
std::string QuoteSqlString(const std::string& text);

/// \brief Spark's SHOW ... LIKE pattern: '*' matches any run of characters, '|' separates
/// alternatives, matching ignores case. Without a pattern every name matches.
class NamePattern {
 public:
  explicit NamePattern(const std::optional<std::string>& pattern);
  bool Matches(const std::string& name) const;

 private:
  std::optional<std::regex> regex_;
};

/// \brief The empty result of a command that prints nothing (no columns, no rows).
std::shared_ptr<arrow::Table> EmptyResult();

}  // namespace parley
