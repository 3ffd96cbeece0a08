// Matching arguments to parameters (routine_arguments.h).
#include "analysis/routine_arguments.h"

#include <fmt/format.h>

#include <set>

#include "analysis/analysis_error.h"
#include "analysis/name_suggestions.h"
#include "catalog/identifiers.h"

namespace parley {
namespace {

int FindParameter(const std::vector<ParameterSlot>& parameters, const std::string& name) {
  for (size_t i = 0; i < parameters.size(); ++i) {
    if (EqualsIgnoreCase(parameters[i].name, name)) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

Result<std::vector<int>> MatchArguments(const std::string& routine,
                                        const std::vector<ParameterSlot>& parameters,
                                        const std::vector<std::optional<std::string>>& args,
                                        SourcePosition pos) {
  const std::string routine_id = QuoteIdentifier(routine);
  size_t positional = 0;
  while (positional < args.size() && !args[positional]) ++positional;
  std::set<std::string> named;
  for (size_t i = positional; i < args.size(); ++i) {
    if (!args[i]) {
      return AnalysisError(
          "UNEXPECTED_POSITIONAL_ARGUMENT",
          fmt::format("Cannot invoke routine {} because it contains positional argument(s) "
                      "following the named argument assigned to {}; please rearrange them so "
                      "the positional arguments come first and then retry the query again.",
                      routine_id, QuoteIdentifier(*args[i - 1])),
          pos);
    }
    if (!named.insert(ToLowerAscii(*args[i])).second) {
      return AnalysisError(
          "DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT.DOUBLE_NAMED_ARGUMENT_REFERENCE",
          fmt::format("Call to routine {} is invalid because it includes multiple argument "
                      "assignments to the same parameter name {}. More than one named argument "
                      "referred to the same parameter. Please assign a value only once.",
                      routine_id, QuoteIdentifier(*args[i])),
          pos);
    }
  }
  std::vector<int> matched(parameters.size(), -1);
  for (size_t i = 0; i < positional && i < parameters.size(); ++i) matched[i] = static_cast<int>(i);
  for (size_t i = positional; i < args.size(); ++i) {
    const int parameter = FindParameter(parameters, *args[i]);
    if (parameter < 0) {
      std::vector<std::string> names;
      for (const auto& p : parameters) names.push_back(p.name);
      std::string proposal;
      for (const auto& nearest : NearestNames(*args[i], names, 3)) {
        proposal += (proposal.empty() ? "" : " ") + QuoteIdentifier(nearest);
      }
      return AnalysisError(
          "UNRECOGNIZED_PARAMETER_NAME",
          fmt::format("Cannot invoke routine {} because the routine call included a named "
                      "argument reference for the argument named {}, but this routine does not "
                      "include any signature containing an argument with this name. Did you "
                      "mean one of the following? [{}].",
                      routine_id, QuoteIdentifier(*args[i]), proposal),
          pos);
    }
    if (static_cast<size_t>(parameter) < positional) {
      return AnalysisError(
          "DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT.BOTH_POSITIONAL_AND_NAMED",
          fmt::format("Call to routine {} is invalid because it includes multiple argument "
                      "assignments to the same parameter name {}. A positional argument and "
                      "named argument both referred to the same parameter. Please remove the "
                      "named argument referring to this parameter.",
                      routine_id, QuoteIdentifier(*args[i])),
          pos);
    }
    matched[parameter] = static_cast<int>(i);
  }
  if (args.size() > parameters.size()) {
    size_t required = 0;
    for (const auto& p : parameters) required += p.has_default ? 0 : 1;
    std::string expected = std::to_string(required);
    if (required != parameters.size()) {
      expected = "[";
      for (size_t n = required; n <= parameters.size(); ++n) {
        expected += (n == required ? "" : ", ") + std::to_string(n);
      }
      expected += "]";
    }
    return AnalysisError(
        "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
        fmt::format("The {} requires {} parameters but the actual number is {}. Please, refer to "
                    "'https://spark.apache.org/docs/latest/sql-ref-functions.html' for a fix.",
                    routine_id, expected, args.size()),
        pos);
  }
  for (size_t p = positional; p < parameters.size(); ++p) {
    if (matched[p] < 0 && !parameters[p].has_default) {
      return AnalysisError(
          "REQUIRED_PARAMETER_NOT_FOUND",
          fmt::format("Cannot invoke routine {} because the parameter named {} is required, but "
                      "the routine call did not supply a value. Please update the routine call "
                      "to supply an argument value (either positionally at index {} or by name) "
                      "and retry the query again.",
                      routine_id, QuoteIdentifier(parameters[p].name), p - positional),
          pos);
    }
  }
  return matched;
}

}  // namespace parley
