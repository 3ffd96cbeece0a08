// AggregateBinder: aggregate calls (count, sum, avg, min, max) with Spark's result types,
// grouping keys, and the MISSING_AGGREGATION check.
#include "analysis/aggregate_binder.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analysis/analysis_error.h"
#include "analysis/routine_binder.h"
#include "analysis/types.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "functions/builtin_aggregates.h"
#include "functions/distinct_aggregate.h"
#include "parley/connector/function.h"
#include "plan/expression_equality.h"

namespace parley {
namespace {

constexpr int kMaxPrecision = 38;

std::string KeyField(size_t i) { return fmt::format("#key{}", i); }
std::string AggregateField(size_t i) { return fmt::format("#agg{}", i); }
// Grouping sets: each key as the Expand emits it, the grouping id, and the set's position (only
// to keep the rows of a set listed twice apart).
std::string ExpandedKeyField(size_t i) { return fmt::format("#gkey{}", i); }
constexpr const char* kGroupingIdField = "#grouping_id";
constexpr const char* kGroupingPositionField = "#grouping_position";

std::string KeyList(const std::vector<BoundExprPtr>& keys) {
  std::vector<std::string> texts;
  for (const auto& key : keys) texts.push_back(key->ToString());
  return fmt::format("{}", fmt::join(texts, ", "));
}

// Identical aggregate calls (same function, DISTINCT and argument expressions) are computed
// once; calls that print alike over different tables' columns are not identical.
bool SameAggregate(const AggregateCall& a, const AggregateCall& b) {
  if (a.function != b.function || a.distinct != b.distinct || a.args.size() != b.args.size()) {
    return false;
  }
  // Aggregates of one name may differ in their constants (percentile(x, 0.5) and (x, 0.9)).
  if ((a.connector_aggregate == nullptr) != (b.connector_aggregate == nullptr)) return false;
  if (a.connector_aggregate != nullptr &&
      a.connector_aggregate->canonical_name() != b.connector_aggregate->canonical_name()) {
    return false;
  }
  for (size_t i = 0; i < a.args.size(); ++i) {
    if (!SameExpression(*a.args[i], *b.args[i])) return false;
  }
  return true;
}

}  // namespace

Result<BoundExprPtr> NestedAggregate(const sql::Expr& inner) {
  return AnalysisError("NESTED_AGGREGATE_FUNCTION",
                       fmt::format("It is not allowed to use an aggregate function in the "
                                   "argument of another aggregate function: \"{}\".",
                                   inner.source_text),
                       inner.pos);
}

Status UnexpectedArgumentType(const sql::Expr& call, size_t index, const arrow::DataType& type,
                              const char* required) {
  static const char* kOrdinals[] = {"first", "second", "third"};
  return AnalysisError(
      "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
      fmt::format("Cannot resolve \"{}\" due to data type mismatch: The {} parameter requires "
                  "the \"{}\" type, however \"{}\" has the type \"{}\".",
                  call.source_text, kOrdinals[std::min<size_t>(index, 2)], required,
                  call.children[index]->source_text, SqlTypeName(type)),
      call.pos);
}

bool IsRewrittenAggregate(const std::string& name) {
  static const std::set<std::string> kNames = {"count_if",   "bool_and",  "every",
                                               "bool_or",    "some",      "any",
                                               "regr_count", "regr_avgx", "regr_avgy"};
  return kNames.count(name) > 0;
}

Result<std::shared_ptr<arrow::DataType>> AggregateResultType(const std::string& function,
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

Status AggregateBinder::AddGroupKey(const sql::Expr& expr) {
  ARROW_ASSIGN_OR_RAISE(auto key, BindInput(expr));
  AddBoundGroupKey(key, expr.kind == sql::ExprKind::kColumn ? key->display : expr.source_text);
  return Status::OK();
}

void AggregateBinder::AddBoundGroupKey(BoundExprPtr key, std::string display) {
  keys_.push_back(std::move(key));
  key_displays_.push_back(std::move(display));
}

Result<size_t> AggregateBinder::AddGroupingKey(const sql::Expr& expr) {
  ARROW_ASSIGN_OR_RAISE(auto key, BindInput(expr));
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (SameExpression(*keys_[i], *key)) return i;
  }
  AddBoundGroupKey(key, expr.kind == sql::ExprKind::kColumn ? key->display : expr.source_text);
  return keys_.size() - 1;
}

void AggregateBinder::SetGroupingSets(std::vector<std::vector<size_t>> sets) {
  sets_ = std::move(sets);
}

Result<BoundExprPtr> AggregateBinder::BindGrouping(const sql::Expr& call, const std::string& name) {
  if (sets_.empty()) {
    return AnalysisError("UNSUPPORTED_GROUPING_EXPRESSION",
                         fmt::format("grouping()/grouping_id() can only be used with "
                                     "GroupingSets/Cube/Rollup: \"{}\".",
                                     call.source_text),
                         call.pos);
  }
  std::vector<BoundExprPtr> args;
  for (const auto& child : call.children) {
    ARROW_ASSIGN_OR_RAISE(auto arg, BindInput(*child));
    args.push_back(arg);
  }
  if (name == "GROUPING_ID") {
    bool matches = args.empty() || args.size() == keys_.size();
    for (size_t i = 0; matches && i < args.size(); ++i) {
      matches = SameExpression(*args[i], *keys_[i]);
    }
    if (!matches) {
      return AnalysisError("GROUPING_ID_COLUMN_MISMATCH",
                           fmt::format("Columns of grouping_id ({}) does not match grouping "
                                       "columns ({}).",
                                       KeyList(args), KeyList(keys_)),
                           call.pos);
    }
    aggregate_fields_.insert(kGroupingIdField);
    return MakeColumnRef(kGroupingIdField, "spark_grouping_id", arrow::int64());
  }
  if (args.size() != 1) {
    return AnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                         fmt::format("The `grouping` requires 1 parameters but the actual number "
                                     "is {}.",
                                     args.size()),
                         call.pos);
  }
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (!SameExpression(*keys_[i], *args[0])) continue;
    // Key i's bit of the grouping id: (id DIV 2^(keys - 1 - i)) % 2, as a TINYINT.
    aggregate_fields_.insert(kGroupingIdField);
    auto id = MakeColumnRef(kGroupingIdField, "spark_grouping_id", arrow::int64());
    auto weight = MakeBoundLiteral(
        std::make_shared<arrow::Int64Scalar>(int64_t{1} << (keys_.size() - 1 - i)));
    auto two = MakeBoundLiteral(std::make_shared<arrow::Int64Scalar>(2));
    auto bit = MakeCall("%", {MakeCall("DIV", {id, weight}, arrow::int64()), two}, arrow::int64());
    return MakeCall("CAST", {bit}, arrow::int8());
  }
  return AnalysisError("GROUPING_COLUMN_MISMATCH",
                       fmt::format("Column of grouping ({}) can't be found in grouping columns "
                                   "{}.",
                                   args[0]->ToString(), KeyList(keys_)),
                       call.pos);
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

