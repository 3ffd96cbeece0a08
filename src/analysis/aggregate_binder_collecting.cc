// AggregateBinder: calls of the collecting aggregates (functions/collecting_aggregates.h), their
// constant arguments checked as Spark checks them, WITHIN GROUP, IGNORE NULLS, DISTINCT and
// FILTER.
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <optional>
#include <string>

#include "analysis/aggregate_binder.h"
#include "analysis/analysis_error.h"
#include "analysis/types.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "functions/collecting_aggregates.h"
#include "plan/expression_equality.h"
#include "plan/type_rules.h"

namespace parley {
namespace {

struct CollectingName {
  CollectingKind kind;
  size_t min_args;
  size_t max_args;
};

const std::map<std::string, CollectingName>& CollectingNames() {
  static const std::map<std::string, CollectingName> kNames = {
      {"first", {CollectingKind::kFirst, 1, 2}},
      {"first_value", {CollectingKind::kFirst, 1, 2}},
      {"any_value", {CollectingKind::kFirst, 1, 2}},
      {"last", {CollectingKind::kLast, 1, 2}},
      {"last_value", {CollectingKind::kLast, 1, 2}},
      {"max_by", {CollectingKind::kMaxBy, 2, 3}},
      {"min_by", {CollectingKind::kMinBy, 2, 3}},
      {"collect_list", {CollectingKind::kCollectList, 1, 1}},
      {"array_agg", {CollectingKind::kCollectList, 1, 1}},
      {"collect_set", {CollectingKind::kCollectSet, 1, 1}},
      {"string_agg", {CollectingKind::kStringAgg, 1, 2}},
      {"listagg", {CollectingKind::kStringAgg, 1, 2}},
      {"percentile", {CollectingKind::kPercentile, 2, 3}},
      {"median", {CollectingKind::kPercentile, 1, 1}},
      {"percentile_cont", {CollectingKind::kPercentile, 1, 1}},
      {"percentile_disc", {CollectingKind::kPercentileDisc, 1, 1}},
      {"percentile_approx", {CollectingKind::kPercentileApprox, 2, 3}},
      {"approx_percentile", {CollectingKind::kPercentileApprox, 2, 3}},
      {"mode", {CollectingKind::kMode, 0, 2}},
      {"approx_count_distinct", {CollectingKind::kCountDistinct, 1, 2}},
  };
  return kNames;
}

Status WrongArgCount(const sql::Expr& call, const CollectingName& shape) {
  std::string expected =
      shape.min_args == shape.max_args ? std::to_string(shape.min_args) : fmt::format("[{}]", [&] {
        std::string list;
        for (size_t n = shape.min_args; n <= shape.max_args; ++n) {
          list += (list.empty() ? "" : ", ") + std::to_string(n);
        }
        return list;
      }());
  return AnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                       fmt::format("The `{}` requires {} parameters but the actual number is {}.",
                                   call.name_parts.back(), expected, call.children.size()),
                       call.pos);
}

Status NotFoldable(const sql::Expr& call, const sql::Expr& arg, const char* parameter,
                   const char* type) {
  return AnalysisError("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                       fmt::format("Cannot resolve \"{}\" due to data type mismatch: the input "
                                   "`{}` should be a foldable \"{}\" expression; however, got "
                                   "\"{}\".",
                                   call.source_text, parameter, type, arg.source_text),
                       arg.pos);
}

Status OutOfRange(const sql::Expr& call, const std::string& message) {
  return AnalysisError(
      "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE",
      fmt::format("Cannot resolve \"{}\" due to data type mismatch: {}", call.source_text, message),
      call.pos);
}

// The number of a numeric literal, or nullopt (a NULL literal is 0-valued nullopt too).
std::optional<double> LiteralNumber(const BoundExpr& expr) {
  if (expr.kind != BoundExpr::Kind::kLiteral || !expr.literal->is_valid) return std::nullopt;
  if (!IsNumeric(*expr.type)) return std::nullopt;
  if (expr.type->id() == arrow::Type::DECIMAL128) {
    const auto& decimal = static_cast<const arrow::Decimal128Scalar&>(*expr.literal);
    // Through the text: the nearest double to the decimal, as Spark's cast gives.
    return std::stod(
        decimal.value.ToString(static_cast<const arrow::DecimalType&>(*expr.type).scale()));
  }
  auto as_double = expr.literal->CastTo(arrow::float64());
  if (!as_double.ok()) return std::nullopt;
  return static_cast<const arrow::DoubleScalar&>(**as_double).value;
}

