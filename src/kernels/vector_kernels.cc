// Spark's vector functions over ARRAY<FLOAT> (float sums, a square root taken in double and
// rounded to float, as Spark computes them); a
// vector with a NULL element gives NULL:
//   parley_vector_inner_product / parley_vector_cosine_similarity / parley_vector_l2_distance
//     (list<float>, list<float>) -> float: VECTOR_DIMENSION_MISMATCH for vectors of different
//     lengths; the cosine of a zero vector is NULL;
//   parley_vector_norm(list<float>, float degree) -> float and
//   parley_vector_normalize(list<float>, float degree) -> list<float>: degree 1, 2 or infinity,
//     else INVALID_VECTOR_NORM_DEGREE; normalizing a zero vector is NULL.
#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <vector>

#include "arrow/array/builder_nested.h"
#include "kernels/kernel_support.h"

namespace parley::kernels {
namespace {

namespace cp = arrow::compute;

// The elements of the vector at `row`; nullopt when it or an element is NULL.
std::optional<std::vector<float>> VectorAt(const arrow::ListArray& list, int64_t row) {
  if (list.IsNull(row)) return std::nullopt;
  const auto& values = static_cast<const arrow::FloatArray&>(*list.values());
  std::vector<float> out;
  for (int64_t i = list.value_offset(row); i < list.value_offset(row + 1); ++i) {
    if (values.IsNull(i)) return std::nullopt;
    out.push_back(values.Value(i));
  }
  return out;
}

Result<std::shared_ptr<arrow::ListArray>> ListArgument(const cp::ExecSpan& batch, int index) {
  ARROW_ASSIGN_OR_RAISE(auto array, ArgumentArray(batch, index));
  return std::static_pointer_cast<arrow::ListArray>(array);
}

// The square root of `x` taken in double, rounded to float.
float FloatRoot(float x) { return static_cast<float>(std::sqrt(static_cast<double>(x))); }

enum class Pairwise { kInnerProduct, kCosineSimilarity, kL2Distance };

template <Pairwise kOperation>
Status PairwiseExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  static constexpr const char* kNames[] = {"vector_inner_product", "vector_cosine_similarity",
                                           "vector_l2_distance"};
  ARROW_ASSIGN_OR_RAISE(auto left, ListArgument(batch, 0));
  ARROW_ASSIGN_OR_RAISE(auto right, ListArgument(batch, 1));
  arrow::FloatBuilder builder(ctx->memory_pool());
  for (int64_t row = 0; row < batch.length; ++row) {
    if (left->IsNull(row) || right->IsNull(row)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    if (left->value_length(row) != right->value_length(row)) {
      return MakeError(arrow::StatusCode::Invalid, "VECTOR_DIMENSION_MISMATCH",
                       fmt::format("Vectors passed to `{}` must have the same dimension, but got "
                                   "{} and {}.",
                                   kNames[static_cast<int>(kOperation)], left->value_length(row),
                                   right->value_length(row)));
    }
    auto a = VectorAt(*left, row);
    auto b = VectorAt(*right, row);
    if (!a || !b) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    float dot = 0, norm_a = 0, norm_b = 0, distance = 0;
    for (size_t i = 0; i < a->size(); ++i) {
      dot += (*a)[i] * (*b)[i];
      norm_a += (*a)[i] * (*a)[i];
      norm_b += (*b)[i] * (*b)[i];
      float difference = (*a)[i] - (*b)[i];
      distance += difference * difference;
    }
    switch (kOperation) {
      case Pairwise::kInnerProduct: ARROW_RETURN_NOT_OK(builder.Append(dot)); break;
      case Pairwise::kL2Distance: ARROW_RETURN_NOT_OK(builder.Append(FloatRoot(distance))); break;
      case Pairwise::kCosineSimilarity:
        if (norm_a == 0 || norm_b == 0) {
          ARROW_RETURN_NOT_OK(builder.AppendNull());
        } else {
          ARROW_RETURN_NOT_OK(builder.Append(dot / FloatRoot(norm_a * norm_b)));
        }
        break;
    }
  }
  return FinishInto(&builder, out);
}

// The norm of `v` of `degree` (1, 2 or infinity).
float Norm(const std::vector<float>& v, float degree) {
  float norm = 0;
  for (float x : v) {
    if (degree == 1) {
      norm += std::fabs(x);
    } else if (degree == 2) {
      norm += x * x;
    } else {
      norm = std::max(norm, std::fabs(x));
    }
  }
  return degree == 2 ? FloatRoot(norm) : norm;
}

Status CheckDegree(const char* function, float degree) {
  if (degree == 1 || degree == 2 || (std::isinf(degree) && degree > 0)) return Status::OK();
  return MakeError(arrow::StatusCode::Invalid, "INVALID_VECTOR_NORM_DEGREE",
                   fmt::format("For the `{}` function, degree must be 1.0, 2.0, or float('inf'), "
                               "but got {}.",
                               function, degree));
}

template <bool kNormalize>
Status NormExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  const char* function = kNormalize ? "vector_normalize" : "vector_norm";
  ARROW_ASSIGN_OR_RAISE(auto vectors, ListArgument(batch, 0));
  Column<float> degrees(batch[1]);
  arrow::FloatBuilder norms(ctx->memory_pool());
  arrow::ListBuilder normalized(ctx->memory_pool(), std::make_shared<arrow::FloatBuilder>());
  auto* elements = static_cast<arrow::FloatBuilder*>(normalized.value_builder());
  for (int64_t row = 0; row < batch.length; ++row) {
    std::optional<std::vector<float>> v;
    if (degrees.IsValid(row)) {
      ARROW_RETURN_NOT_OK(CheckDegree(function, degrees.Value(row)));
      v = VectorAt(*vectors, row);
    }
    float norm = v ? Norm(*v, degrees.Value(row)) : 0;
    if (!kNormalize) {
      ARROW_RETURN_NOT_OK(v ? norms.Append(norm) : norms.AppendNull());
    } else if (!v || norm == 0) {
      ARROW_RETURN_NOT_OK(normalized.AppendNull());
    } else {
      ARROW_RETURN_NOT_OK(normalized.Append());
      for (float x : *v) ARROW_RETURN_NOT_OK(elements->Append(x / norm));
    }
  }
  if (kNormalize) return FinishInto(&normalized, out);
  return FinishInto(&norms, out);
}

}  // namespace

Status RegisterVectorKernels(cp::FunctionRegistry* registry) {
  const auto vector = cp::InputType(arrow::list(arrow::float32()));
  const auto degree = cp::InputType(arrow::float32());
  const auto number = cp::OutputType(arrow::float32());
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_vector_inner_product", {vector, vector}, number,
                                  PairwiseExec<Pairwise::kInnerProduct>,
                                  "The inner product of two vectors"));
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_vector_cosine_similarity", {vector, vector},
                                  number, PairwiseExec<Pairwise::kCosineSimilarity>,
                                  "The cosine of the angle between two vectors"));
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_vector_l2_distance", {vector, vector}, number,
                                  PairwiseExec<Pairwise::kL2Distance>,
                                  "The Euclidean distance between two vectors"));
  ARROW_RETURN_NOT_OK(AddFunction(registry, "parley_vector_norm", {vector, degree}, number,
                                  NormExec<false>, "The norm of a vector"));
  return AddFunction(registry, "parley_vector_normalize", {vector, degree},
                     cp::OutputType(arrow::list(arrow::float32())), NormExec<true>,
                     "A vector divided by its norm");
}

}  // namespace parley::kernels