bool IsConnectorAggregateCall(const sql::Expr& call, const Scope& input) {
  if (call.kind != sql::ExprKind::kFunction || call.window ||
      call.subquery_kind != sql::SubqueryKind::kNone) {
    return false;
  }
  auto routine = FindRoutine(call);
  if (!routine.ok() || routine->function == nullptr ||
      dynamic_cast<const SqlFunction*>(routine->function.get()) != nullptr) {
    return false;
  }
  std::vector<BoundExprPtr> args;
  for (const auto& child : call.children) {
    auto arg = BindExpression(*child, input, NestedAggregate);
    if (!arg.ok()) return false;  // the query's binding reports it
    args.push_back(std::move(arg).ValueUnsafe());
  }
  auto bound = BindRoutineFunction(call, *routine, args);
  return bound.ok() && dynamic_cast<const AggregateFunction*>(bound->get()) != nullptr;
}

Result<BoundExprPtr> AggregateBinder::BindCall(const sql::Expr& call) {
  if (call.name_parts.size() != 1 || !IsAggregateFunction(call.name_parts[0])) {
    return BindConnectorCall(call);
  }
  const std::string lower = ToLowerAscii(call.name_parts.back());
  if (IsBuiltinLibraryAggregate(lower)) return BindLibraryCall(call, lower);
  if (IsCollectingAggregate(lower)) return BindCollectingCall(call, lower);
  if (IsRewrittenAggregate(lower)) return BindRewrittenCall(call, lower);
  std::string name = call.name_parts.back();
  std::transform(name.begin(), name.end(), name.begin(), ::toupper);
  if (name == "MEAN") name = "AVG";
  if (name == "GROUPING" || name == "GROUPING_ID") return BindGrouping(call, name);
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
    ARROW_ASSIGN_OR_RAISE(auto arg, BindExpression(*call.children[0], input_, NestedAggregate));
    aggregate.args.push_back(arg);
  }
  // min and max see each value once anyway.
  if (aggregate.function == "MIN" || aggregate.function == "MAX") aggregate.distinct = false;
  ARROW_ASSIGN_OR_RAISE(aggregate.type,
                        AggregateResultType(aggregate.function, call,
                                            aggregate.args.empty() ? nullptr : aggregate.args[0]));
  if (aggregate.distinct && aggregate.function != "COUNT") {
    // sum and avg of the distinct values: a state that keeps each value once.
    const bool average = aggregate.function == "AVG";
    auto& arg = aggregate.args[0];
    if (average && aggregate.type->id() == arrow::Type::DECIMAL128) {
      return AnalysisError(
          "UNSUPPORTED_FEATURE.AGGREGATE_DISTINCT",
          fmt::format("avg(DISTINCT) of a decimal is not supported yet: \"{}\".", call.source_text),
          call.pos);
    }
    if (arg->type->id() == arrow::Type::NA) arg = CastTo(arg, arrow::int32());
    aggregate.connector_aggregate = DistinctSumOrAverage(average, arg->type, aggregate.type);
    aggregate.function = average ? "avg" : "sum";
  }
  ARROW_RETURN_NOT_OK(ApplyFilter(call, &aggregate));
  return AddCall(call, std::move(aggregate));
}

