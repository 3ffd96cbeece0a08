// scale(x, k): the example's scalar function, evaluated a batch at a time.
#include "range_functions.h"

#include <string>

#include "arrow/array.h"
#include "arrow/builder.h"
#include "arrow/type.h"
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

  Result<std::shared_ptr<arrow::Array>> Invoke(const arrow::ArrayVector& args,
                                               int64_t length) const override {
    const auto& x = static_cast<const arrow::Int32Array&>(*args[0]);
    const auto& k = static_cast<const arrow::Int32Array&>(*args[1]);
    arrow::Int32Builder out;
    ARROW_RETURN_NOT_OK(out.Reserve(length));
    for (int64_t row = 0; row < length; ++row) {
      if (x.IsNull(row) || k.IsNull(row)) {
        out.UnsafeAppendNull();
        continue;
      }
      int32_t product;
      if (__builtin_mul_overflow(x.Value(row), k.Value(row), &product)) {
        return InvalidError("ARITHMETIC_OVERFLOW", "Overflow in scale(" +
                                                       std::to_string(x.Value(row)) + ", " +
                                                       std::to_string(k.Value(row)) + ").");
      }
      out.UnsafeAppend(product);
    }
    return out.Finish();
  }
};

}  // namespace

std::shared_ptr<UnboundFunction> MakeScaleFunction() { return std::make_shared<ScaleFunction>(); }

}  // namespace parley::example
