// The Arrow compute function through which a query calls a connector's ScalarFunction
// (parley/connector/function.h): one registered function, "parley_connector_function", whose
// options carry the bound function; its kernel hands each batch's argument arrays to Invoke
// and checks what comes back.
#pragma once

#include <memory>

#include "arrow/compute/function_options.h"
#include "parley/connector/function.h"

namespace parley {

/// The name of the Arrow compute function.
extern const char kConnectorFunction[];

/// \brief The options of a call: the bound function to invoke.
class ConnectorFunctionOptions : public arrow::compute::FunctionOptions {
 public:
  explicit ConnectorFunctionOptions(std::shared_ptr<const ScalarFunction> function = nullptr);
  static constexpr const char kTypeName[] = "ConnectorFunctionOptions";
  std::shared_ptr<const ScalarFunction> function;
};

/// \brief Register kConnectorFunction in Arrow's default registry (once per process).
Status RegisterConnectorFunction();

}  // namespace parley
