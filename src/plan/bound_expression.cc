// BoundExpr construction, conjunct splitting and EXPLAIN rendering.
#include "plan/bound_expression.h"

#include <fmt/format.h>

#include <algorithm>

#include "arrow/scalar.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "parley/connector/expressions.h"
#include "plan/lambda_function.h"

namespace parley {
namespace {

bool IsInfix(const std::string& f) {
  static const char* kInfix[] = {"=", "<>", "<",   "<=", ">",   ">=", "<=>", "+", "-", "*",
                                 "/", "%",  "DIV", "||", "AND", "OR", "&",   "|", "^"};
  return std::any_of(std::begin(kInfix), std::end(kInfix), [&](const char* s) { return f == s; });
}

std::string JoinArgs(const std::vector<BoundExprPtr>& args, size_t from) {
  std::string out;
  for (size_t i = from; i < args.size(); ++i) {
    if (i > from) out += ", ";
    out += args[i]->ToString();
  }
  return out;
}

}  // namespace

std::string SqlTypeName(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::NA: return "VOID";
    case arrow::Type::BOOL: return "BOOLEAN";
    case arrow::Type::INT8: return "TINYINT";
    case arrow::Type::INT16: return "SMALLINT";
    case arrow::Type::INT32: return "INT";
    case arrow::Type::INT64: return "BIGINT";
    case arrow::Type::FLOAT: return "FLOAT";
    case arrow::Type::DOUBLE: return "DOUBLE";
    case arrow::Type::STRING:
    case arrow::Type::LARGE_STRING:
    case arrow::Type::STRING_VIEW: return "STRING";
    case arrow::Type::BINARY:
    case arrow::Type::LARGE_BINARY: return "BINARY";
    case arrow::Type::DATE32: return "DATE";
    case arrow::Type::INTERVAL_MONTHS: return "INTERVAL YEAR TO MONTH";
    case arrow::Type::LIST:
      return "ARRAY<" + SqlTypeName(*static_cast<const arrow::ListType&>(type).value_type()) + ">";
    case arrow::Type::MAP: {
      const auto& map = static_cast<const arrow::MapType&>(type);
      return "MAP<" + SqlTypeName(*map.key_type()) + ", " + SqlTypeName(*map.item_type()) + ">";
    }
    case arrow::Type::STRUCT: {
      std::string out = "STRUCT<";
      for (int i = 0; i < type.num_fields(); ++i) {
        if (i > 0) out += ", ";
        out += "`" + type.field(i)->name() + "`: " + SqlTypeName(*type.field(i)->type());
      }
      return out + ">";
    }
    case arrow::Type::DURATION: return "INTERVAL DAY TO SECOND";
    case arrow::Type::TIMESTAMP: {
      const auto& ts = static_cast<const arrow::TimestampType&>(type);
      return ts.timezone().empty() ? "TIMESTAMP_NTZ" : "TIMESTAMP";
    }
    case arrow::Type::DECIMAL128:
    case arrow::Type::DECIMAL256: {
      const auto& dec = static_cast<const arrow::DecimalType&>(type);
      return fmt::format("DECIMAL({},{})", dec.precision(), dec.scale());
    }
    default: return type.ToString();
  }
}

std::string DescribeTypeName(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::LIST:
    case arrow::Type::LARGE_LIST:
    case arrow::Type::FIXED_SIZE_LIST:
      return "array<" +
             DescribeTypeName(*static_cast<const arrow::BaseListType&>(type).value_type()) + ">";
    case arrow::Type::MAP: {
      const auto& map = static_cast<const arrow::MapType&>(type);
      return "map<" + DescribeTypeName(*map.key_type()) + "," + DescribeTypeName(*map.item_type()) +
             ">";
    }
    case arrow::Type::STRUCT: {
      std::string out = "struct<";
      for (int i = 0; i < type.num_fields(); ++i) {
        if (i > 0) out += ",";
        out += type.field(i)->name() + ":" + DescribeTypeName(*type.field(i)->type());
      }
      return out + ">";
    }
    default: return ToLowerAscii(SqlTypeName(type));
  }
}

