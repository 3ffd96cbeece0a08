// Spark's type rules over Arrow types: which types are numbers, the common type of two
// operands, decimal result types; and CastTo, the bound cast that folds constants.
#include "plan/type_rules.h"

#include <algorithm>

#include "arrow/scalar.h"
#include "arrow/type.h"

namespace parley {
namespace {

std::shared_ptr<arrow::DataType> Decimal(int precision, int scale) {
  return arrow::decimal128(std::min(precision, kMaxDecimalPrecision),
                           std::min(scale, kMaxDecimalPrecision));
}

// Precision and scale of the decimal that holds every value of `type` exactly.
std::pair<int, int> DecimalShape(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::INT8: return {3, 0};
    case arrow::Type::INT16: return {5, 0};
    case arrow::Type::INT32: return {10, 0};
    case arrow::Type::INT64: return {20, 0};
    default: {
      const auto& dec = static_cast<const arrow::DecimalType&>(type);
      return {dec.precision(), dec.scale()};
    }
  }
}

int NumericRank(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::INT8: return 1;
    case arrow::Type::INT16: return 2;
    case arrow::Type::INT32: return 3;
    case arrow::Type::INT64: return 4;
    case arrow::Type::DECIMAL128: return 5;
    case arrow::Type::FLOAT: return 6;
    case arrow::Type::DOUBLE: return 7;
    default: return 0;
  }
}

}  // namespace

bool IsNumeric(const arrow::DataType& type) { return NumericRank(type) > 0; }
bool IsIntegral(const arrow::DataType& type) {
  return NumericRank(type) >= 1 && NumericRank(type) <= 4;
}
bool IsStringLike(const arrow::DataType& type) {
  return type.id() == arrow::Type::STRING || type.id() == arrow::Type::LARGE_STRING;
}

namespace {

// The type of an arithmetic result that needs `precision` digits, `scale` of them fractional:
// beyond 38 digits Spark keeps the integral digits and gives up fraction digits, down to 6
// (spark.sql.decimalOperations.allowPrecisionLoss, true by default).
std::shared_ptr<arrow::DataType> ArithmeticDecimal(int precision, int scale) {
  if (precision <= kMaxDecimalPrecision) return arrow::decimal128(precision, scale);
  int integral = precision - scale;
  int min_scale = std::min(scale, 6);
  return arrow::decimal128(kMaxDecimalPrecision,
                           std::max(kMaxDecimalPrecision - integral, min_scale));
}

}  // namespace

std::shared_ptr<arrow::DataType> ExactDecimalOf(const arrow::DataType& type) {
  auto [precision, scale] = DecimalShape(type);
  return Decimal(precision, scale);
}

std::shared_ptr<arrow::DataType> DecimalResultType(char op, const arrow::DataType& left,
                                                   const arrow::DataType& right) {
  auto [p1, s1] = DecimalShape(left);
  auto [p2, s2] = DecimalShape(right);
  switch (op) {
    case '+':
    case '-': {
      int scale = std::max(s1, s2);
      return ArithmeticDecimal(std::max(p1 - s1, p2 - s2) + scale + 1, scale);
    }
    case '*': return ArithmeticDecimal(p1 + p2 + 1, s1 + s2);
    case '/': {
      int scale = std::max(6, s1 + p2 + 1);
      return ArithmeticDecimal(p1 - s1 + s2 + scale, scale);
    }
    default: {
      int scale = std::max(s1, s2);
      return ArithmeticDecimal(std::min(p1 - s1, p2 - s2) + scale, scale);
    }
  }
}

namespace {

// The type a string and a value of `other` meet in, nullptr when they do not.
std::shared_ptr<arrow::DataType> TypeOfStringBeside(const std::shared_ptr<arrow::DataType>& other) {
  if (IsIntegral(*other)) return arrow::int64();
  if (IsNumeric(*other)) return arrow::float64();
  if (other->id() == arrow::Type::DATE32 || other->id() == arrow::Type::TIMESTAMP ||
      other->id() == arrow::Type::BOOL) {
    return other;
  }
  return nullptr;
}

}  // namespace

