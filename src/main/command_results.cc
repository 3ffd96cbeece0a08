// Command results as Arrow tables.
#include "main/command_results.h"

#include <algorithm>
#include <cctype>

#include "arrow/array/builder_binary.h"
#include "arrow/table.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "plan/bound_expression.h"

namespace parley {

Result<std::shared_ptr<arrow::Table>> StringTable(const std::vector<std::string>& columns,
                                                  const StringRows& rows) {
  arrow::FieldVector fields;
  arrow::ArrayVector arrays;
  for (size_t c = 0; c < columns.size(); ++c) {
    arrow::StringBuilder builder;
    for (const auto& row : rows) ARROW_RETURN_NOT_OK(builder.Append(row[c]));
    ARROW_ASSIGN_OR_RAISE(auto array, builder.Finish());
    fields.push_back(arrow::field(columns[c], arrow::utf8(), false));
    arrays.push_back(array);
  }
  return arrow::Table::Make(arrow::schema(fields), arrays, static_cast<int64_t>(rows.size()));
}

std::shared_ptr<arrow::Table> EmptyResult() {
  return arrow::Table::Make(arrow::schema({}), arrow::ArrayVector{}, 0);
}

std::string QuoteIfNeeded(const std::string& name) {
  bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  }) && !std::all_of(name.begin(), name.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
  return plain ? name : QuoteIdentifier(name);
}

std::string QuoteSqlString(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

NamePattern::NamePattern(const std::optional<std::string>& pattern) {
  if (!pattern) return;
  std::string regex;
  for (char c : *pattern) {
    if (c == '*') {
      regex += ".*";
    } else if (c == '|') {
      regex += '|';
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      regex += c;
    } else {
      regex += '\\';
      regex += c;
    }
  }
  regex_.emplace("(" + regex + ")", std::regex::icase);
}

bool NamePattern::Matches(const std::string& name) const {
  return !regex_ || std::regex_match(name, *regex_);
}

}  // namespace parley