Status AggregateBinder::CheckPlainAggregate(const sql::Expr& call, size_t arity) const {
  if (call.star) {
    return AnalysisError("INVALID_USAGE_OF_STAR_OR_REGEX",
                         fmt::format("Invalid usage of '*' in {}.", call.source_text), call.pos);
  }
  if (call.children.size() != arity) {
    return AnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                         fmt::format("The `{}` requires {} parameters but the actual number is {}.",
                                     call.name_parts.back(), arity, call.children.size()),
                         call.pos);
  }
  if (call.distinct && (arity != 1 || IsRewrittenAggregate(ToLowerAscii(call.name_parts.back())))) {
    return AnalysisError("UNSUPPORTED_FEATURE.AGGREGATE_DISTINCT",
                         fmt::format("DISTINCT on \"{}\" is not supported yet.", call.source_text),
                         call.pos);
  }
  return Status::OK();
}

// FILTER (WHERE condition): every aggregate here passes over NULL arguments, so the rows the
// condition does not keep become NULL arguments (count(*) counts the rows it keeps).
Result<BoundExprPtr> AggregateBinder::BindFilterCondition(const sql::Expr& call) const {
  auto invalid = [&](const char* reason, std::string message) {
    return AnalysisError(std::string("INVALID_AGGREGATE_FILTER.") + reason,
                         fmt::format("The FILTER expression \"{}\" in an aggregate function is "
                                     "invalid. {}",
                                     call.filter->source_text, message),
                         call.filter->pos);
  };
  auto no_aggregate = [&](const sql::Expr& inner) -> Result<BoundExprPtr> {
    return invalid("CONTAINS_AGGREGATE",
                   fmt::format("Expected a FILTER expression without an aggregation, but found "
                               "\"{}\".",
                               inner.source_text));
  };
  ARROW_ASSIGN_OR_RAISE(auto condition, BindExpression(*call.filter, input_, no_aggregate));
  if (condition->type->id() != arrow::Type::BOOL) {
    return invalid("NOT_BOOLEAN", "Expected a FILTER expression of the BOOLEAN type.");
  }
  return condition;
}

