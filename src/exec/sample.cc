// Bernoulli sampling of a gathered input: a boolean mask drawn from a seeded generator, then
// Arrow's filter.
#include "exec/sample.h"

#include <random>

#include "arrow/array/builder_primitive.h"
#include "arrow/compute/api_vector.h"
#include "arrow/datum.h"
#include "arrow/table.h"

namespace parley {

Result<std::shared_ptr<arrow::Table>> BernoulliSample(std::shared_ptr<arrow::Table> input,
                                                      const SampleSpec& sample) {
  if (sample.with_replacement) {
    return MakeError(arrow::StatusCode::NotImplemented, "UNSUPPORTED_FEATURE.SAMPLE",
                     "The feature is not supported: sampling with replacement.");
  }
  std::mt19937_64 generator(static_cast<uint64_t>(sample.seed));
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  arrow::BooleanBuilder keep;
  ARROW_RETURN_NOT_OK(keep.Reserve(input->num_rows()));
  for (int64_t row = 0; row < input->num_rows(); ++row) {
    double draw = uniform(generator);
    keep.UnsafeAppend(draw >= sample.lower && draw < sample.upper);
  }
  ARROW_ASSIGN_OR_RAISE(auto mask, keep.Finish());
  ARROW_ASSIGN_OR_RAISE(auto kept,
                        arrow::compute::Filter(arrow::Datum(std::move(input)), arrow::Datum(mask)));
  return kept.table();
}

}  // namespace parley
