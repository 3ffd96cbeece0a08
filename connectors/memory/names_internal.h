// Name helpers of the memory connector: case-insensitive matching keys and Spark-style
// rendering of namespace paths. Names are matched ignoring ASCII case, as Spark's session
// catalog does with spark.sql.caseSensitive=false, and kept in the case they were created with.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parley/connector/status.h"
#include "parley/connector/types.h"

namespace parley::memory {

/// \brief ASCII lower-case copy of `text`: the matching key of a name.
inline std::string ToLowerAscii(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

/// \brief Whether two names are equal ignoring ASCII case.
inline bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return ToLowerAscii(a) == ToLowerAscii(b);
}

/// \brief The matching key of a namespace path: each part lower-cased.
inline std::vector<std::string> PathKey(const std::vector<std::string>& path) {
  std::vector<std::string> key;
  key.reserve(path.size());
  for (const auto& part : path) key.push_back(ToLowerAscii(part));
  return key;
}

/// \brief Render a namespace path as Spark prints it in messages: `a`.`b`.
inline std::string QuotePath(const std::vector<std::string>& path) {
  std::string out;
  for (const auto& part : path) {
    if (!out.empty()) out += '.';
    out += QuoteIdentifier(part);
  }
  return out.empty() ? QuoteIdentifier("") : out;
}

// Errors about names, worded as Spark words them.

inline Status TableNotFound(const Identifier& ident) {
  return InvalidError("TABLE_OR_VIEW_NOT_FOUND",
                      "The table or view " + ident.ToString() +
                          " cannot be found. Verify the spelling and correctness of the schema "
                          "and catalog.");
}

inline Status TableAlreadyExists(const Identifier& ident) {
  return InvalidError("TABLE_OR_VIEW_ALREADY_EXISTS",
                      "Cannot create table or view " + ident.ToString() +
                          " because it already exists. Choose a different name, drop or "
                          "replace the existing object, or add the IF NOT EXISTS clause to "
                          "tolerate pre-existing objects.");
}

inline Status SchemaNotFound(const std::vector<std::string>& path) {
  return InvalidError("SCHEMA_NOT_FOUND",
                      "The schema " + QuotePath(path) +
                          " cannot be found. Verify the spelling and correctness of the schema "
                          "and catalog.");
}

inline Status InvalidName(const std::string& name) {
  return InvalidError(
      "INVALID_SCHEMA_OR_RELATION_NAME",
      QuoteIdentifier(name) + " is not a valid name for tables/schemas: names must not be empty.");
}

inline Status CheckNames(const std::vector<std::string>& path) {
  for (const auto& part : path) {
    if (part.empty()) return InvalidName(part);
  }
  return Status::OK();
}

}  // namespace parley::memory