Status AggregateBinder::ApplyFilter(const sql::Expr& call, AggregateCall* aggregate) const {
  if (!call.filter) return Status::OK();
  ARROW_ASSIGN_OR_RAISE(auto condition, BindFilterCondition(call));
  if (aggregate->function == "COUNT_STAR") {
    aggregate->function = "COUNT";
    aggregate->args = {MakeBoundLiteral(std::make_shared<arrow::BooleanScalar>(true))};
  }
  for (auto& arg : aggregate->args) {
    auto type = arg->type;
    arg = MakeCall("CASE_WHEN", {condition, arg}, type);
  }
  return Status::OK();
}

Result<BoundExprPtr> AggregateBinder::BindLibraryCall(const sql::Expr& call,
                                                      const std::string& name) {
  ARROW_RETURN_NOT_OK(CheckPlainAggregate(call, BuiltinAggregateArity(name)));
  const bool bitwise = BuiltinAggregateIsBitwise(name);
  std::vector<BoundExprPtr> args;
  std::vector<std::shared_ptr<arrow::DataType>> types;
  for (size_t i = 0; i < call.children.size(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto arg, BindExpression(*call.children[i], input_, NestedAggregate));
    const auto& type = *arg->type;
    const bool is_null = type.id() == arrow::Type::NA;
    if (bitwise ? !(IsIntegral(type) || is_null)
                : !(IsNumeric(type) || type.id() == arrow::Type::STRING || is_null)) {
      return UnexpectedArgumentType(call, i, type, bitwise ? "INTEGRAL" : "DOUBLE");
    }
    arg = bitwise ? (is_null ? CastTo(arg, arrow::int32()) : arg) : CastTo(arg, arrow::float64());
    types.push_back(arg->type);
    args.push_back(std::move(arg));
  }
  AggregateCall aggregate;
  aggregate.function = name;
  aggregate.args = std::move(args);
  aggregate.connector_aggregate = BuiltinAggregate(name, types);
  if (call.distinct) aggregate.connector_aggregate = DistinctOf(aggregate.connector_aggregate);
  aggregate.distinct = call.distinct;
  aggregate.type = aggregate.connector_aggregate->result_type();
  ARROW_RETURN_NOT_OK(ApplyFilter(call, &aggregate));
  return AddCall(call, std::move(aggregate));
}

Result<BoundExprPtr> AggregateBinder::BindRewrittenCall(const sql::Expr& call,
                                                        const std::string& name) {
  const bool regression = name.rfind("regr_", 0) == 0;
  ARROW_RETURN_NOT_OK(CheckPlainAggregate(call, regression ? 2 : 1));
  std::vector<BoundExprPtr> args;
  for (size_t i = 0; i < call.children.size(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto arg, BindExpression(*call.children[i], input_, NestedAggregate));
    const auto& type = *arg->type;
    if (type.id() == arrow::Type::NA) {
      arg = CastTo(arg, regression ? arrow::float64() : arrow::boolean());
    } else if (regression ? !IsNumeric(type) : type.id() != arrow::Type::BOOL) {
      return UnexpectedArgumentType(call, i, type, regression ? "NUMERIC" : "BOOLEAN");
    }
    args.push_back(std::move(arg));
  }
  // `value` where `condition` holds, else NULL.
  auto when = [](BoundExprPtr condition, BoundExprPtr value) {
    auto type = value->type;
    return MakeCall("CASE_WHEN", {std::move(condition), std::move(value)}, type);
  };
  auto is_not_null = [](const BoundExprPtr& value) {
    return MakeCall("IS_NOT_NULL", {value}, arrow::boolean());
  };
  AggregateCall aggregate;
  if (name == "count_if") {
    aggregate.function = "COUNT";
    aggregate.args = {
        when(args[0], MakeBoundLiteral(std::make_shared<arrow::BooleanScalar>(true)))};
  } else if (name == "bool_and" || name == "every") {
    aggregate.function = "MIN";
    aggregate.args = {args[0]};
  } else if (name == "bool_or" || name == "some" || name == "any") {
    aggregate.function = "MAX";
    aggregate.args = {args[0]};
  } else if (name == "regr_count") {
    aggregate.function = "COUNT";
    aggregate.args = {when(is_not_null(args[0]), args[1])};
  } else if (name == "regr_avgx") {
    aggregate.function = "AVG";
    aggregate.args = {when(is_not_null(args[0]), args[1])};
  } else {
    aggregate.function = "AVG";
    aggregate.args = {when(is_not_null(args[1]), args[0])};
  }
  ARROW_ASSIGN_OR_RAISE(aggregate.type,
                        AggregateResultType(aggregate.function, call, aggregate.args[0]));
  ARROW_RETURN_NOT_OK(ApplyFilter(call, &aggregate));
  return AddCall(call, std::move(aggregate));
}

