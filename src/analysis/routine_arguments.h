// The matching of a call's arguments to a routine's parameters, as Spark matches them for
// procedures and SQL functions: positional arguments first, in order; then named ones
// (`name => value`), each naming a parameter the positional ones left, at most once; the
// parameters left take their defaults.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "parley/connector/status.h"
#include "parley/source_text.h"

namespace parley {

/// \brief What matching needs to know of one parameter.
struct ParameterSlot {
  std::string name;
  bool has_default = false;
};

/// \brief Per parameter, the index of the argument passed to it, or -1 when it takes its
/// default. `argument_names` holds each argument's name, absent for a positional one; `routine`
/// names the routine in errors. Errors (Spark's, at `pos`): UNEXPECTED_POSITIONAL_ARGUMENT,
/// DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT.{DOUBLE_NAMED_ARGUMENT_REFERENCE,
/// BOTH_POSITIONAL_AND_NAMED}, UNRECOGNIZED_PARAMETER_NAME, WRONG_NUM_ARGS.WITHOUT_SUGGESTION,
/// REQUIRED_PARAMETER_NOT_FOUND.
Result<std::vector<int>> MatchArguments(
    const std::string& routine, const std::vector<ParameterSlot>& parameters,
    const std::vector<std::optional<std::string>>& argument_names, SourcePosition pos);

}  // namespace parley