std::shared_ptr<arrow::DataType> CommonType(const std::shared_ptr<arrow::DataType>& left,
                                            const std::shared_ptr<arrow::DataType>& right) {
  if (left->Equals(*right)) return left;
  if (left->id() == arrow::Type::NA) return right;
  if (right->id() == arrow::Type::NA) return left;
  int lr = NumericRank(*left);
  int rr = NumericRank(*right);
  if (lr > 0 && rr > 0) {
    if (lr == 5 || rr == 5) {
      if (std::max(lr, rr) > 5) return arrow::float64();
      auto [p1, s1] = DecimalShape(*left);
      auto [p2, s2] = DecimalShape(*right);
      int scale = std::max(s1, s2);
      return Decimal(std::max(p1 - s1, p2 - s2) + scale, scale);
    }
    return lr >= rr ? left : right;
  }
  // ANSI: a string operand converts to the other side's type (and fails on bad input), read
  // as a BIGINT beside an integer and as a DOUBLE beside a decimal or floating-point number.
  if (IsStringLike(*left) && !IsStringLike(*right)) return TypeOfStringBeside(right);
  if (IsStringLike(*right) && !IsStringLike(*left)) return TypeOfStringBeside(left);
  if (left->id() == right->id() && left->num_fields() == right->num_fields()) {
    // Arrays, maps and structs meet part by part (a struct keeps the left side's names).
    if (left->id() == arrow::Type::LIST) {
      auto element = CommonType(left->field(0)->type(), right->field(0)->type());
      return element == nullptr ? nullptr : arrow::list(element);
    }
    if (left->id() == arrow::Type::MAP) {
      const auto& a = static_cast<const arrow::MapType&>(*left);
      const auto& b = static_cast<const arrow::MapType&>(*right);
      auto key = CommonType(a.key_type(), b.key_type());
      auto item = CommonType(a.item_type(), b.item_type());
      return key == nullptr || item == nullptr ? nullptr : arrow::map(key, item);
    }
    if (left->id() == arrow::Type::STRUCT) {
      arrow::FieldVector fields;
      for (int i = 0; i < left->num_fields(); ++i) {
        auto type = CommonType(left->field(i)->type(), right->field(i)->type());
        if (type == nullptr) return nullptr;
        fields.push_back(arrow::field(left->field(i)->name(), type));
      }
      return arrow::struct_(fields);
    }
  }
  if (left->id() == arrow::Type::DATE32 && right->id() == arrow::Type::TIMESTAMP) return right;
  if (right->id() == arrow::Type::DATE32 && left->id() == arrow::Type::TIMESTAMP) return left;
  if (IsStringLike(*left) && IsStringLike(*right)) return arrow::utf8();
  return nullptr;
}

BoundExprPtr CastTo(const BoundExprPtr& expr, const std::shared_ptr<arrow::DataType>& type) {
  if (expr->type->Equals(*type)) return expr;
  if (expr->kind == BoundExpr::Kind::kLiteral) {
    if (!expr->literal->is_valid) return MakeBoundLiteral(arrow::MakeNullScalar(type));
    // Fold the cast of a constant now, so `bigint_col > 5` stays a column-literal comparison
    // that translates for pushdown. A value that does not convert keeps a runtime CAST, which
    // then fails with the proper ANSI error.
    if (IsNumeric(*expr->type) && IsNumeric(*type)) {
      auto source = expr->literal;
      if (IsIntegral(*expr->type) && type->id() == arrow::Type::DECIMAL128) {
        // See exec/expression_lowering.cc: integers reach a decimal through DECIMAL(38, 0).
        auto wide = source->CastTo(arrow::decimal128(38, 0));
        if (wide.ok()) source = *wide;
      }
      auto folded = source->CastTo(type);
      if (folded.ok()) {
        auto back = (*folded)->CastTo(expr->type);
        if (back.ok() && (*back)->Equals(*expr->literal)) return MakeBoundLiteral(*folded);
      }
    }
    // A date written as a string ('2024-01-31' where a DATE is expected) is folded too.
    if (IsStringLike(*expr->type) && type->id() == arrow::Type::DATE32) {
      auto folded = expr->literal->CastTo(type);
      if (folded.ok()) return MakeBoundLiteral(*folded);
    }
  }
  return MakeCall("CAST", {expr}, type);
}

}  // namespace parley