// A call of a connector's aggregate function (found as a routine): its arguments over the
// input, cast to the bound function's input types.
Result<BoundExprPtr> AggregateBinder::BindConnectorCall(const sql::Expr& call) {
  ARROW_ASSIGN_OR_RAISE(Routine routine, FindRoutine(call));
  if (routine.function == nullptr) return Status::Invalid("no aggregate ", call.source_text);
  std::vector<BoundExprPtr> args;
  for (const auto& child : call.children) {
    ARROW_ASSIGN_OR_RAISE(auto arg, BindExpression(*child, input_, NestedAggregate));
    args.push_back(std::move(arg));
  }
  ARROW_ASSIGN_OR_RAISE(auto bound, BindRoutineFunction(call, routine, args));
  auto function = std::dynamic_pointer_cast<const AggregateFunction>(bound);
  if (function == nullptr) return Status::Invalid(call.source_text, " is not an aggregate");
  if (call.distinct || call.filter) {
    return AnalysisError(
        call.distinct ? "UNSUPPORTED_FEATURE.AGGREGATE_DISTINCT"
                      : "UNSUPPORTED_FEATURE.AGGREGATE_FILTER",
        fmt::format("{} on the connector aggregate \"{}\" is not supported yet.",
                    call.distinct ? "DISTINCT" : "FILTER (WHERE ...)", call.source_text),
        call.pos);
  }
  AggregateCall aggregate;
  aggregate.function = CallName(routine, *function);
  aggregate.args = CastArguments(*function, std::move(args));
  aggregate.type = function->result_type();
  aggregate.connector_aggregate = std::move(function);
  return AddCall(call, std::move(aggregate));
}

Result<BoundExprPtr> AggregateBinder::AddCall(const sql::Expr& call, AggregateCall aggregate) {
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

Result<BoundExprPtr> AggregateBinder::BindWindowCall(const sql::Expr& call) {
  if (!window_hook_) {
    return AnalysisError("UNSUPPORTED_EXPR_FOR_WINDOW",
                         fmt::format("Expression \"{}\" not supported here.", call.source_text),
                         call.pos);
  }
  ARROW_ASSIGN_OR_RAISE(auto result, window_hook_(call));
  aggregate_fields_.insert(result->field);
  return result;
}

Result<BoundExprPtr> AggregateBinder::ReplaceKeys(const BoundExprPtr& expr,
                                                  const sql::Expr& source) const {
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (SameExpression(*keys_[i], *expr)) {
      return MakeColumnRef(KeyField(i), key_displays_[i], keys_[i]->type);
    }
  }
  switch (expr->kind) {
    case BoundExpr::Kind::kLiteral: return expr;
    case BoundExpr::Kind::kColumn:
      if (aggregate_fields_.count(expr->field) > 0) return expr;
      // A column beside aggregates of a query without GROUP BY: Spark asks for the clause.
      if (keys_.empty() && sets_.empty()) {
        return AnalysisError("MISSING_GROUP_BY",
                             "The query does not include a GROUP BY clause. Add GROUP BY or turn "
                             "it into the window functions using OVER clauses.",
                             source.pos);
      }
      return AnalysisError(
          "MISSING_AGGREGATION",
          fmt::format("The non-aggregating expression \"{}\" is based on columns which are not "
                      "participating in the GROUP BY clause. Add the columns or the expression "
                      "to the GROUP BY, aggregate the expression, or use \"any_value({})\" if "
                      "you do not care which of the values within a group is returned.",
                      expr->display, expr->display),
          source.pos);
    case BoundExpr::Kind::kCall: break;
  }
  auto copy = std::make_shared<BoundExpr>(*expr);
  for (auto& arg : copy->args) {
    ARROW_ASSIGN_OR_RAISE(arg, ReplaceKeys(arg, source));
  }
  return copy;
}

