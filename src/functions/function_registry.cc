// The registry of built-in functions, filled once by each family's Register* function.
#include "functions/function_registry.h"

#include "kernels/kernels.h"

namespace parley {

const FunctionRegistry& FunctionRegistry::Builtin() {
  static const FunctionRegistry* registry = [] {
    auto* built = new FunctionRegistry();
    RegisterArrayFunctions(built);
    RegisterConditionalFunctions(built);
    RegisterDatetimeFunctions(built);
    RegisterEpochFunctions(built);
    RegisterDatetimePatternFunctions(built);
    RegisterJsonFunctions(built);
    RegisterRegexpFunctions(built);
    RegisterVectorFunctions(built);
    RegisterIntegralFunctions(built);
    RegisterMapFunctions(built);
    RegisterMathFunctions(built);
    RegisterMathDoubleFunctions(built);
    RegisterStringFunctions(built);
    RegisterTextFunctions(built);
    RegisterArrayRowFunctions(built);
    RegisterHigherOrderFunctions(built);
    return built;
  }();
  return *registry;
}

void FunctionRegistry::AddTypeRule(const std::vector<std::string>& names, TypeRule rule) {
  for (const auto& name : names) type_rules_[name] = rule;
}

void FunctionRegistry::AddLowering(const std::string& name, Lowering lowering) {
  lowerings_[name] = std::move(lowering);
}

std::vector<std::string> FunctionRegistry::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, rule] : type_rules_) names.push_back(name);
  return names;
}

const TypeRule* FunctionRegistry::FindTypeRule(const std::string& name) const {
  auto it = type_rules_.find(name);
  return it == type_rules_.end() ? nullptr : &it->second;
}

const Lowering* FunctionRegistry::FindLowering(const std::string& name) const {
  auto it = lowerings_.find(name);
  return it == lowerings_.end() ? nullptr : &it->second;
}

}  // namespace parley