// The percentages of a percentile call: one number or array(...) of numbers, each in [0, 1].
Status Percentages(const sql::Expr& call, const sql::Expr& arg, const BoundExpr& bound,
                   CollectingSpec* spec) {
  spec->percentages.clear();
  if (auto number = LiteralNumber(bound)) {
    spec->percentages.push_back(*number);
  } else if (bound.kind == BoundExpr::Kind::kCall && bound.function == "array") {
    spec->percentages_array = true;
    for (const auto& element : bound.args) {
      auto value = LiteralNumber(*element);
      if (!value) return NotFoldable(call, arg, "percentage", "DOUBLE");
      spec->percentages.push_back(*value);
    }
  } else {
    return NotFoldable(call, arg, "percentage", "DOUBLE");
  }
  for (double p : spec->percentages) {
    if (!(p >= 0.0 && p <= 1.0)) {
      return OutOfRange(call, fmt::format("The percentage must be between [0.0, 1.0] (current "
                                          "value = {}D).",
                                          p));
    }
  }
  return Status::OK();
}

// A constant BOOLEAN argument (first's and last's ignoreNulls, mode's deterministic).
Result<bool> ConstantFlag(const sql::Expr& call, const BoundExpr& bound, const char* what) {
  if (bound.kind != BoundExpr::Kind::kLiteral || bound.type->id() != arrow::Type::BOOL ||
      !bound.literal->is_valid) {
    return AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                         fmt::format("Cannot resolve \"{}\" due to data type mismatch: {} must "
                                     "be a BOOLEAN constant.",
                                     call.source_text, what),
                         call.pos);
  }
  return static_cast<const arrow::BooleanScalar&>(*bound.literal).value;
}

bool Orderable(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::MAP: return false;
    case arrow::Type::LIST:
      return Orderable(*static_cast<const arrow::ListType&>(type).value_type());
    case arrow::Type::STRUCT:
      for (const auto& field : type.fields()) {
        if (!Orderable(*field->type())) return false;
      }
      return true;
    default: return true;
  }
}

}  // namespace

bool IsCollectingAggregate(const std::string& name) { return CollectingNames().count(name) > 0; }

const std::vector<std::string>& CollectingAggregateNames() {
  static const std::vector<std::string> kList = [] {
    std::vector<std::string> names;
    for (const auto& [name, shape] : CollectingNames()) names.push_back(name);
    return names;
  }();
  return kList;
}