Result<BoundExprPtr> AggregateBinder::BindAfterAggregate(const sql::Expr& expr) {
  BindOptions options;
  options.aggregate_hook = [this](const sql::Expr& call) {
    return call.window ? BindWindowCall(call) : BindCall(call);
  };
  options.subquery_hook = subquery_hook_;
  ARROW_ASSIGN_OR_RAISE(auto bound, BindExpression(expr, input_, options));
  return ReplaceKeys(bound, expr);
}

bool AggregateBinder::HasDuplicateSets() const {
  for (size_t i = 0; i < sets_.size(); ++i) {
    for (size_t j = i + 1; j < sets_.size(); ++j) {
      if (std::set<size_t>(sets_[i].begin(), sets_[i].end()) ==
          std::set<size_t>(sets_[j].begin(), sets_[j].end())) {
        return true;
      }
    }
  }
  return false;
}

// The input's fields (the aggregates read them unchanged), then per key its value or NULL, the
// grouping id, and with duplicate sets the set's position.
PlanNodePtr AggregateBinder::MakeExpand(PlanNodePtr input) const {
  auto expand = std::make_shared<PlanNode>();
  expand->kind = PlanNode::Kind::kExpand;
  expand->output = input->output;
  for (size_t i = 0; i < keys_.size(); ++i) {
    expand->output.push_back({ExpandedKeyField(i), key_displays_[i], keys_[i]->type, true});
  }
  expand->output.push_back({kGroupingIdField, kGroupingIdField, arrow::int64(), false});
  const bool positions = HasDuplicateSets();
  if (positions) {
    expand->output.push_back(
        {kGroupingPositionField, kGroupingPositionField, arrow::int32(), false});
  }
  for (size_t s = 0; s < sets_.size(); ++s) {
    std::vector<BoundExprPtr> projection;
    for (const auto& field : input->output) {
      projection.push_back(MakeColumnRef(field.name, field.display, field.type));
    }
    std::vector<bool> in_set(keys_.size(), false);
    for (size_t key : sets_[s]) in_set[key] = true;
    int64_t id = 0;
    for (size_t i = 0; i < keys_.size(); ++i) {
      projection.push_back(in_set[i] ? keys_[i]
                                     : MakeBoundLiteral(arrow::MakeNullScalar(keys_[i]->type)));
      id = (id << 1) | (in_set[i] ? 0 : 1);
    }
    projection.push_back(MakeBoundLiteral(std::make_shared<arrow::Int64Scalar>(id)));
    if (positions) {
      projection.push_back(
          MakeBoundLiteral(std::make_shared<arrow::Int32Scalar>(static_cast<int32_t>(s))));
    }
    expand->expand_projections.push_back(std::move(projection));
  }
  expand->children = {std::move(input)};
  return expand;
}

PlanNodePtr AggregateBinder::MakeNode(PlanNodePtr input) const {
  auto node = std::make_shared<PlanNode>();
  node->kind = PlanNode::Kind::kAggregate;
  node->aggregates = calls_;
  if (sets_.empty()) {
    node->group_keys = keys_;
    for (size_t i = 0; i < keys_.size(); ++i) {
      node->output.push_back({KeyField(i), key_displays_[i], keys_[i]->type, true});
    }
  } else {
    input = MakeExpand(std::move(input));
    // Every Expand field past the input's is a grouping key; the keys keep their usual names.
    const size_t first = input->children[0]->output.size();
    for (size_t i = first; i < input->output.size(); ++i) {
      const OutputField& field = input->output[i];
      node->group_keys.push_back(MakeColumnRef(field.name, field.display, field.type));
      OutputField out = field;
      if (i - first < keys_.size()) out.name = KeyField(i - first);
      node->output.push_back(out);
    }
  }
  node->children = {std::move(input)};
  for (size_t i = 0; i < calls_.size(); ++i) {
    node->output.push_back({AggregateField(i), calls_[i].ToString(), calls_[i].type,
                            calls_[i].function != "COUNT" && calls_[i].function != "COUNT_STAR"});
  }
  return node;
}

}  // namespace parley
