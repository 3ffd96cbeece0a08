// AggregateBinder: aggregate calls (count, sum, avg, min, max) with Spark's result types,
// grouping keys, and the MISSING_AGGREGATION check.
#include "analysis/aggregate_binder.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/analysis_error.h"
#include "analysis/types.h"
#include "arrow/type.h"
#include "plan/expression_equality.h"

namespace parley {
namespace {

constexpr int kMaxPrecision = 38;

std::string KeyField(size_t i) { return fmt::format("#key{}", i); }
std::string AggregateField(size_t i) { return fmt::format("#agg{}", i); }

Result<std::shared_ptr<arrow::DataType>> ResultType(const std::string& function,
                                                    const sql::Expr& call,
                                                    const BoundExprPtr& arg) {
  if (function == "COUNT" || function == "COUNT_STAR") return arrow::int64();
  const auto& type = *arg->type;
  if (function == "MIN" || function == "MAX") return arg->type;
  if (!IsNumeric(type) && type.id() != arrow::Type::NA) {
    return AnalysisError(
        "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
        fmt::format("Cannot resolve \"{}\" due to data type mismatch: the input requires a "
                    "numeric type, however \"{}\" has the type \"{}\".",
                    call.source_text, call.children[0]->source_text, SqlTypeName(type)),
        call.pos);
  }
  if (type.id() == arrow::Type::DECIMAL128) {
    const auto& dec = static_cast<const arrow::DecimalType&>(type);
    if (function == "SUM") {
      return arrow::decimal128(std::min(kMaxPrecision, dec.precision() + 10), dec.scale());
    }
    return arrow::decimal128(std::min(kMaxPrecision, dec.precision() + 4),
                             std::min(kMaxPrecision, dec.scale() + 4));
  }
  if (function == "SUM" && (IsIntegral(type) || type.id() == arrow::Type::NA)) {
    return arrow::int64();
  }
  return arrow::float64();
}

// Identical aggregate calls (same function, DISTINCT and argument expressions) are computed
// once; calls that print alike over different tables' columns are not identical.
bool SameAggregate(const AggregateCall& a, const AggregateCall& b) {
  if (a.function != b.function || a.distinct != b.distinct || a.args.size() != b.args.size()) {
    return false;
  }
  for (size_t i = 0; i < a.args.size(); ++i) {
    if (!SameExpression(*a.args[i], *b.args[i])) return false;
  }
  return true;
}

}  // namespace

Status AggregateBinder::AddGroupKey(const sql::Expr& expr) {
  ARROW_ASSIGN_OR_RAISE(auto key, BindInput(expr));
  AddBoundGroupKey(key, expr.kind == sql::ExprKind::kColumn ? key->display : expr.source_text);
  return Status::OK();
}

void AggregateBinder::AddBoundGroupKey(BoundExprPtr key, std::string display) {
  keys_.push_back(std::move(key));
  key_displays_.push_back(std::move(display));
}

Result<BoundExprPtr> AggregateBinder::BindInput(const sql::Expr& expr) const {
  return BindExpression(expr, input_, [](const sql::Expr& call) -> Result<BoundExprPtr> {
    return AnalysisError("GROUP_BY_AGGREGATE",
                         fmt::format("Aggregate functions are not allowed in GROUP BY, but "
                                     "found \"{}\".",
                                     call.source_text),
                         call.pos);
  });
}

Result<BoundExprPtr> AggregateBinder::BindCall(const sql::Expr& call) {
  std::string name = call.name_parts.back();
  std::transform(name.begin(), name.end(), name.begin(), ::toupper);
  if (name == "MEAN") name = "AVG";
  auto nested = [](const sql::Expr& inner) -> Result<BoundExprPtr> {
    return AnalysisError("NESTED_AGGREGATE_FUNCTION",
                         fmt::format("It is not allowed to use an aggregate function in the "
                                     "argument of another aggregate function: \"{}\".",
                                     inner.source_text),
                         inner.pos);
  };
  AggregateCall aggregate;
  aggregate.distinct = call.distinct;
  if (call.star) {
    if (name != "COUNT") {
      return AnalysisError("INVALID_USAGE_OF_STAR_OR_REGEX",
                           fmt::format("Invalid usage of '*' in {}.", call.source_text), call.pos);
    }
    aggregate.function = "COUNT_STAR";
  } else {
    aggregate.function = name;
    size_t expected = 1;
    if (call.children.size() != expected && !(name == "COUNT" && call.distinct)) {
      return AnalysisError(
          "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
          fmt::format("The `{}` requires {} parameters but the actual number is {}.",
                      call.name_parts.back(), expected, call.children.size()),
          call.pos);
    }
    if (call.children.size() != 1) {
      return AnalysisError("UNSUPPORTED_FEATURE.MULTI_COLUMN_DISTINCT",
                           fmt::format("count(DISTINCT) of several columns is not supported: "
                                       "\"{}\".",
                                       call.source_text),
                           call.pos);
    }
    ARROW_ASSIGN_OR_RAISE(auto arg, BindExpression(*call.children[0], input_, nested));
    aggregate.args.push_back(arg);
  }
  if (aggregate.distinct && aggregate.function != "COUNT") {
    return AnalysisError("UNSUPPORTED_FEATURE.AGGREGATE_DISTINCT",
                         fmt::format("DISTINCT is supported in count only, not in \"{}\".",
                                     call.source_text),
                         call.pos);
  }
  if (call.filter) {
    return AnalysisError("UNSUPPORTED_FEATURE.AGGREGATE_FILTER",
                         fmt::format("FILTER (WHERE ...) on \"{}\" is not supported yet.",
                                     call.source_text),
                         call.pos);
  }
  ARROW_ASSIGN_OR_RAISE(aggregate.type,
                        ResultType(aggregate.function, call,
                                   aggregate.args.empty() ? nullptr : aggregate.args[0]));
  // Identical aggregates are computed once.
  for (size_t i = 0; i < calls_.size(); ++i) {
    if (SameAggregate(calls_[i], aggregate)) {
      return MakeColumnRef(AggregateField(i), call.source_text, calls_[i].type);
    }
  }
  calls_.push_back(aggregate);
  std::string field = AggregateField(calls_.size() - 1);
  aggregate_fields_.insert(field);
  return MakeColumnRef(field, call.source_text, aggregate.type);
}

Result<BoundExprPtr> AggregateBinder::ReplaceKeys(const BoundExprPtr& expr,
                                                  const sql::Expr& source) const {
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (SameExpression(*keys_[i], *expr)) {
      return MakeColumnRef(KeyField(i), key_displays_[i], keys_[i]->type);
    }
  }
  switch (expr->kind) {
    case BoundExpr::Kind::kLiteral:
      return expr;
    case BoundExpr::Kind::kColumn:
      if (aggregate_fields_.count(expr->field) > 0) return expr;
      return AnalysisError(
          "MISSING_AGGREGATION",
          fmt::format("The non-aggregating expression \"{}\" is based on columns which are not "
                      "participating in the GROUP BY clause. Add the columns or the expression "
                      "to the GROUP BY, aggregate the expression, or use \"any_value({})\" if "
                      "you do not care which of the values within a group is returned.",
                      expr->display, expr->display),
          source.pos);
    case BoundExpr::Kind::kCall:
      break;
  }
  auto copy = std::make_shared<BoundExpr>(*expr);
  for (auto& arg : copy->args) {
    ARROW_ASSIGN_OR_RAISE(arg, ReplaceKeys(arg, source));
  }
  return copy;
}

Result<BoundExprPtr> AggregateBinder::BindAfterAggregate(const sql::Expr& expr) {
  BindOptions options;
  options.aggregate_hook = [this](const sql::Expr& call) { return BindCall(call); };
  options.subquery_hook = subquery_hook_;
  ARROW_ASSIGN_OR_RAISE(auto bound, BindExpression(expr, input_, options));
  return ReplaceKeys(bound, expr);
}

PlanNodePtr AggregateBinder::MakeNode(PlanNodePtr input) const {
  auto node = std::make_shared<PlanNode>();
  node->kind = PlanNode::Kind::kAggregate;
  node->children = {std::move(input)};
  node->group_keys = keys_;
  node->aggregates = calls_;
  for (size_t i = 0; i < keys_.size(); ++i) {
    node->output.push_back({KeyField(i), key_displays_[i], keys_[i]->type, true});
  }
  for (size_t i = 0; i < calls_.size(); ++i) {
    node->output.push_back({AggregateField(i), calls_[i].ToString(), calls_[i].type,
                            calls_[i].function != "COUNT" && calls_[i].function != "COUNT_STAR"});
  }
  return node;
}

}  // namespace parley
