// The bound form of a higher-order function's lambda argument: a call "#lambda" whose first
// argument is the body and whose others are string literals naming the fields that stand for
// its parameters. Those fields are read only inside the lambda: CollectFields and ColumnRefs
// leave them out, so the planner sees the lambda read only the columns it captures.
#pragma once

#include <string>
#include <vector>

#include "plan/bound_expression.h"

namespace parley {

/// \brief The function name of a bound lambda.
inline constexpr const char* kLambdaFunction = "#lambda";

/// \brief A field name for lambda parameter `name`, unique in the process.
std::string NewLambdaVariableField(const std::string& name);

/// \brief Whether `field` stands for a lambda parameter.
bool IsLambdaVariableField(const std::string& field);

/// \brief The lambda with `body` over parameters read as `fields`.
BoundExprPtr MakeLambdaFunction(BoundExprPtr body, const std::vector<std::string>& fields);

/// \brief The parameter fields of a bound lambda. REQUIRES: lambda.function == kLambdaFunction.
std::vector<std::string> LambdaParameterFields(const BoundExpr& lambda);

}  // namespace parley