std::string BoundExpr::ToString() const {
  switch (kind) {
    case Kind::kColumn: return display;
    case Kind::kLiteral: return Literal(literal).ToString();
    case Kind::kCall: break;
  }
  if (IsInfix(function) && args.size() == 2) {
    return "(" + args[0]->ToString() + " " + function + " " + args[1]->ToString() + ")";
  }
  if (function == "[]") return args[0]->ToString() + "[" + args[1]->ToString() + "]";
  if (function == "NOT") return "(NOT " + args[0]->ToString() + ")";
  if (function == "NEGATE") return "(- " + args[0]->ToString() + ")";
  if (function == "IS_NULL") return "(" + args[0]->ToString() + " IS NULL)";
  if (function == "IS_NOT_NULL") return "(" + args[0]->ToString() + " IS NOT NULL)";
  if (function == "IN") return "(" + args[0]->ToString() + " IN (" + JoinArgs(args, 1) + "))";
  if (function == "CAST" || function == "TRY_CAST") {
    return function + "(" + args[0]->ToString() + " AS " + SqlTypeName(*type) + ")";
  }
  if (function == "CASE_WHEN") {
    std::string out = "CASE";
    size_t pairs = (args.size() - (has_else ? 1 : 0)) / 2;
    for (size_t i = 0; i < pairs; ++i) {
      out += " WHEN " + args[2 * i]->ToString() + " THEN " + args[2 * i + 1]->ToString();
    }
    if (has_else) out += " ELSE " + args.back()->ToString();
    return out + " END";
  }
  return function + "(" + JoinArgs(args, 0) + ")";
}

void BoundExpr::CollectFields(std::vector<std::string>* out) const {
  if (kind == Kind::kColumn) {
    if (IsLambdaVariableField(field)) return;
    if (std::find(out->begin(), out->end(), field) == out->end()) out->push_back(field);
    return;
  }
  for (const auto& arg : args) arg->CollectFields(out);
}

BoundExprPtr MakeColumnRef(std::string field, std::string display,
                           std::shared_ptr<arrow::DataType> type) {
  auto expr = std::make_shared<BoundExpr>();
  expr->kind = BoundExpr::Kind::kColumn;
  expr->field = std::move(field);
  expr->display = std::move(display);
  expr->type = std::move(type);
  return expr;
}

BoundExprPtr MakeBoundLiteral(std::shared_ptr<arrow::Scalar> value) {
  auto expr = std::make_shared<BoundExpr>();
  expr->kind = BoundExpr::Kind::kLiteral;
  expr->type = value->type;
  expr->literal = std::move(value);
  return expr;
}

BoundExprPtr MakeCall(std::string function, std::vector<BoundExprPtr> args,
                      std::shared_ptr<arrow::DataType> type) {
  auto expr = std::make_shared<BoundExpr>();
  expr->kind = BoundExpr::Kind::kCall;
  expr->function = std::move(function);
  expr->args = std::move(args);
  expr->type = std::move(type);
  return expr;
}

std::vector<BoundExprPtr> ColumnRefs(const BoundExprPtr& expr) {
  std::vector<BoundExprPtr> out;
  if (expr->kind == BoundExpr::Kind::kColumn) {
    if (IsLambdaVariableField(expr->field)) return {};
    return {expr};
  }
  for (const auto& arg : expr->args) {
    for (auto& column : ColumnRefs(arg)) {
      bool seen = std::any_of(out.begin(), out.end(),
                              [&](const BoundExprPtr& c) { return c->field == column->field; });
      if (!seen) out.push_back(std::move(column));
    }
  }
  return out;
}

std::vector<BoundExprPtr> SplitConjuncts(const BoundExprPtr& condition) {
  if (condition->kind == BoundExpr::Kind::kCall && condition->function == "AND") {
    auto left = SplitConjuncts(condition->args[0]);
    auto right = SplitConjuncts(condition->args[1]);
    left.insert(left.end(), right.begin(), right.end());
    return left;
  }
  return {condition};
}

BoundExprPtr CombineConjuncts(const std::vector<BoundExprPtr>& conjuncts) {
  BoundExprPtr combined;
  for (const auto& conjunct : conjuncts) {
    combined = combined ? MakeCall("AND", {combined, conjunct}, arrow::boolean()) : conjunct;
  }
  return combined;
}

BoundExprPtr ReplaceColumns(const BoundExprPtr& expr,
                            const std::map<std::string, BoundExprPtr>& replacements) {
  if (expr->kind == BoundExpr::Kind::kColumn) {
    auto it = replacements.find(expr->field);
    return it == replacements.end() ? expr : it->second;
  }
  if (expr->kind != BoundExpr::Kind::kCall) return expr;
  auto copy = std::make_shared<BoundExpr>(*expr);
  for (auto& arg : copy->args) arg = ReplaceColumns(arg, replacements);
  return copy;
}

}  // namespace parley
