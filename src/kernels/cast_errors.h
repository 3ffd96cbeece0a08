// Spark's errors for a cast of one value, shared by the cast kernels.
#pragma once

#include <string_view>

#include "arrow/type_fwd.h"
#include "parley/connector/status.h"

namespace parley {

/// \brief CAST_OVERFLOW: `value_text` (as Spark writes the value in the message, e.g. 1.0E20D or
/// TIMESTAMP '2100-01-01 00:00:00') of Spark type `from` does not fit `to`.
Status CastOverflowError(std::string_view value_text, std::string_view from,
                         const arrow::DataType& to);

/// \brief CAST_INVALID_INPUT: `value_text` of Spark type `from` is no value of `to`.
Status CastInvalidInputError(std::string_view value_text, std::string_view from,
                             const arrow::DataType& to);

}  // namespace parley
