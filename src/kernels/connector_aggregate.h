// The Arrow aggregate functions through which a query calls a connector's AggregateFunction
// (parley/connector/function.h): "parley_connector_aggregate" (one group) and
// "hash_parley_connector_aggregate" (per group), whose options carry the bound function. Each
// kernel keeps one AggregationState per group; a batch's rows are ordered by group once and
// each group's run is handed to Update as slices. The states of a group that two threads
// computed are merged through Serialize and Deserialize, so a function whose states do not
// survive the trip fails here as it would between Spark's executors. A result of the wrong type
// is CONNECTOR_CONTRACT_VIOLATION.FUNCTION_RESULT.
#pragma once

#include <memory>

#include "arrow/compute/function_options.h"
#include "parley/connector/function.h"

namespace parley {

/// The names of the ungrouped and grouped Arrow functions.
extern const char kConnectorAggregate[];
extern const char kHashConnectorAggregate[];

/// \brief The options of a call: the bound aggregate function to run.
class ConnectorAggregateOptions : public arrow::compute::FunctionOptions {
 public:
  explicit ConnectorAggregateOptions(std::shared_ptr<const AggregateFunction> function = nullptr);
  static constexpr const char kTypeName[] = "ConnectorAggregateOptions";
  std::shared_ptr<const AggregateFunction> function;
};

/// \brief Register both functions in Arrow's default registry (once per process).
Status RegisterConnectorAggregate();

}  // namespace parley
