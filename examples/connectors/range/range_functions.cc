// scale(x, k): the example's scalar function, evaluated a batch at a time.
#include "range_functions.h"

#include <string>

#include "arrow/array.h"
#include "arrow/buffer.h"
#include "arrow/memory_pool.h"
#include "arrow/type.h"
#include "arrow/util/bitmap_ops.h"
#include "parley/connector/status.h"

namespace parley::example {
namespace {

class ScaleFunction : public UnboundFunction, public ScalarFunction {
 public:
  std::string name() const override { return "scale"; }
  std::string description() const override { return "scale(x, k): x * k for INT x and k."; }
  std::vector<std::shared_ptr<arrow::DataType>> input_types() const override {
    return {arrow::int32(), arrow::int32()};
  }
  std::shared_ptr<arrow::DataType> result_type() const override { return arrow::int32(); }

  // Two arguments of any type the engine can cast to INT; anything else is refused here with
  // the Spark condition of a wrong argument count.
  Result<std::shared_ptr<BoundFunction>> Bind(const arrow::Schema& input) override {
    if (input.num_fields() != 2) {
      return InvalidError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                          "The `scale` requires 2 parameters but the actual number is " +
                              std::to_string(input.num_fields()) + ".");
    }
    return std::make_shared<ScaleFunction>();
  }

  // One pass over the value buffers, without a branch per row: the product of every slot
  // (a null slot's value is unspecified, so its product is computed and thrown away), the
  // result valid where both arguments are, and an overflow reported only for a valid row.
  Result<std::shared_ptr<arrow::Array>> Invoke(const arrow::ArrayVector& args,
                                               int64_t length) const override {
    const auto& x = static_cast<const arrow::Int32Array&>(*args[0]);
    const auto& k = static_cast<const arrow::Int32Array&>(*args[1]);
    ARROW_ASSIGN_OR_RAISE(
        std::shared_ptr<arrow::Buffer> validity,
        arrow::internal::OptionalBitmapAnd(arrow::default_memory_pool(), x.null_bitmap(),
                                           x.offset(), k.null_bitmap(), k.offset(), length));
    ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Buffer> values,
                          arrow::AllocateBuffer(length * static_cast<int64_t>(sizeof(int32_t))));
    auto* out = reinterpret_cast<int32_t*>(values->mutable_data());
    const int32_t* xs = x.raw_values();
    const int32_t* ks = k.raw_values();
    bool overflow = false;
    for (int64_t row = 0; row < length; ++row) {
      overflow |= __builtin_mul_overflow(xs[row], ks[row], &out[row]);
    }
    if (overflow) {
      for (int64_t row = 0; row < length; ++row) {
        int32_t product;
        if (x.IsValid(row) && k.IsValid(row) &&
            __builtin_mul_overflow(xs[row], ks[row], &product)) {
          return InvalidError("ARITHMETIC_OVERFLOW", "Overflow in scale(" +
                                                         std::to_string(xs[row]) + ", " +
                                                         std::to_string(ks[row]) + ").");
        }
      }
    }
    return std::make_shared<arrow::Int32Array>(length, std::move(values), std::move(validity));
  }
};

}  // namespace

std::shared_ptr<UnboundFunction> MakeScaleFunction() { return std::make_shared<ScaleFunction>(); }

}  // namespace parley::example
