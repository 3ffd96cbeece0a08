#include "connectors/common/parquet_conjuncts.h"

#include <limits>
#include <map>
#include <utility>

#include "arrow/type.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

// The operator of a comparison function, and its flip (for a literal written first).
std::optional<RawOp> ComparisonOp(const std::string& function, bool flipped) {
  static const std::map<std::string, std::pair<RawOp, RawOp>> kOps = {
      {"equal", {RawOp::kEqual, RawOp::kEqual}},
      {"not_equal", {RawOp::kNotEqual, RawOp::kNotEqual}},
      {"less", {RawOp::kLess, RawOp::kGreater}},
      {"less_equal", {RawOp::kLessEqual, RawOp::kGreaterEqual}},
      {"greater", {RawOp::kGreater, RawOp::kLess}},
      {"greater_equal", {RawOp::kGreaterEqual, RawOp::kLessEqual}}};
  auto found = kOps.find(function);
  if (found == kOps.end()) return std::nullopt;
  return flipped ? found->second.second : found->second.first;
}

const std::string* ColumnName(const cp::Expression& expression) {
  const arrow::FieldRef* ref = expression.field_ref();
  return ref == nullptr ? nullptr : ref->name();
}

std::optional<ColumnConjunct> AsColumnConjunct(const cp::Expression::Call& call) {
  const auto& args = call.arguments;
  if ((call.function_name == "is_null" || call.function_name == "is_valid") && args.size() == 1) {
    const std::string* column = ColumnName(args[0]);
    if (column == nullptr) return std::nullopt;
    return ColumnConjunct{
        *column, call.function_name == "is_null" ? RawOp::kIsNull : RawOp::kIsValid, nullptr};
  }
  if (args.size() != 2) return std::nullopt;
  const bool flipped = args[0].literal() != nullptr;
  const std::string* column = ColumnName(args[flipped ? 1 : 0]);
  const arrow::Datum* literal = args[flipped ? 0 : 1].literal();
  auto op = ComparisonOp(call.function_name, flipped);
  if (!op || column == nullptr || literal == nullptr || !literal->is_scalar() ||
      !literal->scalar()->is_valid) {
    return std::nullopt;
  }
  return ColumnConjunct{*column, *op, literal->scalar()};
}

}  // namespace

void SplitConjuncts(const cp::Expression& filter, std::vector<ColumnConjunct>* simple,
                    std::vector<cp::Expression>* rest) {
  const cp::Expression::Call* call = filter.call();
  if (call != nullptr && (call->function_name == "and_kleene" || call->function_name == "and")) {
    for (const auto& arg : call->arguments) SplitConjuncts(arg, simple, rest);
    return;
  }
  auto conjunct = call == nullptr ? std::nullopt : AsColumnConjunct(*call);
  if (conjunct) {
    simple->push_back(*std::move(conjunct));
  } else {
    rest->push_back(filter);
  }
}

std::optional<int64_t> RawIntegerLiteral(const arrow::Scalar& literal, const arrow::DataType& type,
                                         parquet::Type::type physical) {
  if (!literal.is_valid || !literal.type->Equals(type)) return std::nullopt;
  int64_t value = 0;
  switch (type.id()) {
    case arrow::Type::INT32: value = static_cast<const arrow::Int32Scalar&>(literal).value; break;
    case arrow::Type::DATE32: value = static_cast<const arrow::Date32Scalar&>(literal).value; break;
    case arrow::Type::INT64: value = static_cast<const arrow::Int64Scalar&>(literal).value; break;
    case arrow::Type::DECIMAL128: {
      const arrow::Decimal128& decimal = static_cast<const arrow::Decimal128Scalar&>(literal).value;
      const auto low = static_cast<int64_t>(decimal.low_bits());
      if (decimal.high_bits() != (low < 0 ? -1 : 0)) return std::nullopt;
      value = low;
      break;
    }
    default: return std::nullopt;
  }
  if (physical == parquet::Type::INT64) return value;
  if (physical != parquet::Type::INT32 || value < std::numeric_limits<int32_t>::min() ||
      value > std::numeric_limits<int32_t>::max()) {
    return std::nullopt;
  }
  return value;
}

bool RangeMayPass(RawOp op, int64_t literal, int64_t min, int64_t max) {
  switch (op) {
    case RawOp::kEqual: return min <= literal && literal <= max;
    case RawOp::kNotEqual: return min != literal || max != literal;
    case RawOp::kLess: return min < literal;
    case RawOp::kLessEqual: return min <= literal;
    case RawOp::kGreater: return max > literal;
    case RawOp::kGreaterEqual: return max >= literal;
    default: return true;
  }
}

}  // namespace parley
