// The options argument of Spark's JSON and CSV functions: `map('key', 'value', ...)`.
#pragma once

#include <string>

#include "functions/function_registry.h"

namespace parley {

/// \brief Argument `index` of `call`, a map() of constant strings, as the text of a JSON object
/// of those options ("{}" when the call has no such argument). Spark's errors for another
/// argument: INVALID_OPTIONS.NON_MAP_FUNCTION, INVALID_OPTIONS.NON_STRING_TYPE.
Result<std::string> OptionsArg(const FunctionCall& call, size_t index);

}  // namespace parley
