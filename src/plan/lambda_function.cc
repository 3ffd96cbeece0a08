#include "plan/lambda_function.h"

#include <fmt/format.h>

#include <atomic>

#include "arrow/scalar.h"

namespace parley {
namespace {

constexpr std::string_view kPrefix = "#lambda";

}  // namespace

std::string NewLambdaVariableField(const std::string& name) {
  static std::atomic<uint64_t> next{0};
  return fmt::format("{}{}_{}", kPrefix, next++, name);
}

bool IsLambdaVariableField(const std::string& field) {
  return field.size() > kPrefix.size() && field.compare(0, kPrefix.size(), kPrefix) == 0 &&
         field[kPrefix.size()] >= '0' && field[kPrefix.size()] <= '9';
}

BoundExprPtr MakeLambdaFunction(BoundExprPtr body, const std::vector<std::string>& fields) {
  auto type = body->type;
  std::vector<BoundExprPtr> args = {std::move(body)};
  for (const auto& field : fields) {
    args.push_back(MakeBoundLiteral(std::make_shared<arrow::StringScalar>(field)));
  }
  return MakeCall(kLambdaFunction, std::move(args), std::move(type));
}

std::vector<std::string> LambdaParameterFields(const BoundExpr& lambda) {
  std::vector<std::string> fields;
  for (size_t i = 1; i < lambda.args.size(); ++i) {
    fields.push_back(static_cast<const arrow::StringScalar&>(*lambda.args[i]->literal).ToString());
  }
  return fields;
}

}  // namespace parley
