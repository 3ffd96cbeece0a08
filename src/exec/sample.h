// Sample: the executor's side of the Sample plan node (TABLESAMPLE a source did not take).
#pragma once

#include <memory>

#include "arrow/type_fwd.h"
#include "parley/connector/status.h"
#include "plan/logical_plan.h"

namespace parley {

/// \brief The rows of `input` whose random number falls in [sample.lower, sample.upper): one
/// number in [0, 1) per row, in row order, from a generator seeded with sample.seed, so the
/// same input and seed keep the same rows. Rows keep their order. Sampling with replacement is
/// not offered by the SQL syntax and fails with UNSUPPORTED_FEATURE.
Result<std::shared_ptr<arrow::Table>> BernoulliSample(std::shared_ptr<arrow::Table> input,
                                                      const SampleSpec& sample);

}  // namespace parley
