// Spark's conditions for the errors Arrow's compute functions raise: the kernels that guard an
// expression, the executor and the scan tasks all translate with this one mapping.
#pragma once

#include "parley/connector/status.h"

namespace parley {

/// \brief Give a runtime error from Arrow its Spark condition (ARITHMETIC_OVERFLOW,
/// DIVIDE_BY_ZERO, CAST_INVALID_INPUT, UNABLE_TO_ACQUIRE_MEMORY, ...); statuses that already
/// carry one pass unchanged, and an error no rule matches is INTERNAL_ERROR.
Status ToSparkError(const Status& status);

}  // namespace parley
