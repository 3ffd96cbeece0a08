#include "functions/distinct_aggregate.h"

#include <cmath>
#include <cstring>
#include <set>

#include "arrow/array.h"
#include "arrow/buffer.h"
#include "arrow/compute/api.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "kernels/kernel_support.h"
#include "parley/connector/status.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

struct DistinctValues : AggregationState {
  // Each value's bytes, normalized.
  std::set<std::string> values;
};

int ByteWidth(const arrow::DataType& type) {
  return static_cast<const arrow::FixedWidthType&>(type).bit_width() / 8;
}

// The distinct values as an array of `type`.
Result<std::shared_ptr<arrow::Array>> ArrayOf(const DistinctValues& state,
                                              const std::shared_ptr<arrow::DataType>& type) {
  std::string bytes;
  for (const auto& value : state.values) bytes += value;
  auto buffer = arrow::Buffer::FromString(std::move(bytes));
  auto length = static_cast<int64_t>(state.values.size());
  return arrow::MakeArray(arrow::ArrayData::Make(type, length, {nullptr, std::move(buffer)}, 0));
}

// A base of the DISTINCT aggregates: collecting the distinct values of one argument.
class DistinctBase : public AggregateFunction {
 public:
  explicit DistinctBase(std::shared_ptr<arrow::DataType> arg_type)
      : arg_type_(std::move(arg_type)), width_(ByteWidth(*arg_type_)) {}

  std::vector<std::shared_ptr<arrow::DataType>> input_types() const override { return {arg_type_}; }
  std::unique_ptr<AggregationState> NewState() const override {
    return std::make_unique<DistinctValues>();
  }

  Status Update(AggregationState* state, const arrow::ArrayVector& args,
                int64_t length) const override {
    auto* distinct = static_cast<DistinctValues*>(state);
    const auto& values = *args[0];
    const uint8_t* data = values.data()->GetValues<uint8_t>(1, 0) + values.offset() * width_;
    for (int64_t i = 0; i < length; ++i) {
      if (!values.IsValid(i)) continue;
      std::string value(reinterpret_cast<const char*>(data + i * width_), width_);
      Normalize(&value);
      distinct->values.insert(std::move(value));
    }
    return Status::OK();
  }

  Status Merge(AggregationState* state, const AggregationState& other) const override {
    const auto& from = static_cast<const DistinctValues&>(other).values;
    static_cast<DistinctValues*>(state)->values.insert(from.begin(), from.end());
    return Status::OK();
  }

  Result<std::string> Serialize(const AggregationState& state) const override {
    std::string bytes;
    for (const auto& value : static_cast<const DistinctValues&>(state).values) bytes += value;
    return bytes;
  }

  Result<std::unique_ptr<AggregationState>> Deserialize(std::string_view bytes) const override {
    if (bytes.size() % width_ != 0) return Status::Invalid("damaged DISTINCT aggregation state");
    auto state = std::make_unique<DistinctValues>();
    for (size_t at = 0; at < bytes.size(); at += width_) {
      state->values.emplace(bytes.substr(at, width_));
    }
    return std::unique_ptr<AggregationState>(std::move(state));
  }

 protected:
  std::shared_ptr<arrow::DataType> arg_type_;

 private:
  // -0.0 as 0.0 and every NaN as one NaN.
  void Normalize(std::string* value) const {
    if (arg_type_->id() == arrow::Type::DOUBLE) {
      double x;
      std::memcpy(&x, value->data(), sizeof(x));
      if (x == 0.0) x = 0.0;
      if (std::isnan(x)) x = std::numeric_limits<double>::quiet_NaN();
      std::memcpy(value->data(), &x, sizeof(x));
    } else if (arg_type_->id() == arrow::Type::FLOAT) {
      float x;
      std::memcpy(&x, value->data(), sizeof(x));
      if (x == 0.0f) x = 0.0f;
      if (std::isnan(x)) x = std::numeric_limits<float>::quiet_NaN();
      std::memcpy(value->data(), &x, sizeof(x));
    }
  }

  int width_;
};

class DistinctInner : public DistinctBase {
 public:
  explicit DistinctInner(std::shared_ptr<const AggregateFunction> inner)
      : DistinctBase(inner->input_types()[0]), inner_(std::move(inner)) {}

  std::string name() const override { return inner_->name(); }
  std::shared_ptr<arrow::DataType> result_type() const override { return inner_->result_type(); }

  Result<std::shared_ptr<arrow::Scalar>> Produce(const AggregationState& state) const override {
    const auto& distinct = static_cast<const DistinctValues&>(state);
    ARROW_ASSIGN_OR_RAISE(auto values, ArrayOf(distinct, arg_type_));
    auto inner_state = inner_->NewState();
    ARROW_RETURN_NOT_OK(inner_->Update(inner_state.get(), {values}, values->length()));
    return inner_->Produce(*inner_state);
  }

 private:
  std::shared_ptr<const AggregateFunction> inner_;
};

class DistinctSum : public DistinctBase {
 public:
  DistinctSum(bool average, std::shared_ptr<arrow::DataType> arg_type,
              std::shared_ptr<arrow::DataType> result_type)
      : DistinctBase(std::move(arg_type)),
        average_(average),
        result_type_(std::move(result_type)) {}

  std::string name() const override { return average_ ? "avg" : "sum"; }
  std::shared_ptr<arrow::DataType> result_type() const override { return result_type_; }

  Result<std::shared_ptr<arrow::Scalar>> Produce(const AggregationState& state) const override {
    const auto& distinct = static_cast<const DistinctValues&>(state);
    if (distinct.values.empty()) return arrow::MakeNullScalar(result_type_);
    ARROW_ASSIGN_OR_RAISE(auto values, ArrayOf(distinct, arg_type_));
    const bool integral = arrow::is_integer(arg_type_->id());
    arrow::Datum result;
    if (average_) {
      ARROW_ASSIGN_OR_RAISE(auto doubles, cp::Cast(values, arrow::float64()));
      ARROW_ASSIGN_OR_RAISE(result, cp::CallFunction("mean", {doubles}));
    } else {
      const char* kernel = integral                                     ? "parley_checked_sum"
                           : arg_type_->id() == arrow::Type::DECIMAL128 ? "parley_decimal_sum"
                                                                        : "sum";
      ARROW_ASSIGN_OR_RAISE(result, cp::CallFunction(kernel, {values}));
    }
    auto cast = cp::Cast(result, result_type_);
    // A decimal sum past its type's precision overflows as Spark's sum does.
    if (!cast.ok() && arg_type_->id() == arrow::Type::DECIMAL128) {
      return kernels::DecimalSumOverflow();
    }
    ARROW_ASSIGN_OR_RAISE(auto value, std::move(cast));
    return value.scalar();
  }

 private:
  bool average_;
  std::shared_ptr<arrow::DataType> result_type_;
};

}  // namespace

std::shared_ptr<const AggregateFunction> DistinctOf(
    std::shared_ptr<const AggregateFunction> inner) {
  return std::make_shared<DistinctInner>(std::move(inner));
}

std::shared_ptr<const AggregateFunction> DistinctSumOrAverage(
    bool average, std::shared_ptr<arrow::DataType> arg_type,
    std::shared_ptr<arrow::DataType> result_type) {
  return std::make_shared<DistinctSum>(average, std::move(arg_type), std::move(result_type));
}

}  // namespace parley