Result<BoundExprPtr> AggregateBinder::BindCollectingCall(const sql::Expr& call,
                                                         const std::string& name) {
  const CollectingName& shape = CollectingNames().at(name);
  if (call.star) {
    return AnalysisError("INVALID_USAGE_OF_STAR_OR_REGEX",
                         fmt::format("Invalid usage of '*' in {}.", call.source_text), call.pos);
  }
  const size_t n = call.children.size();
  if (n < shape.min_args || n > shape.max_args) return WrongArgCount(call, shape);
  std::vector<BoundExprPtr> bound;
  for (const auto& child : call.children) {
    ARROW_ASSIGN_OR_RAISE(auto arg, BindExpression(*child, input_, NestedAggregate));
    bound.push_back(std::move(arg));
  }
  std::vector<BoundExprPtr> order_keys;
  std::vector<CollectingOrder> order;
  for (const auto& item : call.within_group) {
    ARROW_ASSIGN_OR_RAISE(auto key, BindExpression(*item.expr, input_, NestedAggregate));
    order_keys.push_back(std::move(key));
    order.push_back({item.ascending, item.nulls_first.value_or(item.ascending)});
  }
  const bool takes_within_group = shape.kind == CollectingKind::kStringAgg ||
                                  shape.kind == CollectingKind::kMode ||
                                  name == "percentile_cont" || name == "percentile_disc";
  if (!order_keys.empty() && !takes_within_group) {
    return AnalysisError("INVALID_SQL_SYNTAX.FUNCTION_WITH_UNSUPPORTED_SYNTAX",
                         fmt::format("Invalid SQL syntax: The function `{}` does not support "
                                     "WITHIN GROUP.",
                                     call.name_parts.back()),
                         call.pos);
  }
  if ((name == "percentile_cont" || name == "percentile_disc") && order_keys.size() != 1) {
    return AnalysisError("INVALID_WITHIN_GROUP_EXPRESSION.WITHIN_GROUP_MISSING",
                         fmt::format("Invalid function `{}` with WITHIN GROUP: the function "
                                     "requires WITHIN GROUP (ORDER BY ...) of one expression.",
                                     call.name_parts.back()),
                         call.pos);
  }

  CollectingSpec spec;
  spec.kind = shape.kind;
  spec.name = name;
  spec.distinct = call.distinct;
  std::vector<BoundExprPtr> values;
  auto value_as = [&](BoundExprPtr arg, std::shared_ptr<arrow::DataType> type) {
    values.push_back(CastTo(arg, type));
    spec.value_types.push_back(std::move(type));
  };
  auto value_of_own_type = [&](BoundExprPtr arg) {
    auto type = arg->type->id() == arrow::Type::NA ? arrow::int32() : arg->type;
    value_as(std::move(arg), std::move(type));
  };

  switch (shape.kind) {
    case CollectingKind::kFirst:
    case CollectingKind::kLast: {
      spec.ignore_nulls = call.ignore_nulls.value_or(false);
      if (n == 2) {
        if (bound[1]->kind != BoundExpr::Kind::kLiteral ||
            bound[1]->type->id() != arrow::Type::BOOL || !bound[1]->literal->is_valid) {
          return AnalysisError(
              "_LEGACY_ERROR_TEMP_1210",
              fmt::format("The second argument in {} should be a boolean literal.", name),
              call.pos);
        }
        spec.ignore_nulls = static_cast<const arrow::BooleanScalar&>(*bound[1]->literal).value;
      }
      value_of_own_type(bound[0]);
      spec.result_type = spec.value_types[0];
      break;
    }
    case CollectingKind::kMaxBy:
    case CollectingKind::kMinBy: {
      if (!Orderable(*bound[1]->type)) {
        return AnalysisError("DATATYPE_MISMATCH.INVALID_ORDERING_TYPE",
                             fmt::format("Cannot resolve \"{}\" due to data type mismatch: The "
                                         "`{}` does not support ordering on type \"{}\".",
                                         call.source_text, name, SqlTypeName(*bound[1]->type)),
                             call.pos);
      }
      value_of_own_type(bound[0]);
      value_of_own_type(bound[1]);
      spec.result_type = spec.value_types[0];
      if (n == 3) {
        auto k = LiteralNumber(*bound[2]);
        if (!k || !IsIntegral(*bound[2]->type)) {
          return NotFoldable(call, *call.children[2], "k", "INT");
        }
        if (*k < 1 || *k > 100000) {
          return OutOfRange(call, fmt::format("The `k` must be between [1, 100000] (current "
                                              "value = {}).",
                                              static_cast<int64_t>(*k)));
        }
        spec.top_k = static_cast<int64_t>(*k);
        spec.result_type = arrow::list(spec.value_types[0]);
      }
      break;
    }
    case CollectingKind::kCollectList:
    case CollectingKind::kCollectSet:
      value_of_own_type(bound[0]);
      spec.result_type = arrow::list(spec.value_types[0]);
      break;
    case CollectingKind::kStringAgg: {
      bool binary = bound[0]->type->id() == arrow::Type::BINARY;
      value_as(bound[0], binary ? arrow::binary() : arrow::utf8());
      if (n == 2) {
        const auto& delimiter = *bound[1];
        if (delimiter.kind != BoundExpr::Kind::kLiteral) {
          return NotFoldable(call, *call.children[1], "delimiter", "STRING");
        }
        if (delimiter.literal->is_valid) {
          auto text = delimiter.literal->CastTo(binary ? arrow::binary() : arrow::utf8());
          if (!text.ok()) return NotFoldable(call, *call.children[1], "delimiter", "STRING");
          spec.delimiter = std::string(static_cast<const arrow::BaseBinaryScalar&>(**text).view());
        }
      }
      if (call.distinct && !order_keys.empty()) {
        for (const auto& key : order_keys) {
          if (!SameExpression(*key, *bound[0])) {
            return AnalysisError(
                "INVALID_WITHIN_GROUP_EXPRESSION.MISMATCH_WITH_DISTINCT_INPUT",
                fmt::format("Invalid function `{}` with WITHIN GROUP. The function is invoked "
                            "with DISTINCT and WITHIN GROUP but expressions \"{}\" and \"{}\" "
                            "do not match. The WITHIN GROUP ordering expression must be picked "
                            "from the function inputs.",
                            name, call.children[0]->source_text,
                            call.within_group[0].expr->source_text),
                call.pos);
          }
        }
      }
      spec.result_type = binary ? arrow::binary() : arrow::utf8();
      break;
    }
    case CollectingKind::kPercentile:
    case CollectingKind::kPercentileDisc: {
      const bool within = name == "percentile_cont" || name == "percentile_disc";
      BoundExprPtr value = within ? order_keys[0] : bound[0];
      if (!IsNumeric(*value->type) && !IsStringLike(*value->type) &&
          value->type->id() != arrow::Type::NA) {
        return UnexpectedArgumentType(call, 0, *value->type, "NUMERIC");
      }
      value_as(value, arrow::float64());
      if (name == "median") {
        spec.percentages = {0.5};
      } else {
        size_t at = within ? 0 : 1;
        ARROW_RETURN_NOT_OK(Percentages(call, *call.children[at], *bound[at], &spec));
      }
      if (name == "percentile" && n == 3) {
        if (!IsIntegral(*bound[2]->type)) {
          return UnexpectedArgumentType(call, 2, *bound[2]->type, "INTEGRAL");
        }
        value_as(bound[2], arrow::int64());
      }
      if (within) {
        spec.order = order;
        order_keys.clear();
        order.clear();
      }
      spec.result_type = spec.percentages_array ? arrow::list(arrow::float64()) : arrow::float64();
      break;
    }
    case CollectingKind::kPercentileApprox: {
      const auto& type = *bound[0]->type;
      if (!IsNumeric(type) && type.id() != arrow::Type::DATE32 &&
          type.id() != arrow::Type::TIMESTAMP) {
        return UnexpectedArgumentType(call, 0, type, "NUMERIC");
      }
      value_of_own_type(bound[0]);
      ARROW_RETURN_NOT_OK(Percentages(call, *call.children[1], *bound[1], &spec));
      if (n == 3) {
        auto accuracy = LiteralNumber(*bound[2]);
        if (!accuracy || !IsIntegral(*bound[2]->type)) {
          return NotFoldable(call, *call.children[2], "accuracy", "INT");
        }
        if (*accuracy <= 0 || *accuracy > 2147483647) {
          return OutOfRange(call, fmt::format("The accuracy must be between (0, 2147483647] "
                                              "(current value = {}L).",
                                              static_cast<int64_t>(*accuracy)));
        }
        spec.relative_error = 1.0 / *accuracy;
      }
      spec.result_type =
          spec.percentages_array ? arrow::list(spec.value_types[0]) : spec.value_types[0];
      break;
    }
    case CollectingKind::kMode: {
      if (n == 0 && order_keys.size() != 1) {
        return AnalysisError("INVALID_WITHIN_GROUP_EXPRESSION.WITHIN_GROUP_MISSING",
                             "Invalid function `mode` with WITHIN GROUP: mode() needs WITHIN "
                             "GROUP (ORDER BY ...) of one expression.",
                             call.pos);
      }
      if (n > 0 && !order_keys.empty()) {
        return AnalysisError("INVALID_WITHIN_GROUP_EXPRESSION.WRONG_NUM_ORDERINGS",
                             "Invalid function `mode` with WITHIN GROUP: it takes its value "
                             "either as an argument or in WITHIN GROUP, not both.",
                             call.pos);
      }
      if (n == 0) {
        value_of_own_type(order_keys[0]);
        spec.deterministic = true;
        spec.order = order;
        order_keys.clear();
        order.clear();
      } else {
        value_of_own_type(bound[0]);
        if (n == 2) {
          ARROW_ASSIGN_OR_RAISE(spec.deterministic,
                                ConstantFlag(call, *bound[1], "the second argument"));
        }
      }
      spec.result_type = spec.value_types[0];
      break;
    }
    case CollectingKind::kCountDistinct: {
      value_of_own_type(bound[0]);
      if (n == 2) {
        auto rsd = LiteralNumber(*bound[1]);
        if (!rsd) return NotFoldable(call, *call.children[1], "relativeSD", "DOUBLE");
        // Spark's HyperLogLog++ needs at least 4 bits of register index for the error asked.
        double bits = std::ceil(2.0 * std::log(1.106 / *rsd) / std::log(2.0));
        if (!(bits >= 4)) {
          return AnalysisError("FAILED_FUNCTION_CALL",
                               fmt::format("Failed preparing of the function `{}` for call. "
                                           "Please, double check function's arguments.",
                                           name),
                               call.pos);
        }
      }
      spec.result_type = arrow::int64();
      break;
    }
  }

  for (size_t i = 0; i < order_keys.size(); ++i) {
    auto type = order_keys[i]->type->id() == arrow::Type::NA ? arrow::int32() : order_keys[i]->type;
    values.push_back(CastTo(order_keys[i], type));
    spec.order_types.push_back(std::move(type));
  }
  spec.order.insert(spec.order.end(), order.begin(), order.end());
  if (call.filter) {
    ARROW_ASSIGN_OR_RAISE(auto condition, BindFilterCondition(call));
    values.push_back(std::move(condition));
    spec.filtered = true;
  }
  AggregateCall aggregate;
  aggregate.function = name;
  aggregate.args = std::move(values);
  aggregate.distinct = call.distinct;
  aggregate.connector_aggregate = CollectingAggregate(std::move(spec));
  aggregate.type = aggregate.connector_aggregate->result_type();
  return AddCall(call, std::move(aggregate));
}

}  // namespace parley
