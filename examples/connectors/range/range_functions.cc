// scale(x, k) and sum_of_squares(x): the example's scalar and aggregate functions, evaluated a
// batch at a time.
#include "range_functions.h"

#include <cstring>
#include <string>

#include "arrow/array.h"
#include "arrow/buffer.h"
#include "arrow/memory_pool.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "arrow/util/bitmap_ops.h"
#include "parley/connector/status.h"

namespace parley::example {
namespace {

class ScaleFunction : public UnboundFunction, public ScalarFunction {
 public:
  std::string name() const override { return "scale"; }
  std::string canonical_name() const override { return kScaleCanonicalName; }
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

Status SumOverflow() { return InvalidError("ARITHMETIC_OVERFLOW", "Overflow in sum_of_squares."); }

// A group's partial sum of squares.
struct SquaresState : AggregationState {
  int64_t sum = 0;
  bool seen = false;
};

class SumOfSquaresFunction : public UnboundFunction, public AggregateFunction {
 public:
  std::string name() const override { return "sum_of_squares"; }
  std::string description() const override {
    return "sum_of_squares(x): the sum of x * x over the group's BIGINT values.";
  }
  std::vector<std::shared_ptr<arrow::DataType>> input_types() const override {
    return {arrow::int64()};
  }
  std::shared_ptr<arrow::DataType> result_type() const override { return arrow::int64(); }

  Result<std::shared_ptr<BoundFunction>> Bind(const arrow::Schema& input) override {
    if (input.num_fields() != 1) {
      return InvalidError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                          "The `sum_of_squares` requires 1 parameters but the actual number is " +
                              std::to_string(input.num_fields()) + ".");
    }
    return std::make_shared<SumOfSquaresFunction>();
  }

  std::unique_ptr<AggregationState> NewState() const override {
    return std::make_unique<SquaresState>();
  }

  Status Update(AggregationState* state, const arrow::ArrayVector& args,
                int64_t length) const override {
    auto& squares = static_cast<SquaresState&>(*state);
    const auto& x = static_cast<const arrow::Int64Array&>(*args[0]);
    const int64_t* values = x.raw_values();
    for (int64_t row = 0; row < length; ++row) {
      if (x.IsNull(row)) continue;
      int64_t square;
      if (__builtin_mul_overflow(values[row], values[row], &square) ||
          __builtin_add_overflow(squares.sum, square, &squares.sum)) {
        return SumOverflow();
      }
      squares.seen = true;
    }
    return Status::OK();
  }

  Status Merge(AggregationState* state, const AggregationState& other) const override {
    auto& into = static_cast<SquaresState&>(*state);
    const auto& from = static_cast<const SquaresState&>(other);
    if (__builtin_add_overflow(into.sum, from.sum, &into.sum)) return SumOverflow();
    into.seen = into.seen || from.seen;
    return Status::OK();
  }

  Result<std::shared_ptr<arrow::Scalar>> Produce(const AggregationState& state) const override {
    const auto& squares = static_cast<const SquaresState&>(state);
    if (!squares.seen) return arrow::MakeNullScalar(arrow::int64());
    return std::make_shared<arrow::Int64Scalar>(squares.sum);
  }

  // The sum's 8 bytes, then 1 for `seen`.
  Result<std::string> Serialize(const AggregationState& state) const override {
    const auto& squares = static_cast<const SquaresState&>(state);
    std::string bytes(sizeof(int64_t) + 1, '\0');
    std::memcpy(bytes.data(), &squares.sum, sizeof(int64_t));
    bytes[sizeof(int64_t)] = squares.seen ? 1 : 0;
    return bytes;
  }

  Result<std::unique_ptr<AggregationState>> Deserialize(std::string_view bytes) const override {
    if (bytes.size() != sizeof(int64_t) + 1) {
      return Status::Invalid("sum_of_squares: a state is 9 bytes, not ", bytes.size());
    }
    auto state = std::make_unique<SquaresState>();
    std::memcpy(&state->sum, bytes.data(), sizeof(int64_t));
    state->seen = bytes[sizeof(int64_t)] != 0;
    return state;
  }
};

}  // namespace

std::shared_ptr<UnboundFunction> MakeScaleFunction() { return std::make_shared<ScaleFunction>(); }

std::shared_ptr<UnboundFunction> MakeSumOfSquaresFunction() {
  return std::make_shared<SumOfSquaresFunction>();
}

}  // namespace parley::example
