// Spark's vector functions over ARRAY<FLOAT> (kernels/vector_kernels.cc): vector_inner_product,
// vector_cosine_similarity, vector_l2_distance, vector_norm and vector_normalize. Spark takes
// ARRAY<FLOAT> and FLOAT only: other types are UNEXPECTED_INPUT_TYPE, not cast.
#include "arrow/type.h"
#include "functions/function_rules.h"

namespace parley {
namespace {

Result<BoundExprPtr> VectorArg(const FunctionCall& call, size_t index) {
  const auto& type = *call.args[index]->type;
  if (type.id() != arrow::Type::LIST || type.field(0)->type()->id() != arrow::Type::FLOAT) {
    return UnexpectedInputType(call, index, "ARRAY<FLOAT>");
  }
  return call.args[index];
}

Result<BoundExprPtr> DegreeArg(const FunctionCall& call, size_t index) {
  if (call.args.size() <= index) {
    return MakeBoundLiteral(std::make_shared<arrow::FloatScalar>(2.0f));
  }
  if (call.args[index]->type->id() != arrow::Type::FLOAT) {
    return UnexpectedInputType(call, index, "FLOAT");
  }
  return call.args[index];
}

void AddNorm(FunctionRegistry* registry, const std::string& name,
             std::shared_ptr<arrow::DataType> type) {
  const std::string kernel = "parley_" + name;
  registry->AddTypeRule({name}, [kernel, type](const FunctionCall& call) -> Result<BoundExprPtr> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 2));
    ARROW_ASSIGN_OR_RAISE(auto vector, VectorArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto degree, DegreeArg(call, 1));
    return Call(kernel, {vector, degree}, type);
  });
  AddKernelLowering(registry, kernel, kernel);
}

}  // namespace

void RegisterVectorFunctions(FunctionRegistry* registry) {
  for (const std::string name :
       {"vector_inner_product", "vector_cosine_similarity", "vector_l2_distance"}) {
    AddRowFunction(registry, {name}, "parley_" + name, {VectorArg, VectorArg}, arrow::float32());
  }
  AddNorm(registry, "vector_norm", arrow::float32());
  AddNorm(registry, "vector_normalize", arrow::list(arrow::float32()));
}

}  // namespace parley
